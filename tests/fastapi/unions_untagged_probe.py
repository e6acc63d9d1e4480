# Probe of untagged unions against FastAPI 0.165 / pydantic 2.14: writes what
# tests/tests/framework/unions.rs replays (python unions_untagged_probe.py > unions_untagged_observed.json).
import json
from typing import Union
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

class Cat(BaseModel):
    lives: int

class Dog(BaseModel):
    name: str

app = FastAPI()

@app.post("/pets")
def pets(pet: Union[Cat, Dog]) -> Union[Cat, Dog]:
    return pet

class Owner(BaseModel):
    pet: Union[Cat, Dog]

@app.post("/owners")
def owners(o: Owner) -> Owner:
    return o

c = TestClient(app)
out = {"calls": []}
for path, body in [("/pets", {"lives": 9}), ("/pets", {"name": "Rex"}), ("/pets", {"lives": "9"}),
                   ("/pets", {"lives": "x", "name": 5}), ("/pets", {}), ("/pets", [1]), ("/pets", 3),
                   ("/owners", {"pet": {"x": 1}}), ("/owners", {"pet": {"lives": 1, "name": "a"}})]:
    r = c.post(path, json=body)
    out["calls"].append({"path": path, "body": body, "status": r.status_code, "response": r.json()})
out["openapi"] = app.openapi()
print(json.dumps(out, indent=1))
