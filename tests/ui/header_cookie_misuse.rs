use ferrapi::prelude::*;
use serde::Serialize;

#[derive(Model, Serialize)]
struct Item {
    name: String,
}

// A model is no header value.
#[get("/a")]
async fn model_header(item: Header<Item>) -> Json<Value> {
    Json(json!({ "name": item.0.name }))
}

// A cookie has one value.
#[get("/b")]
async fn cookie_list(tags: Cookie<Vec<String>>) -> Json<Value> {
    Json(json!({ "tags": tags.0 }))
}

// A length constraint on a numeric header.
#[get("/c")]
async fn constrained(#[max_length(3)] x_count: Header<i64>) -> Json<Value> {
    Json(json!({ "n": x_count.0 }))
}

// A form is a body: a route takes one.
#[post("/d")]
async fn two_bodies(item: Item, form: Form<Item>) -> Json<Value> {
    Json(json!({ "a": item.name, "b": form.0.name }))
}

fn main() {}
