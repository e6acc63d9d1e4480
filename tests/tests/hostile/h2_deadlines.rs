//! Attacks 2, 3 (HTTP/2) and 4: idle HTTP/2 connections, streams whose client never opens its
//! flow-control window, and connections that send part of the preface.
//! Before: a connection that sent its preface and SETTINGS stayed open (60 s observed, ~20,000 of
//! them exhausted the descriptors); one connection asking for a 1 MiB answer on 200 streams with
//! a zero window held ~210 MB for as long as it liked; 6,000 connections sending `P` took 93 % of
//! a core (polled every 5 ms).

use std::time::{Duration, Instant};

use http_body_util::BodyExt;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{
    app, closed_within, cpu_time, exclusive, frame_types, fresh_clients_are_served, refusals, rss, serve, BIG,
};

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
/// An empty SETTINGS frame: length 0, type 4, no flags, stream 0.
const SETTINGS: &[u8] = &[0, 0, 0, 4, 0, 0, 0, 0, 0];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_http2_connection_is_closed_like_an_idle_http1_one() {
    let _one = exclusive().await;
    // A client that does not answer the GOAWAY's PING is dropped `write_timeout` after it.
    let app = app()
        .header_read_timeout(Duration::from_secs(1))
        .write_timeout(Duration::from_secs(1));
    let (addr, _stop) = serve(app).await;

    // The preface and SETTINGS, then nothing.
    let mut silent = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    silent.write_all(PREFACE).await.unwrap_or_else(|e| panic!("{e}"));
    silent.write_all(SETTINGS).await.unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let bytes = closed_within(&mut silent, Duration::from_secs(4))
        .await
        .unwrap_or_else(|| panic!("a silent HTTP/2 connection was open after 4 s"));
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900),
        "closed after {took:?}, before the idle timeout"
    );
    // The server's frames: its SETTINGS, the ACK of ours, and a GOAWAY (type 7) before closing.
    assert!(frame_types(&bytes).contains(&7), "no GOAWAY before the close");

    // A client that made a request and then stays: closed too, after its last answer.
    let stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let (mut sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    let connection = tokio::spawn(connection);
    let request = hyper::Request::get(format!("http://{addr}/fast"))
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .unwrap_or_else(|e| panic!("{e}"));
    let response = sender
        .send_request(request)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), 200);
    let _ = response.into_body().collect().await;
    tokio::time::timeout(Duration::from_secs(4), connection)
        .await
        .unwrap_or_else(|_| panic!("an idle HTTP/2 client connection was open after 4 s"))
        .unwrap_or_else(|e| panic!("{e}"))
        .unwrap_or_else(|e| panic!("the connection ended with an error: {e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn partial_prefaces_cost_no_cpu_while_they_wait() {
    let _one = exclusive().await;
    let app = app().header_read_timeout(Duration::from_secs(3));
    let (addr, _stop) = serve(app).await;
    let mut attackers = Vec::new();
    for _ in 0..1500 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(b"P").await.unwrap_or_else(|e| panic!("{e}"));
        attackers.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (cpu, wall) = (cpu_time(), Instant::now());
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = cpu_time().saturating_sub(cpu);
    let share = used.as_secs_f64() / wall.elapsed().as_secs_f64();
    // Polling every 5 ms, 1,500 connections took about a third of a core.
    assert!(
        share < 0.10,
        "1,500 partial prefaces took {:.0} % of a core",
        share * 100.0
    );
    fresh_clients_are_served(addr, 4, "1,500 partial prefaces").await;
    // And they are closed at the header-read timeout.
    tokio::time::sleep(Duration::from_secs(2)).await;
    for (i, stream) in attackers.iter_mut().enumerate().step_by(100) {
        assert!(
            closed_within(stream, Duration::from_secs(2)).await.is_some(),
            "partial preface {i} still open after the header-read timeout"
        );
    }
}

/// An HTTP/2 client that never opens its flow-control window, asking for `/big` on `streams`
/// streams: the answers' heads (not flow-controlled) and whether each body was cut.
async fn zero_window_client(
    addr: std::net::SocketAddr,
    streams: usize,
) -> Vec<(u16, tokio::task::JoinHandle<bool>)> {
    let stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let (mut sender, connection) = hyper::client::conn::http2::Builder::new(TokioExecutor::new())
        .initial_stream_window_size(0)
        .handshake(TokioIo::new(stream))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(connection);
    let mut pending = Vec::new();
    for _ in 0..streams {
        let request = hyper::Request::get(format!("http://{addr}/big"))
            .body(http_body_util::Empty::<bytes::Bytes>::new())
            .unwrap_or_else(|e| panic!("{e}"));
        sender.ready().await.unwrap_or_else(|e| panic!("{e}"));
        pending.push(tokio::spawn(sender.send_request(request)));
    }
    let mut answers = Vec::new();
    for answer in pending {
        let response = tokio::time::timeout(Duration::from_secs(5), answer)
            .await
            .unwrap_or_else(|_| panic!("no answer head within 5 s"))
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e}"));
        let status = response.status().as_u16();
        // Reading waits for data the window never lets through, until the server resets.
        let cut = tokio::spawn(async move { response.into_body().collect().await.is_err() });
        answers.push((status, cut));
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_zero_window_stream_is_cut_at_the_write_timeout_and_frees_its_answer() {
    let _one = exclusive().await;
    let app = app()
        .metrics(ferrapi::metrics::Metrics::new())
        .write_timeout(Duration::from_secs(1));
    let (addr, _stop) = serve(app).await;
    let before = rss();
    let started = Instant::now();
    let answers = zero_window_client(addr, 30).await;
    assert!(answers.iter().all(|(status, _)| *status == 200));
    fresh_clients_are_served(addr, 6, "30 zero-window streams of 1 MiB").await;
    for (i, (_, cut)) in answers.into_iter().enumerate() {
        let left = Duration::from_secs(6).saturating_sub(started.elapsed());
        let cut = tokio::time::timeout(left, cut)
            .await
            .unwrap_or_else(|_| panic!("stream {i} not cut within 6 s"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(cut, "stream {i} ended without error");
    }
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "cut before the write timeout"
    );
    assert!(refusals(addr, "write_timeout").await >= 30);
    let grown = rss().saturating_sub(before);
    assert!(grown < 30 * BIG as u64 + (64 << 20), "grew {} MiB", grown >> 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_waiting_for_a_client_count_under_the_concurrency_limit() {
    let _one = exclusive().await;
    let app = app()
        .max_concurrency(Some(10))
        .write_timeout(Duration::from_secs(1));
    let (addr, _stop) = serve(app).await;
    // 25 streams: 10 answers held for the client (10 MiB), 15 refused at once, none built.
    let answers = zero_window_client(addr, 25).await;
    let statuses: Vec<u16> = answers.iter().map(|(status, _)| *status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 10, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 503).count(), 15, "{statuses:?}");
    // Once the held answers are cut, their places are free again.
    for (_, cut) in answers {
        let _ = tokio::time::timeout(Duration::from_secs(6), cut).await;
    }
    fresh_clients_are_served(addr, 4, "after the held answers were cut").await;
}
