"""fastapi: the benchmark scenarios as a FastAPI app under uvicorn (usage: `python app.py PORT OPENAPI_FILE`).

Rules: real FastAPI routes with typed parameters, written as FastAPI's tutorial writes them (the
same declarations as tests/fastapi/group_a_app.py), so FastAPI's own routing, parameter
validation, pydantic model parsing and 422 bodies are what is measured. Handlers return plain
dicts, serialized by FastAPI's default JSONResponse (compact separators, the service's bytes).
`/openapi.json` serves the service's own document (captured by the harness into OPENAPI_FILE)
instead of FastAPI's generated one, as the Rust peers do.

One process: uvicorn.run() in this interpreter, one worker, no reload, uvloop + httptools (what
`pip install "fastapi[standard]"` brings), log level warning, no access log, so the PID the
harness reads /proc/PID/stat of is the serving process itself.
"""
import sys

import uvicorn
from fastapi import FastAPI, Query, Response
from pydantic import BaseModel

OPENAPI = b"{}"
if len(sys.argv) > 2:
    with open(sys.argv[2], "rb") as f:
        OPENAPI = f.read()

# FastAPI's generated schema and docs pages are off: /openapi.json is the service's document.
app = FastAPI(title="Resource API", openapi_url=None, docs_url=None, redoc_url=None)

LONG_DESCRIPTION = "This is an amazing item that has a long description"

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


class Item(BaseModel):
    name: str
    description: str | None = None
    price: float
    tax: float | None = None


@app.get("/")
async def root():
    return {"message": "Hello World"}


@app.get("/openapi.json", include_in_schema=False)
async def openapi():
    return Response(content=OPENAPI, media_type="application/json")


@app.get("/item/{id}")
async def read_item(id: int):
    return {"id": id}


@app.get("/user/{user_id}/item/{item_id}")
async def read_user_item(user_id: int, item_id: str, q: str | None = None, short: bool = False):
    item = {"item_id": item_id, "owner_id": user_id}
    if q:
        item["q"] = q
    if not short:
        item["description"] = LONG_DESCRIPTION
    return item


@app.get("/person")
async def read_persons(skip: int = Query(0, ge=0), limit: int = Query(5, ge=0)):
    return [{"name": name} for name in PERSONS[skip : skip + limit]]


@app.post("/item")
async def create_item(item: Item):
    out = item.model_dump()
    if item.tax is not None:
        out["price_with_tax"] = item.price + item.tax
    return out


if __name__ == "__main__":
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    uvicorn.run(app, host="127.0.0.1", port=port, workers=1, reload=False, loop="uvloop", http="httptools",
                log_level="warning", access_log=False)
