use ferrapi::prelude::*;

#[derive(Model)]
struct Cat {
    lives: i64,
}

// Each variant holds exactly one model: not a unit, not named fields, not two.
#[derive(Model)]
#[serde(tag = "kind")]
enum Pet {
    Cat(Cat),
    Nothing,
    Named { lives: i64 },
    Two(Cat, Cat),
}

#[derive(Model)]
#[serde(tag = "kind")]
enum Generic<T> {
    One(T),
}

fn main() {}
