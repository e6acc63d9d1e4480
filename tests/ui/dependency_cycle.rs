use ferrapi::prelude::*;

// Two dependencies that take each other can never be resolved: a compile error, not a hang.
#[derive(Clone)]
struct Chicken;

#[derive(Clone)]
struct Egg;

#[dependency]
async fn chicken(_egg: Egg) -> Chicken {
    Chicken
}

#[dependency]
async fn egg(_chicken: Chicken) -> Egg {
    Egg
}

#[get("/first")]
async fn first(_chicken: Chicken) -> &'static str {
    "chicken"
}

fn main() {}
