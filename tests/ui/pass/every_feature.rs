// Every feature of the route macros used correctly: this must compile, and the app must build.
use std::sync::atomic::{AtomicU64, Ordering};

use ferrapi::prelude::*;

/// A JSON body.
#[derive(Model)]
struct Item {
    /// At least one character.
    #[min_length(1)]
    #[max_length(50)]
    name: String,
    /// Not negative.
    #[ge(0.0)]
    price: f64,
    /// Optional.
    tax: Option<f64>,
    /// Has a default.
    #[default(1)]
    #[gt(0)]
    quantity: u32,
    /// A list.
    tags: Vec<String>,
    /// An enum field, renamed in JSON.
    #[serde(rename = "kind")]
    order: Option<OrderType>,
}

/// A string enumeration.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum OrderType {
    #[value("buy")]
    Buy,
    #[value("sell")]
    Sell,
}

/// Shared state.
#[derive(Default)]
struct Counter {
    hits: AtomicU64,
}

/// Path, query, `Option`, default, `Vec`, `StrEnum`, constraints and tags.
#[get("/user/{user_id}/item/{item_id}", tags("items", "users"))]
async fn read_user_item(
    #[ge(1)] user_id: i64,
    #[min_length(3)] item_id: String,
    q: Option<String>,
    #[default(false)] short: bool,
    #[default(10)]
    #[ge(0)]
    #[le(100)]
    limit: i64,
    tag: Vec<String>,
    kind: Option<OrderType>,
    #[default(OrderType::Buy)] side: OrderType,
) -> Json<Value> {
    Json(json!({
        "user_id": user_id, "item_id": item_id, "q": q, "short": short, "limit": limit,
        "tag": tag, "kind": kind, "side": side,
    }))
}

/// A `StrEnum` path parameter, with the `:name` form.
#[get("/stock/:kind")]
async fn stock(kind: OrderType) -> String {
    kind.to_string()
}

/// A `Model` body with a path parameter, status and extra responses.
#[post("/item/{item_id}", status = 201, responses(404 = "Not found", 409 = "Conflict"))]
async fn create_item(item_id: i64, item: Item) -> Result<(StatusCode, Json<Value>), HttpError> {
    if item_id == 0 {
        return Err(HttpError::new(404, "Not found"));
    }
    let total = item.price + item.tax.unwrap_or(0.0);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "name": item.name, "total": total, "quantity": item.quantity,
            "tags": item.tags, "kind": item.order,
        })),
    ))
}

/// State and headers are injected; this route is not in the document.
#[get("/count", include_in_schema = false)]
async fn count(counter: State<Counter>, headers: HeaderMap) -> Json<Value> {
    let hits = counter.hits.fetch_add(1, Ordering::SeqCst) + 1;
    Json(json!({ "hits": hits, "headers": headers.len() }))
}

/// Other methods and return types.
#[put("/html/{name}")]
async fn html(name: String) -> Html<String> {
    Html(format!("<b>{}</b>", escape_html(&name)))
}

#[patch("/patch")]
async fn patch_it() -> &'static str {
    "patched"
}

#[delete("/item/{item_id}")]
async fn delete_item(item_id: u8) -> StatusCode {
    let _ = item_id;
    StatusCode::NO_CONTENT
}

/// An argument may share the function's name, and a function may share a name the generated
/// handler uses internally.
#[get("/echo/{echo}")]
async fn echo(echo: String, errors: Option<i64>, cx: Option<bool>) -> String {
    format!("{echo} {errors:?} {cx:?}")
}

#[get("/errors")]
async fn errors() -> &'static str {
    "none"
}

fn main() {
    let service = App::new()
        .state(Counter::default())
        .routes(routes![read_user_item, stock, create_item, count, html, patch_it, delete_item, echo, errors])
        .build();
    assert!(service.is_ok());
}

/// A response type that is only `Serialize`: documented without a schema.
#[derive(serde::Serialize)]
pub struct Report {
    total: i64,
}

#[get("/report")]
async fn report() -> Json<Report> {
    Json(Report { total: 0 })
}
