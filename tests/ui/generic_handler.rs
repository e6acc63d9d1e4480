use ferrapi::prelude::*;

#[get("/items")]
async fn list_items<T>(q: i64) -> Json<Value> {
    Json(json!({ "q": q }))
}

fn main() {}
