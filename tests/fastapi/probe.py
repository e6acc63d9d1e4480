"""Send a corpus of requests to the reference FastAPI app and record raw responses.

Usage: python probe.py PORT [OUTFILE]  -> writes observed.json (or OUTFILE) next to this file.
Uses only the stdlib http.client so the raw bytes are visible.
"""
import http.client
import json
import os
import sys

PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
JSON = {"Content-Type": "application/json"}


def deep(n):
    return "[" * n + "]" * n


CASES = []


def case(method, path, body=None, headers=None, note=""):
    CASES.append((method, path, body, headers or {}, note))


def get(path, note=""):
    case("GET", path, note=note)


# --- basics / routing
get("/")
case("HEAD", "/", note="HEAD on GET route")
case("POST", "/", note="405")
get("/nope", note="404 unknown path")
get("/item/42/", note="trailing slash")
get("/item/42", note="ok")

# --- /item/{id: int}
for p in ["/item/foo", "/item/4.2", "/item/4.0", "/item/1e3", "/item/", "/item/-5", "/item/+5",
          "/item/%205", "/item/%2042%20", "/item/99999999999999999999999", "/item/%D9%A3",
          "/item/1_000", "/item/0x10", "/item/007", "/item/1?id=3", "/item/%C3%A9"]:
    get(p)

# --- /items/{item_id}
for p in ["/items/abc", "/items/abc?needy=x&skip=foo&limit=bar", "/items/abc?needy=x&limit=",
          "/items/abc?needy=&skip=", "/items/abc?skip=foo", "/items/abc?needy=x&skip=3&limit=7",
          "/items/abc?needy=%FF", "/items/abc?needy=a%20b+c"]:
    get(p)

# --- /user/{user_id}/item/{item_id}
get("/user/abc/item/x?short=foo")
for v in ["yes", "YES", "on", "1", "0", "no", "off", "maybe", "true", "False", "t", "f", "y", "n", "", "2"]:
    get("/user/1/item/x?short=" + v)

# --- enum
for p in ["/stock/AAPL/hold", "/stock/AAPL/BUY", "/stock/AAPL/buy"]:
    get(p)

# --- person
for p in ["/person?skip=-1", "/person?limit=-3&skip=-1", "/person?skip=1.5", "/person?skip=1&skip=2",
          "/person?skip=2.0"]:
    get(p)

# --- constrained
for q in ["", "?a=0", "?a=11", "?a=5&b=2.5", "?a=5&b=0.1", "?a=5&s=a", "?a=5&s=abcd", "?a=5&t=",
          "?a=5&b=abc", "?a=5", "?a=0&b=3&s=a&t=", "?a=abc", "?a=-1"]:
    get("/constrained" + q)

# --- floats / bools
for v in ["abc", "nan", "NaN", "inf", "-inf", "infinity", "1e400", "", "1_000", "1.5", "3", "1e20", "0.1", "-0"]:
    get("/floats?f=" + v)
get("/floats", note="missing f")
for v in ["true", "abc", ""]:
    get("/bools?b=" + v)

# --- lists
for p in ["/tags?tag=a&tag=b", "/tags", "/nums?n=1&n=x&n=3", "/nums?n=1&n=2", "/nums?n=a&n=b"]:
    get(p)

# --- POST /item
B = [
    ('{"name":"Foo","price":12.5}', "valid"),
    ('{"name":"Foo","price":12.5,"tax":1.5}', "with tax"),
    ('{"name":"Foo"}', "missing price"),
    ('{}', "missing name and price"),
    ('{"description":"d"}', "missing name and price, other fields"),
    ('{"name":"Foo","price":"12.5"}', "price string numeric"),
    ('{"name":"Foo","price":"abc"}', "price string non-numeric"),
    ('{"name":"Foo","price":true}', "price bool"),
    ('{"name":"Foo","price":null}', "price null"),
    ('{"name":12,"price":1}', "name int"),
    ('{"name":null,"price":1}', "name null"),
    ('{"name":"a","description":5,"price":1}', "description int"),
    ('{"name":"a","price":1,"tax":"x"}', "tax string"),
    ('{"name":"a","price":1,"extra":123}', "extra field"),
    ('[]', "array body"),
    ('"str"', "string body"),
    ('42', "number body"),
    ('null', "null body"),
    ('{"name":', "invalid json truncated"),
    ('{name: 1}', "invalid json unquoted key"),
    ('{"name":"a","price":1} x', "trailing garbage"),
    ('{"name":"a","price":NaN}', "NaN"),
    ('{"name":"a","price":Infinity}', "Infinity"),
    ('{"name":"a","price":-Infinity}', "-Infinity"),
    ('{"name":"a","price":1e400}', "1e400"),
    ('{"name":"a","name":"b","price":1}', "duplicate keys"),
    ('{"name":"a","price":1,"x":' + deep(2000) + '}', "deep nesting 2000 in extra field"),
    ('{"name":"a","price":1,"x":' + deep(200) + '}', "deep nesting 200"),
    ('{"name":"héllo ☃ 😀","price":1}', "unicode name"),
    ('{"name":"\\u00e9\\ud83d\\ude00","price":1}', "escaped unicode name"),
    ('{"name":"a","price":3}', "price int 3"),
    ('{"name":"a","price":1e20}', "price 1e20"),
    ('{"name":"a","price":1.0}', "price 1.0"),
    ('{"name":"a","price":0.1}', "price 0.1"),
    ('{"name":"a","price":1e-7}', "price 1e-7"),
    ('{"name":"a","price":123456789012345678}', "price big int"),
    ('{"name":"a","price":1E5}', "price 1E5"),
    ('{"name":"a","price":-0.0}', "price -0.0"),
    ('{"name":"a","price":1.5e300}', "price 1.5e300"),
    ('{"name":"a","price":"1e400"}', "price string 1e400"),
    ('{"name":"a","price":" 12 "}', "price string with spaces"),
    ('{"name":"a","price":[1]}', "price list"),
    ('{"name":"a","price":{}}', "price object"),
    ('{"name":["a"],"price":1}', "name list"),
    ('{"name":"a","price":1,}', "trailing comma"),
    ('  {"name":"a","price":1}  ', "whitespace around"),
    ('{"name":"a",\n"price":}', "invalid json on line 2"),
    ('{"name":"é","price":}', "invalid json after non-ascii (char vs byte offset)"),
    ('{"name":"😀😀","price":x}', "invalid json after astral (char vs byte offset)"),
    ('{"name":"a","price":01}', "leading zero"),
    ('{"name":"a\tb","price":1}', "raw tab in string"),
    ('x', "single garbage"),
    ('   ', "whitespace only"),
]
for body, note in B:
    case("POST", "/item", body.encode("utf-8"), dict(JSON), note)

case("POST", "/item", b'{"name":"a\xff\xfeb","price":1}', dict(JSON), "invalid utf-8 in string")
case("POST", "/item", b'\xff{"name":"a","price":1}', dict(JSON), "invalid utf-8 at start")
case("POST", "/item", b'\xef\xbb\xbf{"name":"a","price":1}', dict(JSON), "utf-8 BOM")
case("POST", "/item", b"", dict(JSON), "empty body with json content-type")
case("POST", "/item", None, {}, "no body no content type")
case("POST", "/item", b"", {}, "empty body no content type (Content-Length: 0)")
VALID = b'{"name":"Foo","price":12.5}'
case("POST", "/item", VALID, {}, "valid json, no content type")
case("POST", "/item", VALID, {"Content-Type": "text/plain"}, "text/plain")
case("POST", "/item", VALID, {"Content-Type": "application/vnd.api+json"}, "+json")
case("POST", "/item", VALID, {"Content-Type": "application/json; charset=utf-8"}, "charset")
case("POST", "/item", VALID, {"Content-Type": "APPLICATION/JSON"}, "uppercase ct")
case("POST", "/item", VALID, {"Content-Type": "application/x-www-form-urlencoded"}, "form ct")
case("POST", "/item", b"name=Foo&price=1", {"Content-Type": "application/x-www-form-urlencoded"}, "form body")
case("POST", "/item", VALID, {"Content-Type": "application/jsonx"}, "application/jsonx")
case("POST", "/item", VALID, {"Content-Type": "text/json"}, "text/json")
case("POST", "/item", b'{"name":', {"Content-Type": "text/plain"}, "invalid json with text/plain")
case("POST", "/item", b'{"name":', {}, "invalid json with no content type")

# --- PUT /item/{item_id}
case("PUT", "/item/abc", b'{"name":1}', dict(JSON), "path error + body errors")
case("PUT", "/item/abc?q=1", b'{"name":', dict(JSON), "path error + invalid json")
case("PUT", "/item/5?q=z", b'{"name":"a","price":2}', dict(JSON), "valid put")
case("PUT", "/item/abc", None, {}, "path error + missing body")

# --- POST /nested
NB = [
    ({"title": "ok", "count": 1, "qty": 0, "inner": {"label": "l", "weight": 1.5}, "ids": [1, 2], "scores": {"a": 1}}, "valid"),
    ({"title": "x", "count": "nope", "qty": -1, "inner": {"label": 5, "weight": "heavy"},
      "ids": [1, "two", 3, None], "scores": {"a": 1, "b": "bee", "c": 2.5}}, "many errors"),
    ({"title": "x", "count": 1, "qty": 0, "inner": {}, "ids": [], "scores": {}}, "min_length + empty inner"),
    ({"title": "ok", "count": 1, "qty": 0, "inner": "str", "ids": "notalist", "scores": []}, "wrong container types"),
    ({"title": "ok", "count": 1, "qty": 0, "inner": None, "ids": None, "scores": None}, "nulls"),
    ({"title": "ok", "count": 1, "qty": 0, "inner": {"label": "l", "weight": 1}, "ids": [1], "scores": {"1": 1}}, "ok with int-ish"),
]
for obj, note in NB:
    case("POST", "/nested", json.dumps(obj, separators=(",", ":")).encode(), dict(JSON), note)
base = '{"title":"ok","qty":0,"inner":{"label":"l","weight":1},"ids":[],"scores":{},"count":%s}'
for v in ['"12"', '12.0', '12.5', '"12.5"', 'true', 'false', '1e20', '1e2', '"1e2"', '" 12 "', '"12.0"',
          '99999999999999999999999', '-0', '"-7"', '"+7"', '"1_000"', 'null', '[]']:
    case("POST", "/nested", (base % v).encode(), dict(JSON), "int field count=" + v)
base2 = '{"title":"ok","count":1,"qty":0,"inner":{"label":"l","weight":1},"ids":[],"scores":{},"title":%s}'
for v in ['""', '"a"', '"ab"', '"😀"', '"é"', '5']:
    case("POST", "/nested", (base2 % v).encode(), dict(JSON), "title(min_length=2) dup-key=" + v)

# --- routing extras
case("POST", "/item/42", note="405 where another method (PUT) exists on same path pattern")
case("DELETE", "/item/42", note="405")
case("OPTIONS", "/", note="OPTIONS")
get("/item", note="GET on POST-only route")
get("/item/42/?x=1", note="trailing slash with query")
get("/nope/", note="404 trailing slash")
case("HEAD", "/nope", note="HEAD 404")
get("/items/abc/?skip=x", note="trailing slash redirect happens before validation?")

# --- error ordering across sources
get("/order/x?a=y&b=z", note="query a declared before path p")
get("/order/x", note="missing a,b + bad p")
case("POST", "/mixed/x?q=y", b'{"name":1}', dict(JSON), "query declared before body before path")
case("POST", "/mixed/x", None, {}, "missing q + missing body + bad path")
case("POST", "/two", b'{"item":{"name":1},"inner":{}}', dict(JSON), "two body params (embedded)")
case("POST", "/two", b'{}', dict(JSON), "two body params both missing")
case("POST", "/two", b'[]', dict(JSON), "two body params, array body")

# --- more json_invalid messages
for body, note in [
    ('{"name":"a\\x","price":1}', "invalid escape"),
    ('{"name":"abc', "unterminated string"),
    ('{"name" "a"}', "missing colon"),
    ('{"name":"a" "price":1}', "missing comma"),
    ('{"name":"a","price":1', "unterminated object"),
    ('[1,2', "unterminated array"),
    ('{"name":"\\ud800","price":1}', "lone surrogate escape"),
    ('{"name":tru,"price":1}', "bad literal"),
    ('{"name":"a","price":-}', "bad number"),
    ('{"name":"a","price":.5}', "leading dot"),
    ('{"name":"a","price":1.}', "trailing dot"),
    ("{'name':'a'}", "single quotes"),
    ('{"a":1}\n\n x', "extra data after newlines"),
    ('{"name":"ab\u00e9","price":\u00e9}', "non-ascii invalid token"),
]:
    case("POST", "/item", body.encode("utf-8"), dict(JSON), note)

# --- how parsed body values are echoed in error `input`
for v in ['1.0', '1e20', '1E5', '-0.0', '123456789012345678901234567890', '1.5e300', '0.1', '1e-7', 'true', '{"a":[1,{"b":null}]}', '"\\u00e9\\n\\"q\\""', '"</script>"']:
    case("POST", "/item", ('{"price":1,"name":%s}' % v).encode(), dict(JSON), "name wrong type echo " + v)
base = '{"title":"ok","count":1,"inner":{"label":"l","weight":1},"ids":[],"scores":{},"qty":%s}'
for v in ['-1', '-1.0', '-1.5', '"-1"', '"-1.0"', '-1e20']:
    case("POST", "/nested", (base % v).encode(), dict(JSON), "qty(ge=0) =" + v)

# --- JSON string escaping of `input` in error bodies
for p in ["/item/%0A", "/item/%01%1F", "/item/%7F", "/item/%E2%80%A8", "/item/%F0%9F%98%80", "/item/%22%5C",
          "/item/%08%0C%09%0D", "/floats?f=%2F%3C%3E%26", "/floats?f=%00", "/floats?f=%C3%A9%FF"]:
    get(p, note="escaping in error input")

get("/item/%FF", note="invalid utf-8 percent-escape in path")
case("POST", "/item", b"\xff\xfe", {"Content-Type": "text/plain"}, "non-utf8 body with text/plain (bytes input echo)")
case("POST", "/item", b"hello", {"Content-Type": "text/plain"}, "plain text body")

# --- non-finite floats reaching error bodies / constraint checks
case("POST", "/item", b'{"name":1e400,"price":1}', dict(JSON), "inf echoed as error input")
case("POST", "/item", b'{"name":NaN,"price":1}', dict(JSON), "NaN echoed as error input")
for v in ["NaN", "Infinity", "1e400"]:
    case("POST", "/nested", (base % v).encode(), dict(JSON), "qty(int, ge=0) = " + v)
for q in ["?a=5&b=nan", "?a=5&b=inf", "?a=5&b=-inf"]:
    get("/constrained" + q, note="non-finite vs lt/ge constraints")
for v in ["1e15", "1e16", "0.0001", "0.00001", "5e-324", "1.7976931348623157e308"]:
    get("/floats?f=" + v, note="float repr boundary")


# --- issue 13: header parameters (user_agent reads User-Agent; Starlette takes a repeated
# header's first value), cookie parameters, their error order, form bodies, security schemes
case("GET", "/hdr/agent", headers={"User-Agent": "probe/1.0"}, note="user_agent reads User-Agent")
case("GET", "/hdr/agent", headers={"user-agent": ""}, note="empty header value is a value")
case("GET", "/hdr/agent", headers=[("User-Agent", "first"), ("User-Agent", "second")], note="repeated header: first")
case("GET", "/hdr/agent", headers={"User-Agent": "caf\xe9"}, note="latin-1 header value")
case("GET", "/hdr/agent", headers={"User_Agent": "underscore"}, note="underscore header name is another header")
for hs, note in [
    ({}, "missing required header (no User-Agent sent by the probe)"),
    ({"X-Count": "3"}, "only the required one"),
    ({"X-Count": "abc", "X-Ratio": "x", "X-Limit": "11", "X-Name": "a", "X-Flag": "maybe"}, "every header invalid"),
    ({"X-Count": "-2", "X-Ratio": "1.5", "X-Limit": "-1", "X-Name": "bob", "X-Flag": "yes"}, "ge violation"),
    ({"x-count": " 7 ", "x-flag": "0"}, "whitespace and lowercase names"),
]:
    case("GET", "/hdr/typed", headers=hs, note=note)
case("GET", "/hdr/list", note="absent list headers")
case("GET", "/hdr/list", headers=[("X-Tag", "a"), ("X-Tag", "b, c"), ("X-Num", "1"), ("X-Num", "x"), ("X-Num", "3")],
     note="repeated headers")
case("GET", "/hdr/exact", headers={"X-Request_ID": "r1"}, note="exact name")
case("GET", "/hdr/exact", headers={"x-request_id": "r1"}, note="exact name, other case")
case("GET", "/hdr/exact", headers={"X-Request-ID": "r1"}, note="exact name: hyphen is another header")
for cookie, note in [
    (None, "missing cookie"),
    ("session=abc", "required cookie only"),
    ("session=abc; n=4; theme=dark", "all cookies"),
    ("session=abc; n=x; theme=toolong", "invalid cookies"),
    ('session="quoted\\"x"; n=1; n=2', "quoted value, repeated cookie: last"),
    ("session = spaced ;  n=5", "spaces around name and value"),
    ("theme=dark; session", "a chunk without ="),
    ('session="\\303\\251t\\351"', "octal escapes in a quoted value"),
]:
    case("GET", "/ck", headers={} if cookie is None else {"Cookie": cookie}, note=note)
case("GET", "/inputs-order?q=x", headers={"X-H": "y", "Cookie": "c=z"}, note="error order: query, header, cookie")
case("GET", "/inputs-order", note="all missing: order")
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
for body, note in [
    ("username=bob&password=secret", "form ok"),
    ("username=bob&password=secret&remember=on&age=33", "form all fields"),
    ("password=x&age=old&remember=maybe", "form errors"),
    ("username=&password=", "empty values"),
    ("", "empty form body"),
    ("username=a+b%21&password=p%C3%A9w&username=second", "encoded and repeated"),
]:
    case("POST", "/form", body.encode(), dict(FORM), note)
case("POST", "/form", b'{"username":"bob","password":"secret"}', dict(JSON), "json sent to a form route")
case("POST", "/form", note="form route, no body")
for path, hs, note in [
    ("/sec/bearer", {}, "bearer missing"),
    ("/sec/bearer", {"Authorization": "Bearer abc"}, "bearer ok"),
    ("/sec/bearer", {"Authorization": "bearer abc"}, "bearer lowercase scheme"),
    ("/sec/bearer", {"Authorization": "Basic abc"}, "bearer wrong scheme"),
    ("/sec/bearer", {"Authorization": "Bearer"}, "bearer no token"),
    ("/sec/bearer", {"Authorization": "Bearer   "}, "bearer blank token"),
    ("/sec/basic", {}, "basic missing"),
    ("/sec/basic", {"Authorization": "Basic dXNlcjpwYXNz"}, "basic ok"),
    ("/sec/basic", {"Authorization": "Basic dXNlcjpwYTpzcw=="}, "basic colon in password"),
    ("/sec/basic", {"Authorization": "Basic !!!"}, "basic not base64"),
    ("/sec/basic", {"Authorization": "Basic dXNlcg=="}, "basic no colon"),
    ("/sec/basic", {"Authorization": "Bearer abc"}, "basic wrong scheme"),
    ("/sec/key-header", {}, "api key header missing"),
    ("/sec/key-header", {"X-API-Key": "k1"}, "api key header ok"),
    ("/sec/key-header", {"X-API-Key": ""}, "api key header empty"),
    ("/sec/key-query?api_key=k2", {}, "api key query ok"),
    ("/sec/key-query", {}, "api key query missing"),
    ("/sec/key-query?api_key=", {}, "api key query empty"),
    ("/sec/key-cookie", {"Cookie": "session_key=k3"}, "api key cookie ok"),
    ("/sec/key-cookie", {}, "api key cookie missing"),
    ("/sec/oauth2", {}, "oauth2 missing"),
    ("/sec/oauth2", {"Authorization": "Bearer tok"}, "oauth2 ok"),
    ("/sec/oauth2", {"Authorization": "Basic tok"}, "oauth2 wrong scheme"),
]:
    case("GET", path, headers=hs, note=note)


def run():
    out = []
    for method, path, body, headers, note in CASES:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        conn.putrequest(method, path, skip_accept_encoding=True)
        pairs = headers.items() if isinstance(headers, dict) else headers
        for k, v in pairs:
            conn.putheader(k, v.encode("latin-1"))
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        resp = conn.getresponse()
        raw = resp.read()
        conn.close()
        try:
            body_str = raw.decode("utf-8")
            body_is_utf8 = True
        except UnicodeDecodeError:
            body_str = raw.decode("latin-1")
            body_is_utf8 = False
        if body is None:
            req_body = None
        else:
            try:
                req_body = body.decode("utf-8")
                if len(req_body) > 300:
                    req_body = req_body[:150] + "...<%d chars total>..." % len(req_body) + req_body[-100:]
            except UnicodeDecodeError:
                req_body = "<bytes hex> " + body.hex()
        out.append({
            "note": note,
            "method": method,
            "path": path,
            "request_headers": headers if isinstance(headers, dict) else [list(p) for p in headers],
            "request_body": req_body,
            "status": resp.status,
            "reason": resp.reason,
            "response_headers": [[k, v] for k, v in resp.getheaders() if k.lower() != "date"],
            "content_type": resp.getheader("content-type"),
            "body": body_str,
            "body_is_utf8": body_is_utf8,
            "body_len": len(raw),
        })
    here = os.path.dirname(os.path.abspath(__file__))
    name = sys.argv[2] if len(sys.argv) > 2 else "observed.json"
    with open(os.path.join(here, name), "w", encoding="utf-8") as f:
        json.dump(out, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print("wrote", len(out), "cases")


if __name__ == "__main__":
    run()
