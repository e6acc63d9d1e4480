// A body that awaits: the handler returns a boxed future (`boxed`) for the dispatcher to poll.

#[get("/item/{id}")]
async fn read_item(id: i64, store: State<Store>) -> Result<Json<Value>, HttpError> {
    store.get(id).await.map(Json)
}
