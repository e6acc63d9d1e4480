//! Attack 3 (HTTP/1): pipelined requests for a 1 MiB answer from clients that read nothing.
//! Before: 200 connections × 8 such GETs held +200 MB for 30 s and were never closed. Now a
//! connection whose client reads nothing for `write_timeout` is cut, and what it held is freed.

use std::time::{Duration, Instant};

use ferrapi_tests::client::request;
use tokio::io::AsyncWriteExt;

use crate::support::{app, exclusive, fresh_clients_are_served, refusals, serve, small_window};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelining_readers_that_read_nothing_are_cut_at_the_write_timeout() {
    let _one = exclusive().await;
    let app = app()
        .metrics(ferrapi::metrics::Metrics::new())
        .write_timeout(Duration::from_secs(1));
    let (addr, _stop) = serve(app).await;
    let mut readers = Vec::new();
    for _ in 0..20 {
        let mut stream = small_window(addr).await;
        let mut pipeline = Vec::new();
        for _ in 0..8 {
            pipeline.extend(request("t", "GET", "/big", &[], None));
        }
        stream
            .write_all(&pipeline)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        readers.push(stream);
    }
    let started = Instant::now();
    fresh_clients_are_served(addr, 6, "20 connections × 8 pipelined 1 MiB GETs, unread").await;
    // Every connection is cut: the server counts each, and a write into one fails once the
    // client's side has seen the reset.
    let deadline = Instant::now() + Duration::from_secs(8);
    while refusals(addr, "write_timeout").await < 20 {
        assert!(
            Instant::now() < deadline,
            "not all 20 slow readers were cut within 8 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "cut before the write timeout"
    );
    for (i, stream) in readers.iter_mut().enumerate() {
        let mut write_failed = false;
        for _ in 0..50 {
            if stream.write_all(&[b'x'; 4096]).await.is_err() {
                write_failed = true;
                break;
            }
        }
        assert!(write_failed, "slow reader {i}: the connection is still open");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_but_steady_reader_is_not_cut() {
    use tokio::io::AsyncReadExt;
    let _one = exclusive().await;
    let app = app().write_timeout(Duration::from_millis(500));
    let (addr, _stop) = serve(app).await;
    let mut stream = small_window(addr).await;
    stream
        .write_all(&request("t", "GET", "/big", &[("Connection", "close")], None))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // 1 MiB read 64 KiB every 100 ms: 1.6 s in all, more than the write timeout, but the
    // server's writes never wait 500 ms.
    let mut total = 0;
    let mut chunk = vec![0u8; 65536];
    loop {
        let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
            .await
            .unwrap_or_else(|_| panic!("stalled"))
            .unwrap_or_else(|e| panic!("cut after {total} bytes: {e}"));
        if n == 0 {
            break;
        }
        total += n;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(
        total > crate::support::BIG,
        "read {total} bytes: cut before the end"
    );
}
