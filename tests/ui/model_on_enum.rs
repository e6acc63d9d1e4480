use ferrapi::prelude::*;

#[derive(Model)]
enum Shape {
    Circle,
    Square,
}

fn main() {}
