"""The spec's group A as a FastAPI app: the reference `scripts/fastapi-compare.sh` compares the
service with. Same paths, same declaration order, same parameters and defaults, same answers
(the data tables are copies of service/src/group_a.rs), written the way FastAPI's tutorial writes
them. Run: uvicorn group_a_app:app --port 8000   (from tests/fastapi/)
"""
from enum import Enum

from fastapi import FastAPI, HTTPException, Query
from pydantic import BaseModel

app = FastAPI(title="Resource API")

LONG_DESCRIPTION = "This is an amazing item that has a long description"

# symbol -> (bid, ask); other symbols get DEFAULT_QUOTE. Matched in any letter case.
INSTRUMENTS = {
    "AAPL": (189.95, 190.05),
    "MSFT": (414.90, 415.10),
    "GOOG": (171.40, 171.60),
    "AMZN": (182.25, 182.45),
    "TSLA": (248.70, 249.10),
}
DEFAULT_QUOTE = (99.95, 100.05)

PERSONS = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Margaret Hamilton",
    "Dennis Ritchie",
    "Frances Allen",
    "Ken Thompson",
]

EMPLOYEES = {
    1: {"name": "Ada Lovelace", "job": "analyst"},
    2: {"name": "Alan Turing", "job": "cryptographer"},
    3: {"name": "Grace Hopper", "job": "admiral"},
}


class Item(BaseModel):
    name: str
    description: str | None = None
    price: float
    tax: float | None = None


class OrderType(str, Enum):
    buy = "buy"
    sell = "sell"


@app.get("/")
async def root():
    return {"message": "Hello World"}


# The three forms of /item/{...}, in the spec's order: the first is the one served.
@app.get("/item/{id}")
async def read_item(id: int):
    return {"id": id}


@app.get("/item/{id}")
async def read_item_extended(id: str, q: str | None = None, short: bool = False):
    item = {"id": id}
    if q:
        item["q"] = q
    if not short:
        item["description"] = LONG_DESCRIPTION
    return item


@app.get("/item/{item_id}")
async def read_item_needy(item_id: str, needy: str, skip: int = 0, limit: int | None = None):
    return {"item_id": item_id, "needy": needy, "skip": skip, "limit": limit}


@app.get("/user/me")
async def read_user_me():
    return {"user_id": "the current user"}


@app.get("/user/{id}")
async def read_user(id: str):
    return {"id": id}


@app.get("/user/{user_id}/item/{item_id}")
async def read_user_item(user_id: int, item_id: str, q: str | None = None, short: bool = False):
    item = {"item_id": item_id, "owner_id": user_id}
    if q:
        item["q"] = q
    if not short:
        item["description"] = LONG_DESCRIPTION
    return item


@app.get("/stock/{symbol}/{type}")
async def read_stock(symbol: str, type: OrderType):
    bid, ask = next(
        (quote for known, quote in INSTRUMENTS.items() if known.lower() == symbol.lower()),
        DEFAULT_QUOTE,
    )
    return {"symbol": symbol, "price": ask if type is OrderType.buy else bid, "type": type}


@app.get("/person")
async def read_persons(skip: int = Query(0, ge=0), limit: int = Query(5, ge=0)):
    return [{"name": name} for name in PERSONS[skip : skip + limit]]


@app.post("/item")
async def create_item(item: Item):
    out = item.model_dump()
    if item.tax is not None:
        out["price_with_tax"] = item.price + item.tax
    return out


@app.put("/item/{item_id}")
async def update_item(item_id: int, item: Item, q: str | None = None):
    out = {"item_id": item_id, **item.model_dump()}
    if q:
        out["q"] = q
    return out


@app.get("/employee/{id}")
async def read_employee(id: int):
    if id not in EMPLOYEES:
        raise HTTPException(status_code=404, detail="Employee not found")
    return EMPLOYEES[id]
