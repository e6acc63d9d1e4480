// Mistakes found in the tokens: the function is re-emitted (attributes stripped) beside the errors.

#[get("/item/{id}/{missing}")]
async fn read_item(#[default(1)] id: i64, #[bogus] q: String) -> String {
    q
}
