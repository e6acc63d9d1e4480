// A `Result` return: the success response is read through `Result` and the tuple.

#[delete("/thing/{thing_id}", status = 204, responses(404 = "No such thing"))]
async fn delete_thing(thing_id: u64) -> Result<(StatusCode, String), HttpError> {
    if thing_id == 0 {
        return Err(HttpError::new(404, "No such thing"));
    }
    Ok((StatusCode::NO_CONTENT, String::new()))
}
