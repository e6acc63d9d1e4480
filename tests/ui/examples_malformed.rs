use ferrapi::prelude::*;

#[derive(Model)]
struct Item {
    // No values.
    #[examples]
    name: String,
    // Empty.
    #[examples()]
    price: f64,
    // Not a list.
    #[examples = "x"]
    note: String,
    // Twice.
    #[examples(1)]
    #[examples(2)]
    size: i64,
}

#[get("/items")]
async fn items(#[examples(, "a")] q: String, #[examples()] limit: i64) -> String {
    format!("{q}{limit}")
}

fn main() {}
