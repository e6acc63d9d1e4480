//! API versions: one handler per route serves three dated versions of a product catalogue.
//!
//! Shows: `App::versions`, a model that says how its fields were before each version
//! (`#[since(..)]`: renamed, retyped, added, a constraint changed; `#[model(removed(..))]`), a
//! success status that changed (`status_before`), a route added and a route removed
//! (`versions = ..`), a streamed answer whose items change with the model (`JsonLines<Product>`,
//! each line in the request's version's shape, each version's document giving its items'
//! schema), and a document per version. What changed, version by version:
//!
//! | Version | Changes (from the one before) |
//! |---|---|
//! | `2026-01-15` | the first: `title`, a price in cents, a `legacy_code`; `POST /products` answers 200 |
//! | `2026-03-01` | `title` renamed `name`; the price in euros (a number); `POST /products` answers 201; `GET /products/by-title/{title}` removed |
//! | `2026-06-01` | `tags` added; `legacy_code` removed; a `name` of up to 100 characters (was 20); `GET /products` added |
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example versions
//! ```
//!
//! A session (real output; with `curl -i` only the status line is kept). A request names its
//! version in `API-Version`, and gets the newest without one:
//!
//! ```text
//! $ curl -H 'API-Version: 2026-01-15' http://127.0.0.1:8000/products/1
//! {"title":"Hammer","price":1250,"legacy_code":"L-Hammer"}
//!
//! $ curl -H 'API-Version: 2026-03-01' http://127.0.0.1:8000/products/1
//! {"name":"Hammer","price":12.5,"legacy_code":"L-Hammer"}
//!
//! $ curl http://127.0.0.1:8000/products/1
//! {"name":"Hammer","price":12.5,"tags":["tools"]}
//!
//! $ curl -H 'API-Version: 2026-01-15' http://127.0.0.1:8000/products.jsonl
//! {"title":"Hammer","price":1250,"legacy_code":"L-Hammer"}
//! {"title":"Saw","price":2000,"legacy_code":"L-Saw"}
//!
//! $ curl http://127.0.0.1:8000/products.jsonl
//! {"name":"Hammer","price":12.5,"tags":["tools"]}
//! {"name":"Saw","price":20.0,"tags":[]}
//!
//! $ curl -i -X POST http://127.0.0.1:8000/products -H 'API-Version: 2026-01-15' \
//!        -H 'content-type: application/json' -d '{"title":"Saw","price":2000,"legacy_code":"S"}'
//! HTTP/1.1 200 OK
//! {"title":"Saw","price":2000,"legacy_code":"L-Saw"}
//!
//! $ curl -X POST http://127.0.0.1:8000/products -H 'API-Version: 2026-01-15' \
//!        -H 'content-type: application/json' -d '{"name":"Saw","price":-1}'
//! {"detail":[{"type":"missing","loc":["body","title"],"msg":"Field required","input":{"name":"Saw","price":-1}},{"type":"greater_than_equal","loc":["body","price"],"msg":"Input should be greater than or equal to 0","input":-1,"ctx":{"ge":0}},{"type":"missing","loc":["body","legacy_code"],"msg":"Field required","input":{"name":"Saw","price":-1}}]}
//! ```
//!
//! Each version's document: <http://127.0.0.1:8000/openapi/2026-01-15.json> (and `2026-03-01`,
//! `2026-06-01`), each ending its description with what changed at it;
//! <http://127.0.0.1:8000/openapi/changes.json> has all the changes as JSON;
//! <http://127.0.0.1:8000/docs> switches between them. The same app under FastAPI
//! and Cadwyn is `tests/fastapi/versions_cadwyn_app.py`; the manual's *API versions* chapter
//! compares the two.

use std::process::ExitCode;

use ferrapi::prelude::*;
use ferrapi::streaming::JsonLines;
use ferrapi::versions::Versions;
use futures_util::stream;

/// A product, as the newest version has it; the attributes say how it was before.
#[derive(Model, Debug, Clone)]
#[model(removed("2026-06-01", legacy_code: String, backward = legacy_code_of))]
pub struct Product {
    /// Its name: `title` before 2026-03-01, at most 20 characters before 2026-06-01.
    #[since("2026-03-01", renamed_from = "title")]
    #[since("2026-06-01", was_constraints(max_length = 20))]
    #[max_length(100)]
    pub name: String,
    /// Its price in euros: a whole number of cents before 2026-03-01.
    #[since("2026-03-01", was = i64, forward = cents_to_euros, backward = euros_to_cents, was_constraints(ge = 0))]
    #[ge(0.0)]
    pub price: f64,
    /// Its tags: none before 2026-06-01 (an older request gets none).
    #[since("2026-06-01", default = Vec::new())]
    pub tags: Vec<String>,
}

/// An older request's price, moved forward.
fn cents_to_euros(cents: i64) -> Result<f64, String> {
    Ok(cents as f64 / 100.0)
}

/// The newest price, written back for an older answer.
fn euros_to_cents(euros: &f64) -> i64 {
    (euros * 100.0).round() as i64
}

/// What an older answer has in the field removed at 2026-06-01.
fn legacy_code_of(product: &Product) -> String {
    format!("L-{}", product.name)
}

/// The catalogue (a real app keeps it in a store).
fn catalogue() -> Vec<Product> {
    let product = |name: &str, price, tags: &[&str]| Product {
        name: name.to_owned(),
        price,
        tags: tags.iter().map(|tag| (*tag).to_owned()).collect(),
    };
    vec![product("Hammer", 12.5, &["tools"]), product("Saw", 20.0, &[])]
}

/// One product, by its number.
#[get("/products/{id}")]
pub async fn read_product(id: i64) -> Result<Json<Product>, HttpError> {
    let index = usize::try_from(id).ok().and_then(|id| id.checked_sub(1));
    let found = index.and_then(|index| catalogue().get(index).cloned());
    found
        .map(Json)
        .ok_or_else(|| HttpError::new(404, json!(format!("Product {id} not found"))))
}

/// Add a product (this example only echoes it): 201 since 2026-03-01, 200 before.
#[post("/products", status = 201, status_before("2026-03-01" = 200))]
pub async fn create_product(product: Product) -> Json<Product> {
    Json(product)
}

/// The whole catalogue: new in 2026-06-01.
#[get("/products", versions = "2026-06-01"..)]
pub async fn list_products() -> Json<Vec<Product>> {
    Json(catalogue())
}

/// The whole catalogue as JSON lines.
///
/// One product a line, each in the shape of the request's version, sent as the client reads
/// them. In every version: a route added to released versions is a compatible change.
#[get("/products.jsonl")]
pub async fn product_feed() -> JsonLines<Product> {
    JsonLines::new(stream::iter(catalogue()))
}

/// A product by its title: gone in 2026-03-01, when titles became names.
#[get("/products/by-title/{title}", versions = .."2026-03-01")]
pub async fn find_by_title(title: String) -> Result<Json<Product>, HttpError> {
    let found = catalogue().into_iter().find(|product| product.name == title);
    found
        .map(Json)
        .ok_or_else(|| HttpError::new(404, json!(format!("No product titled {title}"))))
}

/// The app: three released versions, the newest the default.
pub fn app() -> App {
    App::new()
        .title("versions example")
        .versions(Versions::released(["2026-01-15", "2026-03-01", "2026-06-01"]))
        .routes(routes![
            read_product,
            create_product,
            list_products,
            find_by_title,
            product_feed
        ])
}

#[tokio::main]
async fn main() -> ExitCode {
    let _log = ferrapi::logging::init();
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app()).await
}
