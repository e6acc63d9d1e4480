// Doc comments become the schema's and the properties' descriptions.

/// A registered user.
///
/// Created by `POST /users`.
#[derive(Model)]
struct User {
    /// The login name.
    name: String,
    /// Years since birth,
    /// rounded down.
    age: u8,
    email: Option<String>,
}
