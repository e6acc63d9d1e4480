//! The client's `otel` feature over real HTTP on 127.0.0.1 (issue 45, item 4), with the
//! OpenTelemetry SDK a program would install (in-memory exporters, so the test reads what the
//! SDK got): a call's span is named `{method} {route template}`, of kind client, a child of the
//! current context, with the stable HTTP client attributes (the query's added and secret values
//! redacted in `url.full`); the `traceparent` the server receives is that span's; a retried call's
//! retry is a child span whose `traceparent` the retry carries; so is each reconnection of an
//! event stream; a call that gets no answer is an error span; each attempt is a point of
//! `http.client.request.duration`.
//!
//! One SDK per test binary (the providers are global): each test runs under its own parent span
//! and server, and reads only its trace and its server's port.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::prelude::*;
use ferrapi::streaming::{Event as SseEvent, LastEventId, Sse};
use ferrapi_client::opentelemetry::context::FutureExt as _;
use ferrapi_client::opentelemetry::trace::{SpanKind, Status, TraceContextExt, Tracer, TracerProvider as _};
use ferrapi_client::opentelemetry::{global, Context, KeyValue, Value as OtelValue};
use ferrapi_client::{CallOptions, Client, Method, Raw, RetryPolicy};
use ferrapi_tests::app::spawn;
use futures_util::StreamExt as _;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData};
use opentelemetry_sdk::metrics::{InMemoryMetricExporter, PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};

#[path = "support/ticks.rs"]
mod sse_ticks;
use sse_ticks::{paced_after, Ticks};

/// The test binary's SDK: its span exporter and meter provider (with its metric exporter).
struct Sdk {
    spans: InMemorySpanExporter,
    tracer: SdkTracerProvider,
    meter: SdkMeterProvider,
    metrics: InMemoryMetricExporter,
}

/// The SDK, installed as the global providers and propagator once.
fn sdk() -> &'static Sdk {
    static SDK: OnceLock<Sdk> = OnceLock::new();
    SDK.get_or_init(|| {
        let spans = InMemorySpanExporter::default();
        let tracer = SdkTracerProvider::builder()
            .with_simple_exporter(spans.clone())
            .build();
        let metrics = InMemoryMetricExporter::default();
        let meter = SdkMeterProvider::builder()
            .with_reader(PeriodicReader::builder(metrics.clone()).build())
            .build();
        global::set_tracer_provider(tracer.clone());
        global::set_meter_provider(meter.clone());
        global::set_text_map_propagator(TraceContextPropagator::new());
        Sdk {
            spans,
            tracer,
            meter,
            metrics,
        }
    })
}

/// What the app saw: each request's `traceparent`.
#[derive(Default)]
struct Seen {
    attempts: AtomicUsize,
    parents: Mutex<Vec<Option<String>>>,
}

/// The item, and the `traceparent` it was asked with.
#[get("/item/{id}")]
async fn item(seen: State<Arc<Seen>>, id: i64, traceparent: Header<Option<String>>) -> Json<Value> {
    seen.parents.lock().unwrap().push(traceparent.0);
    Json(json!({ "id": id }))
}

/// Busy (503, `Retry-After: 0`) at the first attempt, then 200.
#[get("/flaky")]
async fn flaky(
    seen: State<Arc<Seen>>,
    traceparent: Header<Option<String>>,
) -> Result<Json<Value>, HttpError> {
    seen.parents.lock().unwrap().push(traceparent.0);
    if seen.attempts.fetch_add(1, Ordering::SeqCst) == 0 {
        return Err(HttpError::new(503, "busy").with_header(
            HeaderName::from_static("retry-after"),
            HeaderValue::from_static("0"),
        ));
    }
    Ok(Json(json!({})))
}

/// Two events numbered from `Last-Event-ID` on; the first connection breaks after one.
#[get("/ticks")]
async fn ticks(seen: State<Arc<Seen>>, last: LastEventId, traceparent: Header<Option<String>>) -> Sse {
    seen.parents.lock().unwrap().push(traceparent.0);
    let connection = seen.attempts.fetch_add(1, Ordering::SeqCst);
    Sse::new(paced_after(last.as_deref(), 2).map(move |n| {
        if connection == 0 && n == 2 {
            return Err("cut");
        }
        Ok(SseEvent::default()
            .id(n.to_string())
            .retry(Duration::from_millis(20))
            .data(json!({ "n": n }).to_string()))
    }))
}

async fn served(seen: &Arc<Seen>) -> SocketAddr {
    spawn(App::new().state(seen.clone()).routes(routes![item, flaky, ticks])).await
}

/// A client of `addr`, built after the SDK is installed (it takes the global providers then).
fn client(addr: SocketAddr) -> Client {
    sdk();
    Client::builder(&format!("http://{addr}"))
        .retry(RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(50),
            ..RetryPolicy::new()
        })
        .build()
        .unwrap()
}

/// A parent span of the test's own, as a program's span around its calls; its context.
fn parent(name: &'static str) -> Context {
    let tracer = sdk().tracer.tracer("otel-test");
    Context::current_with_span(tracer.start(name))
}

/// The finished spans of trace `cx`'s.
fn spans_of(cx: &Context) -> Vec<SpanData> {
    let trace = cx.span().span_context().trace_id();
    sdk()
        .spans
        .get_finished_spans()
        .unwrap()
        .into_iter()
        .filter(|s| s.span_context.trace_id() == trace)
        .collect()
}

fn attribute<'a>(span: &'a SpanData, key: &str) -> Option<&'a OtelValue> {
    span.attributes
        .iter()
        .find(|kv| kv.key.as_str() == key)
        .map(|kv| &kv.value)
}

fn string(span: &SpanData, key: &str) -> Option<String> {
    attribute(span, key).map(|v| v.as_str().into_owned())
}

fn int(span: &SpanData, key: &str) -> Option<i64> {
    match attribute(span, key) {
        Some(OtelValue::I64(i)) => Some(*i),
        _ => None,
    }
}

/// The two spans of trace `cx`'s, both named `name`: a call's, a child of `cx`, and the client
/// span under it of the call's first resend (`http.request.resend_count` 1: a retry, a
/// reconnection).
fn call_and_resend(cx: &Context, name: &str) -> (SpanData, SpanData) {
    let spans = spans_of(cx);
    assert_eq!(spans.len(), 2, "the call's and its resend's: {spans:?}");
    let mut call = None;
    let mut resend = None;
    for span in spans {
        match int(&span, "http.request.resend_count") {
            None => call = Some(span),
            Some(1) => resend = Some(span),
            Some(other) => panic!("resend count {other}: {span:?}"),
        }
    }
    let (call, resend) = (call.expect("the call's span"), resend.expect("the resend's"));
    assert_eq!(call.name, name);
    assert_eq!(resend.name, name);
    assert_eq!(resend.span_kind, SpanKind::Client);
    assert_eq!(call.parent_span_id, cx.span().span_context().span_id());
    assert_eq!(
        resend.parent_span_id,
        call.span_context.span_id(),
        "the resend is under the call"
    );
    (call, resend)
}

/// `00-{trace}-{span}-01` of `span`.
fn traceparent(span: &SpanData) -> String {
    format!(
        "00-{}-{}-01",
        span.span_context.trace_id(),
        span.span_context.span_id()
    )
}

#[tokio::test]
async fn a_call_is_a_client_span_under_the_current_context_and_sends_its_traceparent() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let client = client(addr);
    let cx = parent("caller");
    let mut options = CallOptions::default();
    options.query("api_key", "s3cret");
    let answer = client
        .call_route::<Raw, _>(Method::GET, "/item/{id}", options, |request| {
            request.path("/item/");
            request.path_param(&7);
            request.query("q", &"x");
            request.query("sig", &"signed");
        })
        .with_context(cx.clone())
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let spans = spans_of(&cx);
    assert_eq!(spans.len(), 1, "the call's span alone ({spans:?})");
    let span = &spans[0];
    assert_eq!(span.name, "GET /item/{id}");
    assert_eq!(span.span_kind, SpanKind::Client);
    assert_eq!(
        span.parent_span_id,
        cx.span().span_context().span_id(),
        "a child of the current context"
    );
    assert_eq!(string(span, "http.request.method").as_deref(), Some("GET"));
    assert_eq!(string(span, "server.address").as_deref(), Some("127.0.0.1"));
    assert_eq!(int(span, "server.port"), Some(i64::from(addr.port())));
    assert_eq!(string(span, "url.template").as_deref(), Some("/item/{id}"));
    assert_eq!(
        string(span, "url.full"),
        Some(format!("http://{addr}/item/7?q=x&sig=REDACTED&api_key=REDACTED")),
        "no secret reaches a collector"
    );
    assert_eq!(int(span, "http.response.status_code"), Some(200));
    assert_eq!(attribute(span, "error.type"), None);
    assert_eq!(span.status, Status::Unset);
    let sent = seen.parents.lock().unwrap().clone();
    assert_eq!(
        sent,
        vec![Some(traceparent(span))],
        "the server got the call span's context"
    );
}

#[tokio::test]
async fn a_retry_is_a_child_span_of_the_call_and_each_attempt_a_point() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let client = client(addr);
    let cx = parent("retrying caller");
    let answer = client
        .call_route::<Raw, _>(Method::GET, "/flaky", CallOptions::default(), |request| {
            request.path("/flaky");
        })
        .with_context(cx.clone())
        .await
        .unwrap();
    assert_eq!(answer.status(), 200, "retried after the 503");
    let (call, retry) = call_and_resend(&cx, "GET /flaky");
    let (call, retry) = (&call, &retry);
    assert_eq!(
        int(call, "http.response.status_code"),
        Some(200),
        "the call's outcome"
    );
    assert_eq!(int(retry, "http.response.status_code"), Some(200));
    let sent = seen.parents.lock().unwrap().clone();
    assert_eq!(
        sent,
        vec![Some(traceparent(call)), Some(traceparent(retry))],
        "each attempt carried its own span's context"
    );

    // Each attempt is a point of the histogram, with its status (and the 503's error.type).
    sdk().meter.force_flush().unwrap();
    let metrics = sdk().metrics.get_finished_metrics().unwrap();
    let last = metrics.last().expect("metrics were exported");
    let port = KeyValue::new("server.port", i64::from(addr.port()));
    let mut points = Vec::new();
    for scope in last.scope_metrics() {
        for metric in scope
            .metrics()
            .filter(|m| m.name() == "http.client.request.duration")
        {
            assert_eq!(metric.unit(), "s");
            let AggregatedMetrics::F64(MetricData::Histogram(histogram)) = metric.data() else {
                panic!("a histogram of f64: {:?}", metric.data());
            };
            for point in histogram.data_points() {
                let attributes: Vec<&KeyValue> = point.attributes().collect();
                if attributes.contains(&&port) {
                    let status = attributes
                        .iter()
                        .find(|kv| kv.key.as_str() == "http.response.status_code")
                        .map(|kv| kv.value.to_string());
                    let error = attributes
                        .iter()
                        .find(|kv| kv.key.as_str() == "error.type")
                        .map(|kv| kv.value.to_string());
                    assert!(attributes.contains(&&KeyValue::new("url.template", "/flaky")));
                    assert!(attributes.contains(&&KeyValue::new("http.request.method", "GET")));
                    assert_eq!(point.bounds().next(), Some(0.005), "the conventions' buckets");
                    points.push((status, error, point.count()));
                }
            }
        }
    }
    points.sort();
    assert_eq!(
        points,
        vec![
            (Some("200".to_owned()), None, 1),
            (Some("503".to_owned()), Some("503".to_owned()), 1)
        ]
    );
}

#[tokio::test]
async fn an_event_streams_reconnection_is_a_child_span_of_the_call() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let client = client(addr);
    let cx = parent("streaming caller");
    let mut options = CallOptions::default();
    options.resumable();
    let answer = client
        .call_route::<Ticks, _>(Method::GET, "/ticks", options, |request| {
            request.path("/ticks");
        })
        .with_context(cx.clone())
        .await
        .unwrap();
    let ticks: Vec<u64> = answer
        .into_body()
        .0
        .take(3)
        .map(|event| event.expect("an event").data.n)
        .collect()
        .await;
    assert_eq!(ticks, [1, 2, 3], "resumed after the cut");
    let (call, reconnection) = call_and_resend(&cx, "GET /ticks");
    let (call, reconnection) = (&call, &reconnection);
    assert_eq!(int(reconnection, "http.response.status_code"), Some(200));
    assert_eq!(
        string(reconnection, "url.full"),
        Some(format!("http://{addr}/ticks"))
    );
    assert_eq!(
        *seen.parents.lock().unwrap(),
        vec![Some(traceparent(call)), Some(traceparent(reconnection))],
        "the reconnection carried its own span's context"
    );
}

#[tokio::test]
async fn a_call_without_an_answer_is_an_error_span() {
    // Bound, then closed: connections to it are refused.
    let down = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap()
        .local_addr()
        .unwrap();
    sdk();
    let client = Client::builder(&format!("http://{down}"))
        .retry(RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::new()
        })
        .build()
        .unwrap();
    let cx = parent("caller of nobody");
    let error = client
        .call::<Raw, _>(Method::POST, CallOptions::default(), |request| request.path("/x"))
        .with_context(cx.clone())
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
    let spans = spans_of(&cx);
    assert_eq!(spans.len(), 1, "{spans:?}");
    let span = &spans[0];
    assert_eq!(span.name, "POST", "no route template: the method alone");
    assert_eq!(string(span, "error.type").as_deref(), Some("connect"));
    assert_eq!(attribute(span, "http.response.status_code"), None);
    assert!(matches!(span.status, Status::Error { .. }), "{:?}", span.status);
}

#[tokio::test]
async fn a_method_outside_the_standard_ones_is_http_other_and_an_error_status_is_an_error() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let client = client(addr);
    let cx = parent("purging caller");
    let purge = Method::from_bytes(b"PURGE").unwrap();
    let answer = client
        .call_route::<Raw, _>(purge, "/item/{id}", CallOptions::default(), |request| {
            request.path("/item/7");
        })
        .with_context(cx.clone())
        .await
        .unwrap();
    assert_eq!(answer.status(), 405);
    let spans = spans_of(&cx);
    assert_eq!(spans.len(), 1, "{spans:?}");
    let span = &spans[0];
    assert_eq!(span.name, "HTTP /item/{id}");
    assert_eq!(string(span, "http.request.method").as_deref(), Some("_OTHER"));
    assert_eq!(
        string(span, "http.request.method_original").as_deref(),
        Some("PURGE")
    );
    assert_eq!(int(span, "http.response.status_code"), Some(405));
    assert_eq!(
        string(span, "error.type").as_deref(),
        Some("405"),
        "a 4xx is a client span's error"
    );
    assert!(matches!(span.status, Status::Error { .. }), "{:?}", span.status);
}
