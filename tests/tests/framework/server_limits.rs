//! The server under slow, idle and excessive clients, over real HTTP on 127.0.0.1: a slowloris
//! sender is cut off by the header-read timeout while others are served, and so is a connection
//! that sends nothing or half of the HTTP/2 preface; the head limit holds whatever the write sizes; 1,000 idle keep-alive
//! connections do not slow other clients and are closed after the idle timeout; beyond the
//! concurrency limit requests get 503 with `Retry-After` at once; on shutdown the listener closes,
//! in-flight requests complete, and a request that outlives the shutdown timeout does not hold
//! the server forever.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::client::{get, read_one, request};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// Answers after `ms` milliseconds.
#[get("/sleep/{ms}")]
async fn sleep(ms: u64) -> Json<Value> {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    Json(json!({"slept": ms}))
}

/// Answers at once.
#[get("/fast")]
async fn fast() -> &'static str {
    "fast"
}

fn test_app() -> App {
    App::new().routes(ferrapi::routes![sleep, fast])
}

/// Serve `app` until the returned sender fires (or is dropped); the join handle ends when the
/// server has shut down.
async fn serve(app: App) -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let server = app.bind("127.0.0.1:0").await.expect("bind");
    let addr = server.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    let handle = tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    (addr, stop, handle)
}

/// Read until the peer closes; true when it did within `within`.
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut sink = Vec::new();
    matches!(
        tokio::time::timeout(within, stream.read_to_end(&mut sink)).await,
        Ok(Ok(_)) | Ok(Err(_))
    )
}

/// One keep-alive request on `stream`; the reply's status.
async fn keep_alive_get(stream: &mut TcpStream, path: &str) -> u16 {
    stream
        .write_all(&request("t", "GET", path, &[], None))
        .await
        .expect("send");
    read_one(stream).await.expect("a reply").status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slowloris_sender_is_cut_off_while_others_are_served() {
    let (addr, _stop, _) = serve(test_app().header_read_timeout(Duration::from_secs(1))).await;
    let mut slow = TcpStream::connect(addr).await.expect("connect");
    let started = Instant::now();
    let head = b"GET /fast HTTP/1.1\r\nHost: t\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n";
    let mut cut_off = false;
    for byte in head {
        if slow.write_all(&[*byte]).await.is_err() {
            cut_off = true;
            break;
        }
        // Meanwhile another client is answered at once.
        let t = Instant::now();
        assert_eq!(get(addr, "/fast").await.status, 200);
        assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
        if started.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    assert!(cut_off || closed_within(&mut slow, Duration::from_secs(2)).await);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_idle_keep_alive_connections_do_not_stop_other_clients() {
    let idle_timeout = Duration::from_secs(2);
    let (addr, _stop, _) = serve(test_app().header_read_timeout(idle_timeout)).await;
    let mut idle = Vec::with_capacity(1000);
    for _ in 0..1000 {
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        assert_eq!(keep_alive_get(&mut stream, "/fast").await, 200);
        idle.push(stream);
    }
    // 1,000 connections idle after a request each: others are still answered promptly.
    let t = Instant::now();
    for _ in 0..50 {
        assert_eq!(get(addr, "/fast").await.status, 200);
    }
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "50 requests took {:?}",
        t.elapsed()
    );
    // And the idle ones are closed after the idle timeout.
    tokio::time::sleep(idle_timeout).await;
    let mut closed = 0;
    for stream in &mut idle {
        if closed_within(stream, Duration::from_secs(3)).await {
            closed += 1;
        }
    }
    assert_eq!(closed, 1000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sends_nothing_or_half_a_preface_is_closed_after_the_timeout() {
    let timeout = Duration::from_secs(1);
    let (addr, _stop, _) = serve(test_app().header_read_timeout(timeout)).await;
    let mut silent = TcpStream::connect(addr).await.expect("connect");
    let mut half_preface = TcpStream::connect(addr).await.expect("connect");
    half_preface
        .write_all(b"PRI * HTTP/2.0\r\n")
        .await
        .expect("send part of the HTTP/2 preface");
    let started = Instant::now();
    assert!(closed_within(&mut silent, Duration::from_secs(3)).await);
    assert!(closed_within(&mut half_preface, Duration::from_secs(3)).await);
    assert!(
        started.elapsed() >= timeout - Duration::from_millis(100),
        "closed before the timeout: {:?}",
        started.elapsed()
    );
    // The server is still serving.
    assert_eq!(get(addr, "/fast").await.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_head_limit_holds_however_the_head_is_written() {
    let (addr, _stop, _) = serve(test_app().max_head_bytes(4096)).await;
    let head = |filler: usize| {
        format!(
            "GET /fast HTTP/1.1\r\nHost: t\r\nX-Fill: {}\r\nConnection: close\r\n\r\n",
            "a".repeat(filler)
        )
    };
    for (filler, status) in [(3000, 200), (5000, 431)] {
        // In one write (the whole head arrives in one read)...
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        stream.write_all(head(filler).as_bytes()).await.expect("send");
        let mut reply = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut reply)).await;
        let text = String::from_utf8_lossy(&reply);
        assert!(
            text.starts_with(&format!("HTTP/1.1 {status}")),
            "{filler} B in one write: {text}"
        );
        // ...and in small pieces, stopping at the first reply (bytes sent after the server closed
        // would make it reset the connection, and the reset could discard the reply).
        let mut stream = TcpStream::connect(addr).await.expect("connect");
        let mut reply = Vec::new();
        for piece in head(filler).as_bytes().chunks(512) {
            if stream.write_all(piece).await.is_err() {
                break;
            }
            let mut chunk = [0u8; 1024];
            if let Ok(Ok(n)) = tokio::time::timeout(Duration::from_millis(50), stream.read(&mut chunk)).await
            {
                reply.extend_from_slice(&chunk[..n]);
                break;
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut reply)).await;
        let text = String::from_utf8_lossy(&reply);
        assert!(
            text.starts_with(&format!("HTTP/1.1 {status}")),
            "{filler} B in pieces: {text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beyond_the_concurrency_limit_requests_get_503_at_once() {
    let (addr, _stop, _) = serve(test_app().max_concurrency(Some(2))).await;
    let busy: Vec<_> = (0..2)
        .map(|_| tokio::spawn(async move { get(addr, "/sleep/1500").await.status }))
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let t = Instant::now();
    let reply = get(addr, "/fast").await;
    assert!(t.elapsed() < Duration::from_millis(300), "{:?}", t.elapsed());
    assert_eq!(reply.status, 503);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(
        reply.json(),
        json!({"detail": "The server is busy; retry shortly"})
    );
    for task in busy {
        assert_eq!(task.await.expect("join"), 200);
    }
    assert_eq!(get(addr, "/fast").await.status, 200, "permits are given back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_in_flight_requests_and_refuses_new_connections() {
    let (addr, stop, server) = serve(test_app()).await;
    let in_flight = tokio::spawn(async move { get(addr, "/sleep/800").await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let _ = stop.send(());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "the listener is closed at once"
    );
    let reply = in_flight.await.expect("join");
    assert_eq!((reply.status, reply.json()), (200, json!({"slept": 800})));
    tokio::time::timeout(Duration::from_secs(2), server)
        .await
        .expect("the server returns once nothing is in flight")
        .expect("join");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_sent_nothing_does_not_hold_up_shutdown() {
    let (addr, stop, server) = serve(test_app()).await;
    let mut silent = TcpStream::connect(addr).await.expect("connect");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(2), server)
        .await
        .expect("the server returns without waiting out the 10 s header-read timeout")
        .expect("join");
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(closed_within(&mut silent, Duration::from_secs(1)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_is_bounded_by_the_shutdown_timeout() {
    let (addr, stop, server) = serve(test_app().shutdown_timeout(Duration::from_millis(500))).await;
    let _stuck = tokio::spawn(async move { get(addr, "/sleep/60000").await });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(3), server)
        .await
        .expect("the server returns after the shutdown timeout")
        .expect("join");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}
