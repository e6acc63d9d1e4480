use ferrapi::prelude::*;

#[get("/a/{id}/b/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

fn main() {}
