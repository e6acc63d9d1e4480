//! The request metrics exported over OTLP/HTTP to a real receiver on 127.0.0.1
//! (`metrics::otlp::MetricsExporter`, the `otlp` feature; `ferrapi_tests::otlp`'s receiver
//! decodes each POST with `opentelemetry-proto`'s types, as a collector does). Checked: the data
//! points of a few requests (`http.server.request.duration`, cumulative, in seconds, the
//! conventions' buckets and attributes, a sampled request's trace id as the exemplar;
//! `http.server.active_requests`, an up-down counter), the resource the traces name, the
//! configured headers, periodic exports that carry the cumulative counts, the last export at
//! shutdown, and a receiver that is down changing nothing for requests (failures counted).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::metrics::otlp::MetricsExporter;
use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::trace::otlp::OtlpConfig;
use ferrapi::trace::{Resource, Tracing};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send};
use ferrapi_tests::otlp::{hex, int, metrics_receiver, string, ExportMetricsServiceRequest};
use opentelemetry_proto::tonic::metrics::v1::metric::Data;
use opentelemetry_proto::tonic::metrics::v1::{
    exemplar, number_data_point, AggregationTemporality, HistogramDataPoint, Metric,
};
use tokio::net::TcpListener;

use crate::otlp::wait_until;

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[get("/fail")]
async fn fail() -> Result<Json<Value>, HttpError> {
    Err(HttpError::new(500, "broken"))
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";

/// An app with metrics exported as `config` says, and its exporter.
async fn serve(config: OtlpConfig) -> (SocketAddr, MetricsExporter) {
    let mut metrics = Metrics::new();
    let exporter = MetricsExporter::start(&metrics, config, Resource::new("metrics-test")).unwrap();
    exporter.register(metrics.registry());
    let app = App::new()
        .routes(ferrapi::routes![read_item, fail])
        .metrics(metrics)
        .tracing(
            Tracing::new()
                .trust_parent(true)
                .resource(Resource::new("metrics-test"))
                .exporter(|_span| {}),
        );
    (spawn(app).await, exporter)
}

fn config(receiver: SocketAddr, interval: Duration) -> OtlpConfig {
    OtlpConfig::default()
        .endpoint(&format!("http://{receiver}/v1/metrics"))
        .unwrap()
        .export_interval(interval)
}

/// The metric `name` of an export.
fn metric<'a>(export: &'a ExportMetricsServiceRequest, name: &str) -> Option<&'a Metric> {
    export
        .resource_metrics
        .iter()
        .flat_map(|group| &group.scope_metrics)
        .flat_map(|scope| &scope.metrics)
        .find(|metric| metric.name == name)
}

/// The duration's data points of an export.
fn durations(export: &ExportMetricsServiceRequest) -> Vec<HistogramDataPoint> {
    match metric(export, "http.server.request.duration").and_then(|m| m.data.as_ref()) {
        Some(Data::Histogram(histogram)) => histogram.data_points.clone(),
        _ => Vec::new(),
    }
}

/// The value of `http.server.active_requests` for GET in an export.
fn active_gets(export: &ExportMetricsServiceRequest) -> Option<i64> {
    let Some(Data::Sum(sum)) = metric(export, "http.server.active_requests")?.data.as_ref() else {
        return None;
    };
    sum.data_points
        .iter()
        .find(|p| string(&p.attributes, "http.request.method").as_deref() == Some("GET"))
        .and_then(|p| match p.value {
            Some(number_data_point::Value::AsInt(value)) => Some(value),
            _ => None,
        })
}

/// The requests an export counts, all series together.
fn counted(export: &ExportMetricsServiceRequest) -> u64 {
    durations(export).iter().map(|point| point.count).sum()
}

async fn requests(addr: SocketAddr) {
    for path in ["/items/1", "/items/2", "/fail", "/nowhere"] {
        get(addr, path).await;
    }
    let parent = format!("00-{TRACE}-00f067aa0ba902b7-01");
    let reply = send(addr, "GET", "/items/3", &[("traceparent", &parent)], None).await;
    assert_eq!(reply.status, 200);
}

#[tokio::test]
async fn the_data_points_of_requests_reach_a_real_receiver() {
    let (receiver, received) = metrics_receiver().await;
    let (addr, exporter) = serve(
        config(receiver, Duration::from_millis(100))
            .header("x-tenant".parse().unwrap(), "clinic".parse().unwrap()),
    )
    .await;
    requests(addr).await;
    let export = received
        .wait_for_metrics(|export| counted(export) == 5 && active_gets(export) == Some(0))
        .await
        .expect("an export counting the five requests, none in flight");
    let (kind, tenant, _) = &received.posts()[0];
    assert_eq!(
        (kind.as_str(), tenant.as_str()),
        ("application/x-protobuf", "clinic")
    );
    let group = &export.resource_metrics[0];
    let resource = group.resource.as_ref().unwrap();
    assert_eq!(
        string(&resource.attributes, "service.name").as_deref(),
        Some("metrics-test")
    );
    assert_eq!(group.scope_metrics[0].scope.as_ref().unwrap().name, "ferrapi");

    let duration = metric(&export, "http.server.request.duration").unwrap();
    assert_eq!(duration.unit, "s");
    let Some(Data::Histogram(histogram)) = &duration.data else {
        panic!("a histogram: {duration:?}")
    };
    assert_eq!(
        histogram.aggregation_temporality,
        AggregationTemporality::Cumulative as i32
    );
    let points = durations(&export);
    let item = points
        .iter()
        .find(|p| string(&p.attributes, "http.route").as_deref() == Some("/items/{id}"))
        .unwrap();
    assert_eq!(item.count, 3);
    assert_eq!(
        string(&item.attributes, "http.request.method").as_deref(),
        Some("GET")
    );
    assert_eq!(int(&item.attributes, "http.response.status_code"), Some(200));
    assert_eq!(string(&item.attributes, "url.scheme").as_deref(), Some("http"));
    assert_eq!(string(&item.attributes, "error.type"), None);
    assert_eq!(
        item.explicit_bounds,
        [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0]
    );
    assert_eq!(item.bucket_counts.len(), 15);
    assert_eq!(item.bucket_counts.iter().sum::<u64>(), 3);
    assert!(item.sum.is_some_and(|sum| sum > 0.0 && sum < 3.0 * 10.0));
    assert!(item.start_time_unix_nano > 0 && item.time_unix_nano > item.start_time_unix_nano);
    assert_eq!(
        item.exemplars.len(),
        1,
        "the sampled request's: {:?}",
        item.exemplars
    );
    assert_eq!(hex(&item.exemplars[0].trace_id), TRACE);
    assert_eq!(item.exemplars[0].span_id.len(), 8);
    assert!(matches!(item.exemplars[0].value, Some(exemplar::Value::AsDouble(v)) if v > 0.0));
    let failed = points
        .iter()
        .find(|p| int(&p.attributes, "http.response.status_code") == Some(500))
        .unwrap();
    assert_eq!(string(&failed.attributes, "error.type").as_deref(), Some("500"));
    assert_eq!(string(&failed.attributes, "http.route").as_deref(), Some("/fail"));
    let unmatched = points
        .iter()
        .find(|p| int(&p.attributes, "http.response.status_code") == Some(404))
        .unwrap();
    assert_eq!(
        string(&unmatched.attributes, "http.route"),
        None,
        "no route, no http.route"
    );

    let active = metric(&export, "http.server.active_requests").unwrap();
    let Some(Data::Sum(sum)) = &active.data else {
        panic!("a sum: {active:?}")
    };
    assert!(!sum.is_monotonic, "an up-down counter");
    assert_eq!(
        sum.aggregation_temporality,
        AggregationTemporality::Cumulative as i32
    );
    assert_eq!(sum.data_points.len(), 1, "only GET was seen");

    // The next exports carry the same cumulative counts, and more after more requests.
    assert_eq!(get(addr, "/items/9").await.status, 200);
    let later = received.wait_for_metrics(|export| counted(export) == 6).await;
    assert!(later.is_some(), "a later export counts the sixth request");
    let scrape = get(addr, "/metrics").await.text();
    assert!(scrape.contains("otlp_metric_exports_total "), "{scrape}");
    assert!(exporter.exported() >= 2);
    assert_eq!(exporter.failed(), 0);
}

#[tokio::test]
async fn shutdown_sends_a_last_export() {
    let (receiver, received) = metrics_receiver().await;
    let (addr, exporter) = serve(config(receiver, Duration::from_secs(60))).await;
    requests(addr).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(received.posts().is_empty(), "nothing before the interval");
    let start = Instant::now();
    exporter.shutdown(Duration::from_secs(5)).await;
    assert!(start.elapsed() < Duration::from_secs(5));
    let posts = received.posts();
    assert_eq!(posts.len(), 1, "one last export");
    assert_eq!(counted(&posts[0].2), 5);
}

#[tokio::test]
async fn a_receiver_that_is_down_changes_nothing_for_requests() {
    // A port nobody listens on (bound, then closed): the connection is refused.
    let down = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    let (addr, exporter) = serve(config(down, Duration::from_millis(50))).await;
    for _ in 0..20 {
        let start = Instant::now();
        assert_eq!(get(addr, "/items/1").await.status, 200);
        assert!(start.elapsed() < Duration::from_secs(1));
    }
    wait_until(|| exporter.failed() >= 2).await;
    assert!(exporter.failed() >= 2, "each failed export counted");
    assert_eq!(exporter.exported(), 0);
    let scrape = get(addr, "/metrics").await.text();
    assert!(scrape.contains("otlp_metric_exports_failed_total "), "{scrape}");
}
