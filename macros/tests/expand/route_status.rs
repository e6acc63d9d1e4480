// `status = 201` on a route whose answer chooses no status: the runtime's `success::<T, 201>`
// converts it, turning its `200 OK` into `201 Created`.

#[post("/things", status = 201)]
async fn create_thing(name: String) -> Json<Value> {
    Json(json!({ "name": name }))
}
