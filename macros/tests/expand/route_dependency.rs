// A route taking a dependency beside a path and a query parameter: the handler extracts every
// argument synchronously, then, because one is a dependency (a constant the optimiser folds),
// resolves them in a boxed future before answering 422 or calling the function.

#[get("/users/{user_id}/items")]
async fn list_user_items(user_id: i64, user: CurrentUser, #[ge(0)] skip: i64) -> Json<Value> {
    Json(json!({ "user_id": user_id, "by": user.name, "skip": skip }))
}
