use ferrapi::prelude::*;
use ferrapi::security::OAuth2PasswordRequestForm;

struct Db;

/// Arguments that read the request themselves, wrapped as FastAPI's `Annotated[.., Depends()]`.
#[post("/token")]
async fn token(form: Form<OAuth2PasswordRequestForm>, db: Header<State<Db>>) -> Json<Value> {
    Json(json!({}))
}

#[post("/upload")]
async fn upload(file: Form<UploadFile>, memory: Cookie<ferrapi::memory::Memory>) -> Json<Value> {
    Json(json!({}))
}

fn main() {}
