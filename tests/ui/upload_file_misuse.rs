use ferrapi::prelude::*;
use ferrapi::files::Multipart;

#[derive(Model)]
struct Login {
    username: String,
}

/// A file next to a whole-form model: one form, read field by field.
#[post("/with-form-model")]
async fn with_form_model(file: UploadFile, login: Form<Login>) -> &'static str {
    "no"
}

/// A file next to a JSON body.
#[post("/with-json")]
async fn with_json(login: Login, file: UploadFile) -> &'static str {
    "no"
}

/// A file next to a streamed upload.
#[post("/with-multipart")]
async fn with_multipart(file: Option<UploadFile>, upload: Multipart) -> &'static str {
    "no"
}

/// Files in a GET, which has no body.
#[get("/in-get")]
async fn in_get(files: Vec<UploadFile>, note: Form<String>) -> &'static str {
    "no"
}

/// Form fields and files together are fine.
#[post("/fine")]
async fn fine(note: Form<String>, file: UploadFile, more: Vec<UploadFile>) -> &'static str {
    "yes"
}

fn main() {}
