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

/// What a subscriber other than ferrapi's log sees: spans (name and fields, fields recorded later
/// included) and events (target, fields, the span they are in).
#[derive(Default)]
struct Seen {
    spans: Vec<(&'static str, String)>,
    events: Vec<(&'static str, String, Option<u64>)>,
}

/// A minimal `tracing` subscriber that records what it is told into [`Seen`].
struct Recorder {
    seen: std::sync::Arc<std::sync::Mutex<Seen>>,
    current: std::sync::Mutex<Vec<u64>>,
}

/// Writes fields as `name=value;`.
struct Text<'a>(&'a mut String);

impl tracing::field::Visit for Text<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!("{}={value:?};", field.name()));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.push_str(&format!("{}={value};", field.name()));
    }
}

/// A [`Recorder`] as this thread's subscriber until the guard is dropped, and what it sees.
fn recording() -> (
    std::sync::Arc<std::sync::Mutex<Seen>>,
    tracing::subscriber::DefaultGuard,
) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Seen::default()));
    let recorder = Recorder {
        seen: seen.clone(),
        current: std::sync::Mutex::new(Vec::new()),
    };
    (seen, tracing::subscriber::set_default(recorder))
}

impl tracing::Subscriber for Recorder {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, attrs: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        let mut seen = self.seen.lock().unwrap();
        let mut fields = String::new();
        attrs.record(&mut Text(&mut fields));
        seen.spans.push((attrs.metadata().name(), fields));
        tracing::span::Id::from_u64(seen.spans.len() as u64)
    }
    fn record(&self, span: &tracing::span::Id, values: &tracing::span::Record<'_>) {
        let mut seen = self.seen.lock().unwrap();
        if let Some((_, fields)) = seen.spans.get_mut(span.into_u64() as usize - 1) {
            values.record(&mut Text(fields));
        }
    }
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = String::new();
        event.record(&mut Text(&mut fields));
        let parent = self.current.lock().unwrap().last().copied();
        let target = event.metadata().target();
        self.seen.lock().unwrap().events.push((target, fields, parent));
    }
    fn enter(&self, span: &tracing::span::Id) {
        self.current.lock().unwrap().push(span.into_u64());
    }
    fn exit(&self, _: &tracing::span::Id) {
        self.current.lock().unwrap().pop();
    }
}

#[get("/logs/{id}")]
async fn logs(id: i64) -> Json<Value> {
    tracing::info!(target: "handler", "handling {id}");
    Json(json!({ "id": id }))
}

/// With another subscriber than ferrapi's log (here one thread runs client, server and handler,
/// so a thread's default subscriber sees them all) a request is a `tracing` span with its id,
/// method, route template, status and latency, and what the handler logs is in it.
#[tokio::test(flavor = "current_thread")]
async fn with_another_subscriber_a_request_is_a_span() {
    let (seen, _default) = recording();
    let addr = spawn(App::new().routes(ferrapi::routes![logs]).request_ids(true)).await;
    let reply = send(addr, "GET", "/logs/7", &[("X-Request-Id", "span-1")], None).await;
    assert_eq!(reply.status, 200);
    let seen = seen.lock().unwrap();
    let (index, (_, fields)) = seen
        .spans
        .iter()
        .enumerate()
        .find(|(_, (name, fields))| *name == "request" && fields.contains("request_id=span-1;"))
        .unwrap_or_else(|| panic!("no request span: {:?}", seen.spans));
    for field in ["method=GET;", "route=/logs/{id};", "status=200;", "latency_ms="] {
        assert!(fields.contains(field), "{field} in {fields}");
    }
    let span = index as u64 + 1;
    let handler = seen.events.iter().find(|(target, _, _)| *target == "handler");
    assert_eq!(
        handler.map(|e| e.2),
        Some(Some(span)),
        "the handler logs in the span: {:?}",
        seen.events
    );
    let access = seen
        .events
        .iter()
        .find(|(target, _, _)| *target == "ferrapi::access");
    let (_, access_fields, parent) = access.unwrap_or_else(|| panic!("no access event: {:?}", seen.events));
    assert_eq!(*parent, Some(span));
    assert!(
        access_fields.contains("path=/logs/7;") && access_fields.contains("status=200;"),
        "{access_fields}"
    );
}

/// With another subscriber, the access event carries the client's method and path cut as
/// ferrapi's own lines cut them (`MAX_VALUE_BYTES` each, as received), with how much was left out
/// (issue 41): that subscriber escapes them as it will, but never a 60 KiB value.
#[tokio::test(flavor = "current_thread")]
async fn with_another_subscriber_the_access_event_carries_capped_values() {
    let (seen, _default) = recording();
    let addr = spawn(App::new().routes(ferrapi::routes![logs]).request_ids(true)).await;
    let path = format!("/logs/7?q={}", "x".repeat(20_000));
    let method = "M".repeat(20_000);
    assert_eq!(get(addr, &path).await.status, 200);
    assert_eq!(send(addr, &method, "/logs/7", &[], None).await.status, 405);
    let seen = seen.lock().unwrap();
    let access: Vec<&String> = seen
        .events
        .iter()
        .filter(|(target, _, _)| *target == "ferrapi::access")
        .map(|(_, fields, _)| fields)
        .collect();
    assert_eq!(access.len(), 2, "{access:?}");
    let max = ferrapi::logging::MAX_VALUE_BYTES;
    assert!(
        access[0].contains(&format!("path_cut_bytes={};", path.len() - max)),
        "{}",
        access[0]
    );
    assert!(access[0].len() < 2 * max, "{}", access[0].len());
    assert!(access[1].contains(&format!("method_cut_bytes={};", method.len() - max)));
    assert!(access[1].len() < 2 * max, "{}", access[1].len());
    for (_, fields) in &seen.spans {
        assert!(fields.len() < 2 * max, "a span's fields: {} bytes", fields.len());
    }
}
