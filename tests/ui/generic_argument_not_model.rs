use ferrapi::prelude::*;

#[derive(Model)]
struct Page<T> {
    items: Vec<T>,
    total: u64,
}

// Not a model, so no schema and no JSON reading: not a type argument of `Page`.
struct Cursor {
    at: u64,
}

#[derive(Model)]
struct Catalog {
    pages: Vec<Page<Cursor>>,
}

#[post("/pages")]
async fn pages(page: Page<Cursor>) -> String {
    page.total.to_string()
}

fn main() {}
