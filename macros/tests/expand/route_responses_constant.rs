// A response's description given by a `&str` constant, by name or by path.

const UNAVAILABLE: &str = "The database is unavailable";

#[get("/doctors", tags("doctors"), responses(404 = "No doctor", 503 = UNAVAILABLE, 504 = crate::messages::TIMEOUT))]
async fn list_doctors(store: State<Store>) -> Result<Json<Vec<Doctor>>, HttpError> {
    store.doctors().await.map(Json)
}
