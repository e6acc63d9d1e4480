// Injected arguments: shared state and the request's headers (not parameters of the API).

#[get("/count", include_in_schema = false)]
async fn count(counter: State<Counter>, headers: HeaderMap) -> Json<Value> {
    Json(json!({ "hits": counter.hit(), "headers": headers.len() }))
}
