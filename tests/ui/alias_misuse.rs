use ferrapi::prelude::*;

#[get("/items")]
async fn list_items(#[alias(5)] q: Option<String>, #[alias("a")] #[alias("b")] r: Option<String>) -> Json<Value> {
    Json(json!({ "q": q, "r": r }))
}

#[derive(Model)]
struct Item {
    #[alias("item-name")]
    name: String,
}

fn main() {}
