use ferrapi::prelude::*;

struct Point {
    x: f64,
    y: f64,
}

#[derive(Model)]
struct Shape {
    name: String,
    center: Point,
}

fn main() {}
