// Groups nest, take constants (and statics) as descriptions, dependencies by path, and an empty
// prefix.
use ferrapi::prelude::*;

mod messages {
    pub const UNAVAILABLE: &str = "The database is unavailable";
}

static GONE: &str = "Gone";

mod auth {
    #[derive(Clone)]
    pub struct User;

    #[ferrapi::dependency]
    pub fn user() -> User {
        User
    }
}

#[get("/{id}")]
async fn read_item(id: i64) -> String {
    id.to_string()
}

fn main() {
    let inner = group!("/items", tags("items"), responses(410 = GONE,), dependencies(auth::User,))
        .routes(routes![read_item]);
    let outer = group!("", responses(503 = messages::UNAVAILABLE)).group(inner);
    assert_eq!(outer.prefix(), "");
    let service = App::new().group(outer).build();
    assert!(service.is_ok());
}
