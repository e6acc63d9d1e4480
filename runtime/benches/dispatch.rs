//! What the framework costs per request, measured in-process (no sockets).
//!
//! Two routes are written twice: once with the route macros and served by [`Service::handle`], once
//! as a hand-written async function over the same `Request<Full<Bytes>>` that matches the path by
//! hand, parses the integer, deserializes the body with serde and builds the same response. The
//! user-level work (building and serializing the answer) is identical on both sides, so the
//! difference is the framework: routing, extraction, validation, response conversion.
//!
//! Groups: `get_item` (`GET /item/42`), `post_item` (`POST /item` with a JSON item) and
//! `get_item_422` (`GET /item/foo`, the validation error). The hand-written side of
//! `get_item_422` builds its pydantic-shaped body with `json!`, a slow way to do it: it is there to
//! show the bodies agree, not as a bar to beat.
//!
//! Before measuring, every scenario is run once on both sides and the status, headers and body
//! bytes are asserted equal (and equal to the expected body).
//!
//! ```text
//! cargo bench -p ferrapi --bench dispatch -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Requests are built outside the timed region (`iter_batched`) and responses are dropped outside
//! it too; the timed region is the dispatch of one request to its response.
//!
//! Neither route's body has an `.await`, and the POST body is whole (a `Full`), so both are
//! answered inside `Service::handle` itself: the generated handler runs such a body in place (see
//! `routing::complete_now`) and the dispatcher reads a body that is already there without
//! waiting. A route that awaits, or a body still on its way, takes the boxed path instead: one
//! allocation for the future and a poll through the dispatcher, about 250 instructions more per
//! request (callgrind), which this bench does not show.

// A benchmark has no one to report a failed set-up to but its operator: it stops with a message.
#![allow(clippy::expect_used)]

use std::hint::black_box;

use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ferrapi::prelude::*;
use ferrapi::{Response, Service};
use http_body_util::{BodyExt, Full};
use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{HeaderMap, Method, Request};
use serde::{Deserialize, Serialize};

/// The request body of `POST /item`, validated by the framework.
#[derive(Model)]
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

/// The same body for the hand-written side, deserialized by serde.
#[derive(Deserialize)]
struct PlainItem {
    name: String,
    description: Option<String>,
    price: f64,
    tax: Option<f64>,
}

/// What `POST /item` answers, on both sides: the item and, with a tax, the price with tax.
/// (`Model` only for its JSON Schema: a route's response type documents itself.)
#[derive(Model, Serialize)]
struct Echo {
    name: String,
    description: Option<String>,
    price: f64,
    tax: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    price_with_tax: Option<f64>,
}

impl Echo {
    fn new(name: String, description: Option<String>, price: f64, tax: Option<f64>) -> Self {
        Echo {
            name,
            description,
            price,
            tax,
            price_with_tax: tax.map(|tax| price + tax),
        }
    }
}

/// Read an item by integer id.
#[get("/item/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

/// Echo an item.
#[post("/item")]
async fn create_item(item: Item) -> Json<Echo> {
    Json(Echo::new(item.name, item.description, item.price, item.tax))
}

// ---- the hand-written equivalent -------------------------------------------------------------

const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");

fn json_response(status: StatusCode, bytes: Vec<u8>) -> Response {
    let mut response = hyper::Response::new(ferrapi::Body::from(bytes));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, APPLICATION_JSON);
    response
}

fn detail(status: StatusCode, detail: Value) -> Response {
    json_response(
        status,
        serde_json::to_vec(&json!({ "detail": detail })).unwrap_or_default(),
    )
}

/// `GET /item/{id}` and `POST /item` by hand: split the path, parse, answer.
async fn hand_written(request: Request<Full<Bytes>>) -> Response {
    let (parts, body) = request.into_parts();
    let path = parts.uri.path();
    let mut segments = path.strip_prefix('/').unwrap_or(path).split('/');
    let (first, second, rest) = (segments.next(), segments.next(), segments.next());
    match (first, second, rest) {
        (Some("item"), Some(raw), None) if parts.method == Method::GET => match raw.parse::<i64>() {
            Ok(id) => json_response(
                StatusCode::OK,
                serde_json::to_vec(&json!({ "id": id })).unwrap_or_default(),
            ),
            Err(_) => detail(
                StatusCode::UNPROCESSABLE_ENTITY,
                json!([{
                    "type": "int_parsing",
                    "loc": ["path", "id"],
                    "msg": "Input should be a valid integer, unable to parse string as an integer",
                    "input": raw,
                }]),
            ),
        },
        (Some("item"), None, None) if parts.method == Method::POST => {
            let Ok(collected) = body.collect().await;
            let bytes = collected.to_bytes();
            match serde_json::from_slice::<PlainItem>(&bytes) {
                Ok(item) => json_response(
                    StatusCode::OK,
                    serde_json::to_vec(&Echo::new(item.name, item.description, item.price, item.tax))
                        .unwrap_or_default(),
                ),
                Err(err) => detail(StatusCode::UNPROCESSABLE_ENTITY, json!(err.to_string())),
            }
        }
        _ => detail(StatusCode::NOT_FOUND, json!("Not Found")),
    }
}

// ---- requests and checks ---------------------------------------------------------------------

const ITEM_JSON: &[u8] = br#"{"name":"Foo","description":"A very nice Item","price":35.4,"tax":3.2}"#;

fn get(path: &'static str) -> Request<Full<Bytes>> {
    Request::builder()
        .method(Method::GET)
        .uri(path)
        .body(Full::new(Bytes::new()))
        .expect("a valid GET request")
}

fn get_item() -> Request<Full<Bytes>> {
    get("/item/42")
}

fn get_item_invalid() -> Request<Full<Bytes>> {
    get("/item/foo")
}

fn post_item() -> Request<Full<Bytes>> {
    Request::builder()
        .method(Method::POST)
        .uri("/item")
        .header(CONTENT_TYPE, APPLICATION_JSON)
        .header(CONTENT_LENGTH, ITEM_JSON.len())
        .body(Full::new(Bytes::from_static(ITEM_JSON)))
        .expect("a valid POST request")
}

async fn snapshot(response: Response) -> (StatusCode, HeaderMap, Bytes) {
    let (parts, body) = response.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) => panic!("a response body failed: {err}"),
    };
    (parts.status, parts.headers, bytes)
}

/// One benchmarked request and the answer both sides must give to it.
struct Scenario {
    /// The benchmark group.
    name: &'static str,
    request: fn() -> Request<Full<Bytes>>,
    status: StatusCode,
    body: &'static str,
}

const SCENARIOS: [Scenario; 3] = [
    Scenario {
        name: "get_item",
        request: get_item,
        status: StatusCode::OK,
        body: r#"{"id":42}"#,
    },
    Scenario {
        name: "post_item",
        request: post_item,
        status: StatusCode::OK,
        body: r#"{"name":"Foo","description":"A very nice Item","price":35.4,"tax":3.2,"price_with_tax":38.6}"#,
    },
    Scenario {
        name: "get_item_422",
        request: get_item_invalid,
        status: StatusCode::UNPROCESSABLE_ENTITY,
        body: r#"{"detail":[{"type":"int_parsing","loc":["path","id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"foo"}]}"#,
    },
];

/// Run each scenario once on both sides; they must answer byte for byte the same.
fn check_equivalence(rt: &tokio::runtime::Runtime, service: &Service) {
    rt.block_on(async {
        for Scenario {
            name,
            request,
            status,
            body,
        } in SCENARIOS
        {
            let framework = snapshot(service.handle(request()).await).await;
            let by_hand = snapshot(hand_written(request()).await).await;
            assert_eq!(
                framework, by_hand,
                "{name}: framework and hand-written answers differ"
            );
            assert_eq!(framework.0, status, "{name}: status");
            assert_eq!(framework.2, body.as_bytes(), "{name}: body");
            assert_eq!(
                framework.1.get(CONTENT_TYPE),
                Some(&APPLICATION_JSON),
                "{name}: type"
            );
        }
    });
}

// ---- benchmarks ------------------------------------------------------------------------------

fn dispatch(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let service = App::new()
        .routes(routes![read_item, create_item])
        .build()
        .expect("the bench app builds");
    check_equivalence(&rt, &service);

    for Scenario { name, request, .. } in SCENARIOS {
        let mut group = c.benchmark_group(name);
        group.bench_function("framework", |b| {
            b.to_async(&rt)
                .iter_batched(request, |r| service.handle(black_box(r)), BatchSize::SmallInput)
        });
        group.bench_function("hand_written", |b| {
            b.to_async(&rt)
                .iter_batched(request, |r| hand_written(black_box(r)), BatchSize::SmallInput)
        });
        group.finish();
    }
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
