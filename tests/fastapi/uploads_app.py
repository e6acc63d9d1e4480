"""Files as arguments (issue 24 item 2), the FastAPI twin of `ferrapi_tests::uploads`:
`probe_uploads.py` records its answers into `observed_uploads.json`."""
from typing import Optional

from fastapi import FastAPI, Form, UploadFile

app = FastAPI(title="uploads", version="1.0.0")


@app.post("/uf/up")
async def up(file: UploadFile, note: str = Form()):
    data = await file.read()
    return {"filename": file.filename, "content_type": file.content_type, "size": file.size,
            "read": len(data), "note": note}


@app.post("/uf/opt")
async def opt(file: Optional[UploadFile] = None, note: Optional[str] = Form(None)):
    return {"file": file.filename if file else None, "note": note}


@app.post("/uf/many")
async def many(files: list[UploadFile], tag: str = Form()):
    return {"files": [f.filename for f in files], "tag": tag}


@app.post("/uf/items/{item_id}")
async def item_file(item_id: int, file: UploadFile, limit: int = 10):
    return {"item_id": item_id, "limit": limit, "file": file.filename}
