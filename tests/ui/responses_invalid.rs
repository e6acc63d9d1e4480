use ferrapi::prelude::*;

const NOT_FOUND: &str = "Not found";

// Each mistake in `responses(..)` is reported at the status or description that has it.
#[get(
    "/item/{id}",
    responses(404 = NOT_FOUND, 503 = 5, 700 = "Too high", "409" = "Conflict", 410 = String::from("Gone"))
)]
async fn read_item(id: i64) -> String {
    id.to_string()
}

fn main() {}
