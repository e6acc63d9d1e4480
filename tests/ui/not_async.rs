use ferrapi::prelude::*;

#[get("/items")]
fn list_items() -> Json<Value> {
    Json(json!([]))
}

fn main() {}
