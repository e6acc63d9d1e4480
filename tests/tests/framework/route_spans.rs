//! A route's own `tracing` spans exported under its request's server span (issue 45, item 2),
//! through ferrapi's own log (the bridge, `logging/route_span.rs`), to a real OTLP receiver on
//! 127.0.0.1: `trace-server`, a process of its own (a log is one per process), serves `/nested`,
//! which opens `load` around an `#[instrument]`ed async function (`check`). Checked: a sampled
//! request gives three spans of one trace, `check` a child of `load`, `load` of the request's,
//! with their fields as attributes and their times inside the request's; the event logged in
//! `check` names the trace and `check`'s span; an unsampled request exports nothing, its lines
//! keep the request's ids. On two workers: the test thread waits for the server to stop while
//! the receiver takes its last export.

use std::process::Command;
use std::time::Duration;

use ferrapi_tests::client::{send, Reply};
use ferrapi_tests::log_process::LogProcess;
use ferrapi_tests::otlp::{hex, int, receiver, string, Received, SpanKind};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

/// A receiver, `trace-server` with sampler `sampler` exporting to it (text lines), and the
/// answer to `GET /nested?id={id}` sent in the caller's trace.
async fn nested(sampler: &str, id: i64) -> (Received, LogProcess, Reply) {
    let (receiver_addr, received) = receiver(Duration::ZERO).await;
    let mut command = Command::new(env!("CARGO_BIN_EXE_trace-server"));
    command
        .arg("text")
        .env("OTEL_TRACES_SAMPLER", sampler)
        .env(
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            format!("http://{receiver_addr}/v1/traces"),
        )
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
        .env_remove("OTEL_PROPAGATORS");
    let server = LogProcess::start(command);
    let parent = format!("00-{TRACE}-{PARENT}-01");
    let path = format!("/nested?id={id}");
    let reply = send(server.addrs[0], "GET", &path, &[("traceparent", &parent)], None).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    (received, server, reply)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routes_spans_nest_under_the_requests_span() {
    let (received, mut server, reply) = nested("always_on", 21).await;
    assert_eq!(reply.json()["even"], true);
    assert!(server.stop(), "the server stops, its exporter drained");
    let spans: Vec<_> = received.spans().into_iter().map(|(_, span)| span).collect();
    assert_eq!(spans.len(), 3, "the request's and the route's two: {spans:#?}");
    let named = |name: &str| {
        spans
            .iter()
            .find(|span| span.name == name)
            .unwrap_or_else(|| panic!("no span {name}: {spans:#?}"))
    };
    let request = named("GET /nested");
    let load = named("load");
    let check = named("check");
    for span in [request, load, check] {
        assert_eq!(hex(&span.trace_id), TRACE, "one trace: {}", span.name);
    }
    assert_eq!(hex(&request.parent_span_id), PARENT, "the caller's child");
    assert_eq!(
        load.parent_span_id, request.span_id,
        "load: a child of the request's span"
    );
    assert_eq!(check.parent_span_id, load.span_id, "check: a child of load");
    assert_ne!(load.span_id, request.span_id);
    assert_ne!(check.span_id, load.span_id);
    for span in [load, check] {
        assert_eq!(span.kind, SpanKind::Internal as i32, "{}", span.name);
    }
    assert_eq!(int(&load.attributes, "item"), Some(21));
    assert_eq!(string(&load.attributes, "source").as_deref(), Some("store"));
    assert_eq!(
        int(&check.attributes, "total"),
        Some(42),
        "the argument `#[instrument]` records"
    );
    assert_eq!(string(&check.attributes, "kind").as_deref(), Some("parity"));
    // Each inside its parent: opened after it, closed before it.
    assert!(request.start_time_unix_nano <= load.start_time_unix_nano);
    assert!(load.start_time_unix_nano <= check.start_time_unix_nano);
    assert!(check.start_time_unix_nano <= check.end_time_unix_nano);
    assert!(check.end_time_unix_nano <= load.end_time_unix_nano);
    assert!(load.end_time_unix_nano <= request.end_time_unix_nano);
    // The route's own event names the trace and the span it was logged in.
    let line = server.line_with("the inner span's own event");
    let check_id = hex(&check.span_id);
    assert!(
        line.contains(&format!(" trace_id={TRACE} span_id={check_id} trace_flags=")),
        "{line}"
    );
    assert!(line.contains("request_id="), "{line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsampled_request_exports_nothing() {
    let (received, mut server, reply) = nested("always_off", 4).await;
    let answered = reply.header("traceparent").expect("the answer's traceparent");
    let request_span = answered.split('-').nth(2).expect("a span id").to_owned();
    let line = server.line_with("the inner span's own event");
    assert!(
        line.contains(&format!(
            " trace_id={TRACE} span_id={request_span} trace_flags=00"
        )),
        "the request's ids, the route's spans having none: {line}"
    );
    assert!(server.stop(), "the server stops, its exporter drained");
    assert!(
        received.posts().is_empty(),
        "nothing exported: {:?}",
        received.spans()
    );
}
