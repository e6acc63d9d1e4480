//! Route group B: a small JSON, text and HTML API with bird storage (the spec's group B table).
//!
//! Rules enforced here:
//! - routes are declared in the spec's order, so the HTML form of `/student/:username`, declared
//!   second, is shadowed by the JSON form (declared anyway; the start-up route table shows it);
//! - content types are the spec's: JSON, `text/plain; charset=utf-8`, `text/html; charset=utf-8`;
//! - every dynamic string placed in HTML goes through [`escape_html`];
//! - `employee/:id` is a zero-based index into [`EMPLOYEES`]; no employee there → 404 with the JSON
//!   string `"Empleat no trobat"`; a non-integer id is the framework's 422;
//! - a bird is any JSON object, stored as sent (the store assigns `_id`); a body that is not a
//!   JSON object is refused by the framework (422) before the store is touched;
//! - "as sent" includes every number's text, byte for byte (`1E5`, `-0`, `1.50`,
//!   `18446744073709551616` and `1e-400` read back as written): a bird is read as exact JSON
//!   ([`ExactBody`]), stored with `insert_exact` and answered from `find_one_exact`; a number that
//!   no store can keep exactly (more than 34 significant digits, or a magnitude beyond a BSON
//!   Decimal128's, see [`ExactDocument`]) is a 422 naming each such number (the first
//!   [`MAX_LISTED`](crate::store::MAX_LISTED) of them), and nothing is stored: a number is never
//!   rounded, on either store;
//! - a bird is never a tree of values: it is read in one pass into its text, stored as that text
//!   (or BSON written from it in one pass), and answered as the text the store gives back, so a
//!   bird's memory is a small multiple of its size (see `exact`);
//! - `GET /api/bird/:name` answers the first inserted bird of that name, or 404 `Not Found` as
//!   text; the name is only ever a value to compare; room for the largest bird is asked of the
//!   memory budget before one is loaded (503 with `Retry-After: 1` when there is none);
//! - `GET /api/env` discloses the connection string, so it is in [`group()`] only when asked
//!   for (`--expose-env`, on by default): left out, it is neither routed nor documented;
//! - a store failure answers with its status (503 while the database is unavailable) and a
//!   client-safe `{"detail": …}`; its cause goes to the log.

use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::memory::Memory;
use ferrapi::prelude::*;

use crate::config::ReportedConnString;
use crate::exact::ExactBody;
use crate::store::{ExactDocument, Store};
use crate::store_http::{store_failure, unstorable_numbers, STORE_UNAVAILABLE};

/// The collection birds are stored in.
pub const BIRDS: &str = "birds";

/// What reading one bird holds at most: its stored text and the answer made of it (a bird is at
/// most a body, 1 MiB, and its stored text is no longer than the body sent).
pub const BIRD_READ_ROOM: usize = 2 * 1024 * 1024;

/// The ordered employee list of group B (looked up by zero-based position).
pub const EMPLOYEES: [&str; 4] = ["Anna Puig", "Jordi Soler", "Marta Vidal", "Pau Ferrer"];

/// What `GET /post/:id` prints for `page` when the query has none.
pub const DEFAULT_PAGE: &str = "1";

/// The value of the `X-Message` header of `GET /post/:id`.
pub const X_MESSAGE: &str = "Post served by the Resource API";

const CONTENT_TYPE: HeaderName = ferrapi::http::header::CONTENT_TYPE;
const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");

// Checked when compiling (`from_static` in a constant), so building the header cannot fail.
const X_MESSAGE_NAME: HeaderName = HeaderName::from_static("x-message");
const X_MESSAGE_VALUE: HeaderValue = HeaderValue::from_static(X_MESSAGE);

/// A greeting.
#[get("/api/hello")]
pub async fn hello() -> Json<Value> {
    Json(json!({ "ok": true, "message": "Hello from the Resource API" }))
}

/// An employee by zero-based position; 404 with the JSON string `"Empleat no trobat"` when there
/// is none.
#[get("employee/:id", responses(404 = "Empleat no trobat"))]
pub async fn read_employee_by_index(id: i64) -> Result<Json<Value>, (StatusCode, Json<&'static str>)> {
    usize::try_from(id)
        .ok()
        .and_then(|index| EMPLOYEES.get(index))
        .map(|name| Json(json!({ "name": name })))
        .ok_or((StatusCode::NOT_FOUND, Json("Empleat no trobat")))
}

/// A student, as JSON.
#[get("/student/:username")]
pub async fn read_student(username: String) -> Json<Value> {
    Json(json!({ "student": username }))
}

/// A student, as an HTML greeting (declared second: shadowed by `read_student`).
#[get("/student/:username")]
pub async fn read_student_html(username: String) -> Html<String> {
    Html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Student</title></head>\n\
         <body><h1>Hello, {}!</h1></body>\n</html>\n",
        escape_html(&username)
    ))
}

/// A static HTML page with a heading.
#[get("/page")]
pub async fn page() -> Html<&'static str> {
    Html(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>Page</title></head>\n\
         <body><h1>Welcome to the Resource API</h1></body>\n</html>\n",
    )
}

/// Which page of a post the client wants, as text; sets `X-Message`. Without `page`, page
/// [`DEFAULT_PAGE`] is meant.
#[get("/post/:id")]
pub async fn read_post(id: String, page: Option<String>) -> ([(HeaderName, HeaderValue); 1], String) {
    let page = page.unwrap_or_else(|| DEFAULT_PAGE.to_owned());
    (
        [(X_MESSAGE_NAME, X_MESSAGE_VALUE)],
        format!("You want to see {page} of {id}"),
    )
}

/// Create a post: 201 with a text body.
#[post("/post/", status = 201)]
pub async fn create_post() -> (StatusCode, &'static str) {
    (StatusCode::CREATED, "Post created")
}

/// Delete a post, as text.
#[delete("/post/:id")]
pub async fn delete_post(id: String) -> String {
    format!("{id} is deleted!")
}

/// The database connection string in effect (the spec requires this route; it discloses any
/// credential the string carries).
#[get("/api/env")]
pub async fn read_env(conn: State<ReportedConnString>) -> Json<Value> {
    let ReportedConnString(value) = &*conn;
    Json(json!({ "DB_CONN_STRING": value }))
}

/// Store any JSON object as a bird; answers its new id.
///
/// Every number is kept as the text sent, and read back so. A number no store can keep exactly
/// (more than 34 significant digits, or a magnitude outside 1E-6176 to 1E+6145) is a 422 naming
/// it, and nothing is stored.
#[post("/api/bird/", responses(503 = STORE_UNAVAILABLE))]
pub async fn create_bird(store: State<Store>, bird: Json<ExactBody>) -> Result<Json<Value>, HttpError> {
    let Json(body) = bird;
    let document = ExactDocument::new(body).map_err(|refused| unstorable_numbers(&refused))?;
    let id = store
        .insert_exact(BIRDS, document)
        .await
        .map_err(|err| store_failure(&err))?;
    Ok(Json(json!({ "id": id })))
}

/// The first stored bird with this name; 404 `Not Found` (text) when there is none.
///
/// Its numbers are the texts they were sent as.
#[get("/api/bird/:name", responses(404 = "Not Found", 503 = STORE_UNAVAILABLE))]
pub async fn read_bird(store: State<Store>, memory: Memory, name: String) -> Result<Response, HttpError> {
    // Room for the largest bird is asked before one is loaded: under answers nobody reads, a read
    // the memory budget has no room for is refused without loading its bird (each such read had
    // loaded it, only for its answer to be refused).
    let room = match memory.reserve(BIRD_READ_ROOM).await {
        Ok(room) => Some(room),
        // A budget set below one bird's room: read it anyway (its answer is charged as usual).
        Err(refused) if refused.is_too_large() => None,
        Err(refused) => return Ok(refused.into_response()),
    };
    let found = store.find_one_exact(BIRDS, "name", &Value::String(name)).await;
    // Given back before the answer is charged in its place.
    drop(room);
    match found {
        // The stored text as it is: nothing parses or re-serialises it.
        Ok(Some(bird)) => Ok(([(CONTENT_TYPE, APPLICATION_JSON)], bird).into_response()),
        Ok(None) => Ok((StatusCode::NOT_FOUND, "Not Found").into_response()),
        Err(err) => Err(store_failure(&err)),
    }
}

/// Group B: its routes in the spec's order, `GET /api/env` among them only when `expose_env` (it
/// discloses the connection string): a route left out is neither served nor documented. No
/// prefix, tag or default response of its own.
pub fn group(expose_env: bool) -> Group {
    let mut routes = ferrapi::routes![
        hello,
        read_employee_by_index,
        read_student,
        read_student_html,
        page,
        read_post,
        create_post,
        delete_post,
    ];
    if expose_env {
        routes.extend(ferrapi::routes![read_env]);
    }
    routes.extend(ferrapi::routes![create_bird, read_bird]);
    group!("").routes(routes)
}
