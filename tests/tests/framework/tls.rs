//! TLS on the listener (issue 46): HTTP/2 and HTTP/1.1 chosen by ALPN on one port, TLS 1.3 and
//! 1.2, a plain listener beside, and certificate files that stop the start when they are wrong.

use std::time::Duration;

use ferrapi::serve::{Scheme, ServeError};
use ferrapi::App;
use ferrapi_tests::app::app;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::tls::{client, client_trusting, connect, get, pair, pair_for, presented, settings, BOTH};

/// Serve `app` over TLS (and, with `plain`, a plain listener beside): the TLS address, and the
/// plain one.
async fn serve_tls(app: App, plain: bool) -> (std::net::SocketAddr, Option<std::net::SocketAddr>) {
    let mut server = app.bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
    let plain = if plain {
        Some(
            server
                .also_bind("127.0.0.1:0", Scheme::Http)
                .await
                .unwrap_or_else(|e| panic!("{e}")),
        )
    } else {
        None
    };
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    (addr, plain)
}

#[tokio::test]
async fn alpn_chooses_http2_or_http1_on_one_port() {
    let pair = pair();
    let (addr, _) = serve_tls(app().tls(settings(&pair)), false).await;

    let h2 = get(addr, &client(&pair.cert, &[b"h2", b"http/1.1"], BOTH), "/")
        .await
        .unwrap_or_else(|e| panic!("h2: {e}"));
    assert_eq!(h2.alpn.as_deref(), Some(&b"h2"[..]));
    assert_eq!(h2.version, hyper::Version::HTTP_2);
    assert_eq!(
        (h2.status, h2.body.as_str()),
        (200, r#"{"message":"Hello World"}"#)
    );

    let h1 = get(addr, &client(&pair.cert, &[b"http/1.1"], BOTH), "/")
        .await
        .unwrap_or_else(|e| panic!("http/1.1: {e}"));
    assert_eq!(h1.alpn.as_deref(), Some(&b"http/1.1"[..]));
    assert_eq!(h1.version, hyper::Version::HTTP_11);
    assert_eq!(h1.status, 200);

    // No ALPN at all: served as a plain connection is, by its first bytes.
    let bare = get(addr, &client(&pair.cert, &[], BOTH), "/")
        .await
        .unwrap_or_else(|e| panic!("no ALPN: {e}"));
    assert_eq!(bare.alpn, None);
    assert_eq!((bare.version, bare.status), (hyper::Version::HTTP_11, 200));
}

#[tokio::test]
async fn tls_1_2_and_1_3_are_both_served() {
    let pair = pair();
    let (addr, _) = serve_tls(app().tls(settings(&pair)), false).await;
    for (version, expected) in [
        (&rustls::version::TLS13, rustls::ProtocolVersion::TLSv1_3),
        (&rustls::version::TLS12, rustls::ProtocolVersion::TLSv1_2),
    ] {
        let answer = get(addr, &client(&pair.cert, &[b"h2"], &[version]), "/")
            .await
            .unwrap_or_else(|e| panic!("{expected:?}: {e}"));
        assert_eq!(answer.tls, Some(expected));
        assert_eq!((answer.version, answer.status), (hyper::Version::HTTP_2, 200));
    }
}

#[tokio::test]
async fn a_plain_listener_serves_beside_the_tls_one() {
    let pair = pair();
    let (addr, plain) = serve_tls(app().tls(settings(&pair)), true).await;
    let plain = plain.unwrap_or_else(|| panic!("no plain listener"));
    let reply = ferrapi_tests::client::get(plain, "/").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.text(), r#"{"message":"Hello World"}"#);
    // Plain bytes to the TLS port are not served, TLS to the plain port neither.
    let mut raw = tokio::net::TcpStream::connect(addr)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    raw.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), raw.read_to_end(&mut answer)).await;
    assert!(
        !answer.starts_with(b"HTTP/1.1 200"),
        "plain HTTP served on the TLS port"
    );
    assert!(connect(plain, &client(&pair.cert, &[b"h2"], BOTH)).await.is_err());
    // And the TLS listener still serves.
    let tls = get(addr, &client(&pair.cert, &[b"h2"], BOTH), "/")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tls.status, 200);
}

#[tokio::test]
async fn a_tls_listener_beside_a_plain_one_needs_a_certificate() {
    let mut server = app().bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
    let refused = server.also_bind("127.0.0.1:0", Scheme::Https).await;
    assert!(matches!(refused, Err(ServeError::Tls(_))), "{refused:?}");

    let pair = pair();
    let mut server = app()
        .tls(settings(&pair))
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let second = server
        .also_bind("127.0.0.1:0", Scheme::Https)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(server.run_until(std::future::pending()));
    let answer = get(second, &client(&pair.cert, &[b"http/1.1"], BOTH), "/")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status, 200);
}

#[tokio::test]
async fn missing_or_mismatched_files_stop_the_start_with_one_line() {
    let pair = pair();
    let other = crate::support::tls::pair();
    let missing = ferrapi::tls::TlsConfig::from_pem_files("/nonexistent/cert.pem", &pair.key_path);
    let err = app().tls(missing).bind("127.0.0.1:0").await.err();
    let line = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(line.contains("/nonexistent/cert.pem"), "{line}");

    let mismatched = ferrapi::tls::TlsConfig::from_pem_files(&pair.cert_path, &other.key_path);
    let line = app()
        .tls(mismatched)
        .bind("127.0.0.1:0")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        line.contains(&*pair.cert_path.to_string_lossy()) && !line.contains('\n'),
        "{line}"
    );

    // A key file given as the certificate: no certificate in it.
    let swapped = ferrapi::tls::TlsConfig::from_pem_files(&pair.key_path, &pair.key_path);
    let line = app()
        .tls(swapped)
        .bind("127.0.0.1:0")
        .await
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(line.contains("no CERTIFICATE"), "{line}");
}

#[tokio::test]
async fn a_connection_speaking_another_protocol_than_alpn_chose_is_closed() {
    let pair = pair();
    let (addr, _) = serve_tls(app().tls(settings(&pair)), false).await;
    let mut stream = connect(addr, &client(&pair.cert, &[b"h2"], BOTH))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stream.get_ref().1.alpn_protocol(), Some(&b"h2"[..]));
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "still open");
    assert!(
        answer.is_empty(),
        "answered: {:?}",
        String::from_utf8_lossy(&answer)
    );
}

#[tokio::test]
async fn the_head_deadline_holds_over_tls() {
    let pair = pair();
    let app = app()
        .tls(settings(&pair))
        .header_read_timeout(Duration::from_millis(500));
    let (addr, _) = serve_tls(app, false).await;
    let mut stream = connect(addr, &client(&pair.cert, &[b"http/1.1"], BOTH))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let started = std::time::Instant::now();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "an idle TLS connection outlived the head deadline");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(400) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

/// Copy `cert`'s certificate file and `key`'s key file over `pair`'s files.
fn overwrite(
    pair: &crate::support::tls::Pair,
    cert: &crate::support::tls::Pair,
    key: &crate::support::tls::Pair,
) {
    std::fs::copy(&cert.cert_path, &pair.cert_path).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(&key.key_path, &pair.key_path).unwrap_or_else(|e| panic!("{e}"));
}

/// True once a client trusting only `cert` is served by `addr`, within `within`.
async fn trusted_within(
    addr: std::net::SocketAddr,
    cert: &crate::support::tls::Pair,
    within: Duration,
) -> bool {
    let deadline = std::time::Instant::now() + within;
    loop {
        if get(addr, &client(&cert.cert, &[b"h2"], BOTH), "/")
            .await
            .is_ok_and(|a| a.status == 200)
        {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn changed_files_are_taken_by_new_handshakes_while_open_connections_go_on() {
    let served = pair();
    let (next, other) = (pair(), pair());
    let tls = settings(&served).reload_poll(Some(Duration::from_millis(100)));
    let (addr, _) = serve_tls(app().tls(tls), false).await;
    // An HTTP/2 connection opened with the first pair.
    let stream = connect(addr, &client(&served.cert, &[b"h2"], BOTH))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut open, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(stream),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(conn);
    let request = || {
        hyper::Request::get("https://localhost/")
            .body(http_body_util::Empty::<bytes::Bytes>::new())
            .unwrap_or_else(|e| panic!("{e}"))
    };

    overwrite(&served, &next, &next);
    assert!(
        trusted_within(addr, &next, Duration::from_secs(3)).await,
        "the new pair was not taken"
    );
    assert!(
        !trusted_within(addr, &served, Duration::ZERO).await,
        "the old pair is still served"
    );
    let answer = open
        .send_request(request())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        answer.status(),
        200,
        "the connection opened before the change was cut"
    );

    // A pair whose key is not the certificate's is refused: the one in force stays.
    overwrite(&served, &other, &next);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(
        trusted_within(addr, &next, Duration::ZERO).await,
        "a bad pair replaced a good one"
    );
    assert!(
        !trusted_within(addr, &other, Duration::ZERO).await,
        "a mismatched pair was taken"
    );
    let answer = open
        .send_request(request())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status(), 200);
}

#[tokio::test]
async fn sighup_reloads_the_files_at_once() {
    let served = pair();
    let next = pair();
    let tls = settings(&served).reload_poll(None);
    let (addr, _) = serve_tls(app().tls(tls), false).await;
    overwrite(&served, &next, &next);
    // Without polling, nothing changes until the signal.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(trusted_within(addr, &served, Duration::ZERO).await);
    let status = std::process::Command::new("kill")
        .args(["-HUP", &std::process::id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(status.success());
    assert!(
        trusted_within(addr, &next, Duration::from_secs(2)).await,
        "SIGHUP did not reload"
    );
}

#[tokio::test]
async fn the_certificate_is_chosen_by_the_name_the_client_asks_for() {
    // The default also names a host under the wildcard's domain, but two labels down.
    let default = pair_for(&["localhost", "127.0.0.1", "deep.api.two.test"]);
    let one = pair_for(&["one.test"]);
    let any_two = pair_for(&["*.two.test"]);
    let tls = settings(&default)
        .sni_pair(&one.cert_path, &one.key_path)
        .sni_pair(&any_two.cert_path, &any_two.key_path);
    let (addr, _) = serve_tls(app().tls(tls), false).await;
    let connector = client_trusting(&[&default.cert, &one.cert, &any_two.cert]);
    let shown = |name: &'static str| {
        let connector = connector.clone();
        async move {
            presented(addr, &connector, name)
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        }
    };
    assert_eq!(shown("one.test").await, one.cert);
    assert_eq!(shown("ONE.test").await, one.cert, "names match without case");
    assert_eq!(shown("api.two.test").await, any_two.cert, "a wildcard");
    // No pair for the name, or no name at all (an IP address): the default.
    assert_eq!(shown("localhost").await, default.cert);
    assert_eq!(shown("127.0.0.1").await, default.cert);
    assert_eq!(
        shown("deep.api.two.test").await,
        default.cert,
        "a wildcard is one label"
    );
}

#[tokio::test]
async fn sni_pairs_are_reloaded_with_the_default_one() {
    let default = pair_for(&["localhost"]);
    let one = pair_for(&["one.test"]);
    let (next, other) = (pair_for(&["one.test"]), pair_for(&["one.test"]));
    let tls = settings(&default)
        .sni_pair(&one.cert_path, &one.key_path)
        .reload_poll(Some(Duration::from_millis(100)));
    let (addr, _) = serve_tls(app().tls(tls), false).await;
    let connector = client_trusting(&[&default.cert, &one.cert, &next.cert, &other.cert]);
    let shown = |name: &'static str| {
        let connector = connector.clone();
        async move {
            presented(addr, &connector, name)
                .await
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        }
    };
    assert_eq!(shown("one.test").await, one.cert);

    // The SNI pair's files change: new handshakes for its name get the new certificate.
    overwrite(&one, &next, &next);
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while shown("one.test").await != next.cert {
        assert!(
            std::time::Instant::now() < deadline,
            "the SNI pair was not reloaded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(shown("localhost").await, default.cert, "the default changed");

    // A mismatched SNI pair is refused as a mismatched default pair is: all stays in force.
    overwrite(&one, &other, &next);
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        shown("one.test").await,
        next.cert,
        "a mismatched SNI pair replaced a good one"
    );
    assert_eq!(shown("localhost").await, default.cert);
}

#[tokio::test]
async fn an_sni_pair_without_a_dns_name_stops_the_start() {
    let default = pair();
    let nameless = pair_for(&["10.0.0.1"]);
    let refused = app()
        .tls(settings(&default).sni_pair(&nameless.cert_path, &nameless.key_path))
        .bind("127.0.0.1:0")
        .await;
    match refused {
        Err(ServeError::Tls(line)) => assert!(line.contains("no DNS name"), "{line}"),
        other => panic!("{other:?}"),
    }
}
