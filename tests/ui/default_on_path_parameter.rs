use ferrapi::prelude::*;

#[get("/item/{id}")]
async fn read_item(#[default(0)] id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

fn main() {}
