"""Record FastAPI's answers for the date and time inputs people send (issue 32, item 1): plain
`datetime` (aware or naive, kept as sent), `AwareDatetime`, `NaiveDatetime`, `date`, `time` and
`timedelta`, and e-mail addresses with surrounding white space.

Each kind has a query route and a body route at `/types/<kind>`, the value named `v`; the query
route answers `{"v": v}` (no response model: FastAPI's `jsonable_encoder` writes it, a UTC
datetime as `+00:00`), the body route the model (pydantic writes it, UTC as `Z`).
`datetime_raw` posts a body and answers `{"v": b.v}` without a model, as the query route does.

Usage: python datetimes_probe.py  -> writes datetimes_observed.json next to this file.
Needs fastapi, pydantic, email-validator and httpx (FastAPI's TestClient).
The Rust app in tests/tests/framework/datetimes.rs declares the same routes; its test replays
every case recorded here over real HTTP and compares status and body.
"""
import json
import os
import urllib.parse
from datetime import date, datetime, time, timedelta

import fastapi
import pydantic
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import AwareDatetime, BaseModel, EmailStr, NaiveDatetime

TYPES = {
    "datetime": datetime,
    "aware": AwareDatetime,
    "naive": NaiveDatetime,
    "date": date,
    "time": time,
    "duration": timedelta,
    "email": EmailStr,
}

app = FastAPI()


def add_routes(kind, ty):
    model = pydantic.create_model(f"Body_{kind}", v=(ty, ...))

    @app.get(f"/types/{kind}", name=f"query_{kind}")
    def query(v: ty):  # noqa: ANN001
        return {"v": v}

    @app.post(f"/types/{kind}", name=f"body_{kind}")
    def body(b: model):  # noqa: ANN001
        return b

    if kind == "datetime":
        @app.post("/types/datetime_raw", name="body_datetime_raw")
        def raw(b: model):  # noqa: ANN001
            return {"v": b.v}


for kind, ty in TYPES.items():
    add_routes(kind, ty)

DATETIMES = [
    # What people send: with and without an offset, `Z`, a date alone, a space, fractions.
    "2024-03-01", "2024-03-01T10:00:00", "2024-03-01T10:00:00Z", "2024-03-01T10:00:00+00:00",
    "2024-03-01T10:00:00-00:00", "2024-03-01T10:00:00+02:00", "2024-03-01T10:00:00-05:00",
    "2024-03-01T10:00:00+05:30", "2024-03-01T10:00:00+0200", "2024-03-01T10:00:00+02",
    "2024-03-01T10:00:00z", "2024-03-01t10:00:00", "2024-03-01 10:00:00", "2024-03-01_10:00:00",
    "2024-03-01T10:00", "2024-03-01T10:00Z", "2024-03-01T10", "2024-03-01T10:00:00.5",
    "2024-03-01T10:00:00.123Z", "2024-03-01T10:00:00.123456", "2024-03-01T10:00:00.1234567Z",
    "2024-03-01T10:00:00.000Z", "2024-03-01T10:00:00,5", "2024-03-01T10:00:00.",
    # Timestamps: seconds, milliseconds, as numbers and as text.
    1709287200, 1709287200.5, 1709287200123, "1709287200", "1709287200.5", 0, -1, "-1",
    # Mistakes.
    "2024-03-01T24:00:00", "2024-03-01T10:60:00", "2024-03-01T10:00:60", "2024-02-30",
    "2024-13-01", "2024-3-1", "2024-03-01T1:00", "20240301T100000Z", "2024-03-01T10:00:00Zx",
    "2024-03-01T10:00:00+24:00", "2024-03-01T10:00:00 +02:00", " 2024-03-01", "2024-03-01 ",
    "01/03/2024", "Fri, 01 Mar 2024 10:00:00 GMT", "now", "", "x", True, None, [], {},
]
DATES = [
    "2024-03-01", "2024-02-29", "2023-02-29", "2024-3-1", "2024-03-01T00:00:00",
    "2024-03-01T00:00:00Z", "2024-03-01T00:00:00+02:00", "2024-03-01T10:00:00", "2024-03-01 00:00",
    "20240301", "01/03/2024", "1709251200", 1709251200, 1709251201, 1709251200000, 0, -86400,
    "2024-03-01Z", " 2024-03-01", "today", "", True, None,
]
TIMES = [
    "10:00", "10:00:00", "10:00:00.5", "10:00:00.123456", "10:00:00.1234567", "10:00:00Z",
    "10:00:00+02:00", "10:00:00-0530", "10", "1000", "10:00:00 AM", "24:00", "23:59:60", "10:60",
    "T10:00", "10:00:", "36000", 36000, 36000.5, -1, 86400, "", None, True,
]
DURATIONS = [
    "PT1H", "P1DT2H", "P1D2H", "P1DT2H3M4.5S", "PT90M", "PT36H", "P1Y2M3W4DT5H6M7S", "P0.5D",
    "PT0.5H", "P1.5DT1H", "P1DT", "PT", "P", "T1H", "p1d", "PT1h", "P1W", "-P1D", "+PT1S",
    "P999999999D", "P1000000000D", "1:30:00", "01:30:00", "10:00", "1:2:3", "25:00:00",
    "00:60:00", "00:00:60", "1 day", "2 days", "2 days, 3:04:05", "1 day 01:00:00", "1d",
    "1d 01:00:00", "-1 day, 23:00:00", "1 week", "90", "1.5", "3600.5", "forever", "1h30m",
    "", 90, 1.5, -86400, 0, True, None,
]
EMAILS = [
    "ann@example.com", "ann@example.com ", " ann@example.com", " ann@example.com ",
    "ann@example.com\n", "\tann@example.com", "Ann <ann@example.com>", "Ann <ann@example.com> ",
    " Ann <ann@example.com>", "Ann Smith <ann@example.com>", "<ann@example.com>",
    "ANN@EXAMPLE.COM", "ann+tag@example.com", "ann.b@sub.example.co.uk", "ann@example",
    "ann@@example.com", "ann@example.com.", "ann@-example.com", "ann@ex_ample.com",
    "ann @example.com", "ann@ example.com", "",
]
CORPUS = {
    "datetime": DATETIMES,
    "datetime_raw": [v for v in DATETIMES if isinstance(v, (str, int, float))],
    "aware": DATETIMES,
    "naive": DATETIMES,
    "date": DATES,
    "time": TIMES,
    "duration": DURATIONS,
    "email": EMAILS,
}


def query_string(value):
    if isinstance(value, bool):
        return "v=" + ("true" if value else "false")
    return "v=" + urllib.parse.quote(str(value), safe="")


def main():
    client = TestClient(app)
    cases = []
    for kind, inputs in CORPUS.items():
        for value in inputs:
            r = client.post(f"/types/{kind}", json={"v": value})
            cases.append({"kind": kind, "source": "body", "input": value,
                          "status": r.status_code, "body": r.json()})
            if kind != "datetime_raw" and value is not None and not isinstance(value, (list, dict)):
                qs = query_string(value)
                r = client.get(f"/types/{kind}?{qs}")
                cases.append({"kind": kind, "source": "query", "query": qs, "input": value,
                              "status": r.status_code, "body": r.json()})
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION, "cases": cases,
           "schemas": {k: v for k, v in schemas.items() if k.startswith("Body_")}}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "datetimes_observed.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
