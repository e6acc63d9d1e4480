//! Request inputs beyond path, query and JSON: a login form issuing a token (OAuth2's password
//! flow), a route that token protects, a header, a cookie, and a file upload.
//!
//! Shows: `OAuth2PasswordRequestForm` (the `application/x-www-form-urlencoded` form Swagger UI's
//! "Authorize" dialog and OAuth2 clients post); `OAuth2PasswordBearer<TokenEndpoint>`, a
//! security scheme that reads the bearer token, answers 401 when it is missing and documents
//! itself, so `/docs` shows "Authorize"; a `#[dependency]` checking the token; `Header<String>`
//! (`user_agent` reads `User-Agent`); `Cookie<Option<String>>`; `file: UploadFile` next to
//! `note: Form<Option<String>>`, FastAPI's `file: UploadFile, note: str | None = Form(None)` (a
//! large file is spooled to a temporary file before the route runs, never held whole).
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example inputs
//! ```
//!
//! then open <http://127.0.0.1:8000/docs>: "Authorize" with `alice` / `wonderland`, then "Try it
//! out" on `/users/me`. `PORT` picks another port, `RUST_LOG` the log level. A session (real
//! output; with `curl -i` only the status line and the header of interest are kept):
//!
//! ```text
//! $ curl -d 'username=alice&password=wonderland' http://127.0.0.1:8000/token
//! {"access_token":"token-alice","token_type":"bearer"}
//!
//! $ curl -i http://127.0.0.1:8000/users/me
//! HTTP/1.1 401 Unauthorized
//! www-authenticate: Bearer
//! {"detail":"Not authenticated"}
//!
//! $ curl -H 'Authorization: Bearer token-alice' http://127.0.0.1:8000/users/me
//! {"username":"alice","full_name":"Alice Liddell"}
//!
//! $ curl -A 'curl/8' http://127.0.0.1:8000/agent
//! {"user_agent":"curl/8"}
//!
//! $ curl -b 'theme=dark' http://127.0.0.1:8000/preferences
//! {"theme":"dark"}
//!
//! $ curl -F 'file=@Cargo.toml' -F 'note=hello' http://127.0.0.1:8000/upload
//! {"filename":"Cargo.toml","content_type":"application/octet-stream","size":1007,"note":"hello"}
//! ```

use std::process::ExitCode;

use ferrapi::prelude::*;
use ferrapi::security::{OAuth2PasswordBearer, OAuth2PasswordRequestForm};
use serde::Serialize;

/// The users the example knows: user name, password, full name.
const USERS: &[(&str, &str, &str)] = &[
    ("alice", "wonderland", "Alice Liddell"),
    ("bob", "builder", "Bob the Builder"),
];

ferrapi::security::token_url!(
    /// Where a client posts a user name and password for a token: the `/token` route.
    pub TokenEndpoint = "/token"
);

/// An access token, as OAuth2 answers it.
#[derive(Serialize)]
pub struct Token {
    /// The token.
    pub access_token: String,
    /// Always `bearer`.
    pub token_type: &'static str,
}

/// Log in: a token for a known user name and password, 400 otherwise (as OAuth2 answers).
#[post("/token", status = 200, tags("auth"), responses(400 = "Incorrect username or password"))]
pub async fn login(form: OAuth2PasswordRequestForm) -> Result<Json<Token>, HttpError> {
    let known = USERS
        .iter()
        .any(|(name, password, _)| *name == form.username && *password == form.password);
    if !known {
        return Err(HttpError::new(400, "Incorrect username or password"));
    }
    Ok(Json(Token {
        access_token: format!("token-{}", form.username),
        token_type: "bearer",
    }))
}

/// A user, as the API shows them.
#[derive(Debug, Clone, Serialize)]
pub struct User {
    /// The user name.
    pub username: String,
    /// The full name.
    pub full_name: String,
}

/// The user the request's bearer token belongs to.
#[derive(Debug, Clone)]
pub struct CurrentUser(User);

/// Check the token `OAuth2PasswordBearer` read (it answered 401 already if there was none).
#[dependency(responses(401 = "Not authenticated"))]
async fn current_user(token: OAuth2PasswordBearer<TokenEndpoint>) -> Result<CurrentUser, Response> {
    let user = token
        .token()
        .strip_prefix("token-")
        .and_then(|name| USERS.iter().find(|(user, _, _)| *user == name));
    match user {
        Some((username, _, full_name)) => Ok(CurrentUser(User {
            username: (*username).to_owned(),
            full_name: (*full_name).to_owned(),
        })),
        None => Err(HttpError::new(401, "Invalid authentication credentials")
            .with_header(
                ferrapi::http::header::WWW_AUTHENTICATE,
                ferrapi::http::header::HeaderValue::from_static("Bearer"),
            )
            .into_response()),
    }
}

/// The current user (needs a token: "Authorize" on /docs).
#[get("/users/me", tags("users"))]
pub async fn read_me(user: CurrentUser) -> Json<User> {
    Json(user.0)
}

/// The client's `User-Agent` header.
#[get("/agent", tags("inputs"))]
pub async fn agent(user_agent: Header<String>) -> Json<Value> {
    Json(json!({ "user_agent": user_agent.0 }))
}

/// The `theme` cookie, if the client has one.
#[get("/preferences", tags("inputs"))]
pub async fn preferences(theme: Cookie<Option<String>>) -> Json<Value> {
    Json(json!({ "theme": theme.0 }))
}

/// Upload a file (and a note): its name, type and size. A large file is in a temporary file by
/// the time the route runs; `file.save_to(path)` would keep it, `file.read_all()` read it.
#[post("/upload", status = 200, tags("inputs"))]
pub async fn upload(file: UploadFile, note: Form<Option<String>>) -> Json<Value> {
    Json(json!({
        "filename": file.filename(),
        "content_type": file.content_type(),
        "size": file.size(),
        "note": note.0,
    }))
}

/// The example's app.
pub fn app() -> App {
    App::new()
        .title("inputs example")
        .routes(routes![login, read_me, agent, preferences, upload])
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> ExitCode {
    ferrapi::logging::init();
    ferrapi_examples::serve(app()).await
}
