use ferrapi::prelude::*;

// Three independent mistakes: `{id}` has no argument, `#[default]` on an `Option`, and an
// unknown attribute. All three are reported.
#[get("/item/{id}")]
async fn read_item(
    #[default(None)] q: Option<String>,
    #[maximum(3)] limit: i64,
) -> Json<Value> {
    Json(json!({ "q": q, "limit": limit }))
}

fn main() {}
