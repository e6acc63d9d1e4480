use ferrapi::prelude::*;

fn main() {
    let _unbalanced = group!("/items/{id");
    let _relative = group!("items");
    let _trailing = group!("/items/", tags("items"));
    let _empty_segment = group!("/a//b");
}
