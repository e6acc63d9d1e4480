use ferrapi::prelude::*;

// The documented success status is an HTTP status, from 100 to 599.
#[post("/items", status = 2010)]
async fn create_item() -> &'static str {
    "created"
}

fn main() {}
