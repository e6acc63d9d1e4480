use ferrapi::prelude::*;

#[derive(StrEnum)]
enum E {
    A(i32),
}

fn main() {}
