use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[max_length(3)] n: i64) -> Json<Value> {
    Json(json!({ "n": n }))
}

fn main() {}
