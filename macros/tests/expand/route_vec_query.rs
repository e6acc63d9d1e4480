// A repeated query parameter.

#[get("/search")]
async fn search(#[max_length(5)] tag: Vec<String>) -> Json<Vec<String>> {
    Json(tag)
}
