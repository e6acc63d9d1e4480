use ferrapi::prelude::*;

#[derive(Model)]
struct Item {
    name: String,
}

#[get("/item/{item}")]
async fn read_item(item: Item) -> Json<Value> {
    Json(json!({ "name": item.name }))
}

fn main() {}
