use ferrapi::prelude::*;

#[get("/item/{id}")]
async fn read_item() -> Json<Value> {
    Json(json!({}))
}

fn main() {}
