use ferrapi::prelude::*;

/// A `204` has no body.
#[delete("/items/{id}", status = 204)]
async fn delete_item(id: u64) -> Json<Value> {
    Json(json!({ "deleted": id }))
}

/// The route's status and the handler's disagree.
#[post("/items", status = 201)]
async fn create_item(name: String) -> (StatusCode, Json<Value>) {
    (StatusCode::OK, Json(json!({ "name": name })))
}

fn main() {}
