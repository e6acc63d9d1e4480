"""Send one corpus of requests to the service and to the FastAPI reference app of group A
(group_a_app.py) and compare the answers: status, and the body (parsed JSON, compared with JSON
types: 1 is not 1.0 is not "1"; other bodies as text).

Usage: python compare.py OURS_BASE_URL FASTAPI_BASE_URL     (scripts/fastapi-compare.sh runs it)

Every case must answer the same on both sides, except the ones marked `differs=KEY`: those are
the deliberate differences listed in the README ("Differences from FastAPI, on purpose"), each
with the service's expected answer pinned (`ours=`), and FastAPI's answer must indeed differ (a
difference that went away is reported, so the list stays true). Prints one line per failure and
closes with `N passed, N failed`; exits 1 when any case failed.
"""
import http.client
import json
import sys
from urllib.parse import urlsplit

JSON = {"Content-Type": "application/json"}
INT_MSG = "Input should be a valid integer, unable to parse string as an integer"
LONG = "This is an amazing item that has a long description"

# The deliberate differences: key -> the README row that explains it.
DIFFERENCES = {
    "bool": "bool query values: spec rule 4 (1/true/on/yes in any case are true, anything else false)",
    "int-grammar": "integer grammar: spec rule 3 (an optional sign and ASCII digits only)",
    "int-range": "integer too large for the Rust type: 422 int_out_of_range",
    "float-finite": "nan, inf, 1e400 in a float: 422 finite_number / json_invalid instead of a 500",
    "head": "HEAD on a GET route: served without a body",
    "trailing-slash": "trailing slash: served directly instead of a 307 redirect",
    "encoded-slash": "%2F in a path segment: a character of the segment, not a separator",
    "path-utf8": "invalid UTF-8 in a path value: 422 string_unicode instead of U+FFFD",
}

CASES = []


def case(method, path, body=None, headers=None, differs=None, ours=None, note=""):
    """One request. `differs`: a DIFFERENCES key; `ours`: (status, JSON body or None)."""
    if differs is not None and (differs not in DIFFERENCES or ours is None):
        raise SystemExit(f"case {method} {path}: a difference needs a known key and `ours`")
    if isinstance(body, str):
        body = body.encode("utf-8")
    CASES.append(
        {"method": method, "path": path, "body": body, "headers": headers or {}, "differs": differs,
         "ours": ours, "note": note}
    )


def get(path, **kw):
    case("GET", path, **kw)


def post_json(path, body, **kw):
    case("POST", path, body, dict(JSON), **kw)


def put_json(path, body, **kw):
    case("PUT", path, body, dict(JSON), **kw)


def int_error(loc, name, value):
    return {"detail": [{"type": "int_parsing", "loc": [loc, name], "msg": INT_MSG, "input": value}]}


# ---- GET /
get("/")
get("/?unused=1")
case("POST", "/")
case("DELETE", "/")
case("HEAD", "/", differs="head", ours=(200, None))
get("/nope")
get("/nope/deeper?x=1")

# ---- GET /item/{id} (the simple form is served; the two others are shadowed)
for path in ["/item/42", "/item/0", "/item/-7", "/item/+5", "/item/007", "/item/9223372036854775807",
             "/item/-9223372036854775808", "/item/foo", "/item/4.2", "/item/1e3", "/item/0x10",
             "/item/%34%32", "/item/abc?q=x&short=1", "/item/5?q=x&short=true", "/item/5?needy=x&skip=2",
             "/item/%E2%98%83", "/item/caf%C3%A9", "/item/--1", "/item/-"]:
    get(path)
get("/item/1%20", differs="int-grammar", ours=(422, int_error("path", "id", "1 ")))
get("/item/4.0", differs="int-grammar", ours=(422, int_error("path", "id", "4.0")))
get("/item/%205", differs="int-grammar", ours=(422, int_error("path", "id", " 5")))
get("/item/1_000", differs="int-grammar", ours=(422, int_error("path", "id", "1_000")))
get("/item/99999999999999999999999", differs="int-range", ours=(422, {"detail": [{
    "type": "int_out_of_range", "loc": ["path", "id"],
    "msg": "Input should be an integer between -9223372036854775808 and 9223372036854775807",
    "input": "99999999999999999999999", "ctx": {"min": -9223372036854775808, "max": 9223372036854775807}}]}))
get("/item/42/", differs="trailing-slash", ours=(200, {"id": 42}))
# `/item` exists for POST only: without its slash the path answers 405, where FastAPI redirects.
get("/item/", differs="trailing-slash", ours=(405, {"detail": "Method Not Allowed"}))

# ---- GET /user/me, /user/{id}
for path in ["/user/me", "/user/alice", "/user/42", "/user/%41lice", "/user/caf%C3%A9%20au%20lait",
             "/user/%F0%9F%90%A6", "/user/me2", "/user/ME", "/user/a+b", "/user/%24ne", "/user/%22quoted%22"]:
    get(path)
get("/user/a%2Fb", differs="encoded-slash", ours=(200, {"id": "a/b"}))
get("/user/%FF", differs="path-utf8", ours=(422, {"detail": [{
    "type": "string_unicode", "loc": ["path", "id"],
    "msg": "Input should be a valid string, unable to parse raw data as a unicode string", "input": "%FF"}]}))

# ---- GET /user/{user_id}/item/{item_id}
for query in ["", "?q=blue", "?q=", "?q=a+b", "?q=%E2%98%83%20snow", "?q=x&q=y", "?q=%26%3D%3F",
              "?short=1", "?short=true", "?short=on", "?short=yes", "?short=TRUE", "?short=On", "?short=YES",
              "?short=0", "?short=false", "?short=off", "?short=no", "?short=False", "?q=x&short=1",
              "?short=1&short=0", "?unknown=1"]:
    get("/user/3/item/hammer" + query)
for path in ["/user/abc/item/x", "/user/1.5/item/x?short=1", "/user/-3/item/%C3%A9", "/user/abc/item/x?q=1",
             "/user/3/item/x?%73hort=1", "/user/3/item/x?q=%FF", "/user/3/item/x?q=%", "/user/3/item/x?q=%zz",
             "/user/3/item/x?q=%E2%82", "/user/3/item/x?q=1&&short=1&"]:
    get(path)
# pydantic's own bool words (and anything else) versus spec rule 4.
for query in ["?short=t", "?short=y", "?short=maybe", "?short=2", "?short=", "?short"]:
    get("/user/3/item/x" + query, differs="bool",
        ours=(200, {"item_id": "x", "owner_id": 3, "description": LONG}))

# ---- GET /stock/{symbol}/{type}
for path in ["/stock/AAPL/buy", "/stock/AAPL/sell", "/stock/aapl/buy", "/stock/MSFT/sell", "/stock/TSLA/buy",
             "/stock/XYZ/buy", "/stock/XYZ/sell", "/stock/AAPL/hold", "/stock/AAPL/BUY", "/stock/AAPL/Sell",
             "/stock/AAPL/%62uy", "/stock/%E2%82%AC/sell", "/stock/AAPL", "/stock/AAPL/buy/extra"]:
    get(path)

# ---- GET /person
for query in ["", "?skip=2&limit=3", "?skip=8", "?skip=10", "?limit=0", "?limit=100", "?skip=-1",
              "?limit=-3&skip=-1", "?skip=1.5", "?skip=abc", "?skip=1&skip=2", "?limit=", "?skip=%2B3"]:
    get("/person" + query)
get("/person?skip=2.0", differs="int-grammar", ours=(422, int_error("query", "skip", "2.0")))
get("/person?skip=99999999999999999999", differs="int-range", ours=(422, None))

# ---- POST /item
for body, note in [
    ('{"name":"Foo","price":12.5}', "valid"),
    ('{"name":"Foo","description":"A foo","price":10,"tax":2.5}', "with tax"),
    ('{"name":"Foo","price":12.5,"tax":null,"description":null}', "explicit nulls"),
    ('{"name":"Foo"}', "missing price"),
    ("{}", "missing name and price"),
    ('{"description":"d"}', "missing name and price, other fields"),
    ('{"name":"Foo","price":"12.5"}', "numeric string price"),
    ('{"name":"Foo","price":"abc"}', "non-numeric string price"),
    ('{"name":"Foo","price":true}', "bool price"),
    ('{"name":"Foo","price":null}', "null price"),
    ('{"name":12,"price":1}', "int name"),
    ('{"name":null,"price":1}', "null name"),
    ('{"name":["a"],"price":1}', "list name"),
    ('{"name":"a","description":5,"price":1}', "int description"),
    ('{"name":"a","price":1,"tax":"x"}', "string tax"),
    ('{"name":"a","price":1,"extra":123,"more":{"x":[1]}}', "extra fields"),
    ("[]", "array body"),
    ('"str"', "string body"),
    ("42", "number body"),
    ("null", "null body"),
    ('{"name":', "truncated JSON"),
    ("{name: 1}", "unquoted key"),
    ('{"name":"a","price":1} x', "trailing garbage"),
    ('{"name":"a","price":1,}', "trailing comma"),
    ('{"name":"a",\n"price":}', "invalid JSON on line 2"),
    ('{"name":"é","price":}', "invalid JSON after non-ASCII"),
    ("{'name':'a'}", "single quotes"),
    ('{"name":"a","name":"b","price":1}', "duplicate keys"),
    ('{"name":"héllo ☃ 😀","price":1}', "unicode name"),
    ('{"name":"\\u00e9\\ud83d\\ude00","price":1}', "escaped unicode"),
    ('{"name":"a\\nb\\t\\"c\\"","price":1}', "escapes"),
    ('{"name":"a","price":3}', "integer price"),
    ('{"name":"a","price":1e20}', "1e20 price"),
    ('{"name":"a","price":-0.0}', "negative zero"),
    ('{"name":"a","price":0.1,"tax":0.2}', "0.1 + 0.2"),
    ('{"name":"a","price":[1]}', "list price"),
    ('{"name":"a","price":{}}', "object price"),
    ('  {"name":"a","price":1}  ', "whitespace around"),
    ("x", "garbage"),
    ("   ", "whitespace only"),
    ('{"name":"a","price":01}', "leading zero"),
]:
    post_json("/item", body, note=note)
post_json("/item", '{"name":"a","price":NaN}', differs="float-finite", ours=(422, None), note="NaN")
post_json("/item", '{"name":"a","price":Infinity}', differs="float-finite", ours=(422, None), note="Infinity")
post_json("/item", '{"name":"a","price":1e400}', differs="float-finite", ours=(422, None), note="1e400")
for price in ['" 12 "', '"1_000.5"', '"1e3"', '".5"', '"5."', '"+1.5"', '"-0"', '"0x10"', '""', '"١"', '"1__0"',
              '"_1"', '"1_"']:
    post_json("/item", '{"name":"a","price":%s}' % price, note="price string " + price)
for price in ["inf", "nan", "1e400", "-Infinity"]:
    post_json("/item", '{"name":"a","price":"%s"}' % price, differs="float-finite", note="price string " + price,
              ours=(422, {"detail": [{"type": "finite_number", "loc": ["body", "price"],
                                      "msg": "Input should be a finite number", "input": price}]}))
case("POST", "/item", b'\xef\xbb\xbf{"name":"a","price":1}', dict(JSON), note="UTF-8 BOM")
case("POST", "/item", b'{"name":"a\xff","price":1}', dict(JSON), note="invalid UTF-8")
case("POST", "/item", b"", dict(JSON), note="empty body")
case("POST", "/item", None, {}, note="no body")
case("POST", "/item", b'{"name":"Foo","price":12.5}', {}, note="JSON without a content type")
case("POST", "/item", b'{"name":"Foo","price":12.5}', {"Content-Type": "text/plain"}, note="text/plain")
case("POST", "/item", b'{"name":"Foo","price":12.5}', {"Content-Type": "application/vnd.api+json"}, note="+json")
case("POST", "/item", b'{"name":"Foo","price":12.5}', {"Content-Type": "application/json; charset=utf-8"},
     note="charset")
case("POST", "/item", b"name=Foo&price=1", {"Content-Type": "application/x-www-form-urlencoded"}, note="form")
case("GET", "/item", note="GET on a POST route")

# ---- PUT /item/{item_id}
put_json("/item/5?q=z", '{"name":"a","price":2}')
put_json("/item/5?q=", '{"name":"a","price":2,"tax":1}')
put_json("/item/5", '{"name":"a","price":2,"description":"d"}')
put_json("/item/abc", '{"name":1}')
put_json("/item/abc?q=1", '{"name":')
put_json("/item/5", "[]")
put_json("/item/-1?q=%C3%A9", '{"name":"a","price":"3.5"}')
case("PUT", "/item/abc", None, {}, note="bad id, no body")
case("PUT", "/item/5", None, {}, note="no body")
case("DELETE", "/item/42", note="a method the path does not have")

# ---- GET /employee/{id}
for path in ["/employee/1", "/employee/2", "/employee/3", "/employee/0", "/employee/999", "/employee/-1",
             "/employee/abc", "/employee/1.5", "/employee/%31"]:
    get(path)


def call(base, c):
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.putrequest(c["method"], c["path"], skip_accept_encoding=True)
    for name, value in c["headers"].items():
        conn.putheader(name, value)
    if c["body"] is not None:
        conn.putheader("Content-Length", str(len(c["body"])))
    conn.endheaders(c["body"])
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    content_type = response.getheader("content-type") or ""
    if raw and content_type.startswith("application/json"):
        try:
            return response.status, ("json", json.loads(raw))
        except ValueError:
            pass
    return response.status, ("text", raw.decode("utf-8", "replace"))


def typed(value):
    """JSON with its types made explicit, so that 1, 1.0, True and "1" all differ."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value).__name__, value)


def same(a, b):
    (status_a, (kind_a, body_a)), (status_b, (kind_b, body_b)) = a, b
    if status_a != status_b or kind_a != kind_b:
        return False
    return typed(body_a) == typed(body_b) if kind_a == "json" else body_a == body_b


def show(answer):
    status, (kind, body) = answer
    text = json.dumps(body, ensure_ascii=False) if kind == "json" else repr(body)
    return f"{status} {text[:400]}"


def main():
    ours_base, fastapi_base = sys.argv[1], sys.argv[2]
    passed = failed = documented = 0
    for c in CASES:
        label = f"{c['method']} {c['path']}" + (f" ({c['note']})" if c["note"] else "")
        ours, theirs = call(ours_base, c), call(fastapi_base, c)
        if c["differs"] is None:
            if same(ours, theirs):
                passed += 1
                continue
            failed += 1
            print(f"FAIL {label}\n  ours:    {show(ours)}\n  fastapi: {show(theirs)}")
            continue
        status, body = c["ours"]
        pinned = ours[0] == status and (body is None or (ours[1][0] == "json" and typed(ours[1][1]) == typed(body)))
        if not pinned:
            failed += 1
            print(f"FAIL {label} [{c['differs']}]: not the documented answer\n  ours:    {show(ours)}\n"
                  f"  expected: {status} {json.dumps(body)}")
        elif same(ours, theirs):
            failed += 1
            print(f"FAIL {label} [{c['differs']}]: documented as a difference, but FastAPI answers the same;"
                  " update the README and this case")
        else:
            passed += 1
            documented += 1
    print(f"fastapi-compare: {len(CASES)} requests, {documented} of them documented differences "
          f"({', '.join(sorted({c['differs'] for c in CASES if c['differs']}))})")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
