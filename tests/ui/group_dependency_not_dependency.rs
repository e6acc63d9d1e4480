use ferrapi::prelude::*;

/// A dependency that cannot be cached for the request.
struct NotClone;

#[dependency]
fn not_clone() -> NotClone {
    NotClone
}

/// Not an argument at all.
struct Plain;

fn main() {
    let _query = group!("/a", dependencies(i64));
    let _plain = group!("/b", dependencies(Plain));
    let _not_clone = group!("/c", dependencies(NotClone));
}
