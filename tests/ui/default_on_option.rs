use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[default(Some(10))] limit: Option<i64>) -> Json<Value> {
    Json(json!({ "limit": limit }))
}

fn main() {}
