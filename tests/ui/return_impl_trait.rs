use ferrapi::prelude::*;

#[get("/items")]
async fn list_items() -> impl IntoResponse {
    Json(json!([]))
}

#[get("/item")]
async fn read_item() -> Result<impl IntoResponse, HttpError> {
    Ok(Json(json!({})))
}

fn main() {}
