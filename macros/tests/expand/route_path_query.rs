// Path parameters, query parameters, a default and constraints.

/// List a user's items.
///
/// Filtered by name and paged.
#[get("/user/{user_id}/items/{kind}")]
pub async fn list_items(
    #[ge(1)] user_id: i64,
    #[min_length(3)] kind: String,
    q: Option<String>,
    #[default(10)]
    #[ge(0)]
    #[le(100)]
    limit: i64,
    #[gt(-1.5)] min_price: Option<f64>,
) -> Json<Value> {
    Json(json!({ "user_id": user_id, "kind": kind, "q": q, "limit": limit, "min_price": min_price }))
}
