//! Streamed responses over real HTTP on 127.0.0.1: chunked and sized streams, HEAD, an error
//! mid-stream, backpressure from a slow reader, a gigabyte in flat memory (the server in a child
//! process, whose RSS is read from /proc), Server-Sent Events (keep-alive, `Last-Event-ID`, the
//! producer dropped when the client leaves, the OpenAPI media type), compression of streams, and
//! the typed streams' (`JsonLines<T>`, `Sse<T>`) errors mid-stream.

use std::convert::Infallible;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferrapi::prelude::*;
use ferrapi::streaming::{Event, JsonEvent, JsonLines, KeepAlive, LastEventId, Sse, StreamingResponse};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{parse, read_to_close, request, send};
use futures_util::{stream, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower_http::compression::CompressionLayer;

const CHUNK: usize = 64 * 1024;

#[get("/chunks")]
async fn chunks() -> StreamingResponse {
    let parts = ["alpha ", "beta ", "gamma"].map(Ok::<_, std::io::Error>);
    StreamingResponse::new(stream::iter(parts))
        .content_type(ferrapi::http::header::HeaderValue::from_static("text/plain"))
}

#[get("/sized")]
async fn sized() -> StreamingResponse {
    let data = std::io::Cursor::new(vec![b'z'; 100_000]);
    StreamingResponse::from_reader(data).content_length(100_000)
}

/// A first part, then (once it has been sent) a failure of the source.
#[get("/broken")]
async fn broken() -> StreamingResponse {
    let first = stream::once(async { Ok(Bytes::from_static(b"first part")) });
    let failure = stream::once(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Err(std::io::Error::other("the source failed"))
    });
    StreamingResponse::new(first.chain(failure))
}

/// A first line, then (once it has been sent) a failure of the source.
#[get("/broken.jsonl")]
async fn broken_lines() -> JsonLines<Value> {
    let first = stream::once(async { Ok(json!({"n": 1})) });
    let failure = stream::once(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        Err(std::io::Error::other("the source failed"))
    });
    JsonLines::try_new(first.chain(failure))
}

/// A first event, then (once it has been sent) data serde cannot write (a map whose key is no
/// string).
#[get("/broken/events")]
async fn broken_events() -> Sse<std::collections::BTreeMap<Vec<u8>, u8>> {
    let first = stream::once(async { std::collections::BTreeMap::new() });
    let unwritable = stream::once(async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        std::collections::BTreeMap::from([(vec![1], 1)])
    });
    let events = first
        .chain(unwritable)
        .map(|data| Ok::<_, Infallible>(JsonEvent::new(data).id("1")));
    Sse::json_events(events)
}

/// Bytes produced so far by `/endless`.
static PRODUCED: AtomicU64 = AtomicU64::new(0);

#[get("/endless")]
async fn endless() -> StreamingResponse {
    let chunk = Bytes::from(vec![b'e'; CHUNK]);
    StreamingResponse::new(stream::repeat_with(move || {
        PRODUCED.fetch_add(CHUNK as u64, Ordering::Relaxed);
        Ok::<_, std::io::Error>(chunk.clone())
    }))
}

/// `size` bytes, in chunks of 64 KiB that all share one buffer.
#[get("/download")]
async fn download(size: u64) -> StreamingResponse {
    let chunk = Bytes::from(vec![b'd'; CHUNK]);
    let chunks = size.div_ceil(CHUNK as u64);
    let items = (0..chunks).map(move |i| {
        let len = (size - i * CHUNK as u64).min(CHUNK as u64) as usize;
        Ok::<_, std::io::Error>(chunk.slice(..len))
    });
    StreamingResponse::new(stream::iter(items)).content_length(size)
}

fn streams() -> App {
    streams_with(Ticker::default())
}

fn streams_with(ticker: Ticker) -> App {
    App::new().state(ticker).routes(routes![
        chunks,
        sized,
        broken,
        endless,
        download,
        events,
        ticker,
        broken_lines,
        broken_events
    ])
}

#[tokio::test]
async fn a_stream_is_chunked_and_a_sized_reader_carries_its_length() {
    let addr = spawn(streams()).await;
    let reply = send(addr, "GET", "/chunks", &[], None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("transfer-encoding"), Some("chunked"));
    assert_eq!(reply.header("content-type"), Some("text/plain"));
    assert_eq!(reply.dechunked(), b"alpha beta gamma");

    let reply = send(addr, "GET", "/sized", &[], None).await;
    assert_eq!(reply.header("content-length"), Some("100000"));
    assert_eq!(reply.header("transfer-encoding"), None);
    assert_eq!(reply.body, vec![b'z'; 100_000]);
}

#[tokio::test]
async fn head_answers_the_headers_only() {
    let addr = spawn(streams()).await;
    let reply = send(addr, "HEAD", "/sized", &[], None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-length"), Some("100000"));
    assert!(reply.body.is_empty());
    // A stream of unknown length: neither a length nor a body (and not `Content-Length: 0`).
    let reply = send(addr, "HEAD", "/chunks", &[], None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-length"), None);
    assert!(reply.body.is_empty());
}

#[tokio::test]
async fn an_error_mid_stream_closes_the_connection_without_completing_the_body() {
    let addr = spawn(streams()).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // A keep-alive request: only the failure can close this connection.
    let bytes = request(&addr.to_string(), "GET", "/broken", &[], None);
    stream.write_all(&bytes).await.unwrap();
    let reply = read_to_close(&mut stream).await.unwrap();
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("transfer-encoding"), Some("chunked"));
    let body = reply.text();
    assert!(body.contains("first part"), "{body:?}");
    assert!(
        !body.ends_with("0\r\n\r\n"),
        "the body must not look complete: {body:?}"
    );
}

/// The typed streams end as the untyped ones do: what was sent before the error, then the
/// connection closed without the body's last chunk.
#[tokio::test]
async fn a_typed_streams_error_closes_the_connection_without_completing_the_body() {
    let addr = spawn(streams()).await;
    for (path, sent) in [
        ("/broken.jsonl", "{\"n\":1}\n"),
        ("/broken/events", "id: 1\ndata: {}\n\n"),
    ] {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let bytes = request(&addr.to_string(), "GET", path, &[], None);
        stream.write_all(&bytes).await.unwrap();
        let reply = read_to_close(&mut stream).await.unwrap();
        assert_eq!(
            (reply.status, reply.header("transfer-encoding")),
            (200, Some("chunked"))
        );
        let body = reply.text();
        assert!(body.contains(sent), "{path}: {body:?}");
        assert!(
            !body.ends_with("0\r\n\r\n"),
            "{path}: the body must not look complete: {body:?}"
        );
    }
}

#[tokio::test]
async fn a_slow_reader_slows_the_producer() {
    let addr = spawn(streams()).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let bytes = request(&addr.to_string(), "GET", "/endless", &[], None);
    stream.write_all(&bytes).await.unwrap();
    // The client reads nothing: the producer stops once the socket buffers are full.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let stalled = PRODUCED.load(Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let still = PRODUCED.load(Ordering::Relaxed);
    assert_eq!(stalled, still, "the producer went on while nobody read");
    assert!(
        stalled < 64 << 20,
        "{stalled} bytes produced for a client that read none"
    );
    // Reading lets it go on.
    let mut buffer = vec![0u8; CHUNK];
    let mut read = 0u64;
    while read < stalled + (8 << 20) {
        read += stream.read(&mut buffer).await.unwrap() as u64;
    }
    assert!(PRODUCED.load(Ordering::Relaxed) > stalled);
}

/// Set when the server of the gigabyte test runs in this process (a child of the test).
const CHILD_ENV: &str = "FERRAPI_STREAMING_CHILD";

/// The server of `a_gigabyte_streams_in_flat_memory`, run alone in a child process so that its
/// memory is the server's only; not a test of its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "run by a_gigabyte_streams_in_flat_memory in a child process"]
async fn gigabyte_server() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    let addr = spawn(streams()).await;
    println!("LISTENING {addr}");
    // Until the parent kills this process.
    std::future::pending::<()>().await;
}

/// The resident set of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// Kills the child when the test ends, passed or failed.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn a_gigabyte_streams_in_flat_memory() {
    if !std::path::Path::new("/proc/self/status").exists() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let mut child = Child(
        std::process::Command::new(exe)
            .args([
                "streaming::gigabyte_server",
                "--exact",
                "--ignored",
                "--nocapture",
            ])
            .env(CHILD_ENV, "1")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let pid = child.0.id();
    let mut out = child.0.stdout.take().unwrap();
    let addr: SocketAddr = tokio::task::spawn_blocking(move || {
        let mut text = String::new();
        let mut byte = [0u8; 1];
        while !text.contains("LISTENING ") || !text.ends_with('\n') {
            assert_eq!(out.read(&mut byte).unwrap(), 1, "the child exited: {text}");
            text.push(byte[0] as char);
        }
        let line = text.lines().find_map(|l| l.strip_prefix("LISTENING ")).unwrap();
        line.trim().parse().unwrap()
    })
    .await
    .unwrap();

    const GIB: u64 = 1 << 30;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let path = format!("/download?size={GIB}");
    stream
        .write_all(&request(
            &addr.to_string(),
            "GET",
            &path,
            &[("Connection", "close")],
            None,
        ))
        .await
        .unwrap();
    let mut buffer = vec![0u8; 256 * 1024];
    let mut total = 0u64;
    let mut baseline = None;
    let mut peak = 0;
    let started = Instant::now();
    loop {
        let n = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut buffer))
            .await
            .expect("the download stalled")
            .unwrap();
        if n == 0 {
            break;
        }
        total += n as u64;
        // The baseline is taken once the transfer runs (buffers and the runtime are warm).
        if baseline.is_none() && total > 64 << 20 {
            baseline = Some(rss_kib(pid));
        }
        if baseline.is_some() && total % (32 << 20) < n as u64 {
            peak = peak.max(rss_kib(pid));
        }
    }
    let head = buffer.len(); // an upper bound of the head's size, for the total below
    assert!(
        total >= GIB && total < GIB + head as u64,
        "received {total} bytes"
    );
    let baseline = baseline.unwrap();
    let growth = peak.saturating_sub(baseline);
    assert!(
        growth < 4 * 1024,
        "the server's RSS grew by {growth} KiB (from {baseline} KiB) streaming 1 GiB"
    );
    eprintln!(
        "1 GiB streamed in {:.1} s; server RSS {baseline} KiB, peak {peak} KiB",
        started.elapsed().as_secs_f64()
    );
}

/// Set when the producer of `/ticker` is dropped (one per app: tests run at once).
#[derive(Default)]
struct Ticker(Arc<AtomicBool>);

/// Sets the flag of [`Ticker`] when dropped with the producer.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Five numbered events, resuming after the client's `Last-Event-ID`.
#[get("/events")]
async fn events(last: LastEventId) -> Sse {
    let start = last
        .as_deref()
        .and_then(|id| id.parse::<u32>().ok())
        .map_or(1, |id| id + 1);
    let items = (start..=5).map(|i| {
        Ok::<_, Infallible>(
            Event::default()
                .event("count")
                .id(i.to_string())
                .data(format!("tick {i}\nline two")),
        )
    });
    Sse::new(stream::iter(items))
}

/// One event, then silence filled with keep-alive comments, until the client leaves.
#[get("/ticker")]
async fn ticker(state: State<Ticker>) -> Sse {
    let flag = DropFlag(state.0.clone());
    let first = stream::once(async { Ok::<_, Infallible>(Event::default().data("hello")) });
    // The flag lives in the producer's state: it is dropped with the producer.
    let silent = stream::unfold(flag, |flag| async move {
        std::future::pending::<()>().await;
        Some((Ok(Event::default()), flag))
    });
    Sse::new(first.chain(silent)).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_millis(100))
            .text("still here"),
    )
}

/// Read from `stream` into `buffer` until it holds `needle`.
async fn read_until(stream: &mut TcpStream, buffer: &mut Vec<u8>, needle: &str) {
    let mut chunk = [0u8; 4096];
    while !String::from_utf8_lossy(buffer).contains(needle) {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
            .await
            .unwrap_or_else(|_| panic!("no {needle:?} within 5 s: {:?}", String::from_utf8_lossy(buffer)))
            .unwrap();
        assert!(
            n > 0,
            "closed before {needle:?}: {:?}",
            String::from_utf8_lossy(buffer)
        );
        buffer.extend_from_slice(&chunk[..n]);
    }
}

#[tokio::test]
async fn events_are_framed_and_resume_after_last_event_id() {
    let addr = spawn(streams()).await;
    let reply = send(addr, "GET", "/events", &[], None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("text/event-stream"));
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    let text = String::from_utf8(reply.dechunked()).unwrap();
    assert!(
        text.starts_with("event: count\nid: 1\ndata: tick 1\ndata: line two\n\nevent: count\nid: 2\n"),
        "{text:?}"
    );
    assert_eq!(text.matches("\n\n").count(), 5);

    let reply = send(addr, "GET", "/events", &[("Last-Event-ID", "3")], None).await;
    let text = String::from_utf8(reply.dechunked()).unwrap();
    assert!(text.starts_with("event: count\nid: 4\n"), "{text:?}");
    assert_eq!(text.matches("\n\n").count(), 2);
}

#[tokio::test]
async fn keep_alive_comments_flow_and_the_producer_is_dropped_when_the_client_leaves() {
    let dropped = Arc::new(AtomicBool::new(false));
    let addr = spawn(streams_with(Ticker(dropped.clone()))).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let bytes = request(&addr.to_string(), "GET", "/ticker", &[], None);
    stream.write_all(&bytes).await.unwrap();
    let mut buffer = Vec::new();
    read_until(&mut stream, &mut buffer, "data: hello\n\n").await;
    read_until(&mut stream, &mut buffer, ": still here\n\n").await;
    assert!(!dropped.load(Ordering::SeqCst));
    drop(stream);
    let left = Instant::now();
    while !dropped.load(Ordering::SeqCst) {
        assert!(
            left.elapsed() < Duration::from_secs(1),
            "the producer outlived its client by a second"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[test]
fn an_event_stream_is_documented_as_text_event_stream() {
    let service = streams().build().unwrap();
    let doc: Value = serde_json::from_slice(service.openapi_json()).unwrap();
    let ok = &doc["paths"]["/events"]["get"]["responses"]["200"];
    // Events of any text: a string, and no item schema (a typed `Sse<T>` has one).
    assert_eq!(
        ok["content"],
        json!({"text/event-stream": {"schema": {"type": "string"}}})
    );
}

#[tokio::test]
async fn streams_are_compressed_and_event_streams_are_not() {
    let addr = spawn(streams().layer(CompressionLayer::new())).await;
    let reply = send(
        addr,
        "GET",
        "/download?size=300000",
        &[("Accept-Encoding", "gzip")],
        None,
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-encoding"), Some("gzip"));
    let compressed = reply.dechunked();
    assert!(compressed.len() < 10_000, "{} bytes", compressed.len());
    let mut plain = Vec::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_end(&mut plain)
        .unwrap();
    assert_eq!(plain, vec![b'd'; 300_000]);

    // Events are not held back in a compressor's buffer: the first arrives while the stream
    // is still open.
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let bytes = request(
        &addr.to_string(),
        "GET",
        "/ticker",
        &[("Accept-Encoding", "gzip")],
        None,
    );
    stream.write_all(&bytes).await.unwrap();
    let mut buffer = Vec::new();
    read_until(&mut stream, &mut buffer, "data: hello\n\n").await;
    let head = parse(&buffer);
    assert_eq!(head.header("content-encoding"), None);
}
