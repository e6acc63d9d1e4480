// `#[examples(..)]` and `#[openapi_examples(..)]` on a path parameter, a query parameter and the
// body: each argument's documentation runs through the operation's `with_examples` /
// `with_openapi_examples`; the argument without either is documented as before.

#[post("/items/{item_id}")]
async fn update_item(
    #[examples(42)] item_id: i64,
    #[examples("foo", "bar")]
    #[openapi_examples(normal = {"value": "foo"})]
    q: Option<String>,
    limit: i64,
    #[openapi_examples(one = {"summary": "One item", "value": {"name": "Foo"}})] item: Item,
) -> Json<Value> {
    Json(json!({ "item_id": item_id, "q": q, "limit": limit, "name": item.name }))
}
