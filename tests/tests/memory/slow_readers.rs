//! Slow readers: 150 connections, each with eight 1 MiB `GET`s pipelined and never read. Each
//! answer is charged until the connection has written it, so at most the budget's worth is held
//! and the rest are refused 503; resident memory stays within half the budget again above idle,
//! and a fresh client is served throughout.

use std::time::Duration;

use ferrapi_tests::client::request;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpSocket;

use crate::support::{exclusive, mib, send, Server};

const BUDGET: usize = 64 << 20;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_answers_nobody_reads_hold_at_most_the_budget_and_a_half() {
    let _one = exclusive().await;
    let server = Server::start(BUDGET);
    let addr = server.addr;
    assert_eq!(send(addr, "GET", "/big/1", None).await.map(|r| r.0), Some(200));
    let idle = server.status("VmRSS");

    let pipeline: Vec<u8> = (0..8)
        .flat_map(|_| request("t", "GET", "/big/1024", &[], None))
        .collect();
    let mut held = Vec::new();
    for _ in 0..150 {
        let socket = TcpSocket::new_v4().unwrap_or_else(|e| panic!("socket: {e}"));
        // A small window, so the answers stay on the server's side.
        socket
            .set_recv_buffer_size(4096)
            .unwrap_or_else(|e| panic!("SO_RCVBUF: {e}"));
        let Ok(mut stream) = socket.connect(addr).await else {
            break;
        };
        if stream.write_all(&pipeline).await.is_ok() {
            held.push(stream);
        }
    }
    let mut fresh = Vec::new();
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        fresh.push(send(addr, "GET", "/big/1", None).await.map_or(0, |r| r.0));
    }
    let peak = server.status("VmHWM");
    eprintln!(
        "{} slow readers; fresh clients {fresh:?}; idle {:.1} MiB, peak {:.1} MiB (+{:.1} MiB; budget {:.0} MiB)",
        held.len(),
        mib(idle),
        mib(peak),
        mib(peak.saturating_sub(idle)),
        mib(BUDGET as u64)
    );
    assert_eq!(held.len(), 150);
    assert!(
        fresh.iter().all(|&status| status == 200),
        "fresh clients: {fresh:?}"
    );
    assert!(
        peak.saturating_sub(idle) <= BUDGET as u64 * 3 / 2,
        "the slow readers took {:.1} MiB above idle, more than 1.5 × the budget",
        mib(peak.saturating_sub(idle))
    );
    drop(held);
}
