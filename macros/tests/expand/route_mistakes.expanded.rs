// The expansion of the input file of the same name by ferrapi-macros, pretty-printed.
// Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p ferrapi-macros` and read the diff.

async fn read_item(id: i64, q: String) -> String {
    q
}
::core::compile_error! {
    "unknown attribute `#[bogus]`; arguments take `#[default(..)]`, `#[alias(..)]`, `#[examples(..)]`, `#[openapi_examples(..)]` and the constraints `ge`, `gt`, `le`, `lt`, `multiple_of`, `min_length`, `max_length`, `pattern`, `max_digits`, `decimal_places`"
}
::core::compile_error! {
    "path parameter `{missing}` has no argument named `missing`; add an argument such as `missing: i64` or `missing: String`"
}
::core::compile_error! {
    "`#[default]` cannot be used on path parameter `id`: a path parameter is always present"
}
