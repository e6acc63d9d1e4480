"""The FastAPI app that Rust clients generated from its own document round-trip every type
against (issue 31; scripts/client-checks.sh serves it under uvicorn and runs
client/tests/tests/fastapi.rs): dates, times, aware and naive datetimes, durations, UUIDs, decimals,
e-mail addresses, URLs, IP addresses, a discriminated and an untagged union, generic models, a
model split into Name-Input / Name-Output, uploads (one file, several, an optional one, with form
fields), a form, header, cookie and repeated query parameters, a typed Server-Sent Events stream
that resumes from Last-Event-ID, JSON lines, a streamed download, a 404 and 422 bodies, and two
lists that page by `skip` and `limit` (one whose maximum `skip` is below its length).

Nothing here is written for the generator: each route is FastAPI as its documentation teaches it.
"""
from collections.abc import AsyncIterable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from ipaddress import IPv4Address, IPv6Address
from typing import Annotated, Generic, Literal, Optional, TypeVar, Union
from uuid import UUID

from fastapi import Cookie, FastAPI, Form, Header, HTTPException, Query, UploadFile
from fastapi.responses import StreamingResponse
from fastapi.sse import EventSourceResponse, ServerSentEvent
from pydantic import AnyUrl, AwareDatetime, BaseModel, EmailStr, Field, IPvAnyAddress, NaiveDatetime

app = FastAPI(title="client checks", version="1.0.0")


class Values(BaseModel):
    """One value of each type."""

    day: date
    at: AwareDatetime
    local: NaiveDatetime
    alarm: time
    length: timedelta
    id: UUID
    price: Decimal = Field(max_digits=8, decimal_places=2)
    email: EmailStr
    site: AnyUrl
    v4: IPv4Address
    v6: IPv6Address
    any_ip: IPvAnyAddress
    tags: list[str] = []
    scores: dict[str, int] = {}
    note: Optional[str] = None


@app.post("/values")
def echo_values(values: Values) -> Values:
    return values


class Found(BaseModel):
    day: date
    id: UUID
    price: Decimal
    tags: list[str]
    limit: Optional[int]


@app.get("/values/{day}")
def query_values(day: date, id: UUID, price: Decimal, tags: Annotated[list[str], Query()] = [],
                 limit: Optional[int] = None) -> Found:
    return Found(day=day, id=id, price=price, tags=tags, limit=limit)


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int


class Dog(BaseModel):
    kind: Literal["dog"]
    name: str


Pet = Annotated[Union[Cat, Dog], Field(discriminator="kind")]


class Owner(BaseModel):
    name: str
    pet: Pet
    others: list[Pet] = []


@app.post("/owners")
def echo_owner(owner: Owner) -> Owner:
    return owner


class ByEmail(BaseModel):
    email: EmailStr


class ByPhone(BaseModel):
    phone: str


class Contact(BaseModel):
    who: str
    reach: Union[ByEmail, ByPhone]


@app.post("/contacts")
def echo_contact(contact: Contact) -> Contact:
    return contact


T = TypeVar("T")
U = TypeVar("U")


class Item(BaseModel):
    name: str
    price: float


class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int


class Pair(BaseModel, Generic[T, U]):
    first: T
    second: U


@app.post("/pages")
def echo_page(page: Page[Item]) -> Page[Item]:
    return page


@app.post("/pairs")
def echo_pair(pair: Pair[str, Optional[Item]]) -> Pair[str, Optional[Item]]:
    return pair


@app.get("/items/{item_id}", responses={404: {"description": "No such item"}})
def read_item(item_id: int) -> Item:
    if item_id != 1:
        raise HTTPException(status_code=404, detail="Item not found")
    return Item(name="one", price=1.5)


@app.post("/uploads")
async def upload(file: UploadFile, note: Annotated[str, Form()]):
    data = await file.read()
    return {"filename": file.filename, "content_type": file.content_type, "size": len(data), "note": note}


@app.post("/uploads/many")
async def upload_many(files: list[UploadFile], tag: Annotated[str, Form()]):
    sizes = [len(await f.read()) for f in files]
    return {"files": [f.filename for f in files], "sizes": sizes, "tag": tag}


@app.post("/uploads/optional")
async def upload_optional(file: Optional[UploadFile] = None):
    return {"file": file.filename if file else None}


class Login(BaseModel):
    username: str
    password: str = Field(min_length=3)
    remember: bool = False


@app.post("/login")
def login(data: Annotated[Login, Form()]):
    return {"username": data.username, "remember": data.remember}


@app.get("/inputs")
def inputs(x_count: Annotated[int, Header()], session: Annotated[str, Cookie()],
           tag: Annotated[list[str], Query()] = []):
    return {"x_count": x_count, "session": session, "tag": tag}


class Tick(BaseModel):
    n: int
    at: str


@app.get("/ticks", response_class=EventSourceResponse)
async def ticks(last_event_id: Annotated[Optional[str], Header()] = None,
                count: int = 3) -> AsyncIterable[Tick]:
    start = int(last_event_id) + 1 if last_event_id else 1
    for n in range(start, start + count):
        yield ServerSentEvent(data=Tick(n=n, at=f"t{n}"), id=str(n), event="tick")


@app.get("/lines")
async def lines(count: int = 3) -> AsyncIterable[Item]:
    for n in range(count):
        yield Item(name=f"item {n}", price=n + 0.5)


@app.get("/download", response_class=StreamingResponse,
         responses={200: {"content": {"application/octet-stream": {}}}})
def download(kib: int = 64):
    def chunks():
        for _ in range(kib):
            yield b"\0" * 1024
    return StreamingResponse(chunks(), media_type="application/octet-stream")


class Entry(BaseModel):
    n: int
    name: str


ENTRIES = [Entry(n=n, name=f"entry {n}") for n in range(53)]


@app.get("/entries", response_model=list[Entry])
def list_entries(odd: bool = False, skip: int = Query(0, ge=0, le=1000),
                 limit: int = Query(10, ge=1, le=20)):
    entries = [entry for entry in ENTRIES if entry.n % 2 == 1] if odd else ENTRIES
    return entries[skip:skip + limit]


@app.get("/entries/shallow", response_model=list[Entry])
def list_entries_shallow(skip: int = Query(0, ge=0, le=20), limit: int = Query(10, ge=1, le=10)):
    return ENTRIES[skip:skip + limit]
