# Probe of a parametrised generic model as a variant of an untagged union, against FastAPI 0.165 /
# pydantic 2.14: writes what tests/tests/framework/generics.rs replays
# (python generics_union_probe.py > generics_union_observed.json). pydantic spells the variant
# `Page[Item]` in each error's `loc`.
import json
import fastapi
import pydantic
from typing import Generic, TypeVar, Union
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

T = TypeVar("T")

class Item(BaseModel):
    name: str

class Page(BaseModel, Generic[T]):
    items: list[T]
    total: int

class Note(BaseModel):
    text: str

app = FastAPI()

@app.post("/found")
def found(found: Union[Page[Item], Note]) -> Union[Page[Item], Note]:
    return found

c = TestClient(app)
out = {"calls": []}
for body in [
    {"items": [{"name": "a"}], "total": 1},
    {"text": "hi"},
    {"items": [{"name": 1}], "total": "x"},
    {"items": "no"},
    [],
]:
    r = c.post("/found", json=body)
    out["calls"].append({"path": "/found", "body": body, "status": r.status_code, "response": r.json()})
out["fastapi"], out["pydantic"] = fastapi.__version__, pydantic.VERSION
print(json.dumps(out, indent=1))
