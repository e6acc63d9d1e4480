// `#[dependency]` on an async fn returning `Result`: `impl Arg for CurrentUser`, its inputs a
// query parameter, a state and another dependency, its 401 documented on every route using it.

#[dependency(responses(401 = "Not authenticated"))]
async fn current_user(
    #[min_length(1)] token: String,
    users: State<Users>,
    settings: Settings,
) -> Result<CurrentUser, HttpError> {
    users.find(&token, &settings).await.ok_or_else(|| HttpError::new(401, "Not authenticated"))
}

// A plain fn: no `.await` of its result.
#[dependency]
fn pagination(#[default(0)] #[ge(0)] skip: i64, #[default(10)] limit: i64) -> Pagination {
    Pagination { skip, limit }
}
