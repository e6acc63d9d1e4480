use ferrapi::prelude::*;

#[get("/item/{}")]
async fn read_item() -> Json<Value> {
    Json(json!({}))
}

fn main() {}
