use ferrapi::prelude::*;

fn main() {
    let _status = group!("/a", status = 201);
    let _responses = group!("/b", responses(42 = "Too low", 503 = 7));
    let _no_prefix = group!(tags("a"));
}
