use ferrapi::prelude::*;

#[get("/items")]
struct Items;

fn main() {}
