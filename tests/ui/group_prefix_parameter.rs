use ferrapi::prelude::*;

fn main() {
    let _braces = group!("/tenants/{tenant}");
    let _colon = group!("/tenants/:tenant/items");
}
