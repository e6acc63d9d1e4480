// Route options: success status, tags and extra documented responses.

/// Create a thing.
#[post("/things", status = 201, tags("things", "writes"), responses(409 = "Already exists", 422 = "Invalid"))]
async fn create_thing(thing: Thing) -> (StatusCode, Json<Thing>) {
    (StatusCode::CREATED, Json(thing))
}
