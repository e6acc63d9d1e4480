use ferrapi::prelude::*;

#[get(items)]
async fn list_items() -> Json<Value> {
    Json(json!([]))
}

fn main() {}
