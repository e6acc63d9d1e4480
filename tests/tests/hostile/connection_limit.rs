//! The connection limit: the process never holds more connections than `max_connections`, and a
//! client that fills the places with connections doing nothing cannot keep others out. A
//! connection accepted at the limit takes the place of the oldest idle one (reading a head or its
//! first bytes, or between requests); one in the middle of a request is never closed for room.
//! Before: accepting simply paused at the limit, so 800 connections trickling heads (reopened when
//! cut) at a limit of 768 kept fresh clients in the listen backlog for up to the 10 s header
//! timeout; before that, ~20,000 idle HTTP/2 connections exhausted the descriptors.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::client::{read_one, request};
use http_body_util::BodyExt;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{app, closed_within, exclusive, fresh, refusals, serve, small_window};

/// Answers after 1.5 s: a request in progress that is neither reading nor writing.
#[get("/slow")]
async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_millis(1500)).await;
    "slow"
}

/// The size of `/huge`'s answer: more than the kernel's socket buffers take (4 MiB at most by
/// default), so that a client that reads none of it keeps part of it in hyper's.
const HUGE: usize = 16 << 20;

/// A 16 MiB answer.
#[get("/huge")]
async fn huge() -> String {
    "x".repeat(HUGE)
}

/// The attacked app with a limit of `limit` connections, its metrics, and deadlines long enough
/// that none of them is what frees a place.
fn limited(limit: usize) -> App {
    app()
        .routes(ferrapi::routes![slow, huge])
        .metrics(ferrapi::metrics::Metrics::new())
        .max_connections(Some(limit))
        .header_read_timeout(Duration::from_secs(20))
        .body_timeout(Duration::from_secs(20), None)
        .write_timeout(Duration::from_secs(20))
}

/// A head sent one byte every 100 ms and never finished, on a connection reopened as soon as the
/// server closes it, until `stop`; each close is counted in `cut`.
async fn trickle(addr: SocketAddr, stop: Arc<AtomicBool>, cut: Arc<AtomicUsize>) {
    let head = b"GET /fast HTTP/1.1\r\nHost: t\r\nX-Slow: ";
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let mut chunk = [0u8; 64];
        for i in 0.. {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            let byte = head.get(i).copied().unwrap_or(b'a');
            if stream.write_all(&[byte]).await.is_err() {
                cut.fetch_add(1, Ordering::SeqCst);
                break;
            }
            // Closed (or reset) while waiting 100 ms for the next byte.
            let read = tokio::time::timeout(Duration::from_millis(100), stream.read(&mut chunk)).await;
            if let Ok(Ok(0) | Err(_)) = read {
                cut.fetch_add(1, Ordering::SeqCst);
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slowloris_flood_at_the_limit_does_not_keep_fresh_clients_out() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(40)).await;
    let (stop, cut) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let attackers: Vec<_> = (0..40)
        .map(|_| tokio::spawn(trickle(addr, stop.clone(), cut.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(500)).await;
    // A fresh client every 100 ms for ~4 s, each answered within a second although the 40 places
    // are taken by heads that never finish, retaken as soon as they are lost.
    let mut worst = Duration::ZERO;
    for round in 0..30 {
        let (status, took) = fresh(addr).await;
        assert_eq!(status, 200, "fresh request {round} answered {status}");
        assert!(
            took < Duration::from_secs(1),
            "fresh request {round} took {took:?}"
        );
        worst = worst.max(took);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.store(true, Ordering::SeqCst);
    for attacker in attackers {
        attacker.await.unwrap_or_else(|e| panic!("{e}"));
    }
    let (cut, evicted) = (cut.load(Ordering::SeqCst), refusals(addr, "evicted").await);
    eprintln!("40 trickling heads at a limit of 40: fresh clients 30/30, worst {worst:?}; {cut} heads cut, {evicted} evictions");
    assert!(cut >= 30, "only {cut} trickling heads were closed for room");
    assert!(evicted >= 30, "evictions counted: {evicted}");
    assert!(refusals(addr, "connection_limit").await >= 30);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_in_the_middle_of_a_request_is_never_closed_for_room() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(40)).await;
    // The three oldest connections, each mid-request: reading its body, running its route,
    // writing its answer to a client that has not read it yet.
    let mut body = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let head =
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n";
    body.write_all(format!("{head}{{\"a\":").as_bytes())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut running = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    running
        .write_all(&request("t", "GET", "/slow", &[], None))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut writing = small_window(addr).await;
    writing
        .write_all(&request("t", "GET", "/huge", &[], None))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The other 37 places: heads that never finish.
    let mut heads = Vec::new();
    for _ in 0..37 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream
            .write_all(b"GET /fast HTTP/1.1\r\n")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        heads.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // 40 keep-alive clients, each answered, each taking a place and keeping it: the 37 heads make
    // room, then the newcomers themselves (oldest first), never the three mid-request.
    let mut newcomers = Vec::new();
    for round in 0..40 {
        let started = Instant::now();
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream
            .write_all(&request("t", "GET", "/fast", &[], None))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let reply = read_one(&mut stream)
            .await
            .unwrap_or_else(|e| panic!("newcomer {round}: {e}"));
        assert_eq!(reply.status, 200, "newcomer {round}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "newcomer {round}: {:?}",
            started.elapsed()
        );
        newcomers.push(stream);
    }
    for (i, head) in heads.iter_mut().enumerate() {
        assert!(
            closed_within(head, Duration::from_secs(1)).await.is_some(),
            "unfinished head {i} still open"
        );
    }
    // Each of the three is answered in full.
    body.write_all(b"1}").await.unwrap_or_else(|e| panic!("{e}"));
    let reply = read_one(&mut body).await.unwrap_or_else(|e| panic!("body: {e}"));
    assert_eq!((reply.status, reply.json()), (200, serde_json::json!({"a": 1})));
    let reply = read_one(&mut running)
        .await
        .unwrap_or_else(|e| panic!("route: {e}"));
    assert_eq!((reply.status, reply.text()), (200, "slow".to_owned()));
    let reply = read_one(&mut writing)
        .await
        .unwrap_or_else(|e| panic!("answer: {e}"));
    assert_eq!((reply.status, reply.body.len()), (200, HUGE));
    assert!(refusals(addr, "evicted").await >= 40);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_keep_alive_connections_make_room_oldest_first() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(10)).await;
    let mut open = Vec::new();
    for _ in 0..10 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream
            .write_all(&request("t", "GET", "/fast", &[], None))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read_one(&mut stream).await.map(|r| r.status).ok(), Some(200));
        open.push(stream);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Three newcomers that stay: the three oldest idle connections are closed for them.
    for round in 0..3 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream
            .write_all(&request("t", "GET", "/fast", &[], None))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read_one(&mut stream).await.map(|r| r.status).ok(),
            Some(200),
            "newcomer {round}"
        );
        open.push(stream);
    }
    for (i, stream) in open.iter_mut().enumerate() {
        let closed = closed_within(stream, Duration::from_millis(300)).await.is_some();
        assert_eq!(closed, i < 3, "connection {i} (accepted {i}th) closed: {closed}");
    }
    for (i, stream) in open.iter_mut().enumerate().skip(3) {
        stream
            .write_all(&request("t", "GET", "/fast", &[], None))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            read_one(stream).await.map(|r| r.status).ok(),
            Some(200),
            "connection {i}"
        );
    }
}

/// An HTTP/2 connection (hyper's client) and its task.
async fn http2(
    addr: SocketAddr,
) -> (
    hyper::client::conn::http2::SendRequest<http_body_util::Empty<bytes::Bytes>>,
    tokio::task::JoinHandle<Result<(), hyper::Error>>,
) {
    let stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let (sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    (sender, tokio::spawn(connection))
}

fn get(addr: SocketAddr, path: &str) -> hyper::Request<http_body_util::Empty<bytes::Bytes>> {
    hyper::Request::get(format!("http://{addr}{path}"))
        .body(http_body_util::Empty::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_http2_connection_makes_room_and_one_with_a_stream_in_progress_does_not() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(2)).await;
    // The oldest: a stream in progress (its route runs for 1.5 s).
    let (mut busy, busy_task) = http2(addr).await;
    let in_progress = tokio::spawn(async move {
        let response = busy.send_request(get(addr, "/slow")).await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        Ok::<_, hyper::Error>((status, body))
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The next: answered once, then idle.
    let (mut idle, idle_task) = http2(addr).await;
    let response = idle
        .send_request(get(addr, "/fast"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), 200);
    let _ = response.into_body().collect().await;
    // A newcomer: the idle connection is closed for it, not the busy one.
    let started = Instant::now();
    let (status, took) = fresh(addr).await;
    assert_eq!(status, 200);
    assert!(took < Duration::from_millis(500), "the newcomer took {took:?}");
    // Closed (with or without an error on the client's side: a reset is how it may see it).
    tokio::time::timeout(Duration::from_secs(1), idle_task)
        .await
        .unwrap_or_else(|_| panic!("the idle HTTP/2 connection is still open"))
        .unwrap_or_else(|e| panic!("{e}"))
        .ok();
    let (status, body) = tokio::time::timeout(Duration::from_secs(3), in_progress)
        .await
        .unwrap_or_else(|_| panic!("the stream in progress was not answered"))
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("the stream in progress failed: {e}"));
    assert_eq!((status.as_u16(), &body[..]), (200, &b"slow"[..]));
    assert!(started.elapsed() < Duration::from_secs(3));
    // (Its client closes it once the answer is in: the sender was dropped with the request.)
    drop(busy_task);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_every_connection_mid_request_a_newcomer_waits_for_one_to_finish() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(40)).await;
    // Counted before the limit is reached (a scrape takes a connection).
    assert_eq!(refusals(addr, "connection_limit").await, 0);
    let head =
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n";
    let mut bodies = Vec::new();
    for _ in 0..40 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        // A head and half of its body: a request in progress.
        stream
            .write_all(format!("{head}{{").as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        bodies.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The 41st waits: no connection may be closed for it.
    let waiting = tokio::spawn(fresh(addr));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!waiting.is_finished(), "a connection beyond the limit was served");
    // One request finishes (and its connection closes): the waiting client is served.
    let mut done = bodies.pop().unwrap_or_else(|| panic!("no connection"));
    done.write_all(b"}").await.unwrap_or_else(|e| panic!("{e}"));
    let reply = read_one(&mut done).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reply.status, 200);
    drop(done);
    let (status, _) = tokio::time::timeout(Duration::from_secs(3), waiting)
        .await
        .unwrap_or_else(|_| panic!("not served within 3 s of a place freeing"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 200);
    // None of the others was cut.
    for (i, stream) in bodies.iter_mut().enumerate() {
        stream.write_all(b"}").await.unwrap_or_else(|e| panic!("{e}"));
        let reply = read_one(stream)
            .await
            .unwrap_or_else(|e| panic!("request {i}: {e}"));
        assert_eq!(reply.status, 200, "request {i}");
    }
    drop(bodies);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        refusals(addr, "connection_limit").await >= 1,
        "the wait was not counted"
    );
    assert_eq!(refusals(addr, "evicted").await, 0);
}
