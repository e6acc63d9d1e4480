use ferrapi::prelude::*;

#[derive(Model)]
struct Point(f64, f64);

fn main() {}
