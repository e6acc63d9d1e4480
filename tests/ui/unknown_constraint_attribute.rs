use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[maximum(3)] q: i64) -> Json<Value> {
    Json(json!({ "q": q }))
}

fn main() {}
