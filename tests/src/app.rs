//! The example app the HTTP tests run against: one route per parameter kind and error type.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};

use ferrapi::http::Method;
use ferrapi::prelude::*;
use ferrapi::Service;
use serde::Serialize;

/// The item body of the spec.
#[derive(Model, Serialize)]
pub struct Item {
    /// The item's name.
    pub name: String,
    /// An optional description.
    pub description: Option<String>,
    /// The price.
    pub price: f64,
    /// An optional tax.
    pub tax: Option<f64>,
}

/// The spec's order type.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderType {
    /// Buy at the ask.
    #[value("buy")]
    Buy,
    /// Sell at the bid.
    #[value("sell")]
    Sell,
}

/// A nested part of [`Nested`].
#[derive(Model, Serialize)]
pub struct Inner {
    /// A label.
    pub label: String,
    /// A weight.
    pub weight: f64,
}

/// A body with every field shape.
#[derive(Model, Serialize)]
pub struct Nested {
    /// At least two characters.
    #[min_length(2)]
    pub title: String,
    /// An integer.
    pub count: i64,
    /// Not negative.
    #[ge(0)]
    pub qty: i64,
    /// A nested model.
    pub inner: Inner,
    /// A list of integers.
    pub ids: Vec<i64>,
    /// A map of integers.
    pub scores: BTreeMap<String, i64>,
    /// Renamed in JSON.
    #[serde(rename = "kind")]
    pub order: Option<OrderType>,
    /// Has a default.
    #[default(3)]
    pub retries: u8,
}

/// A request counter, shared state.
#[derive(Default)]
pub struct Counter {
    /// Requests counted.
    pub hits: AtomicU64,
}

/// Greet.
#[get("/")]
pub async fn root() -> Json<Value> {
    Json(json!({"message": "Hello World"}))
}

/// Read an item by integer id.
#[get("/item/{id}")]
pub async fn read_item(id: i64) -> Json<Value> {
    Json(json!({"id": id}))
}

/// The required-parameter form.
#[get("/items/:item_id")]
pub async fn read_needy(
    item_id: String,
    needy: String,
    #[default(0)] skip: i64,
    limit: Option<i64>,
) -> Json<Value> {
    Json(json!({"item_id": item_id, "needy": needy, "skip": skip, "limit": limit}))
}

/// The current user.
#[get("/user/me")]
pub async fn read_me() -> Json<Value> {
    Json(json!({"user_id": "the current user"}))
}

/// A user by id.
#[get("/user/{id}")]
pub async fn read_user(id: String) -> Json<Value> {
    Json(json!({"id": id}))
}

/// One item of a user.
///
/// Shows path, optional and defaulted query parameters together.
#[get("/user/{user_id}/item/{item_id}", tags("items"))]
pub async fn read_user_item(
    user_id: i64,
    item_id: String,
    q: Option<String>,
    #[default(false)] short: bool,
) -> Json<Value> {
    let mut item = json!({"item_id": item_id, "owner_id": user_id});
    if let Some(q) = q.filter(|q| !q.is_empty()) {
        item["q"] = json!(q);
    }
    if !short {
        item["description"] = json!("This is an amazing item that has a long description");
    }
    Json(item)
}

/// A quote.
#[get("/stock/{symbol}/{type}")]
pub async fn stock(symbol: String, r#type: OrderType) -> Json<Value> {
    let price = if r#type == OrderType::Buy { 101.5 } else { 101.25 };
    Json(json!({"symbol": symbol, "price": price, "type": r#type}))
}

/// A page of persons.
#[get("/person")]
pub async fn persons(
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(5)]
    #[ge(0)]
    limit: i64,
) -> Json<Value> {
    let names: Vec<Value> = (0..10).map(|i| json!({"name": format!("person {i}")})).collect();
    let start = (skip as usize).min(names.len());
    let end = start.saturating_add(limit as usize).min(names.len());
    Json(Value::Array(names[start..end].to_vec()))
}

/// Every constraint kind.
#[get("/constrained")]
pub async fn constrained(
    #[gt(0)]
    #[le(10)]
    a: i64,
    #[default(1.5)]
    #[lt(2.5)]
    #[ge(0.5)]
    b: f64,
    #[default("xy".to_owned())]
    #[min_length(2)]
    #[max_length(3)]
    s: String,
) -> Json<Value> {
    Json(json!({"a": a, "b": b, "s": s}))
}

/// A float.
#[get("/floats")]
pub async fn floats(f: f64) -> Json<Value> {
    Json(json!({"f": f}))
}

/// A small unsigned integer.
#[get("/small/{v}")]
pub async fn small(v: u8) -> Json<Value> {
    Json(json!({"v": v}))
}

/// Repeated query parameters.
#[get("/tags")]
pub async fn tags(tag: Vec<String>, n: Vec<i64>) -> Json<Value> {
    Json(json!({"tag": tag, "n": n}))
}

/// An optional enum query parameter.
#[get("/orders")]
pub async fn orders(kind: Option<OrderType>, #[default(OrderType::Sell)] side: OrderType) -> Json<Value> {
    Json(json!({"kind": kind, "side": side}))
}

/// Echo an item.
#[post("/item", status = 200)]
pub async fn create_item(item: Item) -> Json<Value> {
    let mut out = serde_json::to_value(&item).unwrap_or_default();
    if let Some(tax) = item.tax {
        out["price_with_tax"] = json!(item.price + tax);
    }
    Json(out)
}

/// Replace an item.
#[put("/item/{item_id}")]
pub async fn update_item(item_id: i64, item: Item, q: Option<String>) -> Json<Value> {
    let mut out = json!({"item_id": item_id, "name": item.name, "description": item.description, "price": item.price, "tax": item.tax});
    if let Some(q) = q.filter(|q| !q.is_empty()) {
        out["q"] = json!(q);
    }
    Json(out)
}

/// Every body shape.
#[post("/nested")]
pub async fn nested(body: Nested) -> Json<Nested> {
    Json(body)
}

/// Any JSON object as the body.
#[post("/any")]
pub async fn any_object(body: Json<serde_json::Map<String, Value>>) -> Json<Value> {
    Json(json!({"keys": body.0.len(), "body": body.0}))
}

/// Handlers can fail with an HTTP error.
#[get("/employee/{id}", responses(404 = "Employee not found"))]
pub async fn employee(id: i64) -> Result<Json<Value>, HttpError> {
    match id {
        1 => Ok(Json(json!({"name": "Ada", "job": "engineer"}))),
        _ => Err(HttpError::new(404, "Employee not found")),
    }
}

/// A bare JSON string body.
#[get("/string-body")]
pub async fn string_body() -> (StatusCode, Json<&'static str>) {
    (StatusCode::NOT_FOUND, Json("Empleat no trobat"))
}

/// HTML with an escaped name.
#[get("/hello/:name")]
pub async fn hello_html(name: String) -> Html<String> {
    Html(format!("<h1>Hello {}</h1>", escape_html(&name)))
}

/// Text with a status and a header.
#[post("/created")]
pub async fn created() -> (
    StatusCode,
    [(
        ferrapi::http::header::HeaderName,
        ferrapi::http::header::HeaderValue,
    ); 1],
    String,
) {
    (
        StatusCode::CREATED,
        [(
            ferrapi::http::header::HeaderName::from_static("x-message"),
            ferrapi::http::header::HeaderValue::from_static("made"),
        )],
        "created".to_owned(),
    )
}

/// Uses shared state.
#[get("/count")]
pub async fn count(counter: State<Counter>) -> Json<Value> {
    Json(json!({"count": counter.hits.fetch_add(1, Ordering::SeqCst) + 1}))
}

/// Reads a request header.
#[get("/agent")]
pub async fn agent(headers: HeaderMap, method: Method) -> Json<Value> {
    let agent = headers
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    Json(json!({"agent": agent, "method": method.as_str()}))
}

/// Always panics.
#[get("/panic")]
pub async fn panics() -> Json<Value> {
    panic!("boom")
}

/// Declared twice: the first one is served.
#[get("/dup/{id}")]
pub async fn dup_first(id: String) -> String {
    format!("first {id}")
}

/// Declared second: shadowed.
#[get("/dup/{other}")]
pub async fn dup_second(other: String) -> String {
    format!("second {other}")
}

/// Not in the document.
#[get("/hidden", include_in_schema = false)]
pub async fn hidden() -> &'static str {
    "hidden"
}

/// The example app, in declaration order.
pub fn app() -> App {
    App::new()
        .title("ferrapi test app")
        .version("1.0.0")
        .state(Counter::default())
        .routes(ferrapi::routes![
            root,
            read_item,
            read_needy,
            read_me,
            read_user,
            read_user_item,
            stock,
            persons,
            constrained,
            floats,
            small,
            tags,
            orders,
            create_item,
            update_item,
            nested,
            any_object,
            employee,
            string_body,
            hello_html,
            created,
            count,
            agent,
            panics,
            dup_first,
            dup_second,
            hidden,
        ])
}

/// The compiled example app.
pub fn service() -> Service {
    app().build().expect("the example app builds")
}

/// Serve `app` on a free port of 127.0.0.1 for the rest of the test process.
pub async fn spawn(app: App) -> SocketAddr {
    let server = app.bind("127.0.0.1:0").await.expect("bind a free port");
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    addr
}
