use ferrapi::prelude::*;

#[derive(Model)]
struct Cat {
    lives: i64,
}

// A variant holds a model; an integer is not one.
#[derive(Model)]
#[serde(tag = "kind")]
enum Pet {
    Cat(Cat),
    Count(i64),
}

fn main() {}
