"""Record pydantic's strict mode for the date and time types (`Annotated[date, Strict()]`), for
ferrapi's `Strict<T>` (issue 23, item 6).

FastAPI itself cannot be probed for this: it validates a decoded body and the query values in
pydantic's Python mode, where a strict `date` takes only a `date` object, so every request is
`date_type` (recorded below as `fastapi_answer`). What a strict type means for a JSON API is
pydantic's JSON mode (`model_validate_json`), recorded here in FastAPI's error shape:
- `body`: `{"v": <input>}` validated as JSON, the answer FastAPI's (`loc` `["body", "v"]`);
- `query`: the text of the parameter validated as a JSON string (`loc` `["query", "v"]`).

Usage: python strict_probe.py  -> writes strict_observed.json next to this file.
The Rust app in tests/tests/framework/strict_types.rs replays every case over real HTTP.
"""
import json
import os
import urllib.parse
from datetime import date, datetime, time
from typing import Annotated

import fastapi
import pydantic
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import AwareDatetime, BaseModel, NaiveDatetime, Strict, ValidationError

TYPES = {
    "date": date,
    "aware": AwareDatetime,
    "naive": NaiveDatetime,
    "time": time,
}

DATES = ["2024-05-01", "2024-02-29", "2023-02-29", "2024-02-30", "2024-13-01", "2024-00-10",
         "2024-5-1", "1990-1-1", "10/12/1815", "2024/05/01", "0000-01-01", " 2024-05-01",
         "2024-05-01 ", "2024-05-01T00:00:00", "2024-05-01T00:00:00Z", "2024-05-01T10:00:00",
         "20240501", "1714521600", "1714521601", "1714521600000", "-86400", "+86400", "0",
         "1714521600.0", "99999999999999999999", "253402300800", "", "x", "٢٠٢٤-05-01"]
DATETIMES = ["2024-05-01T07:30:00Z", "2024-05-01T07:30:00+02:00", "2024-05-01T07:30:00-00:30",
             "2024-05-01T07:30:00", "2024-05-01", "2024-05-01T07:30Z", "2024-05-01 07:30:00Z",
             "2024-05-01_07:30:00Z", "2024-05-01t07:30:00z", "2024-05-01T07:30:00+0200",
             "2024-05-01T07:30:00+02", "2024-05-01T07:30:00\u221202:00", "2024-05-01T07:30:00.123456Z",
             "2024-05-01T07:30:00.1234567Z", "2024-05-01T07:30:00,5Z", "2024-05-01T07:30:00.Z",
             "2024-05-01T24:00:00Z", "2024-05-01T25:00:00Z", "2024-05-01T07:60:00Z",
             "2024-05-01T07:30:60Z", "2024-05-01T07:30:00+24:00", "2024-05-01T07:30:00+02:60",
             "2024-05-01T07:30:00Zx", "2024-05-01T07:30x", "2024-05-01X07:30:00Z",
             "2024-05-01T7:30", "2024-05-01T07:30:", "2024-02-30T00:00:00Z", "24-05-01T07:30:00Z",
             "1714548600", "1714548600.5", "-1", "+1714548600", "20240501", "", "not a date",
             "07:30:00Z", "PT1H", "2024-05-01 "]
TIMES = ["07:30", "07:30:15", "07:30:15.5", "07:30:15.1234567", "7:30", "24:00", "07:60",
         "07:30:60", "07:30:00Z", "07:30:00+02:00", "07:30+02", "07:30:", "07:30:00.", "07:30x",
         "3600", "bad", "", "2024-05-01T07:30:00"]
NON_STRINGS = [1714521600, 1714548600.5, 0, 19900101, True, None, [], {}]
CORPUS = {
    "date": DATES + NON_STRINGS,
    "aware": DATETIMES + NON_STRINGS,
    "naive": ["2024-05-01T07:30:00", "2024-05-01T07:30:00.5", "2024-05-01T07:30:00Z",
              "2024-05-01T07:30:00+02:00", "2024-05-01", "1714548600", "2024-13-01T00:00:00",
              "2024-05-01T25:00:00", "x"] + NON_STRINGS,
    "time": TIMES + [3600, 3600.5, None, True],
}


def answer(model, loc_head, payload, input_value):
    """FastAPI's answer for `payload` (JSON text) validated strictly as `model`."""
    try:
        value = model.model_validate_json(payload)
    except ValidationError as e:
        detail = []
        for err in e.errors(include_url=False):
            item = {"type": err["type"], "loc": [loc_head, *err["loc"]], "msg": err["msg"],
                    "input": input_value}
            if "ctx" in err:
                item["ctx"] = {k: str(v) if isinstance(v, Exception) else v
                               for k, v in err["ctx"].items()}
            detail.append(item)
        return 422, {"detail": detail}
    return 200, value.model_dump(mode="json")


def fastapi_answer(ty):
    """What FastAPI 0.165 answers for a strict date in a body: always the type error."""
    app = FastAPI()
    model = pydantic.create_model("Strict_body", v=(Annotated[ty, Strict()], ...))

    @app.post("/v")
    def body(b: model):  # noqa: ANN001
        return b

    r = TestClient(app).post("/v", json={"v": "2024-05-01"})
    return r.status_code, r.json()


def main():
    cases = []
    for kind, ty in TYPES.items():
        model = pydantic.create_model(f"Strict_{kind}", v=(Annotated[ty, Strict()], ...))
        for value in CORPUS[kind]:
            status, body = answer(model, "body", json.dumps({"v": value}), value)
            cases.append({"kind": kind, "source": "body", "input": value, "status": status,
                          "body": body})
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                text = value if isinstance(value, str) else json.dumps(value)
                status, body = answer(model, "query", json.dumps({"v": text}), text)
                cases.append({"kind": kind, "source": "query",
                              "query": "v=" + urllib.parse.quote(text, safe=""), "input": text,
                              "status": status, "body": body})
    status, body = fastapi_answer(date)
    out = {"fastapi": fastapi.__version__, "pydantic": pydantic.VERSION,
           "fastapi_answer": {"status": status, "body": body}, "cases": cases}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strict_observed.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(len(cases), "cases")


if __name__ == "__main__":
    main()
