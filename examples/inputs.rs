//! Request inputs beyond path, query and JSON: a login form issuing a token (OAuth2's password
//! flow), a route that token protects, a header, a cookie, and a file upload.
//!
//! Shows: `Form<Login>` (an `application/x-www-form-urlencoded` body into a model, as Swagger UI's
//! "Authorize" dialog and OAuth2 clients post it); `OAuth2PasswordBearer<TokenEndpoint>`, a
//! security scheme that reads the bearer token, answers 401 when it is missing and documents
//! itself, so `/docs` shows "Authorize"; a `#[dependency]` checking the token; `Header<String>`
//! (`user_agent` reads `User-Agent`); `Cookie<Option<String>>`; `Multipart<UploadParts>`, an upload
//! read part by part, each file streamed to a temporary file, never held whole.
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
//! {"files":[{"name":"file","file_name":"Cargo.toml","content_type":"application/octet-stream","size":1007}],"note":"hello"}
//! ```

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use ferrapi::arg::{PartDoc, UploadDoc};
use ferrapi::prelude::*;
use ferrapi::security::OAuth2PasswordBearer;
use ferrapi::{Multipart, MultipartError};
use serde::Serialize;

/// The users the example knows: user name, password, full name.
const USERS: &[(&str, &str, &str)] = &[
    ("alice", "wonderland", "Alice Liddell"),
    ("bob", "builder", "Bob the Builder"),
];

ferrapi::token_url!(
    /// Where a client posts a user name and password for a token: the `/token` route.
    pub TokenEndpoint = "/token"
);

/// OAuth2's password-flow form (Swagger UI's "Authorize" dialog posts it; its other fields,
/// `grant_type`, `scope`, `client_id`, are ignored here).
#[derive(Model)]
pub struct Login {
    /// The user name.
    pub username: String,
    /// The password.
    pub password: String,
}

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
pub async fn login(form: Form<Login>) -> Result<Json<Token>, HttpError> {
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
        None => {
            let mut response = HttpError::new(401, "Invalid authentication credentials").into_response();
            response.headers_mut().insert(
                ferrapi::header::WWW_AUTHENTICATE,
                ferrapi::header::HeaderValue::from_static("Bearer"),
            );
            Err(response)
        }
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

/// What `/upload` takes, for the document (Swagger UI shows a file picker for `file`).
pub struct UploadParts;

impl UploadDoc for UploadParts {
    const NAME: &'static str = "UploadParts";
    const PARTS: &'static [PartDoc] = &[PartDoc::file("file"), PartDoc::text("note").optional()];
}

/// Uploads so far, to name the temporary files.
static UPLOADS: AtomicU64 = AtomicU64::new(0);

/// Upload files (and a note): each file is streamed to a temporary file, then removed; the
/// answer gives each one's name, type and size.
#[post("/upload", status = 200, tags("inputs"))]
pub async fn upload(mut form: Multipart<UploadParts>) -> Result<Json<Value>, MultipartError> {
    let (mut files, mut note) = (Vec::new(), None);
    while let Some(mut part) = form.next_part().await? {
        if part.file_name().is_none() {
            note = Some(part.text().await?);
            continue;
        }
        let n = UPLOADS.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("ferrapi-example-{}-{n}", std::process::id()));
        let size = part.save_to(&path).await?;
        let _ = std::fs::remove_file(&path);
        files.push(json!({
            "name": part.name(),
            "file_name": part.file_name(),
            "content_type": part.content_type(),
            "size": size,
        }));
    }
    Ok(Json(json!({ "files": files, "note": note })))
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
