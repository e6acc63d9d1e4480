use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[default("ten")] limit: i64) -> Json<Value> {
    Json(json!({ "limit": limit }))
}

fn main() {}
