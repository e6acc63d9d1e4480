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
    // FastAPI's `openapi_examples` is a parameter's, not a field's.
    #[openapi_examples(one = {"value": 1})]
    count: i64,
}

#[get("/items")]
async fn items(#[examples(, "a")] q: String, #[examples()] limit: i64) -> String {
    format!("{q}{limit}")
}

// Each example is named: `name = {..}`.
#[get("/named")]
async fn named(#[openapi_examples({"value": 1})] q: String, #[openapi_examples(one)] p: String) -> String {
    format!("{q}{p}")
}

fn main() {}
