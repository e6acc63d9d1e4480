"""Record FastAPI's answers for the value types of issue 23 (dates, UUIDs, decimals, e-mails,
URLs, IP addresses) and the constraints `pattern`, `multiple_of`, `max_digits`, `decimal_places`
and list lengths, as query parameters and as body fields.

Usage: python types_probe.py  -> writes types_observed.json next to this file.
Needs fastapi, pydantic, email-validator and httpx (FastAPI's TestClient).
The Rust app in tests/tests/framework/types.rs declares the same routes; its test replays every
case recorded here over real HTTP and compares status and body.
"""
import json
import os
import urllib.parse
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from ipaddress import IPv4Address, IPv6Address
from typing import Annotated, Any
from uuid import UUID

import fastapi
import pydantic
from fastapi import FastAPI, Query
from fastapi.testclient import TestClient
from pydantic import AnyUrl, AwareDatetime, BaseModel, EmailStr, Field, HttpUrl, IPvAnyAddress, NaiveDatetime

TYPES = {
    "aware": AwareDatetime,
    "naive": NaiveDatetime,
    "date": date,
    "time": time,
    "duration": timedelta,
    "uuid": UUID,
    "decimal": Decimal,
    "email": EmailStr,
    "url": AnyUrl,
    "httpurl": HttpUrl,
    "ipv4": IPv4Address,
    "ipv6": IPv6Address,
    "ip": IPvAnyAddress,
}
CONSTRAINED = {
    "pattern": Annotated[str, Field(pattern=r"^[a-z]+-\d{2}$")],
    "multiple": Annotated[int, Field(multiple_of=5)],
    "fmultiple": Annotated[float, Field(multiple_of=0.5)],
    "money": Annotated[Decimal, Field(max_digits=5, decimal_places=2)],
    "tags": Annotated[list[str], Field(min_length=1, max_length=3)],
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


for kind, ty in {**TYPES, **CONSTRAINED}.items():
    if kind == "tags":
        model = pydantic.create_model("Body_tags", v=(ty, ...))

        @app.post("/types/tags")
        def tags(b: model):  # noqa: ANN001
            return b

        @app.get("/types/tags")
        def tags_query(v: Annotated[list[str], Query(min_length=1, max_length=3)]):
            return {"v": v}
    else:
        add_routes(kind, ty)

U = "6f1c8a52-3f0e-4c8e-9d7b-2a1b3c4d5e6f"
CORPUS = {
    "aware": ["2024-05-01T07:30:00Z", "2024-05-01T07:30:00+02:00", "2024-05-01T07:30:00-00:30",
              "2024-05-01T07:30:00", "2024-05-01T07:30:00.123456Z", "2024-05-01T07:30:00.1234567Z",
              "2024-05-01 07:30Z", "2024-05-01t07:30:00z", "2024-05-01", "2024-02-30T00:00:00Z",
              "2024-05-01T25:00:00Z", "2024-05-01T07:30:00+24:00", "2024-05-01T07:60:00Z",
              1714548600, 1714548600.5, "1714548600", -1, 0, "not a date", "", None, True,
              "2024-05-01T07:30:00Zjunk", "2024-05-01X07:30:00Z", "24-05-01T07:30:00Z"],
    "naive": ["2024-05-01T07:30:00", "2024-05-01T07:30:00.5", "2024-05-01T07:30:00Z",
              "2024-05-01T07:30:00+02:00", "2024-05-01", 1714548600, "2024-13-01T00:00:00", "x"],
    "date": ["2024-05-01", "2024-02-29", "2023-02-29", "2024-02-30", "2024-5-1", "2024-05-01T00:00:00",
             "2024-05-01T10:00:00", "2024-05-01T00:00:00Z", 1714521600, 1714521601, 0, "1714521600",
             "20240501", "", None, 12.5, "2024-00-10", "2024-05-32", "0000-01-01", "x"],
    "time": ["07:30", "07:30:15", "07:30:15.5", "7:30", "24:00", "07:60", "07:30:00Z",
             "07:30:00+02:00", 3600, 3600.5, "bad", "", None, "07:30:15.1234567"],
    "duration": ["PT1H", "P1DT2H", "P1D", "PT1.5S", "-PT1H", "P1W", "P1Y", "P1M", "PT", "P",
                 "3600", 3600, 3600.5, -5, "01:00:00", "1 day, 2:00:00", "bad", "", None],
    "uuid": [U, U.upper(), U.replace("-", ""), "{" + U + "}", "urn:uuid:" + U, U[:-1], U[:-1] + "g",
             U + "0", "", 123, None, "00000000-0000-0000-0000-000000000000"],
    "decimal": ["1.50", 1.5, 1, "1", "-0.001", "abc", "NaN", "Infinity", "-inf", "1e3", " 1.5 ",
                True, None, "1_000", "", "0.1000000000000000000000000001", 1e300,
                "12345678901234567890123456789"],
    "email": ["a@example.com", "A.B@Example.COM", "Name <a@example.com>", "a", "a@", "@example.com",
              "a@b", "a@localhost", "a b@example.com", 12, "a@example..com", "a..b@example.com",
              "é@example.com", "a@exämple.com", "", None],
    "url": ["https://example.com", "https://example.com/a b?x=1#f", "HTTPS://Example.COM:443/p",
            "example.com", "ftp://x.org/a", "http://", "mailto:a@b.c", "https://ex ample.com", "",
            "http://[::1]:8080/p", "http://a.com:99999", "https://" + "a" * 2100 + ".com", 5, None],
    "httpurl": ["https://example.com", "http://example.com:80/a", "ftp://x.org/a", "example.com",
                "http://", "mailto:a@b.c", "https://" + "a" * 2100 + ".com", "",
                "HTTP://EXAMPLE.COM", 5],
    "ipv4": ["127.0.0.1", "256.0.0.1", "::1", "1.2.3", "01.2.3.4", 2130706433, "x", "", None,
             " 1.2.3.4"],
    "ipv6": ["::1", "2001:DB8::1", "127.0.0.1", "::ffff:1.2.3.4", "fe80::1%eth0", "x", 1, None],
    "ip": ["127.0.0.1", "::1", "2001:db8::1", "x", 5, "", None],
    "pattern": ["abc-12", "abc-1", "ABC-12", "xabc-12", "abc-12\n", "", 5],
    "multiple": [10, 0, -15, 7, "20", 7.0],
    "fmultiple": [1.5, 2, 0.3, "2.5", 1.25],
    "money": ["123.45", "1234.5", "123.456", "0.001", 1.5, "999.99", "1000", "-12.30", "12.300",
              "0.10", "100.10"],
    "tags": [["a"], [], ["a", "b", "c"], ["a", "b", "c", "d"], "a", [1]],
}


def query_string(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "v=" + ("true" if value else "false")
    if isinstance(value, list):
        return "&".join("v=" + urllib.parse.quote(str(v), safe="") for v in value)
    return "v=" + urllib.parse.quote(str(value), safe="")


def main():
    client = TestClient(app)
    cases = []
    for kind, inputs in CORPUS.items():
        for value in inputs:
            r = client.post(f"/types/{kind}", json={"v": value})
            cases.append({"kind": kind, "source": "body", "input": value,
                          "status": r.status_code, "body": r.json()})
            if value is not None and not isinstance(value, (dict,)):
                qs = query_string(value)
                r = client.get(f"/types/{kind}?{qs}")
                cases.append({"kind": kind, "source": "query", "query": qs, "input": value,
                              "status": r.status_code, "body": r.json()})
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION, "cases": cases,
           "schemas": {k: v for k, v in schemas.items() if k.startswith("Body_")}}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "types_observed.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
