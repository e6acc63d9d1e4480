# Probe of generic models against FastAPI 0.165 / pydantic 2.14: writes what
# tests/tests/framework/generics.rs replays (python generics_probe.py > generics_observed.json):
# the answers to valid and invalid bodies, the names pydantic gives each parametrisation, and the
# OpenAPI document.
import json
import fastapi
import pydantic
from typing import Generic, Optional, TypeVar
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

T = TypeVar("T")
U = TypeVar("U")

class Item(BaseModel):
    name: str

class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int

class Pair(BaseModel, Generic[T, U]):
    first: T
    second: U

class Catalog(BaseModel):
    pages: list[Page[Item]]
    counts: Optional[Page[int]] = None

app = FastAPI()

@app.post("/pages")
def pages(page: Page[Item]) -> Page[Item]:
    return page

@app.post("/int-pages")
def int_pages(page: Page[int]) -> Page[int]:
    return page

@app.post("/nested")
def nested(page: Page[Page[Item]]) -> Page[Page[Item]]:
    return page

@app.post("/pairs")
def pairs(pair: Pair[str, Optional[Item]]) -> Pair[str, Optional[Item]]:
    return pair

@app.post("/catalogs")
def catalogs(catalog: Catalog) -> Catalog:
    return catalog

@app.post("/lists")
def lists(page: Page[list[int]]) -> Page[list[int]]:
    return page

@app.post("/maybe")
def maybe(page: Page[Optional[Item]]) -> Page[Optional[Item]]:
    return page

@app.post("/strs")
def strs(page: Page[str]) -> Page[str]:
    return page

c = TestClient(app)
out = {"calls": []}
for path, body in [
    ("/pages", {"items": [{"name": "a"}], "total": 1}),
    ("/pages", {"items": [{"name": 1}, {}], "total": "x"}),
    ("/pages", {"items": "no"}),
    ("/pages", [1]),
    ("/int-pages", {"items": [1, "2", "x"], "total": 3}),
    ("/nested", {"items": [{"items": [{"name": "a"}], "total": 1}], "total": 1}),
    ("/nested", {"items": [{"items": [{"nom": "a"}], "total": 1}, {"total": 2}], "total": 1}),
    ("/pairs", {"first": "a", "second": None}),
    ("/pairs", {"first": "a", "second": {"name": "b"}}),
    ("/pairs", {"first": 1, "second": {"name": 2}}),
    ("/pairs", {}),
    ("/catalogs", {"pages": [{"items": [{"name": "a"}], "total": 1}], "counts": {"items": [1], "total": 1}}),
    ("/catalogs", {"pages": [{"items": [{"name": []}], "total": 1}], "counts": {"items": ["y"], "total": 1}}),
    ("/lists", {"items": [[1, 2], ["z"]], "total": 2}),
    ("/maybe", {"items": [None, {"name": "a"}, {"name": None}], "total": 3}),
    ("/strs", {"items": ["a", 1], "total": 2}),
]:
    r = c.post(path, json=body)
    out["calls"].append({"path": path, "body": body, "status": r.status_code, "response": r.json()})

out["names"] = {}
for label, model in [("Page[int]", Page[int]), ("Page[str]", Page[str]), ("Page[float]", Page[float]),
                     ("Page[bool]", Page[bool]), ("Page[list[int]]", Page[list[int]]),
                     ("Page[Optional[Item]]", Page[Optional[Item]]), ("Page[Item]", Page[Item]),
                     ("Page[Page[Item]]", Page[Page[Item]]), ("Page[dict[str, int]]", Page[dict[str, int]]),
                     ("Pair[int, Item]", Pair[int, Item]), ("Pair[str, Optional[Item]]", Pair[str, Optional[Item]])]:
    out["names"][label] = model.model_json_schema()["title"]
out["fastapi"], out["pydantic"] = fastapi.__version__, pydantic.VERSION
out["openapi"] = app.openapi()
print(json.dumps(out, indent=1))
