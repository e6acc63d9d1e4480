//! A plain listener redirecting to HTTPS, and HSTS on the TLS listener (issue 46, item 1), over
//! real HTTP and TLS on 127.0.0.1.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bytes::Bytes;
use ferrapi::prelude::*;
use ferrapi::serve::{Scheme, ServeError};
use ferrapi_tests::client::{raw, read_one, request};
use http_body_util::{BodyExt, Empty};
use hyper::header::HeaderValue;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::tls::{client, connect, get, pair, settings, BOTH};

/// How many requests reached the app's route.
static HITS: AtomicUsize = AtomicUsize::new(0);

/// Counts the requests that reach it.
#[get("/counted")]
async fn counted() -> Json<Value> {
    HITS.fetch_add(1, Ordering::SeqCst);
    Json(json!({ "counted": true }))
}

/// Sends its own `Strict-Transport-Security`.
#[get("/own-hsts")]
async fn own_hsts() -> Response {
    let mut response = Json(json!({})).into_response();
    response
        .headers_mut()
        .insert("strict-transport-security", HeaderValue::from_static("max-age=0"));
    response
}

fn routes_app() -> App {
    App::new().routes(routes![counted, own_hsts])
}

/// Serve `app` over TLS with a second listener of `scheme`: the TLS address and the other.
async fn serve(app: App, scheme: Scheme) -> (SocketAddr, SocketAddr) {
    let mut server = app.bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
    let other = server
        .also_bind("127.0.0.1:0", scheme)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    (addr, other)
}

#[tokio::test]
async fn the_redirect_listener_sends_every_request_to_https_without_the_app() {
    let pair = pair();
    let (tls, plain) = serve(routes_app().tls(settings(&pair)), Scheme::HttpRedirect).await;
    let before = HITS.load(Ordering::SeqCst);

    // The host without its port, the TLS port, the path and query as sent.
    let reply = raw(
        plain,
        &request(
            "example.test:8080",
            "GET",
            "/counted?a=1&b=%20",
            &[("Connection", "close")],
            None,
        ),
    )
    .await;
    assert_eq!(reply.status, 308);
    let location = format!("https://example.test:{}/counted?a=1&b=%20", tls.port());
    assert_eq!(reply.header("location"), Some(location.as_str()));
    assert_eq!(reply.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(reply.text(), format!("Moved to {location}\n"));
    assert_eq!(
        reply.header("strict-transport-security"),
        None,
        "never on plain HTTP"
    );

    // Any method, the body unread: answered, and the connection closed.
    let post = raw(
        plain,
        &request("localhost", "POST", "/counted", &[], Some(b"{\"a\": 1}")),
    )
    .await;
    assert_eq!(post.status, 308);
    assert_eq!(post.header("connection"), Some("close"));
    assert_eq!(
        post.header("location"),
        Some(format!("https://localhost:{}/counted", tls.port()).as_str())
    );

    // An IPv6 literal keeps its brackets.
    let v6 = raw(
        plain,
        &request("[::1]:80", "GET", "/", &[("Connection", "close")], None),
    )
    .await;
    assert_eq!(
        v6.header("location"),
        Some(format!("https://[::1]:{}/", tls.port()).as_str())
    );

    // Keep-alive: several requests on one connection, each redirected.
    let mut stream = tokio::net::TcpStream::connect(plain)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for path in ["/one", "/two?x"] {
        stream
            .write_all(&request("localhost", "GET", path, &[], None))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let reply = read_one(&mut stream).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reply.status, 308);
        assert_eq!(
            reply.header("location"),
            Some(format!("https://localhost:{}{path}", tls.port()).as_str())
        );
    }

    // HTTP/2 with prior knowledge: the :authority's host.
    let tcp = tokio::net::TcpStream::connect(plain)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let (mut send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(tcp))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::spawn(conn);
    let h2 = send
        .send_request(
            hyper::Request::get("http://h2.example:81/counted?z")
                .body(Empty::<Bytes>::new())
                .unwrap_or_else(|e| panic!("{e}")),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(h2.status(), 308);
    assert_eq!(
        h2.headers().get("location").and_then(|v| v.to_str().ok()),
        Some(format!("https://h2.example:{}/counted?z", tls.port()).as_str())
    );
    let _ = h2.into_body().collect().await;

    assert_eq!(
        HITS.load(Ordering::SeqCst),
        before,
        "a redirected request reached the app"
    );

    // Following the Location serves the route over TLS.
    let followed = get(tls, &client(&pair.cert, &[b"h2"], BOTH), "/counted")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (followed.status, followed.body.as_str()),
        (200, r#"{"counted":true}"#)
    );
    assert!(HITS.load(Ordering::SeqCst) > before);
}

#[tokio::test]
async fn the_redirect_names_the_public_port_when_one_is_set() {
    let pair = pair();
    // Behind a port mapping: clients reach the TLS listener on 443 (the port is left out of
    // the Location), or on 8443.
    for (public, shown) in [(443, String::new()), (8443, ":8443".to_owned())] {
        let app = routes_app().tls(settings(&pair).public_port(public));
        let (tls, plain) = serve(app, Scheme::HttpRedirect).await;
        let reply = raw(
            plain,
            &request("example.test", "GET", "/x?y", &[("Connection", "close")], None),
        )
        .await;
        assert_eq!(reply.status, 308);
        assert_eq!(
            reply.header("location"),
            Some(format!("https://example.test{shown}/x?y").as_str()),
            "not the public port {public} (the listener's own is {})",
            tls.port()
        );
    }
}

#[tokio::test]
async fn a_request_naming_no_host_is_refused_by_the_redirect_listener() {
    let pair = pair();
    let (_, plain) = serve(routes_app().tls(settings(&pair)), Scheme::HttpRedirect).await;
    // HTTP/1.0 may omit Host: there is no host to send it to.
    let reply = raw(plain, b"GET /counted HTTP/1.0\r\n\r\n").await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["detail"], "The request names no Host");
    // Userinfo in Host is no host.
    let reply = raw(plain, &request("user@evil.example", "GET", "/", &[], None)).await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.header("connection"), Some("close"));
    // The strict HTTP/1 rules hold on the redirect listener too: a repeated Host.
    let reply = raw(plain, b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").await;
    assert_eq!(reply.status, 400);
}

#[tokio::test]
async fn the_redirect_listener_keeps_the_head_deadline() {
    let pair = pair();
    let app = routes_app()
        .tls(settings(&pair))
        .header_read_timeout(Duration::from_millis(300));
    let (_, plain) = serve(app, Scheme::HttpRedirect).await;
    let mut stream = tokio::net::TcpStream::connect(plain)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: local")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let closed = tokio::time::timeout(
        Duration::from_secs(3),
        ferrapi_tests::client::read_to_close(&mut stream),
    )
    .await;
    assert!(
        closed.is_ok(),
        "a half-sent head held the redirect listener past its deadline"
    );
}

#[tokio::test]
async fn a_redirect_listener_needs_tls() {
    let mut server = routes_app()
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let refused = server.also_bind("127.0.0.1:0", Scheme::HttpRedirect).await;
    assert!(matches!(refused, Err(ServeError::Tls(_))), "{refused:?}");
}

#[tokio::test]
async fn hsts_is_sent_on_tls_answers_only() {
    let pair = pair();
    let app = routes_app().tls(settings(&pair).hsts(Duration::from_secs(600), true));
    let (tls, plain) = serve(app, Scheme::Http).await;
    for alpn in [&b"h2"[..], &b"http/1.1"[..]] {
        let connector = client(&pair.cert, &[alpn], BOTH);
        let answer = get(tls, &connector, "/counted")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(answer.status, 200);
        assert_eq!(
            answer
                .headers
                .get("strict-transport-security")
                .and_then(|v| v.to_str().ok()),
            Some("max-age=600; includeSubDomains"),
            "{alpn:?}"
        );
        // The server's own answers too (a 404 of no route), and a route's own value is kept.
        let missing = get(tls, &connector, "/nowhere")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(missing.status, 404);
        assert!(missing.headers.contains_key("strict-transport-security"));
        let own = get(tls, &connector, "/own-hsts")
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let values: Vec<_> = own.headers.get_all("strict-transport-security").iter().collect();
        assert_eq!(values, ["max-age=0"]);
    }
    let reply = ferrapi_tests::client::get(plain, "/counted").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("strict-transport-security"), None);
}

#[tokio::test]
async fn hsts_is_sent_on_the_server_s_own_refusals_too() {
    // A head the strict scanner refuses (no Host) is answered by the connection's service, not
    // the app: its 400 carries HSTS like every other answer of the TLS connection.
    let pair = pair();
    let app = routes_app().tls(settings(&pair).hsts(Duration::from_secs(600), false));
    let (tls, _) = serve(app, Scheme::Http).await;
    let mut stream = connect(tls, &client(&pair.cert, &[b"http/1.1"], BOTH))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    stream
        .write_all(b"GET /counted HTTP/1.1\r\nAccept: */*\r\n\r\n")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut answer = Vec::new();
    // The refusal closes the connection; a TLS close without close_notify is an error to ignore.
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer).to_ascii_lowercase();
    assert!(text.starts_with("http/1.1 400"), "{text}");
    assert!(
        text.contains("\r\nstrict-transport-security: max-age=600\r\n"),
        "{text}"
    );
    assert!(text.contains("no host"), "{text}");
}

#[tokio::test]
async fn without_hsts_no_header_is_sent() {
    let pair = pair();
    let (tls, _) = serve(routes_app().tls(settings(&pair)), Scheme::Http).await;
    let answer = get(tls, &client(&pair.cert, &[b"h2"], BOTH), "/counted")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(answer.status, 200);
    assert!(!answer.headers.contains_key("strict-transport-security"));
}
