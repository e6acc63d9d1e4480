//! `KeyUpdate` floods on a TLS listener (issue 46, item 4): TLS 1.3 lets a peer ask for new
//! traffic keys at any time, and each request makes the server derive keys and answer with its
//! own `KeyUpdate`. A client sending them without end, and no data, must be closed; clients
//! doing so side by side must leave a fresh TLS client served.
//!
//! Python's `ssl` cannot send a `KeyUpdate`, so this attack lives here, written with rustls'
//! client (`ClientConnection::refresh_traffic_keys`), rather than in `bench/tls_attacks.py`.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{app, exclusive};
use crate::tls_support::{client, connect, get, pair, settings, Pair};

/// TLS 1.3 only: `KeyUpdate` does not exist in 1.2.
const TLS13: &[&rustls::SupportedProtocolVersion] = &[&rustls::version::TLS13];

/// Serve `app` over TLS: its address, and the sender whose drop stops the server.
async fn serve_tls(pair: &Pair) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let server = app()
        .tls(settings(pair))
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// Send `KeyUpdate` requests, and nothing else, on one TLS 1.3 connection until the server ends
/// it or `within` passes: how many were sent, and whether the server ended the connection.
async fn key_updates_until_closed(addr: SocketAddr, pair: &Pair, within: Duration) -> (u32, bool) {
    let connector = client(&pair.cert, &[b"http/1.1"], TLS13);
    let mut stream = connect(addr, &connector)
        .await
        .unwrap_or_else(|e| panic!("handshake: {e}"));
    let deadline = Instant::now() + within;
    let mut sent = 0;
    let mut buffer = [0u8; 4096];
    while Instant::now() < deadline {
        if stream.get_mut().1.refresh_traffic_keys().is_err() || stream.flush().await.is_err() {
            return (sent, true);
        }
        sent += 1;
        // The server's own `KeyUpdate`s (and, at the end, its alert and close) come back.
        match tokio::time::timeout(Duration::from_millis(5), stream.read(&mut buffer)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (sent, true),
            Ok(Ok(_)) | Err(_) => {}
        }
    }
    (sent, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_sending_only_key_updates_is_closed() {
    let _guard = exclusive().await;
    let pair = pair();
    let (addr, _stop) = serve_tls(&pair).await;
    let (sent, closed) = key_updates_until_closed(addr, &pair, Duration::from_secs(5)).await;
    assert!(
        closed,
        "the server still reads after {sent} KeyUpdate requests and no data"
    );
    // rustls allows 32 without data between them (BoringSSL's limit): the 33rd ends it.
    assert!(
        (32..=40).contains(&sent),
        "closed after {sent} KeyUpdate requests: expected just past 32"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_update_floods_leave_a_fresh_client_served() {
    let _guard = exclusive().await;
    let pair = pair();
    let (addr, _stop) = serve_tls(&pair).await;
    let flood_until = Instant::now() + Duration::from_secs(3);
    // Eight flooders, each reconnecting as soon as the server closes it.
    let flooders: Vec<_> = (0..8)
        .map(|_| {
            let pair_cert = pair.cert.clone();
            tokio::spawn(async move {
                let mut closed = 0u32;
                let connector = client(&pair_cert, &[b"http/1.1"], TLS13);
                while Instant::now() < flood_until {
                    let Ok(mut stream) = connect(addr, &connector).await else {
                        continue;
                    };
                    let mut buffer = [0u8; 4096];
                    loop {
                        if stream.get_mut().1.refresh_traffic_keys().is_err() || stream.flush().await.is_err()
                        {
                            closed += 1;
                            break;
                        }
                        match tokio::time::timeout(Duration::from_millis(1), stream.read(&mut buffer)).await {
                            Ok(Ok(0)) | Ok(Err(_)) => {
                                closed += 1;
                                break;
                            }
                            Ok(Ok(_)) | Err(_) => {}
                        }
                        if Instant::now() >= flood_until {
                            break;
                        }
                    }
                }
                closed
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let connector = client(&pair.cert, &[b"h2", b"http/1.1"], TLS13);
    let mut worst = Duration::ZERO;
    for round in 0..10 {
        let started = Instant::now();
        let answer = tokio::time::timeout(Duration::from_secs(2), get(addr, &connector, "/fast")).await;
        let status = match answer {
            Ok(Ok(answer)) => answer.status,
            _ => 0,
        };
        assert_eq!(
            status, 200,
            "fresh TLS client {round} during the flood answered {status}"
        );
        worst = worst.max(started.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        worst < Duration::from_secs(1),
        "a fresh client took {worst:?} during the flood"
    );
    let mut closed = 0;
    for flooder in flooders {
        closed += flooder.await.unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(
        closed >= 8,
        "the server closed only {closed} flooding connections"
    );
}
