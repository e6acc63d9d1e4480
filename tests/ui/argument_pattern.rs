use ferrapi::prelude::*;

#[get("/items")]
async fn list_items((skip, limit): (i64, i64)) -> Json<Value> {
    Json(json!({ "skip": skip, "limit": limit }))
}

fn main() {}
