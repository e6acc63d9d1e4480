//! Input and output schemas (`Name-Input` / `Name-Output`), replayed against FastAPI 0.165 /
//! pydantic 2.14 (tests/fastapi/split_probe.py, its documents and answers in
//! split_observed.json): the same models and routes, served on 127.0.0.1, their `/openapi.json`
//! compared with FastAPI's — the components' names in order, each component's schema, and the
//! reference (or schema) of each operation's body, parameters and response — with
//! `separate_input_output_schemas` on (FastAPI's default) and off. A discriminated union's
//! `mapping` follows its variants' names (`Cat-Input` in a body, `Cat-Output` in a response), and
//! a generic model of a splitting one splits under pydantic's name (`Page_Price_-Input`). Requests and responses are
//! read and written alike either way, which the recorded answers show.

use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send_json};
use serde_json::{json, Value};

#[derive(Model, serde::Serialize)]
struct Price {
    amount: Decimal,
}

#[derive(Model, serde::Serialize)]
struct Refund {
    amount: Decimal,
}

#[derive(Model, serde::Serialize)]
struct Payment {
    amount: Decimal,
}

#[derive(Model, serde::Serialize)]
struct Plain {
    name: String,
}

#[derive(Model, serde::Serialize)]
struct Cost {
    value: Decimal,
}

#[derive(Model, serde::Serialize)]
struct Order {
    cost: Cost,
    costs: Vec<Cost>,
    maybe: Option<Cost>,
    note: Plain,
}

#[derive(Model, serde::Serialize)]
struct Discount {
    off: Option<Decimal>,
}

#[derive(Model, serde::Serialize)]
struct Money {
    #[max_digits(5)]
    #[decimal_places(2)]
    a: Decimal,
    // In the schema, pydantic writes a decimal's bounds as floats (`0.0`).
    #[ge(0)]
    b: Decimal,
    #[multiple_of(0.5)]
    c: Decimal,
    #[le(10)]
    d: Option<Decimal>,
}

#[derive(Model, serde::Serialize)]
struct Cat {
    weight: Decimal,
}

#[derive(Model, serde::Serialize)]
struct Dog {
    name: String,
}

#[derive(Model, serde::Serialize)]
#[serde(tag = "kind")]
enum Pet {
    #[serde(rename = "cat")]
    Cat(Cat),
    #[serde(rename = "dog")]
    Dog(Dog),
}

#[derive(Model, serde::Serialize)]
struct Owner {
    pet: Pet,
    pets: Vec<Pet>,
}

#[derive(Model, serde::Serialize)]
struct Page<T> {
    items: Vec<T>,
}

#[post("/prices")]
async fn prices(p: Price) -> Json<Price> {
    Json(p)
}

#[post("/payments")]
async fn payments(_p: Payment) -> Json<Value> {
    Json(json!({"ok": true}))
}

#[get("/refunds")]
async fn refunds() -> Json<Refund> {
    Json(Refund {
        amount: Decimal::new(250, 2),
    })
}

#[get("/refund-list")]
async fn refund_list() -> Json<Vec<Refund>> {
    Json(vec![Refund {
        amount: Decimal::new(250, 2),
    }])
}

#[post("/plain")]
async fn plain(p: Plain) -> Json<Plain> {
    Json(p)
}

#[post("/orders")]
async fn orders(o: Order) -> Json<Order> {
    Json(o)
}

#[post("/discounts")]
async fn discounts(d: Discount) -> Json<Discount> {
    Json(d)
}

#[post("/money")]
async fn money(m: Money) -> Json<Money> {
    Json(m)
}

#[get("/quote")]
async fn quote(amount: Decimal, extra: Option<Decimal>) -> Json<Decimal> {
    let _ = extra;
    Json(amount)
}

#[post("/owners")]
async fn owners(o: Owner) -> Json<Owner> {
    Json(o)
}

#[post("/pages")]
async fn pages(p: Page<Price>) -> Json<Page<Price>> {
    Json(p)
}

fn app(separate: bool) -> App {
    App::new()
        .routes(routes![
            prices,
            payments,
            refunds,
            refund_list,
            plain,
            orders,
            discounts,
            money,
            quote,
            owners,
            pages
        ])
        .separate_input_output_schemas(separate)
}

fn observed() -> Value {
    serde_json::from_str(include_str!("../../fastapi/split_observed.json")).unwrap_or(Value::Null)
}

/// What FastAPI writes that ferrapi does not, everywhere and on purpose (manual, "Differences
/// from FastAPI"): a title on a response schema that is no reference ("Response Quote Quote
/// Get").
fn without_response_title(mut schema: Value) -> Value {
    if let Some(map) = schema.as_object_mut() {
        map.remove("title");
    }
    schema
}

/// Per operation (`METHOD path`): its parameters' schemas, its body's schema and its success
/// response's schema.
fn operations(document: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (path, item) in document["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            let parameters: Vec<Value> = operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| p["schema"].clone())
                .collect();
            let body = operation["requestBody"]["content"]["application/json"]["schema"].clone();
            let response = operation["responses"]["200"]["content"]["application/json"]["schema"].clone();
            out.push((
                format!("{method} {path}"),
                json!({"parameters": parameters, "body": body, "response": without_response_title(response)}),
            ));
        }
    }
    out
}

async fn compare(separate: bool, key: &str) {
    let addr = spawn(app(separate)).await;
    // No `default: null` to remove any more: ferrapi drops every null, as FastAPI does.
    let ours: Value = get(addr, "/openapi.json").await.json();
    let theirs = &observed()[key];
    let names = |document: &Value| -> Vec<String> {
        let schemas = document["components"]["schemas"].as_object();
        schemas.map(|s| s.keys().cloned().collect()).unwrap_or_default()
    };
    // The same components, named and ordered as FastAPI names and orders them...
    assert_eq!(names(&ours), names(theirs), "component names ({key})");
    // ... each the same schema.
    for name in names(theirs) {
        let schemas = (&ours["components"]["schemas"], &theirs["components"]["schemas"]);
        assert_eq!(schemas.0[&name], schemas.1[&name], "{name} ({key})");
    }
    assert_eq!(operations(&ours), operations(theirs), "operations ({key})");
}

#[tokio::test]
async fn a_decimal_splits_the_models_used_both_ways_as_fastapi_does() {
    compare(true, "separate").await;
}

#[tokio::test]
async fn without_the_split_every_schema_is_the_input_one_as_fastapi_does() {
    compare(false, "together").await;
}

#[tokio::test]
async fn requests_and_responses_are_read_and_written_alike_either_way() {
    let observed = observed();
    for (separate, key) in [(true, "separate_calls"), (false, "together_calls")] {
        let addr = spawn(app(separate)).await;
        let calls = observed[key].as_array().cloned().unwrap_or_default();
        assert_eq!(calls.len(), 10);
        for call in calls {
            let path = call["path"].as_str().unwrap_or_default();
            let reply = match call["method"].as_str() {
                Some("get") => get(addr, path).await,
                _ => send_json(addr, "POST", path, &call["body"].to_string()).await,
            };
            assert_eq!(reply.status, call["status"], "{path} ({key})");
            assert_eq!(reply.json(), call["response"], "{path} {} ({key})", call["body"]);
        }
    }
}
