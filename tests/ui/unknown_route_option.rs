use ferrapi::prelude::*;

#[get("/x", bogus = 1)]
async fn x() -> Json<Value> {
    Json(json!({}))
}

fn main() {}
