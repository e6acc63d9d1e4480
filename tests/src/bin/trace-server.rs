//! A server with ferrapi's own log installed and tracing on, in a process of its own, for the
//! tests of the trace ids on its log lines (tests/tests/framework/trace_context.rs): a log is one
//! per process, and the framework's test binary installs none.
//!
//! `trace-server FORMAT` (`text` or `json`) serves the route below on 127.0.0.1 with request ids
//! and tracing on (the sampler from `OTEL_TRACES_SAMPLER`, the answer's `traceparent` on), logs
//! at `info` to stderr, prints `listening on ADDR` to stdout, and stops when its standard input
//! closes. With `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` set, it exports its spans there over OTLP
//! (the rest of `OtlpConfig::from_env`'s variables honoured), the route's own spans included
//! (`/nested`, tests/tests/framework/route_spans.rs), and the events the routes log in them
//! (`/events`), and sends what is queued before it exits.

use ferrapi::logging::{LogFormat, Logging};
use ferrapi::prelude::*;
use std::time::Duration;

use ferrapi::trace::otlp::{OtlpConfig, OtlpExporter};
use ferrapi::trace::{ResponseHeader, Tracing};
use ferrapi_tests::log_process::{run, stdin_closed};
use tracing::Instrument;

/// Logs an event of its own, and answers the ids it was given.
#[get("/traced")]
async fn traced(trace: TraceContext) -> Json<Value> {
    tracing::info!(step = "inside", "the route's own event");
    Json(json!({
        "trace_id": trace.trace_id().to_string(),
        "span_id": trace.span_id().to_string(),
    }))
}

/// Opens two spans of its own, one in the other: `load` around the call, `check` of the async
/// function it awaits (`#[instrument]`), which logs an event and yields (so it is polled twice).
#[get("/nested")]
async fn nested(id: i64) -> Json<Value> {
    let load = tracing::info_span!("load", item = id, source = "store");
    let even = check(id * 2).instrument(load).await;
    Json(json!({ "even": even }))
}

/// Logs an event in the request's span, then in a span of its own whose `otel.*` fields name it
/// (`stock.reserve`, a client span ending in an error), one event and `ticks` more; an error
/// logged in a span of its own (`audit`: an error) and in one whose `otel.status_code` is `ok`
/// (`retry`); then an error event in the request's span again (its status is its answer's).
#[get("/events")]
async fn events(ticks: i64) -> Json<Value> {
    tracing::info!(phase = "start", "before the span");
    let span = tracing::info_span!(
        "store call",
        otel.name = "stock.reserve",
        otel.kind = "client",
        otel.status_code = tracing::field::Empty,
        otel.status_message = tracing::field::Empty,
        item = ticks,
    );
    {
        let _in = span.enter();
        tracing::warn!(item = ticks, big = u64::MAX, "reserving");
        for tick in 0..ticks {
            tracing::info!(tick, "tick");
        }
        span.record("otel.status_message", "out of stock");
        span.record("otel.status_code", "error");
    }
    drop(span);
    // An error logged in a span of its own makes it an error, unless its otel.* fields say ok.
    tracing::info_span!("audit").in_scope(|| tracing::error!("audit failed"));
    tracing::info_span!("retry", otel.status_code = "ok").in_scope(|| tracing::error!("first try failed"));
    tokio::task::yield_now().await;
    tracing::error!(reason = %"none left", "after the span");
    Json(json!({ "ticks": ticks }))
}

#[tracing::instrument(fields(kind = "parity"))]
async fn check(total: i64) -> bool {
    tokio::task::yield_now().await;
    tracing::info!(step = "checked", "the inner span's own event");
    total % 2 == 0
}

async fn serve(format: LogFormat) -> Result<(), String> {
    let _log = Logging::new().format(format).filter("info").init();
    let mut tracing = Tracing::from_env().response_header(ResponseHeader::Traceparent);
    let exporter = match std::env::var_os("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
        Some(_) => {
            let exporter = OtlpExporter::start(OtlpConfig::from_env())?;
            tracing = tracing.exporter(exporter.clone());
            Some(exporter)
        }
        None => None,
    };
    let app = App::new()
        .routes(ferrapi::routes![traced, nested, events])
        .request_ids(true)
        .tracing(tracing);
    let server = app.bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    println!("listening on {}", server.local_addr());
    server.run_until(stdin_closed()).await;
    if let Some(exporter) = exporter {
        exporter.shutdown(Duration::from_secs(5)).await;
    }
    Ok(())
}

fn main() -> Result<(), String> {
    run(serve)
}
