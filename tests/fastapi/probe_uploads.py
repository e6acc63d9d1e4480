"""Record the answers of `uploads_app.py` (FastAPI's TestClient, in process) into
`observed_uploads.json`, in `observed.json`'s format. Run: python probe_uploads.py (from
tests/fastapi/, with fastapi, python-multipart and httpx installed)."""
from probe_forms import record
from uploads_app import app

MULTIPART = {"Content-Type": "multipart/form-data; boundary=b"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
CASES = []


def parts(*items):
    """A multipart body of (name, file name or None, content type or None, text) parts."""
    out = ""
    for name, filename, content_type, content in items:
        out += f'--b\r\nContent-Disposition: form-data; name="{name}"'
        if filename is not None:
            out += f'; filename="{filename}"'
        out += "\r\n"
        if content_type:
            out += f"Content-Type: {content_type}\r\n"
        out += "\r\n" + content + "\r\n"
    return out + "--b--\r\n"


def case(path, body, headers, note):
    CASES.append(("POST", path, body, headers, note))


def upload(path, body, note):
    case(path, body, dict(MULTIPART), note)


upload("/uf/up", parts(("file", "a.txt", "text/plain", "hello"), ("note", None, None, "n")), "file and note")
upload("/uf/up", parts(("note", None, None, "n")), "missing file")
upload("/uf/up", "--b--\r\n", "empty form")
upload("/uf/up", parts(("file", None, None, "text"), ("note", None, None, "n")), "text where a file is expected")
upload("/uf/up", parts(("file", None, None, ""), ("note", None, None, "n")), "empty text where a file is expected")
upload("/uf/up", parts(("file", "a.txt", None, "one"), ("file", "b.txt", None, "two"), ("note", None, None, "n")),
       "two files of one name: the last")
upload("/uf/up", parts(("file", "a.txt", None, "one"), ("other", "b.txt", None, "two"), ("note", None, None, "n")),
       "an extra file is ignored")
upload("/uf/up", parts(("file", "", None, ""), ("note", None, None, "n")), "an empty file input")
upload("/uf/up", parts(("file", "", None, "one"), ("note", None, None, "n")), "an empty file name with content")
upload("/uf/up", parts(("file", "a.txt", None, ""), ("note", None, None, "")), "an empty file and an empty note")
case("/uf/up", "note=x", dict(FORM), "urlencoded body")
case("/uf/up", "file=x&note=y", dict(FORM), "urlencoded body with file=x")
case("/uf/up", '{"file":"x"}', {"Content-Type": "application/json"}, "json body")
case("/uf/up", None, {}, "no body")
case("/uf/opt", None, {}, "optional, no body")
upload("/uf/opt", parts(("file", "a", None, "t")), "optional, a file")
upload("/uf/opt", parts(("file", None, None, "t")), "optional, text where a file is expected")
upload("/uf/opt", parts(("file", "", None, "")), "optional, an empty file input")
upload("/uf/many", parts(("tag", None, None, "t")), "list, none")
upload("/uf/many", parts(("files", "a", None, "1"), ("files", "b", None, "2"), ("tag", None, None, "t")), "list, two")
upload("/uf/many", parts(("files", "a", None, "1"), ("files", None, None, "txt"), ("tag", None, None, "t")),
       "list, a text among files")
upload("/uf/many", parts(("files", None, None, "txt")), "list, text only and no tag")
upload("/uf/items/x?limit=y", parts(("note", None, None, "n")), "path, query and file errors together")
case("/uf/items/x?limit=y", "a=b", dict(FORM), "path, query and file errors, urlencoded")
upload("/uf/items/3", parts(("file", "f.bin", "application/octet-stream", "xyz")), "path and file ok")


def main():
    record(app, CASES, "observed_uploads.json")


if __name__ == "__main__":
    main()
