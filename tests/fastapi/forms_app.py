"""Issue 24's FastAPI twin: form fields as arguments, `OAuth2PasswordRequestForm`, errors with
headers and malformed credentials. `probe_forms.py` records its answers into
`observed_forms.json`, which `tests/tests/framework/forms.rs` replays against ferrapi."""
from enum import Enum
from typing import Annotated

from fastapi import Depends, FastAPI, Form, Header, HTTPException
from fastapi.security import OAuth2PasswordRequestForm

from reference_app import app as reference_app

app = FastAPI(title="forms", version="1.0.0")


@app.post("/ff/login")
async def ff_login(
    username: Annotated[str, Form()],
    password: Annotated[str, Form(min_length=3, max_length=8)],
    remember: Annotated[bool, Form()] = False,
    age: Annotated[int | None, Form()] = None,
):
    return {"username": username, "password": password, "remember": remember, "age": age}


@app.post("/ff/tags")
async def ff_tags(tag: Annotated[list[str], Form()], n: Annotated[list[int], Form()] = []):
    return {"tag": tag, "n": n}


class Side(str, Enum):
    buy = "buy"
    sell = "sell"


@app.post("/ff/side")
async def ff_side(side: Annotated[Side, Form()]):
    return {"side": side}


@app.post("/ff/mixed")
async def ff_mixed(q: int, x_h: Annotated[int, Header()], name: Annotated[str, Form()]):
    return {"q": q, "x_h": x_h, "name": name}


@app.post("/token")
async def token(form: Annotated[OAuth2PasswordRequestForm, Depends()]):
    return {
        "grant_type": form.grant_type,
        "username": form.username,
        "password": form.password,
        "scopes": form.scopes,
        "client_id": form.client_id,
        "client_secret": form.client_secret,
    }


@app.get("/err/headers")
async def err_headers():
    raise HTTPException(401, "Nope", headers={"WWW-Authenticate": "Bearer", "X-Trace": "t1"})


# The security routes are the reference app's (issue 13's), probed here with malformed
# credentials.
app.router.routes.extend(r for r in reference_app.routes if getattr(r, "path", "").startswith("/sec/"))
