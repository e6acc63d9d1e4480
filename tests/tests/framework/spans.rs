//! Server spans and OpenTelemetry's HTTP server metrics over real HTTP on 127.0.0.1
//! (`Tracing::exporter`, `App::metrics`): a sampled request's span reaches the exporter, a child
//! of the caller's, named `{method} {route}`, with the stable HTTP attributes (`error.type` on a
//! 5xx, `client.address` only from trusted proxies) and the resource; an unsampled request gives
//! none; `/metrics` has `http_server_request_duration_seconds` (the conventions' buckets) and
//! `http_server_active_requests` beside the existing series, and, scraped as OpenMetrics, a
//! sampled request's trace id as the exemplar of its bucket.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::trace::{Resource, SpanKind, SpanRecord, SpanStatus, Tracing};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[get("/boom")]
async fn boom() -> Result<Json<Value>, HttpError> {
    Err(HttpError::new(503, "down for maintenance"))
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

fn traceparent(flags: &str) -> String {
    format!("00-{TRACE}-{PARENT}-{flags}")
}

/// The spans an app exported, in order.
#[derive(Clone, Default)]
struct Collected(Arc<Mutex<Vec<SpanRecord>>>);

impl Collected {
    fn take(&self) -> Vec<SpanRecord> {
        std::mem::take(&mut *self.0.lock().unwrap())
    }
}

async fn serve(tracing: Tracing) -> (SocketAddr, Collected) {
    let collected = Collected::default();
    let sink = collected.clone();
    let app = App::new()
        .routes(ferrapi::routes![read_item, boom])
        .metrics(Metrics::new())
        .tracing(
            tracing
                .resource(Resource::new("spans-test"))
                .exporter(move |span| sink.0.lock().unwrap().push(span)),
        );
    (spawn(app).await, collected)
}

fn attr(span: &SpanRecord, key: &str) -> Option<String> {
    span.attribute(key).map(ToString::to_string)
}

async fn traced(addr: SocketAddr, path: &str, fields: &[(&str, &str)]) -> Reply {
    send(addr, "GET", path, fields, None).await
}

#[tokio::test]
async fn a_sampled_request_gives_a_server_span_with_the_http_attributes() {
    let (addr, spans) = serve(Tracing::new().trust_parent(true)).await;
    let reply = traced(addr, "/items/7?x=1", &[("traceparent", &traceparent("01"))]).await;
    assert_eq!(reply.status, 200);
    let got = spans.take();
    assert_eq!(got.len(), 1, "one span per sampled request");
    let span = &got[0];
    assert_eq!(span.trace_id.to_string(), TRACE, "the caller's trace");
    assert_eq!(
        span.parent_span_id.map(|s| s.to_string()).as_deref(),
        Some(PARENT)
    );
    assert_ne!(span.span_id.to_string(), PARENT);
    assert_eq!(span.name, "GET /items/{id}");
    assert_eq!(span.kind, SpanKind::Server);
    assert_eq!(span.status, SpanStatus::Unset);
    assert!(span.start <= span.end);
    assert_eq!(attr(span, "http.request.method").as_deref(), Some("GET"));
    assert_eq!(attr(span, "http.route").as_deref(), Some("/items/{id}"));
    assert_eq!(
        span.attribute("http.response.status_code")
            .and_then(|v| v.as_i64()),
        Some(200)
    );
    assert_eq!(
        attr(span, "url.path").as_deref(),
        Some("/items/7"),
        "the path, not the query"
    );
    assert_eq!(attr(span, "url.scheme").as_deref(), Some("http"));
    assert_eq!(attr(span, "network.protocol.version").as_deref(), Some("1.1"));
    assert_eq!(attr(span, "server.address").as_deref(), Some("127.0.0.1"));
    assert_eq!(
        span.attribute("server.port").and_then(|v| v.as_i64()),
        Some(i64::from(addr.port()))
    );
    assert_eq!(
        attr(span, "client.address"),
        None,
        "no proxy trusted: no client address"
    );
    assert_eq!(attr(span, "error.type"), None);
    assert_eq!(span.resource.service_name(), "spans-test");
    assert_eq!(span.resource.get("telemetry.sdk.language"), Some("rust"));

    // A new trace (no traceparent) under the default sampler: a root span.
    let reply = traced(addr, "/items/8", &[]).await;
    assert_eq!(reply.status, 200);
    let got = spans.take();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].parent_span_id, None);
    assert_ne!(got[0].trace_id.to_string(), TRACE);
}

#[tokio::test]
async fn errors_and_unmatched_requests_are_named_as_the_conventions_say() {
    let (addr, spans) = serve(Tracing::new()).await;
    assert_eq!(traced(addr, "/boom", &[]).await.status, 503);
    assert_eq!(traced(addr, "/nowhere", &[]).await.status, 404);
    let got = spans.take();
    assert_eq!(got.len(), 2);
    let (boom, missing) = (&got[0], &got[1]);
    assert_eq!(boom.name, "GET /boom");
    assert_eq!(attr(boom, "error.type").as_deref(), Some("503"));
    assert!(matches!(boom.status, SpanStatus::Error(_)), "{:?}", boom.status);
    assert_eq!(missing.name, "GET", "no route: the method alone");
    assert_eq!(attr(missing, "http.route"), None);
    assert_eq!(attr(missing, "error.type"), None, "a 404 is the client's error");
    assert_eq!(missing.status, SpanStatus::Unset);
}

#[tokio::test]
async fn an_unsampled_request_gives_no_span() {
    let (addr, spans) = serve(Tracing::new().trust_parent(true)).await;
    let reply = traced(addr, "/items/1", &[("traceparent", &traceparent("00"))]).await;
    assert_eq!(reply.status, 200);
    let (addr_off, spans_off) = serve(Tracing::new().sampler(ferrapi::trace::Sampler::AlwaysOff)).await;
    assert_eq!(get(addr_off, "/items/1").await.status, 200);
    assert!(spans.take().is_empty(), "the trusted caller said not sampled");
    assert!(spans_off.take().is_empty(), "the sampler said no");
}

#[tokio::test]
async fn the_client_address_comes_only_from_trusted_proxies() {
    let forwarded = [("x-forwarded-for", "6.6.6.6, 10.1.2.3")];
    let (addr, spans) = serve(Tracing::new().trusted_proxies(1)).await;
    assert_eq!(traced(addr, "/items/1", &forwarded).await.status, 200);
    let (addr_none, spans_none) = serve(Tracing::new()).await;
    assert_eq!(traced(addr_none, "/items/1", &forwarded).await.status, 200);
    assert_eq!(
        attr(&spans.take()[0], "client.address").as_deref(),
        Some("10.1.2.3")
    );
    assert_eq!(attr(&spans_none.take()[0], "client.address"), None);
}

/// The value of the sample `series` (name and labels, as written) in a scrape.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| {
        line.strip_prefix(series)?
            .strip_prefix(' ')?
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

#[tokio::test]
async fn metrics_have_the_server_duration_and_active_requests_with_exemplars() {
    let (addr, _spans) = serve(Tracing::new().trust_parent(true)).await;
    for _ in 0..3 {
        assert_eq!(
            traced(addr, "/items/1", &[("traceparent", &traceparent("00"))])
                .await
                .status,
            200
        );
    }
    assert_eq!(
        traced(addr, "/items/2", &[("traceparent", &traceparent("01"))])
            .await
            .status,
        200
    );
    assert_eq!(get(addr, "/boom").await.status, 503);

    let text = get(addr, "/metrics").await.text();
    let labels = r#"http_request_method="GET",http_route="/items/{id}",http_response_status_code="200",url_scheme="http""#;
    assert_eq!(
        sample(
            &text,
            &format!("http_server_request_duration_seconds_count{{{labels}}}")
        ),
        Some(4.0),
        "{text}"
    );
    for le in ["0.005", "0.075", "0.75", "7.5", "10", "+Inf"] {
        assert!(
            sample(
                &text,
                &format!("http_server_request_duration_seconds_bucket{{{labels},le=\"{le}\"}}")
            )
            .is_some(),
            "bucket {le}: {text}"
        );
    }
    let boom = r#"http_request_method="GET",http_route="/boom",http_response_status_code="503",url_scheme="http",error_type="503""#;
    assert_eq!(
        sample(
            &text,
            &format!("http_server_request_duration_seconds_count{{{boom}}}")
        ),
        Some(1.0),
        "{text}"
    );
    // The scrape itself is the one request in flight.
    assert_eq!(
        sample(
            &text,
            r#"http_server_active_requests{http_request_method="GET",url_scheme="http"}"#
        ),
        Some(1.0),
        "{text}"
    );
    // The existing names are still there, unchanged.
    assert!(
        sample(
            &text,
            r#"http_requests_total{method="GET",route="/items/{id}",status="200"}"#
        ) == Some(4.0),
        "{text}"
    );
    assert!(text.contains("http_request_duration_seconds_bucket{"), "{text}");
    assert!(text.contains("http_requests_in_flight"), "{text}");
    assert!(
        !text.contains("trace_id="),
        "Prometheus text has no exemplars: {text}"
    );

    let open = send(
        addr,
        "GET",
        "/metrics",
        &[("accept", "application/openmetrics-text")],
        None,
    )
    .await;
    let open = open.text();
    let exemplars: Vec<&str> = open
        .lines()
        .filter(|line| {
            line.starts_with("http_server_request_duration_seconds_bucket{")
                && line.contains(r#"http_route="/items/{id}""#)
                && line.contains(" # {")
        })
        .collect();
    // Three unsampled requests and one sampled in the same bucket: its exemplar is the sampled.
    assert_eq!(exemplars.len(), 1, "only the sampled request leaves one: {open}");
    assert!(
        exemplars[0].contains(&format!("trace_id=\"{TRACE}\"")),
        "{}",
        exemplars[0]
    );
    assert!(exemplars[0].contains("span_id=\""), "{}", exemplars[0]);
}
