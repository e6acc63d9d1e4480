# Probe of discriminated unions against FastAPI 0.165 / pydantic 2.14: writes what
# tests/tests/framework/unions.rs replays (python unions_probe.py > unions_observed.json).
import json
from typing import Literal, Union, Annotated
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int

class Dog(BaseModel):
    kind: Literal["dog"]
    name: str

Pet = Annotated[Union[Cat, Dog], Field(discriminator="kind")]

app = FastAPI()

@app.post("/pets")
def pets(pet: Pet) -> Pet:
    return pet

class Owner(BaseModel):
    pet: Pet
    others: list[Pet]

@app.post("/owners")
def owners(o: Owner) -> Owner:
    return o

c = TestClient(app)
out = {}
for path, body in [("/pets", {"kind":"cat","lives":9}), ("/pets", {"kind":"dog","name":"Rex"}),
                   ("/pets", {"kind":"cow"}), ("/pets", {"lives":9}), ("/pets", [1]), ("/pets", "x"),
                   ("/pets", {"kind":"cat","lives":"many"}), ("/pets", {"kind":"dog"}), ("/pets", {"kind":5}),
                   ("/owners", {"pet":{"kind":"cat","lives":1},"others":[{"kind":"dog","name":"a"},{"kind":"x"},{"kind":"cat"}]}),
                   ]:
    r = c.post(path, json=body)
    out.setdefault("calls", []).append({"path": path, "body": body, "status": r.status_code, "response": r.json()})
out["openapi"] = app.openapi()
print(json.dumps(out, indent=1))
