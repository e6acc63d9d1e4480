"""Reference FastAPI app used to measure exact validation error bodies."""
from enum import Enum

from fastapi import FastAPI, Query
from pydantic import BaseModel, Field

app = FastAPI()


class Item(BaseModel):
    name: str
    description: str | None = None
    price: float
    tax: float | None = None


class OrderType(str, Enum):
    buy = "buy"
    sell = "sell"


class Inner(BaseModel):
    label: str
    weight: float


class Nested(BaseModel):
    title: str = Field(min_length=2)
    count: int
    qty: int = Field(ge=0)
    inner: Inner
    ids: list[int]
    scores: dict[str, int]


@app.get("/")
async def root():
    return {"message": "Hello World"}


@app.get("/item/{id}")
async def get_item(id: int):
    return {"id": id}


@app.get("/items/{item_id}")
async def read_items(item_id: str, needy: str, skip: int = 0, limit: int | None = None):
    return {"item_id": item_id, "needy": needy, "skip": skip, "limit": limit}


@app.get("/user/{user_id}/item/{item_id}")
async def read_user_item(user_id: int, item_id: str, q: str | None = None, short: bool = False):
    return {"user_id": user_id, "item_id": item_id, "q": q, "short": short}


@app.get("/stock/{symbol}/{type}")
async def stock(symbol: str, type: OrderType):
    return {"symbol": symbol, "type": type}


@app.get("/person")
async def person(skip: int = Query(0, ge=0), limit: int = Query(5, ge=0)):
    return {"skip": skip, "limit": limit}


@app.get("/constrained")
async def constrained(
    a: int = Query(..., gt=0, le=10),
    b: float = Query(1.5, lt=2.5, ge=0.5),
    s: str = Query("x", min_length=2, max_length=3),
    t: str = Query("abc", min_length=1),
):
    return {"a": a, "b": b, "s": s, "t": t}


@app.get("/floats")
async def floats(f: float):
    return {"f": f}


@app.get("/bools")
async def bools(b: bool):
    return {"b": b}


@app.get("/tags")
async def tags(tag: list[str] = Query([])):
    return {"tag": tag}


@app.get("/nums")
async def nums(n: list[int] = Query([])):
    return {"n": n}


@app.post("/item")
async def create_item(item: Item):
    return item.model_dump()


@app.put("/item/{item_id}")
async def update_item(item_id: int, item: Item, q: str | None = None):
    return {"item_id": item_id, "item": item.model_dump(), "q": q}


@app.post("/nested")
async def nested(body: Nested):
    return body.model_dump()


# --- extra routes used to measure error ordering across sources


@app.get("/order/{p}")
async def order(a: int, p: int, b: int):
    return {"a": a, "p": p, "b": b}


@app.post("/mixed/{p}")
async def mixed(q: int, item: Item, p: int):
    return {"q": q, "item": item.model_dump(), "p": p}


@app.post("/two")
async def two(item: Item, inner: Inner):
    return {"item": item.model_dump(), "inner": inner.model_dump()}
