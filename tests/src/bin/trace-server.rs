//! A server with ferrapi's own log installed and tracing on, in a process of its own, for the
//! tests of the trace ids on its log lines (tests/tests/framework/trace_context.rs): a log is one
//! per process, and the framework's test binary installs none.
//!
//! `trace-server FORMAT` (`text` or `json`) serves the route below on 127.0.0.1 with request ids
//! and tracing on (the sampler from `OTEL_TRACES_SAMPLER`, the answer's `traceparent` on), logs
//! at `info` to stderr, prints `listening on ADDR` to stdout, and stops when its standard input
//! closes.

use ferrapi::logging::{LogFormat, Logging};
use ferrapi::prelude::*;
use ferrapi::trace::{ResponseHeader, Tracing};
use ferrapi_tests::log_process::{run, stdin_closed};

/// Logs an event of its own, and answers the ids it was given.
#[get("/traced")]
async fn traced(trace: TraceContext) -> Json<Value> {
    tracing::info!(step = "inside", "the route's own event");
    Json(json!({
        "trace_id": trace.trace_id().to_string(),
        "span_id": trace.span_id().to_string(),
    }))
}

async fn serve(format: LogFormat) -> Result<(), String> {
    let _log = Logging::new().format(format).filter("info").init();
    let app = App::new()
        .routes(ferrapi::routes![traced])
        .request_ids(true)
        .tracing(Tracing::from_env().response_header(ResponseHeader::Traceparent));
    let server = app.bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    println!("listening on {}", server.local_addr());
    server.run_until(stdin_closed()).await;
    Ok(())
}

fn main() -> Result<(), String> {
    run(serve)
}
