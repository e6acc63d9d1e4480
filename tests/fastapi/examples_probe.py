# Probe of `examples` against FastAPI 0.165 / pydantic 2.14: where `Field(examples=..)` on a model
# field and `Query/Path/Header/Cookie/Body(examples=..)` (and `openapi_examples`) land in the
# document (python examples_probe.py > examples_observed.json); tests/tests/framework/examples.rs
# compares ferrapi's document with it.
import json
import fastapi
import pydantic
from typing import Annotated, Optional
from fastapi import Body, Cookie, FastAPI, Form, Header, Path, Query
from pydantic import BaseModel, Field

class Item(BaseModel):
    name: str = Field(examples=["Foo", "Bar"])
    price: float = Field(examples=[35.4])
    tags: list[str] = Field(default=[], examples=[["a", "b"]])
    note: Optional[str] = Field(default=None, examples=["fragile"])
    size: int = Field(default=1, ge=1, examples=[3])

app = FastAPI()

@app.get("/items/{item_id}")
def read_item(
    item_id: Annotated[int, Path(examples=[42])],
    q: Annotated[Optional[str], Query(examples=["foo", "bar"])] = None,
    limit: Annotated[int, Query(ge=1, examples=[10])] = 10,
    tags: Annotated[list[str], Query(examples=[["x", "y"]])] = [],
    x_token: Annotated[Optional[str], Header(examples=["secret"])] = None,
    session: Annotated[Optional[str], Cookie(examples=["abc"])] = None,
):
    return {}

@app.get("/openapi-examples")
def openapi_examples(
    q: Annotated[str, Query(openapi_examples={"normal": {"summary": "A normal one", "value": "foo"}, "empty": {"value": ""}})],
):
    return {}

@app.post("/openapi-examples/{item_id}")
def openapi_examples_body(
    item_id: Annotated[int, Path(openapi_examples={"one": {"value": 1}})],
    item: Annotated[Item, Body(openapi_examples={"normal": {"summary": "A normal item", "description": "Works.", "value": {"name": "Foo", "price": 1.5}}, "bad": {"value": {"name": 1}}})],
):
    return item

@app.post("/items")
def create_item(item: Item):
    return item

@app.post("/bodies")
def create_body(item: Annotated[Item, Body(examples=[{"name": "Foo", "price": 1.5}])]):
    return item

@app.post("/embedded")
def embedded(count: Annotated[int, Body(examples=[3])], name: Annotated[str, Body(examples=["x"])]):
    return {}

@app.post("/forms")
def forms(username: Annotated[str, Form(examples=["ann"])], age: Annotated[int, Form(examples=[30])] = 18):
    return {}

out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION, "openapi": app.openapi()}
print(json.dumps(out, indent=1))
