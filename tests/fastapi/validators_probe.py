"""Record FastAPI's answers for a field validator (AfterValidator) and a model validator
(model_validator, mode="after"); tests/tests/framework/validators.rs replays them."""
from typing import Annotated
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, AfterValidator, model_validator
def not_reserved(v):
    if v == "admin": raise ValueError("username is reserved")
    return v
class U(BaseModel):
    username: Annotated[str, AfterValidator(not_reserved)]
    age: int
    p1: str
    p2: str
    @model_validator(mode="after")
    def match(self):
        if self.p1 != self.p2: raise ValueError("passwords do not match")
        return self
app=FastAPI()
@app.post("/u")
def u(b: U): return b
c=TestClient(app)
import json
for body in [{"username":"admin","age":"x","p1":"a","p2":"a"},{"username":"bob","age":1,"p1":"a","p2":"b"},{"username":"admin","age":1,"p1":"a","p2":"b"}]:
    r=c.post("/u",json=body); print(r.status_code, json.dumps(r.json()))
