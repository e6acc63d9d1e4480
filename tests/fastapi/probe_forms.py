"""Record the answers of `forms_app.py` (FastAPI's TestClient, in process) into
`observed_forms.json`, in `observed.json`'s format. Run: python probe_forms.py (from
tests/fastapi/, with fastapi, python-multipart and httpx installed)."""
import json
import os

import fastapi
from fastapi.testclient import TestClient

from forms_app import app

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
CASES = []


def case(method, path, body=None, headers=None, note=""):
    CASES.append((method, path, body, headers or {}, note))


def form(path, body, note):
    case("POST", path, body, dict(FORM), note)


# --- form fields as arguments
for body, note in [
    ("username=bob&password=secret", "login ok"),
    ("username=bob&password=secret&remember=on&age=33", "login all fields"),
    ("", "login nothing"),
    ("password=secret", "login missing username"),
    ("username=&password=secret", "login empty username"),
    ("username=bob&password=ab", "login password too short"),
    ("username=bob&password=abcdefghi", "login password too long"),
    ("username=bob&password=secret&age=x&remember=maybe", "login wrong types"),
    ("username=first&username=second&password=secret", "login repeated username: last"),
    ("username=a+b%21&password=p%C3%A9w&age=", "login encoded, empty optional"),
    ("username=bob&password=secret&other=1", "login unknown field"),
]:
    form("/ff/login", body, note)
case("POST", "/ff/login", '{"username":"bob","password":"secret"}', {"Content-Type": "application/json"},
     "login json body")
case("POST", "/ff/login", "username=bob&password=secret", {}, "login no content type")
case("POST", "/ff/login",
     "--b\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nbob\r\n"
     "--b\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nsecret\r\n--b--\r\n",
     {"Content-Type": "multipart/form-data; boundary=b"}, "login multipart")
for body, note in [
    ("tag=a&tag=b&n=1&n=2", "tags ok"),
    ("", "tags nothing"),
    ("tag=a&n=1&n=x&n=", "tags wrong item and empty item"),
    ("tag=&tag=b", "tags empty item"),
]:
    form("/ff/tags", body, note)
for body, note in [
    ("side=buy", "enum ok"),
    ("side=hold", "enum unknown value"),
    ("side=", "enum empty"),
    ("", "enum nothing"),
    ("side=sell&side=buy", "enum repeated: last"),
]:
    form("/ff/side", body, note)
case("POST", "/ff/mixed?q=x", "", dict(FORM, **{"X-H": "y"}), "mixed every source wrong")
case("POST", "/ff/mixed?q=1", "name=n", dict(FORM, **{"X-H": "2"}), "mixed ok")

# --- OAuth2PasswordRequestForm
for body, note in [
    ("username=alice&password=secret", "token ok, no grant type"),
    ("grant_type=password&username=alice&password=secret&scope=read%20write++admin&client_id=c&client_secret=s",
     "token every field"),
    ("grant_type=client_credentials&username=alice&password=secret", "token wrong grant type"),
    ("grant_type=&username=alice&password=secret", "token empty grant type"),
    ("", "token nothing"),
    ("username=alice", "token no password"),
]:
    form("/token", body, note)

# --- HTTP errors with headers
case("GET", "/err/headers", note="error with headers")

# --- malformed credentials (no value starts or ends with a space: an HTTP/1 server trims those,
# FastAPI's in-process client does not; and ASCII only: that client re-encodes others as UTF-8)
for path, headers, note in [
    ("/sec/bearer", {"Authorization": "Bearer  token"}, "bearer two spaces"),
    ("/sec/bearer", {"Authorization": "Bearer tok  en"}, "bearer inner spaces"),
    ("/sec/bearer", {"Authorization": "BEARER token"}, "bearer upper-case scheme"),
    ("/sec/bearer", {"Authorization": "Bearer\ttoken"}, "bearer tab"),
    ("/sec/bearer", {"Authorization": ""}, "bearer empty header"),
    ("/sec/basic", {"Authorization": "Basic  dXNlcjpwYXNz"}, "basic two spaces"),
    ("/sec/basic", {"Authorization": "basic dXNlcjpwYXNz"}, "basic lower-case scheme"),
    ("/sec/basic", {"Authorization": "Basic dXNlcjpwYXM"}, "basic bad padding"),
    ("/sec/basic", {"Authorization": "Basic dXNlcjpwYQ==dXNl"}, "basic data after padding"),
    ("/sec/basic", {"Authorization": "Basic dXNl cjpw YXNz"}, "basic spaces inside"),
    ("/sec/basic", {"Authorization": "Basic"}, "basic no credential"),
    ("/sec/basic", {"Authorization": "Basic w6k6eA=="}, "basic not ascii"),
    ("/sec/basic", {"Authorization": "Basic Og=="}, "basic empty user and password"),
    ("/sec/oauth2", {"Authorization": "Bearer"}, "oauth2 no token"),
    ("/sec/oauth2", {"Authorization": "bearer  tok "}, "oauth2 spaces"),
    ("/sec/oauth2", {"Authorization": ""}, "oauth2 empty header"),
    ("/sec/key-header", {"X-API-Key": "k 1"}, "api key with a space"),
]:
    case("GET", path, None, headers, note)


def record(app, cases, file_name):
    """Send each case to `app` in process and write the answers, and the document, to `file_name`
    next to this script (also used by probe_uploads.py)."""
    client = TestClient(app)
    out = []
    for method, path, body, headers, note in cases:
        raw = {name: value.encode("latin-1") for name, value in headers.items()}
        reply = client.request(method, path, content=body.encode() if body is not None else None,
                               headers=raw)
        out.append({
            "note": note,
            "method": method,
            "path": path,
            "request_headers": headers,
            "request_body": body,
            "status": reply.status_code,
            "response_headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in reply.headers.raw],
            "body": reply.text,
        })
    out.append({"note": "openapi", "method": "GET", "path": "/openapi.json", "request_headers": {},
                "request_body": None, "status": 200, "response_headers": [],
                "body": json.dumps(app.openapi(), separators=(",", ":"))})
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), file_name)
    with open(target, "w") as f:
        json.dump({"fastapi": fastapi.__version__, "cases": out}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(out)} cases from FastAPI {fastapi.__version__} -> {target}")


def main():
    record(app, CASES, "observed_forms.json")


if __name__ == "__main__":
    main()
