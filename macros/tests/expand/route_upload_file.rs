/// A route that takes files: its body is read as a form first (`__reads_form`), and every body
/// argument is asserted to be a part of that form.
#[post("/upload")]
async fn upload(file: UploadFile, extra: Option<UploadFile>, note: Form<String>) -> Json<Value> {
    Json(json!({ "note": note.0 }))
}
