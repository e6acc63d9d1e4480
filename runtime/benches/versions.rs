//! What one version change costs a request (issue 44, item 3), measured in-process (no sockets):
//! `POST /item` echoing a model with one change (a field renamed and one retyped at 2026-03-01),
//! served by an app without versions, by a versioned app at the newest version (one compare per
//! model read or written), and at the older version (the old shape validated, moved forward,
//! and the answer written back: one step each way).
//!
//! ```text
//! cargo bench -p ferrapi --bench versions -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Before measuring, each scenario is run once and its answer asserted.

// A benchmark has no one to report a failed set-up to but its operator: it stops with a message.
#![allow(clippy::expect_used)]

use std::hint::black_box;

use bytes::Bytes;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi::{Response, Service};
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request};

/// The item: `title` and a price in cents before 2026-03-01.
#[derive(Model)]
pub struct Item {
    /// `title` before 2026-03-01.
    #[since("2026-03-01", renamed_from = "title")]
    pub name: String,
    /// Unchanged.
    pub description: Option<String>,
    /// Cents before 2026-03-01.
    #[since("2026-03-01", was = i64, forward = cents_to_price, backward = price_to_cents)]
    pub price: f64,
}

fn cents_to_price(cents: i64) -> Result<f64, String> {
    Ok(cents as f64 / 100.0)
}

fn price_to_cents(price: &f64) -> i64 {
    (price * 100.0).round() as i64
}

#[post("/item")]
async fn create_item(item: Item) -> Json<Item> {
    Json(item)
}

const NEWEST: &str = r#"{"name":"Foo","description":"A very nice Item","price":35.4}"#;
const OLDEST: &str = r#"{"title":"Foo","description":"A very nice Item","price":3540}"#;

fn post(body: &'static str, version: Option<&'static str>) -> Request<Full<Bytes>> {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri("/item")
        .header(CONTENT_TYPE, "application/json")
        .header(CONTENT_LENGTH, body.len());
    if let Some(version) = version {
        request = request.header("api-version", version);
    }
    request
        .body(Full::new(Bytes::from_static(body.as_bytes())))
        .expect("a valid POST request")
}

async fn body(response: Response) -> Bytes {
    match response.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) => panic!("a response body failed: {err}"),
    }
}

/// A benchmark's name, the app that answers, its request, and the answer it must give.
type Scenario<'a> = (
    &'static str,
    &'a Service,
    fn() -> Request<Full<Bytes>>,
    &'static str,
);

fn versions(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let plain = App::new().routes(routes![create_item]).build().expect("builds");
    let versioned = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![create_item])
        .build()
        .expect("builds");
    let scenarios: [Scenario<'_>; 3] = [
        ("unversioned", &plain, || post(NEWEST, None), NEWEST),
        ("newest", &versioned, || post(NEWEST, Some("2026-03-01")), NEWEST),
        (
            "one_step_older",
            &versioned,
            || post(OLDEST, Some("2026-01-15")),
            OLDEST,
        ),
    ];
    for (name, service, request, expected) in &scenarios {
        let answer = rt.block_on(async { body(service.handle(request()).await).await });
        assert_eq!(answer, expected.as_bytes(), "{name}");
    }
    let mut group = c.benchmark_group("post_item_versions");
    for (name, service, request, _) in scenarios {
        group.bench_function(name, |b| {
            b.to_async(&rt)
                .iter_batched(request, |r| service.handle(black_box(r)), BatchSize::SmallInput)
        });
    }
    group.finish();
}

criterion_group!(benches, versions);
criterion_main!(benches);
