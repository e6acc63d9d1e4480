use ferrapi::prelude::*;

const UNAVAILABLE: i32 = 503;

// A constant used as a response's description must be a `&str`.
#[get("/items", responses(503 = UNAVAILABLE))]
async fn list_items() -> &'static str {
    "[]"
}

fn main() {}
