use ferrapi::prelude::*;

#[get("/item/{id}")]
async fn read_item(id: Option<i64>) -> Json<Value> {
    Json(json!({ "id": id }))
}

fn main() {}
