//! The connection limit: accepting pauses at `max_connections` and resumes when one closes, so
//! the process never runs out of descriptors. Before: ~20,000 idle HTTP/2 connections exhausted
//! them ("accept failed … Too many open files", fresh clients timed out for ~25 s).

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{app, exclusive, fresh, refusals, serve};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accepting_pauses_at_the_connection_limit_and_resumes_when_one_closes() {
    let _one = exclusive().await;
    let app = app()
        .metrics(ferrapi::metrics::Metrics::new())
        .max_connections(Some(40))
        .header_read_timeout(Duration::from_secs(20));
    let (addr, _stop) = serve(app).await;
    // Counted before the limit is reached (a scrape takes a connection).
    assert_eq!(refusals(addr, "connection_limit").await, 0);
    let mut idle = Vec::new();
    for _ in 0..40 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        // Part of a head: the connection is open and waiting.
        stream
            .write_all(b"GET /fast HTTP/1.1\r\n")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        idle.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    // The 41st connection waits in the backlog: no answer while the 40 are open.
    let waiting = tokio::spawn(fresh(addr));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(!waiting.is_finished(), "a connection beyond the limit was served");
    // One closes: the waiting client is accepted and served.
    idle.pop();
    let (status, _) = tokio::time::timeout(Duration::from_secs(3), waiting)
        .await
        .unwrap_or_else(|_| panic!("not served within 3 s of a place freeing"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 200);
    drop(idle);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        refusals(addr, "connection_limit").await >= 1,
        "the pause was not counted"
    );
}
