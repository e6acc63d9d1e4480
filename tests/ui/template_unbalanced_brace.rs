use ferrapi::prelude::*;

#[get("/item/{id")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

fn main() {}
