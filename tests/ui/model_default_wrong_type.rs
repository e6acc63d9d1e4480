use ferrapi::prelude::*;

#[derive(Model)]
struct Settings {
    #[default("three")]
    retries: u8,
}

fn main() {}
