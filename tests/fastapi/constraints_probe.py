"""Record FastAPI's answers for issue 32, items 2 to 4: the order pydantic checks constraints in
(whatever order they are written), how it spells a bound (`msg`, `ctx`, the schema) of a float
and of an integer, required fields and parameters that may be null (`str | None` without a
default), and `status_code=201`.

Each kind has a body route (`POST /constraints/<kind>`, the model's field `v`) and, except
`list`, a query route (`GET /constraints/<kind>?v=`); `requests` are the other requests
(a body without `v`, a query without `v`, the success statuses). `document` is the whole
OpenAPI document, for the schemas of these fields and parameters.

Usage: python constraints_probe.py  -> writes constraints_observed.json next to this file.
Needs fastapi, pydantic and httpx (FastAPI's TestClient).
The Rust app in tests/tests/framework/constraints.rs declares the same routes (its attributes in
another order than here); its tests replay every case recorded here over real HTTP.
"""
import json
import os
import urllib.parse
from decimal import Decimal
from typing import Annotated

import fastapi
import pydantic
from fastapi import FastAPI, Query
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import Field

KINDS = {
    # A float's bounds written as integers and as floats.
    "float": (float, dict(gt=0, le=100, multiple_of=0.5)),
    "float_written": (float, dict(ge=0.0, lt=2.5)),
    "int": (int, dict(ge=1, le=9, multiple_of=2)),
    "string": (str, dict(min_length=2, max_length=4, pattern=r"^[a-z]+$")),
    "decimal": (Decimal, dict(gt=0, le=100, max_digits=5, decimal_places=2,
                              multiple_of=Decimal("0.25"))),
    "list": (list[int], dict(min_length=2, max_length=3)),
    # Required, and may be null.
    "nullable": (str | None, dict()),
    "nullable_int": (int | None, dict(ge=1)),
}

app = FastAPI()


def add_routes(kind, ty, constraints):
    model = pydantic.create_model(f"Body_{kind}", v=(Annotated[ty, Field(**constraints)], ...))

    @app.post(f"/constraints/{kind}", name=f"body_{kind}")
    def body(b: model):  # noqa: ANN001
        return b

    if kind != "list":
        @app.get(f"/constraints/{kind}", name=f"query_{kind}")
        def query(v: Annotated[ty, Query(**constraints)]):  # noqa: ANN001
            return {"v": v}


for kind, (ty, constraints) in KINDS.items():
    add_routes(kind, ty, constraints)


@app.post("/created", status_code=201)
def created():
    return {"created": True}


@app.post("/created/own", status_code=201)
def created_own():
    # The handler's own status wins over the route's.
    return JSONResponse({"created": False}, status_code=200)


CORPUS = {
    "float": [0, -1, 0.3, -0.3, 100.5, 101, 50.25, 50, 0.5, "abc"],
    "float_written": [-1, 2.5, 3, 0, 2.4, -0.5],
    "int": [0, 3, 10, 11, -1, 4, 12],
    "string": ["a", "A", "abcde", "ABCDE", "abcd", "ab1", "", "ab"],
    "decimal": ["0", "-0.25", "0.3", "100.25", "123456", "0.125", "1000.25", "50.5", "-1000.001",
                "-0.3", "99.75"],
    "list": [[], [1], [1, 2], [1, 2, 3, 4], ["x"], ["x", 1, 2, 3], ["x", "y"], [1, "y", 3]],
    "nullable": ["x", None, ""],
    "nullable_int": [5, None, 0, "x"],
}


def query_string(value):
    return "v=" + urllib.parse.quote(str(value), safe="")


def main():
    client = TestClient(app)
    cases = []
    for kind, inputs in CORPUS.items():
        for value in inputs:
            r = client.post(f"/constraints/{kind}", json={"v": value})
            cases.append({"kind": kind, "source": "body", "input": value,
                          "status": r.status_code, "body": r.json()})
            if kind != "list" and value is not None:
                qs = query_string(value)
                r = client.get(f"/constraints/{kind}?{qs}")
                cases.append({"kind": kind, "source": "query", "query": qs, "input": value,
                              "status": r.status_code, "body": r.json()})
    requests = []
    for method, path, body in [
        ("POST", "/constraints/nullable", {}),
        ("GET", "/constraints/nullable", None),
        ("GET", "/constraints/nullable?v=", None),
        ("POST", "/constraints/nullable_int", {}),
        ("GET", "/constraints/nullable_int", None),
        ("POST", "/created", None),
        ("POST", "/created/own", None),
    ]:
        r = client.request(method, path, json=body)
        requests.append({"method": method, "path": path, "body": body,
                         "status": r.status_code, "answer": r.json()})
    out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION, "cases": cases,
           "requests": requests, "document": client.get("/openapi.json").json()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "constraints_observed.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(cases), "cases,", len(requests), "requests")


if __name__ == "__main__":
    main()
