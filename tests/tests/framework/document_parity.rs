//! The OpenAPI document as FastAPI writes it (issue 32, item 5): an API written with the
//! constructs the manual covers, beside the same API written with FastAPI 0.165
//! (tests/fastapi/document_probe.py, its document recorded in
//! tests/fastapi/document_observed.json), compared as serialized text, so the order of every
//! object's keys counts, as do `operationId`, the absence of `default: null` and of a float's
//! `format`, the bounds' spelling and the defaults of uploads.
//!
//! The differences the manual keeps ("Differences from FastAPI") are written into one side
//! first, each by a function named after it, so anything else that differs fails the test.

use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi::schema::Tag;
use ferrapi::security::{HttpBearer, OAuth2PasswordRequestForm};
use ferrapi::testing::TestClient;
use ferrapi::types::{Datetime, Nullable};

/// Which side of the book.
#[derive(StrEnum, Debug, Clone, Copy)]
enum Side {
    #[value("buy")]
    Buy,
    #[value("sell")]
    Sell,
}

#[derive(Model, serde::Serialize)]
struct Line {
    /// What is traded.
    #[min_length(1)]
    symbol: String,
    #[gt(0)]
    quantity: i64,
}

/// An order of one or more lines.
#[derive(Model, serde::Serialize)]
struct Order {
    side: Side,
    lines: Vec<Line>,
    #[default(1)]
    priority: i64,
    note: Option<String>,
    next: Nullable<String>,
    #[default(Vec::new())]
    tags: Vec<String>,
    #[multiple_of(0.5)]
    #[ge(0)]
    #[le(1000.5)]
    #[default(1.0)]
    price: f64,
    #[min_length(2)]
    #[pattern("^[A-Z]+$")]
    #[max_length(8)]
    #[examples("AB")]
    #[default("AB".to_owned())]
    code: String,
    #[gt(0)]
    weight: Option<f64>,
    ratio: f64,
}

#[derive(Model, serde::Serialize)]
struct Price {
    #[ge(0)]
    amount: Decimal,
    at: Datetime,
}

#[get("/items/{item_id}", tags("items"))]
#[allow(clippy::too_many_arguments)]
async fn read_item(
    #[ge(1)] item_id: i64,
    q: Option<String>,
    #[default(false)] short: bool,
    tag: Vec<String>,
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    #[examples(10, 50)]
    limit: i64,
    #[min_length(2)]
    #[max_length(50)]
    name: Option<String>,
    #[default(1.5)]
    #[gt(0)]
    #[multiple_of(0.5)]
    price: f64,
    side: Option<Side>,
    #[openapi_examples(start = {"summary": "The start", "value": "0"})] cursor: Option<String>,
) -> Json<Value> {
    let _ = (item_id, q, short, tag, limit, name, price, side, cursor);
    Json(json!({}))
}

#[get("/items", tags("items"))]
async fn search(must: Nullable<String>, at: Datetime) -> Json<Value> {
    Json(json!({ "must": must, "at": at }))
}

#[post("/orders", status = 201, tags("orders"), responses(409 = "Name taken"))]
async fn create_order(order: Order) -> Json<Order> {
    Json(order)
}

#[get(
    "/orders",
    deprecated = true,
    operation_id = "list_orders",
    summary = "List the orders",
    response_description = "The orders"
)]
async fn orders() -> Json<Vec<Order>> {
    Json(Vec::new())
}

#[put("/orders/{order_id}")]
async fn update_order(
    order_id: i64,
    #[examples({"side": "buy", "lines": [], "next": null, "ratio": 1})] order: Order,
    x_token: Header<String>,
    #[default(1)]
    #[ge(1)]
    x_page: Header<i64>,
    session: Cookie<Option<String>>,
) -> Json<Order> {
    let _ = (order_id, x_token, x_page, session);
    Json(order)
}

#[delete("/orders/{order_id}", status = 204)]
async fn delete_order(order_id: i64) {
    let _ = order_id;
}

#[post("/prices")]
async fn set_price(price: Price) -> Json<Price> {
    Json(price)
}

#[post("/login")]
async fn login(
    username: Form<String>,
    #[min_length(3)] password: Form<String>,
    #[default(false)] remember: Form<bool>,
    #[default(Vec::new())] scope: Form<Vec<String>>,
    #[default(3)]
    #[ge(0)]
    #[le(5)]
    retries: Form<i64>,
) -> Json<Value> {
    let _ = (username, password, remember, scope, retries);
    Json(json!({}))
}

#[post("/profile")]
async fn profile(
    avatar: UploadFile,
    name: Form<String>,
    #[default(Vec::new())] extra: Vec<UploadFile>,
    cover: Option<UploadFile>,
) -> Json<Value> {
    let _ = (avatar, name, extra, cover);
    Json(json!({}))
}

#[post("/token")]
async fn token(form: OAuth2PasswordRequestForm) -> Json<Value> {
    let _ = form;
    Json(json!({}))
}

/// A page of results: `skip` and `limit` of the query.
#[derive(Clone)]
struct Page;

#[dependency]
async fn pagination(
    #[default(0)] skip: i64,
    #[default(10)]
    #[le(100)]
    limit: i64,
) -> Page {
    let _ = (skip, limit);
    Page
}

#[get("/me")]
async fn me(credentials: HttpBearer, page: Page) -> Json<Value> {
    let _ = (credentials, page);
    Json(json!({}))
}

#[get("/hello")]
async fn hello() -> String {
    "hello".to_owned()
}

#[get("/health", include_in_schema = false)]
async fn health() -> &'static str {
    "ok"
}

fn app() -> App {
    App::new()
        .title("Shop")
        .version("2.1.0")
        .description("What the shop sells.")
        .tag(Tag::new("items").description("The items."))
        .tag(Tag::new("orders"))
        .routes(routes![
            read_item,
            search,
            create_order,
            orders,
            update_order,
            delete_order,
            set_price,
            login,
            profile,
            token,
            me,
            hello,
            health
        ])
}

/// Every schema object of `value`, at any depth (`f` sees each object once).
fn each_object(value: &mut Value, f: &mut impl FnMut(&mut serde_json::Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            f(map);
            map.values_mut().for_each(|v| each_object(v, f));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| each_object(v, f)),
        _ => {}
    }
}

/// "the document of a file": ferrapi adds `format: binary` beside `contentMediaType`.
fn file_formats(ours: &mut Value) {
    each_object(ours, &mut |map| {
        if map.contains_key("contentMediaType") && map.get("format") == Some(&json!("binary")) {
            map.shift_remove("format");
        }
    });
}

/// "the title of a response schema that is no reference": FastAPI titles it
/// (`Response List Orders`), ferrapi does not.
fn response_titles(theirs: &mut Value) {
    let Some(Value::Object(paths)) = theirs.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut() {
        let Value::Object(item) = item else { continue };
        for operation in item.values_mut() {
            let Some(Value::Object(responses)) = operation.get_mut("responses") else {
                continue;
            };
            for response in responses.values_mut() {
                let Some(Value::Object(content)) = response.get_mut("content") else {
                    continue;
                };
                for media in content.values_mut() {
                    if let Some(Value::Object(schema)) = media.get_mut("schema") {
                        if !schema.contains_key("$ref") {
                            schema.shift_remove("title");
                        }
                    }
                }
            }
        }
    }
}

fn theirs() -> Value {
    let observed: Value =
        serde_json::from_str(include_str!("../../fastapi/document_observed.json")).unwrap_or(Value::Null);
    let mut document = observed["document"].clone();
    response_titles(&mut document);
    document
}

async fn ours() -> Value {
    let client = TestClient::new(app());
    let mut document: Value = client.get("/openapi.json").send().await.json();
    crate::recorded::without_integer_formats(&mut document);
    file_formats(&mut document);
    document
}

#[tokio::test]
async fn the_document_is_fastapis_key_order_included() {
    let (ours, theirs) = (ours().await, theirs());
    assert!(theirs["paths"].is_object(), "the recorded document is read");
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    // Path by path, then the components, so a failure names the part that differs.
    for (path, item) in theirs["paths"].as_object().into_iter().flatten() {
        assert_eq!(pretty(&ours["paths"][path]), pretty(item), "paths.{path}");
    }
    for (name, schema) in theirs["components"]["schemas"].as_object().into_iter().flatten() {
        assert_eq!(
            pretty(&ours["components"]["schemas"][name]),
            pretty(schema),
            "components.schemas.{name}"
        );
    }
    assert_eq!(pretty(&ours), pretty(&theirs));
}
