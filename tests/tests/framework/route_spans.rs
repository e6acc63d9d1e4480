//! A route's own `tracing` spans exported under its request's server span (issue 45, item 2),
//! through ferrapi's own log (the bridge, `logging/route_span.rs`), to a real OTLP receiver on
//! 127.0.0.1: `trace-server`, a process of its own (a log is one per process), serves `/nested`,
//! which opens `load` around an `#[instrument]`ed async function (`check`). Checked: a sampled
//! request gives three spans of one trace, `check` a child of `load`, `load` of the request's,
//! with their fields as attributes and their times inside the request's; the event logged in
//! `check` names the trace and `check`'s span; an unsampled request exports nothing, its lines
//! keep the request's ids. `/events` logs events in the request and in a span of its own named by
//! its `otel.*` fields: checked, each event in the span it was logged in, with its fields, level
//! and target, past the cap counted; the span's name, kind and status those fields say; the lines
//! as ever. On two workers: the test thread waits for the server to stop while the receiver takes
//! its last export.

use std::process::Command;
use std::time::Duration;

use ferrapi_tests::client::{send, Reply};
use ferrapi_tests::log_process::LogProcess;
use ferrapi_tests::otlp::{hex, int, receiver, string, Received, Span, SpanKind};

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

/// A receiver, `trace-server` with sampler `sampler` exporting to it (text lines), and the
/// answer to `GET /nested?id={id}` sent in the caller's trace.
async fn nested(sampler: &str, id: i64) -> (Received, LogProcess, Reply) {
    get(sampler, &format!("/nested?id={id}")).await
}

/// A receiver, `trace-server` with sampler `sampler` exporting to it (text lines), and the
/// answer to `GET {path}` sent in the caller's trace.
async fn get(sampler: &str, path: &str) -> (Received, LogProcess, Reply) {
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
    let reply = send(server.addrs[0], "GET", path, &[("traceparent", &parent)], None).await;
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

/// The names of `span`'s events, in order.
fn event_names(span: &Span) -> Vec<&str> {
    span.events.iter().map(|event| event.name.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_routes_events_are_span_events_of_the_span_they_were_logged_in() {
    // One warning and 130 ticks in the route's span: 131 events, 128 kept.
    let (received, mut server, reply) = get("always_on", "/events?ticks=130").await;
    assert_eq!(reply.json()["ticks"], 130);
    assert!(server.stop(), "the server stops, its exporter drained");
    let spans: Vec<_> = received.spans().into_iter().map(|(_, span)| span).collect();
    assert_eq!(spans.len(), 4, "the request's and the route's three: {spans:#?}");
    let named = |name: &str| {
        spans
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("a span named {name}: {spans:#?}"))
    };
    let request = named("GET /events");
    let own = named("stock.reserve");

    // An error logged in a route's span makes it an error without a description (as
    // tracing-opentelemetry does), unless its otel.status_code says otherwise.
    let audit = named("audit");
    assert_eq!(event_names(audit), ["audit failed"]);
    let status = audit.status.as_ref().expect("an error logged in it");
    assert_eq!((status.code, status.message.as_str()), (2, ""));
    let retry = named("retry");
    assert_eq!(event_names(retry), ["first try failed"]);
    assert_eq!(
        retry.status.as_ref().map(|s| s.code),
        Some(1),
        "otel.status_code = ok wins"
    );

    // The request's span: the two events logged outside the route's span, in order.
    assert_eq!(event_names(request), ["before the span", "after the span"]);
    let before = &request.events[0];
    assert_eq!(string(&before.attributes, "phase").as_deref(), Some("start"));
    assert_eq!(string(&before.attributes, "level").as_deref(), Some("INFO"));
    assert_eq!(
        string(&before.attributes, "target").as_deref(),
        Some("trace_server")
    );
    let after = &request.events[1];
    assert_eq!(string(&after.attributes, "reason").as_deref(), Some("none left"));
    assert_eq!(string(&after.attributes, "level").as_deref(), Some("ERROR"));
    assert_eq!(
        request.status, None,
        "an error logged in the request's own span sets no status: answered 200"
    );
    assert_eq!(request.dropped_events_count, 0);
    for event in &request.events {
        assert!(request.start_time_unix_nano <= event.time_unix_nano);
        assert!(event.time_unix_nano <= request.end_time_unix_nano);
    }

    // The route's span: named, kind and status as its otel.* fields say, none an attribute.
    assert_eq!(own.name, "stock.reserve", "otel.name");
    assert_eq!(own.kind, SpanKind::Client as i32, "otel.kind");
    let status = own.status.as_ref().expect("otel.status_code");
    assert_eq!(status.code, 2, "error");
    assert_eq!(status.message, "out of stock", "otel.status_message");
    assert_eq!(own.parent_span_id, request.span_id);
    assert_eq!(int(&own.attributes, "item"), Some(130));
    let keys: Vec<&str> = own.attributes.iter().map(|kv| kv.key.as_str()).collect();
    assert_eq!(keys, ["item"], "no otel.* attribute");
    // Its events: the warning, then ticks up to the cap; the rest counted.
    assert_eq!(own.events.len(), 128);
    assert_eq!(own.dropped_events_count, 3);
    let reserving = &own.events[0];
    assert_eq!(reserving.name, "reserving");
    assert_eq!(int(&reserving.attributes, "item"), Some(130));
    assert_eq!(
        string(&reserving.attributes, "big").as_deref(),
        Some("18446744073709551615"),
        "a u64 past i64 as text"
    );
    assert_eq!(string(&reserving.attributes, "level").as_deref(), Some("WARN"));
    assert_eq!(
        string(&reserving.attributes, "target").as_deref(),
        Some("trace_server")
    );
    assert!(own.events[1..].iter().all(|event| event.name == "tick"));
    assert_eq!(int(&own.events[127].attributes, "tick"), Some(126));
    for event in &own.events {
        assert!(own.start_time_unix_nano <= event.time_unix_nano);
        assert!(event.time_unix_nano <= own.end_time_unix_nano);
    }

    // The lines are written as ever, each naming the span that keeps its event.
    let own_id = hex(&own.span_id);
    let request_id = hex(&request.span_id);
    let line = server.line_with("reserving");
    assert!(
        line.contains("reserving item=130 big=18446744073709551615 otel.name=stock.reserve otel.kind=client item=130 request_id="),
        "its message and fields, then its span's (the otel.* ones too, as any field): {line}"
    );
    assert!(
        line.contains(&format!(" trace_id={TRACE} span_id={own_id} trace_flags=01")),
        "{line}"
    );
    assert!(
        server
            .line_with("tick=129")
            .contains(&format!(" span_id={own_id} ")),
        "a dropped event is still logged"
    );
    for message in ["before the span", "after the span"] {
        let line = server.line_with(message);
        assert!(
            line.contains(&format!(" span_id={request_id} trace_flags=01")),
            "{line}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsampled_requests_events_are_only_logged() {
    let (received, mut server, reply) = get("always_off", "/events?ticks=2").await;
    assert_eq!(reply.json()["ticks"], 2);
    for message in ["before the span", "reserving", "tick=1", "after the span"] {
        assert!(server.line_with(message).contains(" trace_flags=00"), "{message}");
    }
    assert!(server.stop(), "the server stops, its exporter drained");
    assert!(
        received.posts().is_empty(),
        "nothing exported: {:?}",
        received.spans()
    );
}
