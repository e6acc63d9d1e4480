//! Attack 1: requests that declare a body and send (almost) nothing. Before: each held one of
//! the 1,024 concurrency places forever (1,030 HTTP/1 connections, or 6 HTTP/2 connections × 200
//! streams, made every other client get 503). Now a stalled body holds no place while it waits,
//! and is answered 408 (connection closed) at its deadline.

use std::time::{Duration, Instant};

use ferrapi_tests::client::parse;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{app, closed_within, exclusive, fresh_clients_are_served, serve};

/// The head of a JSON `POST /echo` that announces `length` bytes.
fn post_head(length: usize, extra: &str) -> Vec<u8> {
    format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n{extra}\r\n"
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_bodies_hold_no_place_and_get_408_at_their_deadline() {
    let _one = exclusive().await;
    let app = app()
        .max_concurrency(Some(8))
        .body_timeout(Duration::from_secs(1), None);
    let (addr, _stop) = serve(app).await;
    // Three times the concurrency limit, each sending one byte of a 100-byte body.
    let mut stalled = Vec::new();
    for _ in 0..24 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        let mut bytes = post_head(100, "");
        bytes.push(b'{');
        stream.write_all(&bytes).await.unwrap_or_else(|e| panic!("{e}"));
        stalled.push(stream);
    }
    let started = Instant::now();
    tokio::time::sleep(Duration::from_millis(100)).await;
    fresh_clients_are_served(addr, 8, "24 stalled bodies, limit 8").await;
    for (i, stream) in stalled.iter_mut().enumerate() {
        let left = Duration::from_secs(4).saturating_sub(started.elapsed());
        let reply = closed_within(stream, left)
            .await
            .unwrap_or_else(|| panic!("stalled body {i}: still open after 4 s"));
        let reply = parse(&reply);
        assert_eq!(reply.status, 408, "stalled body {i}");
        assert_eq!(
            reply.json()["detail"],
            "The request body was not received in time"
        );
        assert_eq!(reply.header("connection"), Some("close"));
    }
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "cut before the deadline"
    );
    fresh_clients_are_served(addr, 2, "after the attack").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expect_100_continue_without_a_body_meets_the_same_deadline() {
    let _one = exclusive().await;
    let app = app().body_timeout(Duration::from_secs(1), None);
    let (addr, _stop) = serve(app).await;
    let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    stream
        .write_all(&post_head(10, "Expect: 100-continue\r\n"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let bytes = closed_within(&mut stream, Duration::from_secs(4))
        .await
        .unwrap_or_else(|| panic!("still open after 4 s"));
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.starts_with("HTTP/1.1 100 Continue\r\n\r\n"), "{text}");
    let rest = &bytes["HTTP/1.1 100 Continue\r\n\r\n".len()..];
    assert_eq!(parse(rest).status, 408, "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_upload_is_answered_408() {
    let _one = exclusive().await;
    let app = app().body_timeout(Duration::from_secs(1), None);
    let (addr, _stop) = serve(app).await;
    let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let part = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\nhalf";
    let head = format!(
        "POST /upload/echo HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000\r\n\r\n{part}"
    );
    stream
        .write_all(head.as_bytes())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let reply = closed_within(&mut stream, Duration::from_secs(4))
        .await
        .unwrap_or_else(|| panic!("a stalled upload was open after 4 s"));
    let reply = parse(&reply);
    assert_eq!(reply.status, 408, "{}", reply.text());
    assert_eq!(
        reply.json()["detail"],
        "The request body was not received in time"
    );
    assert!(started.elapsed() >= Duration::from_millis(900));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trickle_is_cut_and_a_slow_steady_body_is_not() {
    let _one = exclusive().await;
    // 1 s, lengthened by 1 ms per byte (1,000 bytes a second).
    let app = app().body_timeout(Duration::from_secs(1), Some(1000));
    let (addr, _stop) = serve(app).await;

    // 3,000 bytes at 2,000 bytes a second: 1.5 s, longer than the timeout but above the rate.
    let body = format!("\"{}\"", "a".repeat(2998));
    let mut steady = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    steady
        .write_all(&post_head(body.len(), "Connection: close\r\n"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for piece in body.as_bytes().chunks(100) {
        steady.write_all(piece).await.unwrap_or_else(|e| panic!("{e}"));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let reply = closed_within(&mut steady, Duration::from_secs(5))
        .await
        .unwrap_or_default();
    assert_eq!(parse(&reply).status, 200, "a steady body above the rate was cut");

    // One byte every 200 ms (5 bytes a second): cut at about 1 s.
    let mut trickle = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    trickle
        .write_all(&post_head(1000, ""))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    // Read while trickling, keeping every byte read: the answer must be read before a later
    // write meets the closed socket (whose reset would discard what was not read yet).
    let mut reply = Vec::new();
    let mut chunk = [0u8; 4096];
    let mut cut = false;
    while !cut && started.elapsed() < Duration::from_secs(5) {
        let _ = trickle.write_all(b" ").await;
        let pause = tokio::time::sleep(Duration::from_millis(200));
        tokio::pin!(pause);
        loop {
            tokio::select! {
                read = trickle.read(&mut chunk) => match read {
                    Ok(0) | Err(_) => { cut = true; break; }
                    Ok(n) => reply.extend_from_slice(&chunk[..n]),
                },
                () = &mut pause => break,
            }
        }
    }
    assert!(cut, "a trickle of 5 bytes a second was never cut");
    assert_eq!(parse(&reply).status, 408);
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2500), "cut only after {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_sent_fast_then_stalled_is_cut_after_the_timeout_of_silence() {
    let _one = exclusive().await;
    // 1 s, lengthened by 1 ms per byte: 50,000 bytes sent at once earn 51 s by rate, but the
    // silence after them ends the body at about 1 s (it would hold what it sent all that time).
    let app = app().body_timeout(Duration::from_secs(1), Some(1000));
    let (addr, _stop) = serve(app).await;
    let mut stalled = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    stalled
        .write_all(&post_head(50_001, ""))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    stalled
        .write_all(&vec![b' '; 50_000])
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let reply = closed_within(&mut stalled, Duration::from_secs(5))
        .await
        .unwrap_or_default();
    assert_eq!(parse(&reply).status, 408);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_millis(2500),
        "cut after {took:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http2_streams_with_stalled_bodies_hold_no_place_and_get_408() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, StreamBody};
    use hyper::body::Frame;
    use hyper_util::rt::{TokioExecutor, TokioIo};

    let _one = exclusive().await;
    let app = app()
        .max_concurrency(Some(8))
        .body_timeout(Duration::from_secs(1), None);
    let (addr, _stop) = serve(app).await;
    let stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let (mut sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap_or_else(|e| panic!("h2 handshake: {e}"));
    tokio::spawn(connection);
    // 40 streams (five times the limit), each sending `{` of a body that never ends.
    let mut keep_open = Vec::new();
    let mut answers = Vec::new();
    for _ in 0..40 {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(1);
        let _ = tx.send(Ok(Frame::data(Bytes::from_static(b"{")))).await;
        keep_open.push(tx);
        let body = StreamBody::new(tokio_stream_of(rx));
        let request = hyper::Request::post(format!("http://{addr}/echo"))
            .header("content-type", "application/json")
            .body(body)
            .unwrap_or_else(|e| panic!("{e}"));
        sender.ready().await.unwrap_or_else(|e| panic!("{e}"));
        answers.push(tokio::spawn(sender.send_request(request)));
    }
    let started = Instant::now();
    tokio::time::sleep(Duration::from_millis(100)).await;
    fresh_clients_are_served(addr, 8, "40 stalled HTTP/2 bodies, limit 8").await;
    let mut timed_out = 0;
    for (i, answer) in answers.into_iter().enumerate() {
        let left = Duration::from_secs(5).saturating_sub(started.elapsed());
        let response = tokio::time::timeout(left, answer)
            .await
            .unwrap_or_else(|_| panic!("stream {i}: no answer within 5 s"))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("stream {i}: {e}"));
        assert_eq!(
            response.status(),
            408,
            "stream {i}: a stalled body held its place"
        );
        let body = response
            .into_body()
            .collect()
            .await
            .map(|b| b.to_bytes())
            .unwrap_or_default();
        assert!(String::from_utf8_lossy(&body).contains("not received in time"));
        timed_out += 1;
    }
    assert_eq!(timed_out, 40);
    drop(keep_open);
}

/// A stream of the frames sent on `rx`.
fn tokio_stream_of<T: Send + 'static>(
    mut rx: tokio::sync::mpsc::Receiver<T>,
) -> impl futures_util::Stream<Item = T> {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

/// Echoes a JSON body, in a group.
#[ferrapi::post("/echo")]
async fn grouped_echo(body: ferrapi::Json<serde_json::Value>) -> ferrapi::Json<serde_json::Value> {
    body
}

/// A layer that answers every request with a new response of its own (none of the app's
/// headers), after the app answered.
fn replacing() -> tower::util::MapResponseLayer<fn(ferrapi::Response) -> ferrapi::Response> {
    tower::util::MapResponseLayer::new(|response: ferrapi::Response| {
        let mut replaced = ferrapi::Response::new(ferrapi::Body::from("replaced"));
        *replaced.status_mut() = response.status();
        replaced
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_layer_that_replaces_the_answer_does_not_keep_a_cut_body_s_connection_open() {
    let _one = exclusive().await;
    // On the app's stack and on a group's: the server hears of the cut from the body, not from
    // the answer.
    let grouped = ferrapi::group!("/g")
        .routes(ferrapi::routes![grouped_echo])
        .layer(replacing());
    let app = app()
        .group(grouped)
        .layer(replacing())
        .body_timeout(Duration::from_secs(1), None);
    let (addr, _stop) = serve(app).await;
    for path in ["/echo", "/g/echo"] {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
        );
        stream
            .write_all(head.as_bytes())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let reply = closed_within(&mut stream, Duration::from_secs(4))
            .await
            .unwrap_or_else(|| panic!("{path}: still open after 4 s"));
        let reply = parse(&reply);
        assert_eq!(
            (reply.status, reply.text()),
            (408, "replaced".to_owned()),
            "{path}"
        );
        assert_eq!(reply.header("connection"), Some("close"), "{path}");
    }
    fresh_clients_are_served(addr, 2, "after the cut bodies").await;
}
