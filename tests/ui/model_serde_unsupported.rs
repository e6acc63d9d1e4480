use ferrapi::prelude::*;

/// serde attributes a model does not read: what serde writes would differ from what is read.
#[derive(Model, serde::Serialize)]
#[serde(deny_unknown_fields)]
struct Item {
    #[serde(default)]
    name: String,
    #[serde(rename(serialize = "p"))]
    price: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

#[derive(Model, serde::Serialize)]
#[serde(rename_all = "Title")]
struct Badly {
    first_name: String,
}

#[derive(Model, serde::Serialize)]
struct Cat {
    lives: i64,
}

#[derive(Model, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Pet {
    Cat(Cat),
}

fn main() {}
