use ferrapi::prelude::*;

#[derive(StrEnum)]
enum Side {
    #[value("buy")]
    Buy,
    #[value("buy")]
    Sell,
}

fn main() {}
