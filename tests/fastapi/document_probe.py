"""Record the OpenAPI document FastAPI writes for the constructs the ferrapi manual covers (issue 32,
item 5): parameters of every location with constraints, defaults, examples and null; models with
defaults, optional and required-nullable fields, nested models, enums, constraints and
descriptions; a model read and written differently (a decimal: `Name-Input` / `Name-Output`);
forms, uploads with a default, the OAuth2 password form, security schemes, a dependency's
parameters; statuses, extra responses, tags, `deprecated`, `operation_id`, `summary`,
`response_description`, `include_in_schema`, a text response, a 204.

Usage: python document_probe.py  -> writes document_observed.json next to this file.
Needs fastapi, pydantic, python-multipart and httpx (FastAPI's TestClient).
The Rust app in tests/tests/framework/document_parity.rs declares the same API; its test
compares the two documents as serialized, key order included, after writing the differences
the manual lists (each named there) into FastAPI's.
"""
import json
import os
from datetime import datetime
from decimal import Decimal
from enum import Enum
from typing import Annotated

import fastapi
import pydantic
from fastapi import Cookie, Depends, FastAPI, Form, Header, Path, Query, UploadFile
from fastapi.responses import PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer, OAuth2PasswordRequestForm
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

app = FastAPI(
    title="Shop",
    version="2.1.0",
    description="What the shop sells.",
    openapi_tags=[{"name": "items", "description": "The items."}, {"name": "orders"}],
)


class Side(str, Enum):
    """Which side of the book."""

    buy = "buy"
    sell = "sell"


class Line(BaseModel):
    symbol: Annotated[str, Field(min_length=1, description="What is traded.")]
    quantity: Annotated[int, Field(gt=0)]


class Order(BaseModel):
    """An order of one or more lines."""

    side: Side
    lines: list[Line]
    priority: int = 1
    note: str | None = None
    next: str | None
    tags: list[str] = []
    price: Annotated[float, Field(ge=0, le=1000.5, multiple_of=0.5)] = 1.0
    code: Annotated[str, Field(pattern="^[A-Z]+$", min_length=2, max_length=8, examples=["AB"])] = "AB"
    weight: Annotated[float | None, Field(gt=0)] = None
    ratio: float


class Price(BaseModel):
    amount: Annotated[Decimal, Field(ge=0)]
    at: datetime


@app.get("/items/{item_id}", tags=["items"])
def read_item(
    item_id: Annotated[int, Path(ge=1)],
    q: str | None = None,
    short: bool = False,
    tag: Annotated[list[str], Query()] = [],
    limit: Annotated[int, Query(ge=1, le=100, examples=[10, 50])] = 10,
    name: Annotated[str | None, Query(min_length=2, max_length=50)] = None,
    price: Annotated[float, Query(gt=0, multiple_of=0.5)] = 1.5,
    side: Side | None = None,
    cursor: Annotated[str | None, Query(openapi_examples={"start": {"summary": "The start", "value": "0"}})] = None,
):
    return {}


@app.get("/items", tags=["items"])
def search(must: str | None, at: datetime):
    return {}


@app.post("/orders", status_code=201, tags=["orders"], responses={409: {"description": "Name taken"}})
def create_order(order: Order) -> Order:
    return order


@app.get(
    "/orders",
    deprecated=True,
    operation_id="list_orders",
    summary="List the orders",
    response_description="The orders",
)
def orders() -> list[Order]:
    return []


@app.put("/orders/{order_id}")
def update_order(
    order_id: int,
    order: Annotated[Order, fastapi.Body(examples=[{"side": "buy", "lines": [], "next": None, "ratio": 1}])],
    x_token: Annotated[str, Header()],
    x_page: Annotated[int, Header(ge=1)] = 1,
    session: Annotated[str | None, Cookie()] = None,
) -> Order:
    return order


@app.delete("/orders/{order_id}", status_code=204)
def delete_order(order_id: int):
    return None


@app.post("/prices")
def set_price(price: Price) -> Price:
    return price


@app.post("/login")
def login(
    username: Annotated[str, Form()],
    password: Annotated[str, Form(min_length=3)],
    remember: Annotated[bool, Form()] = False,
    scope: Annotated[list[str], Form()] = [],
    retries: Annotated[int, Form(ge=0, le=5)] = 3,
):
    return {}


@app.post("/profile")
def profile(
    avatar: UploadFile,
    name: Annotated[str, Form()],
    extra: list[UploadFile] = [],
    cover: UploadFile | None = None,
):
    return {}


@app.post("/token")
def token(form: Annotated[OAuth2PasswordRequestForm, Depends()]):
    return {}


def pagination(skip: int = 0, limit: Annotated[int, Query(le=100)] = 10):
    return (skip, limit)


@app.get("/me")
def me(
    credentials: Annotated[HTTPAuthorizationCredentials, Depends(HTTPBearer())],
    page: Annotated[tuple, Depends(pagination)],
):
    return {}


@app.get("/hello", response_class=PlainTextResponse)
def hello() -> str:
    return "hello"


@app.get("/health", include_in_schema=False)
def health():
    return "ok"


def main():
    client = TestClient(app)
    out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION,
           "document": client.get("/openapi.json").json()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "document_observed.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(out["document"]["paths"]), "paths")


if __name__ == "__main__":
    main()
