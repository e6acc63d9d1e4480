//! Route groups: routes that share a path prefix, tags, default responses, dependencies and
//! layers, each stated once (FastAPI's `APIRouter`).
//!
//! Shows: an `/api/v1` group whose every route documents `503` (stated once, on the group); in
//! it, a `/books` group (tag `books`) whose routes are public, and an `/admin` group (tag
//! `admin`) whose routes all require a librarian's bearer token — the `Librarian` dependency runs
//! for each of them without being their argument (one route takes it as an argument too, and it
//! still runs once) — and whose answers carry `Cache-Control: no-store`, a layer around that
//! group alone; `/health` stays outside every group. Paths inside a group are written relative
//! to its prefix.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example groups
//! ```
//!
//! then try the session below; <http://127.0.0.1:8000/docs> shows the routes under their full
//! paths, by tag. `PORT` picks another port, `RUST_LOG` the log level (default `info`). Stop it
//! with Ctrl-C.
//!
//! A session from a fresh start (real output; with `curl -i` only the status line and the header
//! of interest are kept):
//!
//! ```text
//! $ curl 'http://127.0.0.1:8000/api/v1/books?limit=2'
//! [{"id":1,"title":"Dune","on_loan":false},{"id":2,"title":"Emma","on_loan":true}]
//!
//! $ curl -i http://127.0.0.1:8000/api/v1/admin/loans
//! HTTP/1.1 401 Unauthorized
//! www-authenticate: Bearer
//! {"detail":"Not authenticated"}
//!
//! $ curl -i -H 'Authorization: Bearer librarian-token' http://127.0.0.1:8000/api/v1/admin/loans
//! HTTP/1.1 200 OK
//! cache-control: no-store
//! [{"id":2,"title":"Emma","on_loan":true}]
//!
//! $ curl -H 'Authorization: Bearer librarian-token' -H 'Content-Type: application/json' \
//!     -d '{"title":"Ulysses"}' http://127.0.0.1:8000/api/v1/admin/books
//! {"id":4,"title":"Ulysses","on_loan":false,"added_by":"librarian"}
//!
//! $ curl http://127.0.0.1:8000/api/v1/books/9
//! {"detail":"Book not found"}
//! ```

use std::process::ExitCode;
use std::sync::Mutex;

use ferrapi::http::header::{HeaderValue, AUTHORIZATION, CACHE_CONTROL, WWW_AUTHENTICATE};
use ferrapi::prelude::*;
use serde::Serialize;

/// What `503` means on every route of the API group.
const UNAVAILABLE: &str = "The library is closed for maintenance";

/// A book.
#[derive(Debug, Clone, Serialize)]
pub struct Book {
    /// Its number.
    pub id: i64,
    /// Its title.
    pub title: String,
    /// Whether it is lent out.
    pub on_loan: bool,
}

/// A new book, as a librarian adds it.
#[derive(Model)]
pub struct NewBook {
    /// Its title.
    #[min_length(1)]
    pub title: String,
}

/// The library: its books.
pub struct Library {
    books: Mutex<Vec<Book>>,
}

impl Library {
    /// Three books, one of them on loan.
    pub fn sample() -> Self {
        let book = |id, title: &str, on_loan| Book {
            id,
            title: title.to_owned(),
            on_loan,
        };
        Library {
            books: Mutex::new(vec![
                book(1, "Dune", false),
                book(2, "Emma", true),
                book(3, "Walden", false),
            ]),
        }
    }

    fn books(&self) -> Vec<Book> {
        self.books.lock().map(|books| books.clone()).unwrap_or_default()
    }
}

/// 401 with `WWW-Authenticate: Bearer`.
fn unauthorized(detail: &'static str) -> Response {
    HttpError::new(401, detail)
        .with_header(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"))
        .into_response()
}

/// A librarian, known by bearer token.
#[derive(Debug, Clone)]
pub struct Librarian(String);

/// The request's librarian: 401 without a librarian's bearer token.
#[dependency(responses(401 = "Not authenticated"))]
async fn librarian(headers: HeaderMap) -> Result<Librarian, Response> {
    let token = headers
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match token {
        Some("librarian-token") => Ok(Librarian("librarian".to_owned())),
        Some(_) => Err(unauthorized("Invalid authentication credentials")),
        None => Err(unauthorized("Not authenticated")),
    }
}

/// Which page of a list to answer.
#[derive(Debug, Clone, Copy)]
pub struct Pagination {
    skip: usize,
    limit: usize,
}

#[dependency]
fn pagination(
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
) -> Pagination {
    Pagination {
        skip: usize::try_from(skip).unwrap_or(0),
        limit: usize::try_from(limit).unwrap_or(0),
    }
}

/// List the books, optionally those whose title contains `q`.
#[get("")]
pub async fn list_books(
    library: State<Library>,
    #[min_length(1)] q: Option<String>,
    page: Pagination,
) -> Json<Vec<Book>> {
    let books = library.books();
    let matching = books
        .into_iter()
        .filter(|book| q.as_ref().is_none_or(|q| book.title.contains(q.as_str())));
    Json(matching.skip(page.skip).take(page.limit).collect())
}

/// One book.
#[get("/{book_id}", responses(404 = "Book not found"))]
pub async fn read_book(library: State<Library>, book_id: i64) -> Result<Json<Book>, HttpError> {
    let found = library.books().into_iter().find(|book| book.id == book_id);
    found
        .map(Json)
        .ok_or_else(|| HttpError::not_found("Book not found"))
}

/// The books on loan (the group's `Librarian` dependency guards it).
#[get("/loans")]
pub async fn list_loans(library: State<Library>) -> Json<Vec<Book>> {
    Json(library.books().into_iter().filter(|book| book.on_loan).collect())
}

/// Add a book; the route takes the group's `Librarian` too, to name who added it.
#[post("/books", status = 201)]
pub async fn add_book(
    library: State<Library>,
    librarian: Librarian,
    book: NewBook,
) -> Result<Json<Value>, HttpError> {
    let mut books = library
        .books
        .lock()
        .map_err(|_| HttpError::new(503, UNAVAILABLE))?;
    let id = books.iter().map(|book| book.id).max().unwrap_or(0) + 1;
    books.push(Book {
        id,
        title: book.title.clone(),
        on_loan: false,
    });
    // `201 Created`: the route's `status = 201`.
    Ok(Json(
        json!({ "id": id, "title": book.title, "on_loan": false, "added_by": librarian.0 }),
    ))
}

/// Liveness, outside every group.
#[get("/health")]
pub async fn health() -> &'static str {
    "ok"
}

/// `Cache-Control: no-store` on every answer of the group it wraps.
fn no_store() -> tower::util::MapResponseLayer<fn(Response) -> Response> {
    tower::util::MapResponseLayer::new(|mut response: Response| {
        response
            .headers_mut()
            .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    })
}

/// The example's app over `library`.
pub fn app(library: Library) -> App {
    let books = group!("/books", tags("books")).routes(routes![list_books, read_book]);
    let admin = group!("/admin", tags("admin"), dependencies(Librarian))
        .routes(routes![list_loans, add_book])
        .layer(no_store());
    let api = group!("/api/v1", responses(503 = UNAVAILABLE))
        .group(books)
        .group(admin);
    App::new()
        .title("groups example")
        .state(library)
        .routes(routes![health])
        .group(api)
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> ExitCode {
    ferrapi::logging::init();
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app(Library::sample())).await
}
