use ferrapi::prelude::*;

const MIN: i64 = 0;

#[get("/items")]
async fn list_items(#[ge(MIN)] skip: i64, #[max_length(-1)] q: String) -> Json<Value> {
    Json(json!({ "skip": skip, "q": q }))
}

fn main() {}
