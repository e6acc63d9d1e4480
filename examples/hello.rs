//! Hello world: one route, `GET /`, answering a JSON greeting.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example hello
//! ```
//!
//! then open <http://127.0.0.1:8000/>. Set `PORT` to listen elsewhere
//! (`PORT=3000 cargo run -p ferrapi-examples --example hello`); `RUST_LOG` sets the log level
//! (default `info`). Stop it with Ctrl-C.
//!
//! ```text
//! $ curl -i http://127.0.0.1:8000/
//! HTTP/1.1 200 OK
//! content-type: application/json
//! content-length: 25
//! date: ...
//!
//! {"message":"Hello World"}
//! ```
//!
//! The log on stderr shows the route table, the address and one line per request:
//!
//! ```text
//! 2026-11-25T22:58:14.612105Z  INFO route GET     /                                        hello
//! 2026-11-25T22:58:14.612140Z  INFO listening on http://127.0.0.1:8000
//! 2026-11-25T22:58:15.627120Z  INFO GET / 200 0.093ms
//! ```
//!
//! The generated OpenAPI document is at <http://127.0.0.1:8000/openapi.json>.

use std::process::ExitCode;

use ferrapi::prelude::*;

/// Greet the caller.
#[get("/")]
pub async fn hello() -> Json<Value> {
    Json(json!({ "message": "Hello World" }))
}

#[tokio::main]
async fn main() -> ExitCode {
    let _log = ferrapi::logging::init();
    let app = App::new().title("hello").routes(routes![hello]);
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app).await
}
