"""Record how FastAPI 0.165 / pydantic 2.14 split a schema into `Name-Input` and `Name-Output`
(validation mode for what comes in, serialization mode for what goes out) for decimals.

Usage: python split_probe.py > split_observed.json
The Rust apps in tests/tests/framework/schema_split.rs declare the same models and routes; their
tests compare `/openapi.json` (components, and the refs of each operation) with what is recorded
here, for `separate_input_output_schemas=True` (FastAPI's default) and `False`.

Cases: a decimal model used as a body only (Payment), as a response only (Refund, also in a list),
both ways (Price); a model with no decimal used both ways (Plain); a model nesting a splitting
one directly, in a list and optionally (Order around Cost); `Optional[Decimal]` (Discount); the
constraints max_digits, decimal_places, ge, multiple_of and le (Money); a decimal query parameter,
optional and not, and a bare decimal response (/quote); a discriminated union of a model with a
decimal and one without, in a model used both ways (Owner: the mapping follows the names); a
generic model of the splitting one (Page[Price]: `Page_Price_-Input`).
"""
import json
from decimal import Decimal
from typing import Annotated, Generic, Literal, Optional, TypeVar, Union

import fastapi
import pydantic
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class Price(BaseModel):
    amount: Decimal


class Refund(BaseModel):
    amount: Decimal


class Payment(BaseModel):
    amount: Decimal


class Plain(BaseModel):
    name: str


class Cost(BaseModel):
    value: Decimal


class Order(BaseModel):
    cost: Cost
    costs: list[Cost]
    maybe: Optional[Cost] = None
    note: Plain


class Discount(BaseModel):
    off: Optional[Decimal] = None


class Money(BaseModel):
    a: Decimal = Field(max_digits=5, decimal_places=2)
    b: Decimal = Field(ge=0)
    c: Decimal = Field(multiple_of=0.5)
    d: Optional[Decimal] = Field(default=None, le=10)


class Cat(BaseModel):
    kind: Literal["cat"]
    weight: Decimal


class Dog(BaseModel):
    kind: Literal["dog"]
    name: str


Pet = Annotated[Union[Cat, Dog], Field(discriminator="kind")]


class Owner(BaseModel):
    pet: Pet
    pets: list[Pet]


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    items: list[T]


def make_app(separate):
    app = FastAPI(separate_input_output_schemas=separate)

    @app.post("/prices")
    def prices(p: Price) -> Price:
        return p

    @app.post("/payments")
    def payments(p: Payment):
        return {"ok": True}

    @app.get("/refunds")
    def refunds() -> Refund:
        return Refund(amount=Decimal("2.50"))

    @app.get("/refund-list")
    def refund_list() -> list[Refund]:
        return [Refund(amount=Decimal("2.50"))]

    @app.post("/plain")
    def plain(p: Plain) -> Plain:
        return p

    @app.post("/orders")
    def orders(o: Order) -> Order:
        return o

    @app.post("/discounts")
    def discounts(d: Discount) -> Discount:
        return d

    @app.post("/money")
    def money(m: Money) -> Money:
        return m

    @app.get("/quote")
    def quote(amount: Decimal, extra: Optional[Decimal] = None) -> Decimal:
        return amount

    @app.post("/owners")
    def owners(o: Owner) -> Owner:
        return o

    @app.post("/pages")
    def pages(p: Page[Price]) -> Page[Price]:
        return p

    return app


out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION}
for separate in (True, False):
    app = make_app(separate)
    key = "separate" if separate else "together"
    out[key] = app.openapi()
    # The split is the document's only: requests and responses are read and written alike.
    client = TestClient(app)
    calls = []
    for method, path, body in [
        ("post", "/prices", {"amount": 1.5}),
        ("post", "/prices", {"amount": "1.50"}),
        ("get", "/refunds", None),
        ("post", "/orders", {"cost": {"value": "3"}, "costs": [{"value": 1}], "note": {"name": "n"}}),
        ("post", "/discounts", {}),
        ("post", "/money", {"a": "123.45", "b": 0, "c": "1.5", "d": None}),
        ("post", "/money", {"a": "1234.5", "b": -1, "c": "1.2"}),
        ("get", "/quote?amount=1.10", None),
        ("post", "/owners", {"pet": {"kind": "cat", "weight": 4.5}, "pets": [{"kind": "dog", "name": "Rex"}]}),
        ("post", "/pages", {"items": [{"amount": 2}, {"amount": "0.10"}]}),
    ]:
        r = client.request(method, path, json=body)
        calls.append({"method": method, "path": path, "body": body, "status": r.status_code, "response": r.json()})
    out[key + "_calls"] = calls
print(json.dumps(out, indent=1))
