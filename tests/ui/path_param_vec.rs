use ferrapi::prelude::*;

#[get("/items/{ids}")]
async fn read_items(ids: Vec<i64>) -> Json<Value> {
    Json(json!({ "ids": ids }))
}

fn main() {}
