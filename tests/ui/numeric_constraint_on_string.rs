use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[ge(0)] s: String) -> Json<Value> {
    Json(json!({ "s": s }))
}

fn main() {}
