use ferrapi::prelude::*;

// A model owns what it validated: it cannot borrow.
#[derive(Model)]
struct Borrowed<'a> {
    name: &'a str,
}

// pydantic parametrises models by types only.
#[derive(Model)]
struct Fixed<const N: usize> {
    items: Vec<i64>,
}

fn main() {}
