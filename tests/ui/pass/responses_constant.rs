// A response's description may be a `&str` constant (or static), by name or by path, so a
// description shared by many routes is written once.
use ferrapi::prelude::*;

mod messages {
    pub const UNAVAILABLE: &str = "The database is unavailable";
}

const NOT_FOUND: &str = "Not found";
static CONFLICT: &str = "Already exists";

#[get("/item/{id}", responses(404 = NOT_FOUND, 503 = messages::UNAVAILABLE))]
async fn read_item(id: i64) -> String {
    id.to_string()
}

#[post("/item", status = 201, responses(409 = CONFLICT, 503 = crate::messages::UNAVAILABLE, 422 = "Invalid"))]
async fn create_item() -> &'static str {
    "created"
}

fn main() {
    let service = App::new().routes(routes![read_item, create_item]).build();
    assert!(service.is_ok());
}
