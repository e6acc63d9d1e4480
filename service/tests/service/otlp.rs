//! `--otlp-endpoint` on the real `resource-api` binary: the spans of its requests reach a real
//! OTLP receiver on 127.0.0.1 (`ferrapi_tests::otlp`, decoding with `opentelemetry-proto`), a
//! child of the caller's span, with the service's `service.name`, sent at SIGTERM when the
//! schedule has not come; a collector that is down changes nothing for requests and its drops
//! are counted in `/metrics`; with `--metrics`, the request metrics are exported there too.

use std::time::{Duration, Instant};

use ferrapi_tests::client::{get, send};
use ferrapi_tests::otlp::{
    hex, int, metrics_receiver, receiver, string, ExportMetricsServiceRequest, HistogramDataPoint,
    MetricData, SpanKind,
};

use crate::support::process::Service;
use crate::support::TempDir;

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_services_spans_reach_the_receiver_and_are_drained_at_sigterm() {
    let (receiver_addr, received) = receiver(Duration::ZERO).await;
    let dir = TempDir::new("otlp");
    let endpoint = format!("http://{receiver_addr}");
    let mut service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &["--otlp-endpoint", &endpoint],
        // A minute's schedule: the span can only arrive through the drain at SIGTERM.
        &[
            ("OTEL_SERVICE_NAME", "resource-api-test"),
            ("OTEL_BSP_SCHEDULE_DELAY", "60000"),
        ],
    );
    let parent = format!("00-{TRACE}-{PARENT}-01");
    let reply = send(service.addr, "GET", "/item/42", &[("traceparent", &parent)], None).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        received.spans().is_empty(),
        "nothing is sent before the schedule or the drain"
    );
    service.sigterm();
    assert_eq!(service.wait_exit(Duration::from_secs(10)), Some(0));
    let spans = received.wait_for(1).await;
    assert_eq!(spans.len(), 1, "{spans:?}");
    let (service_name, span) = &spans[0];
    assert_eq!(service_name, "resource-api-test");
    assert_eq!(hex(&span.trace_id), TRACE);
    assert_eq!(hex(&span.parent_span_id), PARENT);
    assert_eq!(span.span_id.len(), 8);
    assert_ne!(hex(&span.span_id), PARENT, "the service's span is its own");
    assert_ne!(hex(&span.span_id), "0000000000000000");
    assert!(span.end_time_unix_nano >= span.start_time_unix_nano && span.start_time_unix_nano > 0);
    assert_eq!(span.kind, SpanKind::Server as i32);
    let route = string(&span.attributes, "http.route").unwrap_or_default();
    assert!(route.starts_with("/item/{"), "{route}");
    assert_eq!(span.name, format!("GET {route}"));
    assert_eq!(string(&span.attributes, "url.path").as_deref(), Some("/item/42"));
    assert_eq!(
        int(&span.attributes, "http.response.status_code"),
        Some(i64::from(reply.status))
    );
    assert_eq!(
        string(&span.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(string(&span.attributes, "url.scheme").as_deref(), Some("http"));
    assert_eq!(
        string(&span.attributes, "network.protocol.version").as_deref(),
        Some("1.1")
    );
    assert_eq!(
        string(&span.attributes, "server.address").as_deref(),
        Some("127.0.0.1")
    );
    assert_eq!(
        int(&span.attributes, "server.port"),
        Some(i64::from(service.addr.port()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collector_that_is_down_changes_nothing_for_requests() {
    // Bound, then closed: connections to it are refused.
    let down = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let dir = TempDir::new("otlp-down");
    let endpoint = format!("http://{down}");
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &["--otlp-endpoint", &endpoint, "--metrics"],
        &[("OTEL_BSP_SCHEDULE_DELAY", "10")],
    );
    for _ in 0..10 {
        let start = Instant::now();
        let status = get(service.addr, "/item/42").await.status;
        assert!(status == 200 || status == 404, "{status}");
        assert!(start.elapsed() < Duration::from_secs(1), "{:?}", start.elapsed());
    }
    let failed = |scrape: &str| {
        scrape
            .lines()
            .find_map(|l| l.strip_prefix(r#"otlp_spans_dropped_total{reason="export_failed"} "#))
            .and_then(|n| n.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let start = Instant::now();
    let mut scrape = get(service.addr, "/metrics").await.text();
    while failed(&scrape) < 10 && start.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        scrape = get(service.addr, "/metrics").await.text();
    }
    assert!(failed(&scrape) >= 10, "the failed exports are counted: {scrape}");
    assert!(scrape.contains("otlp_spans_exported_total 0"), "{scrape}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_metrics_the_request_metrics_reach_the_receiver_too() {
    let (receiver_addr, received) = metrics_receiver().await;
    let dir = TempDir::new("otlp-metrics");
    let endpoint = format!("http://{receiver_addr}");
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &["--otlp-endpoint", &endpoint, "--metrics"],
        &[
            ("OTEL_SERVICE_NAME", "resource-api-metrics"),
            ("OTEL_METRIC_EXPORT_INTERVAL", "100"),
        ],
    );
    for _ in 0..3 {
        assert_eq!(get(service.addr, "/item/42").await.status, 200);
    }
    let counted = |export: &ExportMetricsServiceRequest| -> u64 {
        durations(export)
            .iter()
            .filter(|point| string(&point.attributes, "http.route").is_some_and(|r| r.starts_with("/item/{")))
            .map(|point| point.count)
            .sum()
    };
    let export = received
        .wait_for_metrics(|export| counted(export) >= 3)
        .await
        .expect("an export counting the three requests within 10 s");
    assert_eq!(counted(&export), 3, "cumulative: the three requests, once each");
    let resource = export.resource_metrics[0].resource.as_ref().expect("a resource");
    assert_eq!(
        string(&resource.attributes, "service.name").as_deref(),
        Some("resource-api-metrics")
    );
    let point = durations(&export)
        .into_iter()
        .find(|point| string(&point.attributes, "http.route").is_some_and(|r| r.starts_with("/item/{")))
        .expect("the route's data point");
    assert_eq!(
        string(&point.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(int(&point.attributes, "http.response.status_code"), Some(200));
    assert!(point.sum.is_some_and(|sum| sum > 0.0), "{point:?}");
    let scrape = get(service.addr, "/metrics").await.text();
    assert!(
        scrape
            .lines()
            .any(|l| l.starts_with("otlp_metric_exports_total ") && !l.ends_with(" 0")),
        "the exports are counted: {scrape}"
    );
}

/// The `http.server.request.duration` data points of an export.
fn durations(export: &ExportMetricsServiceRequest) -> Vec<HistogramDataPoint> {
    export
        .resource_metrics
        .iter()
        .flat_map(|r| &r.scope_metrics)
        .flat_map(|s| &s.metrics)
        .filter(|m| m.name == "http.server.request.duration")
        .filter_map(|m| match &m.data {
            Some(MetricData::Histogram(histogram)) => Some(histogram.data_points.clone()),
            _ => None,
        })
        .flatten()
        .collect()
}
