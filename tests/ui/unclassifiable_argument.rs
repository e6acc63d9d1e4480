use ferrapi::prelude::*;

struct Filter {
    name: String,
}

#[get("/items")]
async fn list_items(filter: Filter) -> Json<Value> {
    Json(json!({ "name": filter.name }))
}

fn main() {}
