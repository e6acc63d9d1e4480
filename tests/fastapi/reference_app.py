"""Reference FastAPI app used to measure exact validation error bodies."""
from enum import Enum

from typing import Annotated

from fastapi import Cookie, Depends, FastAPI, Form, Header, Query
from fastapi.security import (
    APIKeyCookie,
    APIKeyHeader,
    APIKeyQuery,
    HTTPBasic,
    HTTPBearer,
    OAuth2PasswordBearer,
)
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


# --- issue 13: header and cookie parameters, form bodies, security schemes


@app.get("/hdr/agent")
async def hdr_agent(user_agent: str = Header()):
    return {"user_agent": user_agent}


@app.get("/hdr/typed")
async def hdr_typed(
    x_count: int = Header(),
    x_ratio: float | None = Header(None),
    x_limit: int = Header(5, ge=0, le=10),
    x_name: str = Header("anon", min_length=2),
    x_flag: bool = Header(False),
):
    return {"x_count": x_count, "x_ratio": x_ratio, "x_limit": x_limit, "x_name": x_name, "x_flag": x_flag}


@app.get("/hdr/list")
async def hdr_list(x_tag: list[str] = Header([]), x_num: list[int] = Header([])):
    return {"x_tag": x_tag, "x_num": x_num}


@app.get("/hdr/exact")
async def hdr_exact(request_id: str = Header(alias="X-Request_ID")):
    return {"request_id": request_id}


@app.get("/ck")
async def ck(session: str = Cookie(), n: int | None = Cookie(None), theme: str = Cookie("light", max_length=5)):
    return {"session": session, "n": n, "theme": theme}


@app.get("/inputs-order")
async def inputs_order(c: int = Cookie(), x_h: int = Header(), q: int = Query()):
    return {"c": c, "x_h": x_h, "q": q}


class Login(BaseModel):
    username: str
    password: str = Field(min_length=3)
    remember: bool = False
    age: int | None = None


@app.post("/form")
async def form(data: Annotated[Login, Form()]):
    return data.model_dump()


bearer = HTTPBearer()
basic = HTTPBasic()
key_header = APIKeyHeader(name="X-API-Key")
key_query = APIKeyQuery(name="api_key")
key_cookie = APIKeyCookie(name="session_key")
oauth2 = OAuth2PasswordBearer(tokenUrl="token")


@app.get("/sec/bearer")
async def sec_bearer(creds=Depends(bearer)):
    return {"scheme": creds.scheme, "token": creds.credentials}


@app.get("/sec/basic")
async def sec_basic(creds=Depends(basic)):
    return {"username": creds.username, "password": creds.password}


@app.get("/sec/key-header")
async def sec_key_header(key: str = Depends(key_header)):
    return {"key": key}


@app.get("/sec/key-query")
async def sec_key_query(key: str = Depends(key_query)):
    return {"key": key}


@app.get("/sec/key-cookie")
async def sec_key_cookie(key: str = Depends(key_cookie)):
    return {"key": key}


@app.get("/sec/oauth2")
async def sec_oauth2(token: str = Depends(oauth2)):
    return {"token": token}
