use std::rc::Rc;

use ferrapi::prelude::*;

struct Cache {
    items: Rc<Vec<String>>,
}

#[get("/cache")]
async fn cache(cache: State<Cache>) -> Json<Value> {
    Json(json!({ "items": cache.items.len() }))
}

fn main() {}
