use ferrapi::prelude::*;

#[derive(Model)]
struct Login {
    username: String,
}

/// A form field's type that is neither a model nor a scalar.
#[post("/nested")]
async fn nested(tags: Form<Vec<Vec<String>>>) -> &'static str {
    "no"
}

/// A whole-form model after a field: two bodies.
#[post("/mixed")]
async fn mixed(remember: Form<bool>, login: Form<Login>) -> &'static str {
    "no"
}

fn main() {}
