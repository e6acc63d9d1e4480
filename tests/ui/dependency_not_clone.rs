use ferrapi::prelude::*;

// The per-request cache hands each use of a dependency a clone: a dependency must be `Clone`,
// reported at the route's argument.
struct Connection {
    id: u32,
}

#[dependency]
async fn connection() -> Connection {
    Connection { id: 1 }
}

#[get("/id")]
async fn id(connection: Connection) -> String {
    connection.id.to_string()
}

fn main() {}
