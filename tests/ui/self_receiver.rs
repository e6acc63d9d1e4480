use ferrapi::prelude::*;

struct Api;

impl Api {
    #[get("/items")]
    async fn list_items(&self) -> Json<Value> {
        Json(json!([]))
    }
}

fn main() {}
