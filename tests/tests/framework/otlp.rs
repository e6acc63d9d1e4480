//! Spans exported over OTLP/HTTP to a real receiver on 127.0.0.1 (`OtlpExporter`, the `otlp`
//! feature): `ferrapi_tests::otlp`'s receiver, a hyper server that decodes each POST with
//! `opentelemetry-proto`'s types, as a collector does. Checked: the spans of requests (names, attributes, the caller's trace and
//! parent span id, the resource's `service.name`), the content type and configured headers, the
//! drain at shutdown; and that a receiver that is down (connection refused) or slow (answers
//! after 30 s) changes nothing for requests, its spans dropped and counted in `/metrics`; a batch
//! the receiver asks to send again (429, 502, 503, 504) is sent again, after its `Retry-After`,
//! and another error is not.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::trace::otlp::{OtlpConfig, OtlpExporter};
use ferrapi::trace::{Resource, Tracing};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send};
use ferrapi_tests::otlp::{hex, int, receiver, receiver_answering, string, SpanKind};
use tokio::net::TcpListener;

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

/// An app exporting to `exporter`, with its counters in `/metrics`.
async fn serve(exporter: &OtlpExporter) -> SocketAddr {
    let mut metrics = Metrics::new();
    exporter.register(metrics.registry());
    let app = App::new()
        .routes(ferrapi::routes![read_item])
        .metrics(metrics)
        .tracing(
            Tracing::new()
                .trust_parent(true)
                .resource(Resource::new("otlp-test"))
                .exporter(exporter.clone()),
        );
    spawn(app).await
}

fn config(addr: SocketAddr) -> OtlpConfig {
    OtlpConfig::default()
        .endpoint(&format!("http://{addr}/v1/traces"))
        .unwrap()
        .schedule_delay(Duration::from_millis(50))
}

#[tokio::test]
async fn the_spans_of_requests_reach_a_real_receiver() {
    let (receiver_addr, received) = receiver(Duration::ZERO).await;
    let exporter = OtlpExporter::start(
        config(receiver_addr).header("x-tenant".parse().unwrap(), "clinic".parse().unwrap()),
    )
    .unwrap();
    let addr = serve(&exporter).await;
    let parent = format!("00-{TRACE}-{PARENT}-01");
    assert_eq!(
        send(addr, "GET", "/items/7", &[("traceparent", &parent)], None)
            .await
            .status,
        200
    );
    assert_eq!(get(addr, "/items/8").await.status, 200);
    assert_eq!(get(addr, "/nowhere").await.status, 404);
    let spans = received.wait_for(3).await;
    assert_eq!(spans.len(), 3, "one span per request");
    let posts = received.posts();
    assert!(posts
        .iter()
        .all(|(kind, tenant, _)| kind == "application/x-protobuf" && tenant == "clinic"));
    let (service, child) = spans
        .iter()
        .find(|(_, s)| hex(&s.trace_id) == TRACE)
        .expect("the caller's trace");
    assert_eq!(service, "otlp-test");
    assert_eq!(child.name, "GET /items/{id}");
    assert_eq!(child.kind, SpanKind::Server as i32);
    assert_eq!(hex(&child.parent_span_id), PARENT, "a child of the caller's span");
    assert_eq!(child.span_id.len(), 8);
    assert_ne!(hex(&child.span_id), PARENT);
    assert!(child.end_time_unix_nano >= child.start_time_unix_nano && child.start_time_unix_nano > 0);
    assert_eq!(
        string(&child.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(
        string(&child.attributes, "http.route").as_deref(),
        Some("/items/{id}")
    );
    assert_eq!(string(&child.attributes, "url.path").as_deref(), Some("/items/7"));
    assert_eq!(int(&child.attributes, "http.response.status_code"), Some(200));
    let root = spans
        .iter()
        .map(|(_, s)| s)
        .find(|s| string(&s.attributes, "url.path").as_deref() == Some("/items/8"))
        .unwrap();
    assert!(root.parent_span_id.is_empty(), "a new trace has no parent");
    assert_ne!(hex(&root.trace_id), TRACE);
    let unrouted = spans
        .iter()
        .map(|(_, s)| s)
        .find(|s| int(&s.attributes, "http.response.status_code") == Some(404))
        .unwrap();
    assert_eq!(unrouted.name, "GET", "no route: the method alone");
    // Counted when the answer is read, just after the receiver recorded the body.
    wait_until(|| exporter.exported() == 3).await;
    assert_eq!(exporter.exported(), 3);
    let scrape = get(addr, "/metrics").await.text();
    assert!(scrape.contains("otlp_spans_exported_total 3"), "{scrape}");

    // At shutdown, what is queued is sent at once, not after the schedule's delay.
    let (receiver_addr, received) = receiver(Duration::ZERO).await;
    let exporter =
        OtlpExporter::start(config(receiver_addr).schedule_delay(Duration::from_secs(60))).unwrap();
    let addr = serve(&exporter).await;
    for _ in 0..2 {
        assert_eq!(get(addr, "/items/1").await.status, 200);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(received.spans().is_empty(), "held for the schedule");
    let start = Instant::now();
    exporter.shutdown(Duration::from_secs(5)).await;
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(received.spans().len(), 2, "drained at shutdown");
    assert_eq!(
        get(addr, "/items/1").await.status,
        200,
        "requests after it are still answered"
    );
    assert_eq!(
        exporter.dropped("shutdown"),
        1,
        "a span offered after it is counted"
    );
}

/// Send `count` requests one after another; each must be answered 200 well within `limit`.
async fn requests_unaffected(addr: SocketAddr, count: usize, limit: Duration) {
    for _ in 0..count {
        let start = Instant::now();
        assert_eq!(get(addr, "/items/1").await.status, 200);
        assert!(start.elapsed() < limit, "a request took {:?}", start.elapsed());
    }
}

/// Wait up to 10 s for `what` to hold (an exporter's counters move on its own task).
pub(crate) async fn wait_until(what: impl Fn() -> bool) {
    let start = Instant::now();
    while !what() && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_receiver_down_or_slow_changes_nothing_for_requests_and_drops_are_counted() {
    // Down: a port nobody listens on (bound, then closed), so the connection is refused.
    let down = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let exporter = OtlpExporter::start(
        config(down)
            .max_export_batch_size(2)
            .timeout(Duration::from_millis(500)),
    )
    .unwrap();
    let addr = serve(&exporter).await;
    requests_unaffected(addr, 20, Duration::from_secs(1)).await;
    wait_until(|| exporter.dropped("export_failed") == 20).await;
    assert_eq!(
        exporter.dropped("export_failed"),
        20,
        "every span of a failed batch is counted"
    );
    assert_eq!(exporter.exported(), 0);
    let scrape = get(addr, "/metrics").await.text();
    assert!(
        scrape.contains(r#"otlp_spans_dropped_total{reason="export_failed"} 20"#),
        "{scrape}"
    );

    // Slow: it answers after 30 s; the exporter gives up after its timeout, and meanwhile its
    // small queue fills and further spans are dropped, never waited for.
    let (slow, received) = receiver(Duration::from_secs(30)).await;
    let exporter = OtlpExporter::start(
        config(slow)
            .max_queue_size(4)
            .max_export_batch_size(2)
            .timeout(Duration::from_millis(700)),
    )
    .unwrap();
    let addr = serve(&exporter).await;
    let start = Instant::now();
    requests_unaffected(addr, 30, Duration::from_secs(1)).await;
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "30 requests took {:?}",
        start.elapsed()
    );
    assert!(
        exporter.dropped("queue_full") > 0,
        "the queue filled while the receiver was slow"
    );
    wait_until(|| exporter.dropped("export_failed") > 0).await;
    assert!(
        exporter.dropped("export_failed") >= 2,
        "the timed-out batch is counted"
    );
    assert!(!received.posts().is_empty(), "the receiver was reached");
    let scrape = get(addr, "/metrics").await.text();
    assert!(
        scrape.contains(r#"otlp_spans_dropped_total{reason="queue_full"}"#),
        "{scrape}"
    );
    assert_eq!(exporter.exported(), 0);
}

/// The span ids of every POST the receiver recorded, in order.
fn posted_span_ids(received: &ferrapi_tests::otlp::Received) -> Vec<Vec<String>> {
    received
        .posts()
        .iter()
        .map(|(_, _, request)| {
            request
                .resource_spans
                .iter()
                .flat_map(|r| &r.scope_spans)
                .flat_map(|s| &s.spans)
                .map(|span| hex(&span.span_id))
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_batch_the_collector_asks_for_again_is_sent_again_and_others_are_not() {
    // 503 with `Retry-After: 1`: the same batch again a second later, then accepted.
    let (addr, received) = receiver_answering(Duration::ZERO, vec![(503, Some("1"))]).await;
    let exporter = OtlpExporter::start(
        config(addr)
            .max_export_batch_size(2)
            .retries(3, Duration::from_millis(20)),
    )
    .unwrap();
    let app = serve(&exporter).await;
    let start = Instant::now();
    requests_unaffected(app, 2, Duration::from_secs(1)).await;
    wait_until(|| exporter.exported() == 2).await;
    assert_eq!(exporter.exported(), 2, "the retried batch was not accepted");
    assert!(
        start.elapsed() >= Duration::from_secs(1),
        "Retry-After: 1 was not waited for ({:?})",
        start.elapsed()
    );
    let posts = posted_span_ids(&received);
    assert_eq!(posts.len(), 2, "one refused POST, one accepted");
    assert_eq!(posts[0], posts[1], "the same spans sent again");
    assert_eq!(posts[0].len(), 2);
    assert_eq!((exporter.retries(), exporter.dropped("export_failed")), (1, 0));
    let scrape = get(app, "/metrics").await.text();
    assert!(scrape.contains("otlp_export_retries_total 1"), "{scrape}");

    // 429 each time: sent again as often as allowed (waits doubling from 20 ms), then dropped.
    let answers = vec![(429, None); 3];
    let (addr, received) = receiver_answering(Duration::ZERO, answers).await;
    let exporter = OtlpExporter::start(
        config(addr)
            .max_export_batch_size(2)
            .retries(2, Duration::from_millis(20)),
    )
    .unwrap();
    let app = serve(&exporter).await;
    requests_unaffected(app, 2, Duration::from_secs(1)).await;
    wait_until(|| exporter.dropped("export_failed") == 2).await;
    assert_eq!(exporter.dropped("export_failed"), 2, "out of retries: dropped");
    assert_eq!(received.posts().len(), 3, "the first try and two retries");
    assert_eq!((exporter.retries(), exporter.exported()), (2, 0));

    // 400 (the request is wrong): never sent again.
    let (addr, received) = receiver_answering(Duration::ZERO, vec![(400, None)]).await;
    let exporter = OtlpExporter::start(
        config(addr)
            .max_export_batch_size(2)
            .retries(3, Duration::from_millis(20)),
    )
    .unwrap();
    let app = serve(&exporter).await;
    requests_unaffected(app, 2, Duration::from_secs(1)).await;
    wait_until(|| exporter.dropped("export_failed") == 2).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(received.posts().len(), 1, "a 400 was sent again");
    assert_eq!((exporter.retries(), exporter.dropped("export_failed")), (0, 2));
}
