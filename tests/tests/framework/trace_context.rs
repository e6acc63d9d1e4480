//! W3C Trace Context over real HTTP on 127.0.0.1 (`App::tracing`): the answer's `traceparent`
//! names a child of the request's (same trace, a new span, the caller's as its parent); a
//! malformed or repeated `traceparent` starts a new trace, never an error; a caller's sampled
//! flag is honoured only when trusted; the trace id serves as the request id when asked; the
//! `TraceContext` argument gives the same ids, the caller's `tracestate` and `baggage`; all the
//! same through a layer; and, in a process with ferrapi's own log (`trace-server`), the access line
//! and the route's own event end with the ids, in text and in JSON.

use std::process::Command;

use ferrapi::prelude::*;
use ferrapi::trace::{ResponseHeader, Sampler, Tracing};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};
use ferrapi_tests::log_process::LogProcess;

#[get("/ids")]
async fn ids(trace: TraceContext) -> Json<Value> {
    Json(json!({
        "trace_id": trace.trace_id().to_string(),
        "span_id": trace.span_id().to_string(),
        "parent": trace.parent_span_id().map(|s| s.to_string()),
        "sampled": trace.is_sampled(),
        "traceparent": trace.traceparent(),
        "tracestate": trace.trace_state(),
        "user": trace.baggage().get("user"),
    }))
}

#[get("/plain")]
async fn plain() -> &'static str {
    "plain"
}

const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT: &str = "00f067aa0ba902b7";

fn traceparent(flags: &str) -> String {
    format!("00-{TRACE}-{PARENT}-{flags}")
}

fn app(tracing: Tracing) -> App {
    App::new()
        .routes(ferrapi::routes![ids, plain])
        .tracing(tracing.response_header(ResponseHeader::Traceparent))
}

/// The answer's `traceparent`: (trace id, span id, flags), checked to be well-formed.
fn answered(reply: &Reply) -> (String, String, String) {
    let value = reply.header("traceparent").expect("a traceparent on the answer");
    let parts: Vec<&str> = value.split('-').collect();
    assert_eq!(parts.len(), 4, "{value}");
    assert_eq!(parts[0], "00", "{value}");
    let hex = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    assert!(
        hex(parts[1], 32) && hex(parts[2], 16) && hex(parts[3], 2),
        "{value}"
    );
    assert_ne!(parts[1], "0".repeat(32));
    assert_ne!(parts[2], "0".repeat(16));
    (parts[1].to_owned(), parts[2].to_owned(), parts[3].to_owned())
}

async fn children_and_new_traces(app: App) {
    let addr = spawn(app).await;
    let reply = send(addr, "GET", "/ids", &[("traceparent", &traceparent("01"))], None).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let (trace, span, _) = answered(&reply);
    assert_eq!(trace, TRACE, "the caller's trace is continued");
    assert_ne!(span, PARENT, "with a span of the request's own");
    let body = reply.json();
    assert_eq!(body["trace_id"], TRACE);
    assert_eq!(
        body["span_id"],
        span.as_str(),
        "the argument names the answer's span"
    );
    assert_eq!(body["parent"], PARENT, "a child of the caller's span");
    assert_eq!(
        body["traceparent"],
        reply.header("traceparent").unwrap_or_default()
    );

    let other = send(addr, "GET", "/ids", &[("traceparent", &traceparent("01"))], None).await;
    assert_ne!(answered(&other).1, span, "each request has its own span");

    // Malformed or repeated: a new trace, answered as usual.
    let long = format!("{}-extra", traceparent("01"));
    let upper = traceparent("01").to_uppercase();
    let zeros = format!("00-{}-{PARENT}-01", "0".repeat(32));
    let ff = traceparent("01").replacen("00", "ff", 1);
    for bad in [
        long.as_str(),
        upper.as_str(),
        zeros.as_str(),
        ff.as_str(),
        "garbage",
        "",
    ] {
        let reply = send(addr, "GET", "/ids", &[("traceparent", bad)], None).await;
        assert_eq!(reply.status, 200, "{bad:?}: {}", reply.text());
        let (trace, _, _) = answered(&reply);
        assert_ne!(trace, TRACE, "{bad:?} starts a new trace");
        assert_eq!(reply.json()["parent"], Value::Null, "{bad:?}");
    }
    let twice = send(
        addr,
        "GET",
        "/ids",
        &[
            ("traceparent", &traceparent("01")),
            ("traceparent", &traceparent("01")),
        ],
        None,
    )
    .await;
    assert_ne!(answered(&twice).0, TRACE, "two traceparents are none");

    // A later version is read by the forward-compatibility rules.
    let future = format!("cc-{TRACE}-{PARENT}-01-more-fields");
    let reply = send(addr, "GET", "/ids", &[("traceparent", &future)], None).await;
    assert_eq!(answered(&reply).0, TRACE);

    // Every answer carries it, a route's without the argument and a 404 too.
    for path in ["/plain", "/nowhere"] {
        let reply = send(addr, "GET", path, &[("traceparent", &traceparent("00"))], None).await;
        assert_eq!(answered(&reply).0, TRACE, "{path}");
    }

    // The state and baggage reach the argument; a state without a valid parent does not.
    let reply = send(
        addr,
        "GET",
        "/ids",
        &[
            ("traceparent", &traceparent("01")),
            ("tracestate", "congo=t61rcWkgMzE"),
            ("tracestate", "rojo=00f067aa0ba902b7"),
            ("baggage", "user=alice%20b,other=1"),
        ],
        None,
    )
    .await;
    let body = reply.json();
    assert_eq!(body["tracestate"], "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
    assert_eq!(body["user"], "alice b");
    let reply = send(addr, "GET", "/ids", &[("tracestate", "congo=t61rcWkgMzE")], None).await;
    assert_eq!(reply.json()["tracestate"], Value::Null);
}

#[tokio::test]
async fn the_answer_is_a_child_and_a_malformed_parent_starts_a_new_trace() {
    children_and_new_traces(app(Tracing::new())).await;
}

#[tokio::test]
async fn through_a_layer_too() {
    children_and_new_traces(app(Tracing::new()).layer(tower::layer::util::Identity::new())).await;
}

#[tokio::test]
async fn an_untrusted_sampled_flag_is_not_honoured_a_trusted_one_is() {
    let never = Sampler::ParentBasedTraceIdRatio(0.0);
    let untrusted = spawn(app(Tracing::new().sampler(never))).await;
    let trusted = spawn(app(Tracing::new().sampler(never).trust_parent(true))).await;
    for _ in 0..20 {
        let reply = send(
            untrusted,
            "GET",
            "/ids",
            &[("traceparent", &traceparent("01"))],
            None,
        )
        .await;
        assert_eq!(answered(&reply).2, "00", "a client cannot force sampling");
        assert_eq!(reply.json()["sampled"], false);
    }
    let reply = send(
        trusted,
        "GET",
        "/ids",
        &[("traceparent", &traceparent("01"))],
        None,
    )
    .await;
    assert_eq!(
        answered(&reply).2,
        "01",
        "a trusted caller's decision is followed"
    );
    assert_eq!(reply.json()["sampled"], true);
    let reply = send(
        trusted,
        "GET",
        "/ids",
        &[("traceparent", &traceparent("00"))],
        None,
    )
    .await;
    assert_eq!(answered(&reply).2, "00");

    // Without a caller, the sampler decides: a new trace is sampled by default, and its id random.
    let default = spawn(app(Tracing::new())).await;
    assert_eq!(answered(&get(default, "/ids").await).2, "03");
    assert_eq!(answered(&get(untrusted, "/ids").await).2, "02");
}

#[tokio::test]
async fn the_trace_id_can_be_the_request_id() {
    let addr = spawn(app(Tracing::new().trace_request_ids(true)).request_ids(true)).await;
    let reply = send(
        addr,
        "GET",
        "/plain",
        &[("traceparent", &traceparent("01")), ("X-Request-Id", "mine")],
        None,
    )
    .await;
    assert_eq!(reply.header("x-request-id"), Some(TRACE));
    let fresh = get(addr, "/plain").await;
    assert_eq!(fresh.header("x-request-id"), Some(answered(&fresh).0.as_str()));
    // Without it, request ids are as before.
    let addr = spawn(app(Tracing::new()).request_ids(true)).await;
    let reply = send(
        addr,
        "GET",
        "/plain",
        &[("traceparent", &traceparent("01")), ("X-Request-Id", "mine")],
        None,
    )
    .await;
    assert_eq!(reply.header("x-request-id"), Some("mine"));
}

#[tokio::test]
async fn traceresponse_and_nothing_are_settings() {
    let addr = spawn(
        App::new()
            .routes(ferrapi::routes![plain])
            .tracing(Tracing::new().response_header(ResponseHeader::Traceresponse)),
    )
    .await;
    let reply = send(
        addr,
        "GET",
        "/plain",
        &[("traceparent", &traceparent("01"))],
        None,
    )
    .await;
    assert!(
        reply.header("traceresponse").is_some_and(|v| v.contains(TRACE)),
        "{:?}",
        reply.headers
    );
    assert_eq!(reply.header("traceparent"), None);
    let addr = spawn(App::new().routes(ferrapi::routes![plain]).tracing(Tracing::new())).await;
    let reply = send(
        addr,
        "GET",
        "/plain",
        &[("traceparent", &traceparent("01"))],
        None,
    )
    .await;
    assert_eq!(
        (reply.header("traceparent"), reply.header("traceresponse")),
        (None, None)
    );
}

#[test]
fn a_route_taking_the_context_needs_tracing_on() {
    let err = App::new()
        .routes(ferrapi::routes![ids])
        .build()
        .expect_err("no tracing, no context");
    assert!(err.to_string().contains("App::tracing"), "{err}");
}

/// `trace-server FORMAT`, its log lines gathered; stopped when dropped.
struct TraceServer {
    process: LogProcess,
    addr: std::net::SocketAddr,
}

impl TraceServer {
    fn start(format: &str) -> TraceServer {
        let mut command = Command::new(env!("CARGO_BIN_EXE_trace-server"));
        command
            .arg(format)
            .env_remove("OTEL_TRACES_SAMPLER")
            .env_remove("OTEL_PROPAGATORS");
        let process = LogProcess::start(command);
        let addr = process.addrs[0];
        TraceServer { process, addr }
    }

    /// The line containing `needle` (see [`LogProcess::line_with`]).
    fn line_with(&self, needle: &str) -> String {
        self.process.line_with(needle)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_line_and_the_routes_events_carry_the_ids() {
    let server = TraceServer::start("text");
    let reply = send(
        server.addr,
        "GET",
        "/traced",
        &[("traceparent", &traceparent("01")), ("X-Request-Id", "t-1")],
        None,
    )
    .await;
    assert_eq!(reply.status, 200);
    let (trace, span, flags) = answered(&reply);
    let ids = format!(" trace_id={trace} span_id={span} trace_flags={flags}");
    let access = server.line_with("GET /traced 200 ");
    // The line as before, the ids after its last field.
    assert!(access.ends_with(&format!("ms request_id=t-1{ids}")), "{access}");
    let event = server.line_with("the route's own event");
    assert!(
        event.ends_with(&format!("step=inside request_id=t-1{ids}")),
        "{event}"
    );

    let server = TraceServer::start("json");
    let reply = send(server.addr, "GET", "/traced", &[("X-Request-Id", "t-2")], None).await;
    let (trace, span, flags) = answered(&reply);
    for needle in ["\"target\":\"ferrapi::access\"", "the route's own event"] {
        let line = server.line_with(needle);
        let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(value["request_id"], "t-2", "{line}");
        assert_eq!(value["trace_id"], trace.as_str(), "{line}");
        assert_eq!(value["span_id"], span.as_str(), "{line}");
        assert_eq!(value["trace_flags"], flags.as_str(), "{line}");
    }
}
