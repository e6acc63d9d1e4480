//! Hostile clients of a TLS listener (issue 46, item 4): handshakes that never finish are closed
//! at the handshake deadline, bytes that are not a `ClientHello` at once, handshakes that hold
//! every place under the connection limit make room for a fresh client, and clients that send a
//! whole `ClientHello` and then nothing hold no handshake place (the cap bounds the server's
//! computing only); a fresh TLS client is served throughout.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::serve::Scheme;
use ferrapi::App;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::{app, closed_within, exclusive, refusals};
use crate::tls_support::{client, get, pair, settings, Pair, BOTH};

/// Serve `app` over TLS with a plain listener beside (for `/metrics`): the TLS address, the
/// plain one, and the sender whose drop stops the server.
async fn serve_tls(app: App) -> (SocketAddr, SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let mut server = app
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let plain = server
        .also_bind("127.0.0.1:0", Scheme::Http)
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    (addr, plain, stop)
}

/// A fresh TLS client's `GET /fast` (HTTP/2 by ALPN): its status and how long it took.
async fn fresh_tls(addr: SocketAddr, pair: &Pair) -> (u16, Duration) {
    let started = Instant::now();
    let connector = client(&pair.cert, &[b"h2", b"http/1.1"], BOTH);
    let answer = tokio::time::timeout(Duration::from_secs(5), get(addr, &connector, "/fast")).await;
    let status = match answer {
        Ok(Ok(answer)) => answer.status,
        _ => 0,
    };
    (status, started.elapsed())
}

/// The first bytes of a real `ClientHello` (rustls's own), cut before its end.
fn half_a_client_hello(pair: &Pair) -> Vec<u8> {
    let config = client(&pair.cert, &[b"h2"], BOTH);
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap_or_else(|e| panic!("{e}"));
    let mut conn =
        rustls::ClientConnection::new(config.config().clone(), name).unwrap_or_else(|e| panic!("{e}"));
    let mut hello = Vec::new();
    conn.write_tls(&mut hello).unwrap_or_else(|e| panic!("{e}"));
    hello.truncate(hello.len() / 2);
    hello
}

/// A whole `ClientHello` (rustls's own), after which the client says nothing more.
fn a_whole_client_hello(pair: &Pair) -> Vec<u8> {
    let config = client(&pair.cert, &[b"h2"], BOTH);
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap_or_else(|e| panic!("{e}"));
    let mut conn =
        rustls::ClientConnection::new(config.config().clone(), name).unwrap_or_else(|e| panic!("{e}"));
    let mut hello = Vec::new();
    conn.write_tls(&mut hello).unwrap_or_else(|e| panic!("{e}"));
    hello
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_finished_handshakes_are_closed_at_their_deadline() {
    let _guard = exclusive().await;
    let pair = pair();
    let tls = settings(&pair).handshake_timeout(Duration::from_secs(1));
    let (addr, plain, _stop) = serve_tls(app().metrics(ferrapi::metrics::Metrics::new()).tls(tls)).await;
    // Silent connections, half `ClientHello`s, and whole ones never followed by the rest.
    let half = half_a_client_hello(&pair);
    let whole = a_whole_client_hello(&pair);
    let mut stalled = Vec::new();
    for n in 0..60 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        match n % 3 {
            0 => {}
            1 => stream.write_all(&half).await.unwrap_or_else(|e| panic!("{e}")),
            _ => stream.write_all(&whole).await.unwrap_or_else(|e| panic!("{e}")),
        }
        stalled.push(stream);
    }
    let started = Instant::now();
    // Fresh clients are served while the stalled ones wait.
    for round in 0..5 {
        let (status, took) = fresh_tls(addr, &pair).await;
        assert_eq!(status, 200, "fresh TLS client {round} answered {status}");
        assert!(
            took < Duration::from_millis(500),
            "fresh TLS client {round} took {took:?}"
        );
    }
    // Every stalled connection is closed at its deadline (1 s), not long after.
    for (n, stream) in stalled.iter_mut().enumerate() {
        let left = Duration::from_secs(3).saturating_sub(started.elapsed());
        let closed = closed_within(stream, left).await;
        assert!(closed.is_some(), "stalled handshake {n} still open after 3 s");
    }
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(700),
        "closed before the deadline: {took:?}"
    );
    let (status, _) = fresh_tls(addr, &pair).await;
    assert_eq!(status, 200, "a fresh client after the attack");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let counted = refusals(plain, "tls_handshake").await;
    assert!(counted >= 60, "{counted} late handshakes counted, 60 expected");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bytes_that_are_no_client_hello_are_closed_at_once() {
    let _guard = exclusive().await;
    let pair = pair();
    let (addr, _plain, _stop) = serve_tls(app().tls(settings(&pair))).await;
    let garbage: [&[u8]; 4] = [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
        // A handshake record whose body is noise.
        &[
            0x16, 0x03, 0x01, 0x00, 0x08, 0x01, 0xff, 0xff, 0xff, 0xde, 0xad, 0xbe, 0xef,
        ],
        // An alert record, then an application-data record before any handshake.
        &[
            0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28, 0x17, 0x03, 0x03, 0x00, 0x01, 0x00,
        ],
    ];
    let mut open = Vec::new();
    for bytes in garbage {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(bytes).await.unwrap_or_else(|e| panic!("{e}"));
        open.push(stream);
    }
    for (n, stream) in open.iter_mut().enumerate() {
        let reply = closed_within(stream, Duration::from_secs(1)).await;
        let reply = reply.unwrap_or_else(|| panic!("garbage {n}: still open after 1 s"));
        assert!(
            !reply.starts_with(b"HTTP/"),
            "garbage {n} was answered over plain HTTP"
        );
    }
    for round in 0..3 {
        let (status, _) = fresh_tls(addr, &pair).await;
        assert_eq!(status, 200, "fresh TLS client {round} after garbage");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshakes_holding_every_place_make_room_for_a_fresh_client() {
    let _guard = exclusive().await;
    let pair = pair();
    // 10 s to finish a handshake: only the connection limit can free these places.
    let (addr, _plain, _stop) = serve_tls(app().max_connections(Some(16)).tls(settings(&pair))).await;
    let half = half_a_client_hello(&pair);
    let mut stalled = Vec::new();
    for n in 0..16 {
        let mut stream = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        if n % 2 == 1 {
            stream.write_all(&half).await.unwrap_or_else(|e| panic!("{e}"));
        }
        stalled.push(stream);
    }
    // Idle for the 100 ms after which a connection may be closed for room.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for round in 0..4 {
        let (status, took) = fresh_tls(addr, &pair).await;
        assert_eq!(status, 200, "fresh TLS client {round} at the connection limit");
        assert!(
            took < Duration::from_secs(1),
            "fresh TLS client {round} took {took:?}"
        );
    }
    let mut closed = 0;
    for stream in &mut stalled {
        if closed_within(stream, Duration::from_millis(50)).await.is_some() {
            closed += 1;
        }
    }
    // The first fresh client took a stalled handshake's place; each later one may take the
    // place its predecessor gave back when it closed.
    assert!(closed >= 1, "no stalled handshake made room");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_hellos_never_answered_keep_no_fresh_client_waiting() {
    let _guard = exclusive().await;
    let pair = pair();
    // One place only: were the place held while a handshake waits for its client (as an
    // earlier design did), the first stalled hello would hold it until its deadline (3 s).
    let tls = settings(&pair)
        .max_handshakes(1)
        .handshake_timeout(Duration::from_secs(3));
    let (addr, _plain, _stop) = serve_tls(app().tls(tls)).await;
    // A crowd of clients that sent a whole ClientHello and then nothing: the server computed
    // its answer for each, and each waits for its client.
    let hello = a_whole_client_hello(&pair);
    let mut stalled = Vec::new();
    for _ in 0..40 {
        let mut holder = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
        holder.write_all(&hello).await.unwrap_or_else(|e| panic!("{e}"));
        stalled.push(holder);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    for round in 0..5 {
        let (status, took) = fresh_tls(addr, &pair).await;
        assert_eq!(status, 200, "fresh TLS client {round} was not served");
        assert!(
            took < Duration::from_millis(500),
            "fresh TLS client {round} took {took:?}: a stalled hello held the place"
        );
    }
    // Nobody had to be closed to serve them: the stalled hellos wait for their deadline.
    let mut closed = 0;
    for holder in &mut stalled {
        if closed_within(holder, Duration::from_millis(20)).await.is_some() {
            closed += 1;
        }
    }
    assert_eq!(closed, 0, "stalled hellos closed before their deadline");
    // And they are closed at it.
    for (n, holder) in stalled.iter_mut().enumerate() {
        let left = Duration::from_secs(6).saturating_sub(started.elapsed());
        assert!(
            closed_within(holder, left).await.is_some(),
            "stalled hello {n} still open after its deadline"
        );
    }
}
