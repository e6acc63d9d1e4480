//! Request ids and metrics of an app over real HTTP on 127.0.0.1: `App::request_ids` returns a
//! well-formed incoming `X-Request-Id`, replaces a malformed one and makes one when there is none,
//! on every answer (404s, the layered path and overload 503s included); `App::metrics` serves
//! request counts and latency histograms by method, route template and status, the requests in
//! flight and those refused for overload, with the app's own metrics, after known traffic. (The
//! log lines carrying the id are checked on the real binary's log, in the service's tests.)

use std::time::Duration;

use ferrapi::metrics::prometheus_client::metrics::counter::Counter;
use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send};

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[get("/sleep/{ms}")]
async fn sleep(ms: u64) -> Json<Value> {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Json(json!({ "slept": ms }))
}

fn routes() -> App {
    App::new().routes(ferrapi::routes![read_item, sleep])
}

fn is_made_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The value of the sample `series` (name and labels, as written) in Prometheus text.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
}

async fn ids_are_returned_made_and_replaced(app: App) {
    let addr = spawn(app).await;
    let given = send(
        addr,
        "GET",
        "/items/1",
        &[("X-Request-Id", "abc-123.x:y/z")],
        None,
    )
    .await;
    assert_eq!(given.status, 200);
    assert_eq!(
        given.header("x-request-id"),
        Some("abc-123.x:y/z"),
        "a well-formed id is kept"
    );

    let made = get(addr, "/items/2").await;
    let made_id = made.header("x-request-id").expect("an id is made").to_owned();
    assert!(is_made_id(&made_id), "{made_id}");
    let other = get(addr, "/items/2").await;
    assert_ne!(
        other.header("x-request-id"),
        Some(made_id.as_str()),
        "each request gets its own"
    );

    let long = "x".repeat(129);
    for bad in ["has space", "quote\"d", long.as_str(), ""] {
        let replaced = send(addr, "GET", "/items/3", &[("X-Request-Id", bad)], None).await;
        let id = replaced.header("x-request-id").expect("an id");
        assert!(is_made_id(id), "{bad:?} is replaced by a made id, got {id:?}");
    }

    for path in ["/nowhere", "/items/not-a-number", "/openapi.json"] {
        let reply = send(addr, "GET", path, &[("X-Request-Id", "on-every-answer")], None).await;
        assert_eq!(
            reply.header("x-request-id"),
            Some("on-every-answer"),
            "{path}: {}",
            reply.status
        );
    }
}

#[tokio::test]
async fn request_ids_are_kept_made_and_replaced() {
    ids_are_returned_made_and_replaced(routes().request_ids(true)).await;
}

#[tokio::test]
async fn request_ids_work_through_layers() {
    ids_are_returned_made_and_replaced(
        routes()
            .request_ids(true)
            .layer(tower::layer::util::Identity::new()),
    )
    .await;
}

#[tokio::test]
async fn without_request_ids_no_header_is_added() {
    let addr = spawn(routes()).await;
    let reply = get(addr, "/items/1").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("x-request-id"), None);
}

async fn metrics_after_known_traffic(app: App, layered: bool) {
    let mut metrics = Metrics::new();
    let logins = Counter::<u64>::default();
    metrics
        .registry()
        .register("logins", "Logins of the app's own", logins.clone());
    logins.inc_by(7);
    let app = app.metrics(metrics);
    let app = if layered {
        app.layer(tower::layer::util::Identity::new())
    } else {
        app
    };
    let addr = spawn(app).await;
    for id in 0..3 {
        assert_eq!(get(addr, &format!("/items/{id}")).await.status, 200);
    }
    assert_eq!(get(addr, "/items/nope").await.status, 422);
    assert_eq!(get(addr, "/no/such/path").await.status, 404);
    assert_eq!(send(addr, "DELETE", "/items/1", &[], None).await.status, 405);
    assert_eq!(get(addr, "/openapi.json").await.status, 200);

    let scrape = get(addr, "/metrics").await;
    assert_eq!(scrape.status, 200);
    assert!(
        scrape
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/plain")),
        "{:?}",
        scrape.header("content-type")
    );
    let text = scrape.text();
    let get_item = r#"{method="GET",route="/items/{id}",status="200"}"#;
    assert_eq!(
        sample(&text, &format!("http_requests_total{get_item}")),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, &format!("http_request_duration_seconds_count{get_item}")),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(
            &text,
            r#"http_request_duration_seconds_bucket{method="GET",route="/items/{id}",status="200",le="+Inf"}"#
        ),
        Some(3.0),
        "{text}"
    );
    let invalid = r#"http_requests_total{method="GET",route="/items/{id}",status="422"}"#;
    assert_eq!(sample(&text, invalid), Some(1.0), "{text}");
    let unmatched = r#"http_requests_total{method="GET",route="unmatched",status="404"}"#;
    assert_eq!(sample(&text, unmatched), Some(1.0), "{text}");
    let not_allowed = r#"http_requests_total{method="DELETE",route="unmatched",status="405"}"#;
    assert_eq!(sample(&text, not_allowed), Some(1.0), "{text}");
    let docs = r#"http_requests_total{method="GET",route="/openapi.json",status="200"}"#;
    assert_eq!(sample(&text, docs), Some(1.0), "{text}");
    // The scrape itself is in flight while it is encoded, and not yet counted.
    assert_eq!(sample(&text, "http_requests_in_flight"), Some(1.0), "{text}");
    assert_eq!(sample(&text, "http_requests_rejected_total"), Some(0.0), "{text}");
    assert_eq!(
        sample(&text, "logins_total"),
        Some(7.0),
        "the app's own metrics: {text}"
    );
    assert!(!text.contains("/no/such/path"), "paths are not labels: {text}");

    let again = get(addr, "/metrics").await.text();
    let scraped = r#"http_requests_total{method="GET",route="/metrics",status="200"}"#;
    assert_eq!(sample(&again, scraped), Some(1.0), "{again}");

    let openmetrics = send(
        addr,
        "GET",
        "/metrics",
        &[("Accept", "application/openmetrics-text; version=1.0.0")],
        None,
    )
    .await;
    assert!(
        openmetrics
            .header("content-type")
            .is_some_and(|t| t.starts_with("application/openmetrics-text")),
        "{:?}",
        openmetrics.header("content-type")
    );
    assert!(openmetrics.text().trim_end().ends_with("# EOF"));
}

#[tokio::test]
async fn metrics_count_requests_by_method_route_and_status() {
    metrics_after_known_traffic(routes(), false).await;
}

#[tokio::test]
async fn metrics_count_requests_through_layers() {
    metrics_after_known_traffic(routes(), true).await;
}

#[tokio::test]
async fn the_metrics_path_can_be_moved() {
    let addr = spawn(routes().metrics(Metrics::new().path("/internal/metrics"))).await;
    assert_eq!(get(addr, "/metrics").await.status, 404);
    let reply = get(addr, "/internal/metrics").await;
    assert_eq!(reply.status, 200);
    assert!(reply.text().contains("http_requests_in_flight"));
}

#[tokio::test]
async fn without_metrics_there_is_no_endpoint() {
    let addr = spawn(routes()).await;
    assert_eq!(get(addr, "/metrics").await.status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overload_503s_are_counted_and_carry_an_id() {
    let app = routes()
        .request_ids(true)
        .metrics(Metrics::new())
        .max_concurrency(Some(1));
    let addr = spawn(app).await;
    let busy = tokio::spawn(async move { get(addr, "/sleep/800").await.status });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = send(addr, "GET", "/items/1", &[("X-Request-Id", "refused-1")], None).await;
    assert_eq!(refused.status, 503);
    assert_eq!(refused.header("x-request-id"), Some("refused-1"));
    assert_eq!(busy.await.expect("join"), 200);
    let text = get(addr, "/metrics").await.text();
    assert_eq!(sample(&text, "http_requests_rejected_total"), Some(1.0), "{text}");
    let slept = r#"http_requests_total{method="GET",route="/sleep/{ms}",status="200"}"#;
    assert_eq!(sample(&text, slept), Some(1.0), "{text}");
}
