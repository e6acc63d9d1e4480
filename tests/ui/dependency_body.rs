use ferrapi::prelude::*;

// A dependency reads query parameters, state, headers and other dependencies, not the JSON body.
#[derive(Model)]
struct Credentials {
    username: String,
}

#[derive(Clone)]
struct User(String);

#[dependency]
async fn login(credentials: Credentials) -> User {
    User(credentials.username)
}

fn main() {}
