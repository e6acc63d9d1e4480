//! Streaming: a download generated as the client reads it, a file read in chunks, and a clock
//! pushed to the browser as Server-Sent Events that resumes after a reconnection.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example streaming
//! ```
//!
//! then try:
//!
//! ```text
//! $ curl -s http://127.0.0.1:8000/numbers?count=5
//! 1
//! 2
//! ...
//! $ curl -s -o /dev/null -w '%{size_download}\n' 'http://127.0.0.1:8000/zeros?mib=512'
//! 536870912
//! $ curl -N http://127.0.0.1:8000/clock
//! id: 1
//! event: tick
//! data: {"tick":1}
//! ...
//! $ curl -N -H 'Last-Event-ID: 41' http://127.0.0.1:8000/clock     # resumes at tick 42
//! ```
//!
//! `/zeros` sends as much as asked with the server's memory flat: each chunk is produced only when
//! the client has taken the previous ones. `/source` streams this file from disk with its length.
//! In a browser, `new EventSource("/clock")` reconnects by itself after a lost connection and sends
//! the last id it saw; the route carries on from there.

use std::convert::Infallible;
use std::process::ExitCode;
use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::streaming::{Event, KeepAlive, LastEventId, Sse, StreamingResponse};
use futures_util::stream;
use futures_util::StreamExt;

/// `count` numbers, one per line, each written as it is produced.
#[get("/numbers")]
pub async fn numbers(#[default(10)] count: u32) -> StreamingResponse {
    let lines = stream::iter(1..=count).map(|n| Ok::<_, Infallible>(format!("{n}\n")));
    StreamingResponse::new(lines).content_type(ferrapi::http::header::HeaderValue::from_static(
        "text/plain; charset=utf-8",
    ))
}

/// `mib` MiB of zeros, in 64 KiB chunks sharing one buffer; the length is known up front.
#[get("/zeros")]
pub async fn zeros(#[default(1)] mib: u64) -> StreamingResponse {
    let chunk = bytes::Bytes::from(vec![0u8; 64 * 1024]);
    let chunks = stream::iter(0..mib * 16).map(move |_| Ok::<_, Infallible>(chunk.clone()));
    StreamingResponse::new(chunks).content_length(mib << 20)
}

/// This program's source, read from disk in chunks.
#[get("/source")]
pub async fn source() -> Result<StreamingResponse, HttpError> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/streaming.rs");
    let file = tokio::fs::File::open(path)
        .await
        .map_err(|_| HttpError::not_found("no source"))?;
    let length = file
        .metadata()
        .await
        .map_err(|_| HttpError::not_found("no source"))?
        .len();
    Ok(StreamingResponse::from_reader(file)
        .content_type(ferrapi::http::header::HeaderValue::from_static(
            "text/plain; charset=utf-8",
        ))
        .content_length(length))
}

/// A tick a second, numbered from the client's `Last-Event-ID` on.
#[get("/clock")]
pub async fn clock(last: LastEventId) -> Sse {
    let first = last
        .as_deref()
        .and_then(|id| id.parse::<u64>().ok())
        .map_or(1, |id| id + 1);
    let ticks = stream::unfold(first, move |tick| async move {
        if tick > first {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        let event = Event::default()
            .id(tick.to_string())
            .event("tick")
            .data(format!("{{\"tick\":{tick}}}"));
        Some((Ok::<_, Infallible>(event), tick + 1))
    });
    Sse::new(ticks).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}

#[tokio::main]
async fn main() -> ExitCode {
    ferrapi::logging::init();
    let app = App::new()
        .title("streaming")
        .routes(routes![numbers, zeros, source, clock]);
    ferrapi_examples::serve(app).await
}
