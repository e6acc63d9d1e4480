use ferrapi::prelude::*;

#[derive(Clone)]
struct Token(String);

// Every mistake of a dependency's signature is reported at once, each at its own place.
#[dependency(status = 401)]
async fn token<T>(value: String) {
    let _ = value;
}

fn main() {}
