//! The routes of `tests/fastapi/uploads_app.py` (issue 24 item 2), written as in that FastAPI
//! twin so the answers can be compared with FastAPI's recorded ones
//! (tests/fastapi/observed_uploads.json): files as arguments, next to form fields, path and query
//! parameters; and a route that saves a large upload, for the memory test.

use ferrapi::prelude::*;

/// One required file and a required form field.
#[post("/uf/up", status = 200)]
pub async fn up(mut file: UploadFile, note: Form<String>) -> Result<Json<Value>, HttpError> {
    let data = file
        .read_all()
        .await
        .map_err(|_| HttpError::new(500, "unreadable"))?;
    Ok(Json(json!({
        "filename": file.filename(),
        "content_type": file.content_type(),
        "size": file.size(),
        "read": data.len(),
        "note": note.0,
    })))
}

/// An optional file and an optional field.
#[post("/uf/opt", status = 200)]
pub async fn opt(file: Option<UploadFile>, note: Form<Option<String>>) -> Json<Value> {
    Json(json!({ "file": file.as_ref().and_then(UploadFile::filename), "note": note.0 }))
}

/// Any number of files (at least one), and a field.
#[post("/uf/many", status = 200)]
pub async fn many(files: Vec<UploadFile>, tag: Form<String>) -> Json<Value> {
    let names: Vec<Option<&str>> = files.iter().map(UploadFile::filename).collect();
    Json(json!({ "files": names, "tag": tag.0 }))
}

/// A file next to a path and a query parameter.
#[post("/uf/items/{item_id}", status = 200)]
pub async fn item_file(item_id: i64, file: UploadFile, #[default(10)] limit: i64) -> Json<Value> {
    Json(json!({ "item_id": item_id, "limit": limit, "file": file.filename() }))
}

/// A file saved to `path`: its size, whether it was spooled to disk, and its first bytes.
#[post("/uf/save", status = 200)]
pub async fn save(mut file: UploadFile, path: String) -> Result<Json<Value>, HttpError> {
    let failed = |_| HttpError::new(500, "not saved");
    let saved = file.save_to(&path).await.map_err(failed)?;
    Ok(Json(
        json!({ "size": file.size(), "saved": saved, "on_disk": file.on_disk() }),
    ))
}

/// The app of these routes.
pub fn app() -> App {
    App::new()
        .title("uploads")
        .version("1.0.0")
        .routes(ferrapi::routes![up, opt, many, item_file, save])
}
