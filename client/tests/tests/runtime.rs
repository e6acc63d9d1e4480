//! The client runtime over real HTTP on 127.0.0.1 (and in-process): retries (what is retried, what
//! is not, `Retry-After`, a key kept across attempts), timeouts, HTTP/2 without TLS, TLS with
//! rustls (HTTP/2 by ALPN), an app called in-process through its `tower::Service`, a byte stream
//! that is never buffered, Server-Sent Events resumed with `Last-Event-ID` after a cut, JSON lines,
//! and an idempotency key held by an attempt that died (409 with `Retry-After`, then `Created`
//! under the default policy).
//! Each test answers with a small app of its own (ferrapi's, or hyper's where the protocol
//! version is what is checked).

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::idempotency::{
    Begin, IdempotencyKey, IdempotencyKeys, Kept, KeptResponse, KeyFuture, KeyStore, MemoryKeys,
};
use ferrapi::prelude::*;
use ferrapi::streaming::{Event as SseEvent, LastEventId, Sse, StreamingResponse};
use ferrapi_client::{
    CallOptions, Client, Decode, Error, ErrorKind, Incoming, JsonLines, Method, Raw, RetryPolicy,
    ServiceTransport,
};
use ferrapi_tests::app::spawn;
use futures_util::StreamExt as _;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[path = "support/ticks.rs"]
mod sse_ticks;
use sse_ticks::{paced_after, Tick, Ticks};

/// What the test apps count and remember.
#[derive(Default)]
struct Seen {
    attempts: AtomicUsize,
    keys: Mutex<Vec<String>>,
}

/// Busy (503, `Retry-After: 0`) twice, then the attempt's number; remembers each attempt's key.
#[post("/busy")]
async fn busy(
    seen: State<Arc<Seen>>,
    idempotency_key: Header<Option<String>>,
) -> Result<Json<Value>, HttpError> {
    let attempt = seen.attempts.fetch_add(1, Ordering::SeqCst) + 1;
    if let (Some(key), Ok(mut keys)) = (idempotency_key.0, seen.keys.lock()) {
        keys.push(key);
    }
    if attempt <= 2 {
        return Err(HttpError::new(503, "busy").with_header(
            HeaderName::from_static("retry-after"),
            HeaderValue::from_static("0"),
        ));
    }
    Ok(Json(json!({ "attempt": attempt })))
}

/// Slower than the tests' timeout.
#[get("/slow")]
async fn slow(seen: State<Arc<Seen>>) -> Json<Value> {
    seen.attempts.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(5)).await;
    Json(json!({}))
}

/// Zeros without end, 16 KiB a chunk.
#[get("/endless")]
async fn endless() -> StreamingResponse {
    let chunk = Bytes::from(vec![0u8; 16 * 1024]);
    StreamingResponse::new(futures_util::stream::repeat(chunk).map(Ok::<_, Infallible>))
}

/// Ticks numbered from `Last-Event-ID` on; the first connection breaks after two of them.
#[get("/ticks")]
async fn ticks(seen: State<Arc<Seen>>, last: LastEventId) -> Sse {
    let connection = seen.attempts.fetch_add(1, Ordering::SeqCst);
    if let (Some(id), Ok(mut keys)) = (last.as_deref(), seen.keys.lock()) {
        keys.push(id.to_owned());
    }
    let events = paced_after(last.as_deref(), 3).map(move |n| {
        if connection == 0 && n == 3 {
            return Err("cut");
        }
        let event = SseEvent::default()
            .id(n.to_string())
            .event("tick")
            .retry(Duration::from_millis(50))
            .data(json!({ "n": n }).to_string());
        Ok(event)
    });
    Sse::new(events)
}

/// Three JSON lines.
#[get("/lines")]
async fn lines() -> StreamingResponse {
    let text = "{\"n\":1}\n\n{\"n\":2}\r\n{\"n\":3}";
    StreamingResponse::new(futures_util::stream::iter([Ok::<_, Infallible>(Bytes::from(
        text,
    ))]))
}

fn app(seen: &Arc<Seen>) -> App {
    App::new()
        .state(seen.clone())
        .routes(routes![busy, slow, endless, ticks, lines])
}

/// A fast retry policy for tests.
fn quick(attempts: u32) -> RetryPolicy {
    RetryPolicy {
        max_attempts: attempts,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
        ..RetryPolicy::new()
    }
}

async fn served(seen: &Arc<Seen>, retry: RetryPolicy) -> Client {
    let addr = spawn(app(seen)).await;
    Client::builder(&format!("http://{addr}"))
        .retry(retry)
        .build()
        .unwrap()
}

/// `POST /busy`, with an `Idempotency-Key` when `key` is given.
async fn post_busy(client: &Client, key: Option<&str>) -> Raw {
    client
        .call::<Raw, _>(Method::POST, CallOptions::default(), |request| {
            request.path("/busy");
            request.header("Idempotency-Key", &key);
        })
        .await
        .unwrap()
        .into_body()
}

#[tokio::test]
async fn a_keyed_write_is_retried_after_a_503_with_the_same_key_and_an_unkeyed_one_is_not() {
    let seen = Arc::new(Seen::default());
    let client = served(&seen, quick(4)).await;
    let answer = post_busy(&client, Some("k-1")).await;
    assert_eq!(
        (answer.status.as_u16(), answer.text().as_ref()),
        (200, r#"{"attempt":3}"#)
    );
    assert_eq!(
        *seen.keys.lock().unwrap(),
        ["k-1", "k-1", "k-1"],
        "one key, every attempt"
    );

    let seen = Arc::new(Seen::default());
    let client = served(&seen, quick(4)).await;
    let answer = post_busy(&client, None).await;
    assert_eq!(
        answer.status.as_u16(),
        503,
        "a write without a key is never sent twice"
    );
    assert_eq!(seen.attempts.load(Ordering::SeqCst), 1);

    // The attempts are bounded: two in all, both busy.
    let seen = Arc::new(Seen::default());
    let client = served(&seen, quick(2)).await;
    assert_eq!(post_busy(&client, Some("k-2")).await.status.as_u16(), 503);
    assert_eq!(seen.attempts.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_timeout_ends_an_attempt_and_a_safe_read_is_retried() {
    let seen = Arc::new(Seen::default());
    let addr = spawn(app(&seen)).await;
    let client = Client::builder(&format!("http://{addr}"))
        .timeout(Some(Duration::from_millis(200)))
        .retry(quick(2))
        .build()
        .unwrap();
    let started = Instant::now();
    let error = client
        .call::<Raw, _>(Method::GET, CallOptions::default(), |request| {
            request.path("/slow")
        })
        .await
        .unwrap_err();
    assert!(
        matches!(error.kind(), ErrorKind::Timeout(limit) if *limit == Duration::from_millis(200)),
        "{error}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        seen.attempts.load(Ordering::SeqCst),
        2,
        "a GET is retried after a timeout"
    );
}

/// A server that reads each request and, for the first `cut` connections, closes without
/// answering; then answers 200 `ok`. Counts the connections.
async fn cutting_server(cut: usize) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let n = counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 4096];
                let _ = socket.read(&mut buffer).await;
                if n >= cut {
                    let _ = socket
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok")
                        .await;
                }
            });
        }
    });
    (addr, connections)
}

#[tokio::test]
async fn a_cut_connection_is_retried_for_a_read_or_a_keyed_write_only() {
    let (addr, connections) = cutting_server(1).await;
    let client = Client::builder(&format!("http://{addr}"))
        .retry(quick(3))
        .build()
        .unwrap();
    let read = client
        .call::<Raw, _>(Method::GET, CallOptions::default(), |request| request.path("/"))
        .await
        .unwrap();
    assert_eq!(read.body().text(), "ok");
    assert_eq!(connections.load(Ordering::SeqCst), 2);

    let (addr, connections) = cutting_server(1).await;
    let client = Client::builder(&format!("http://{addr}"))
        .retry(quick(3))
        .build()
        .unwrap();
    let error = client
        .call::<Raw, _>(Method::POST, CallOptions::default(), |request| request.path("/"))
        .await
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::Transport(_)), "{error}");
    assert_eq!(
        connections.load(Ordering::SeqCst),
        1,
        "a write that may have arrived is not sent twice"
    );
}

#[tokio::test]
async fn a_request_that_never_reached_a_server_is_sent_again_whatever_its_method() {
    // A port nobody listens on yet; the server starts after the first attempt failed.
    let probe = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = probe.local_addr().unwrap();
    drop(probe);
    let client = Client::builder(&format!("http://{addr}"))
        .retry(RetryPolicy {
            max_attempts: 40,
            base_delay: Duration::from_millis(50),
            max_delay: Duration::from_millis(50),
            ..RetryPolicy::new()
        })
        .build()
        .unwrap();
    let call = tokio::spawn(async move {
        client
            .call::<Raw, _>(Method::POST, CallOptions::default(), |request| request.path("/"))
            .await
    });
    tokio::time::sleep(Duration::from_millis(150)).await;
    let listener = TcpListener::bind(addr).await.unwrap();
    tokio::spawn(async move {
        if let Ok((mut socket, _)) = listener.accept().await {
            let mut buffer = vec![0u8; 4096];
            let _ = socket.read(&mut buffer).await;
            let _ = socket
                .write_all(b"HTTP/1.1 201 Created\r\ncontent-length: 0\r\n\r\n")
                .await;
        }
    });
    let answer = call.await.unwrap().unwrap();
    assert_eq!(answer.status(), 201);
}

#[tokio::test]
async fn an_unreachable_server_is_a_connect_error() {
    let probe = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = probe.local_addr().unwrap();
    drop(probe);
    let client = Client::builder(&format!("http://{addr}"))
        .retry(quick(2))
        .build()
        .unwrap();
    let error = client
        .call::<Raw, _>(Method::GET, CallOptions::default(), |request| request.path("/"))
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
}

/// A hyper server answering each request with its HTTP version (`HTTP/2.0`).
async fn version_server(tls: Option<tokio_rustls::TlsAcceptor>) -> SocketAddr {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let tls = tls.clone();
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(|request: hyper::Request<hyper::body::Incoming>| async move {
                        let version = format!("{:?}", request.version());
                        Ok::<_, Infallible>(hyper::Response::new(http_body_util::Full::new(Bytes::from(
                            version,
                        ))))
                    });
                let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                match tls {
                    Some(tls) => {
                        if let Ok(stream) = tls.accept(socket).await {
                            let _ = builder.serve_connection(TokioIo::new(stream), service).await;
                        }
                    }
                    None => {
                        let _ = builder.serve_connection(TokioIo::new(socket), service).await;
                    }
                }
            });
        }
    });
    addr
}

async fn version(client: &Client) -> String {
    let answer = client
        .call::<Raw, _>(Method::GET, CallOptions::default(), |request| request.path("/"))
        .await
        .unwrap();
    answer.body().text().into_owned()
}

#[tokio::test]
async fn http1_by_default_and_http2_without_tls_when_asked() {
    let addr = version_server(None).await;
    let plain = Client::new(&format!("http://{addr}")).unwrap();
    assert_eq!(version(&plain).await, "HTTP/1.1");
    let h2 = Client::builder(&format!("http://{addr}"))
        .http2_only(true)
        .build()
        .unwrap();
    assert_eq!(version(&h2).await, "HTTP/2.0");
}

const CERTIFICATE: &[u8] = include_bytes!("../fixtures/cert.pem");
const KEY: &[u8] = include_bytes!("../fixtures/key.pem");

fn acceptor() -> tokio_rustls::TlsAcceptor {
    use rustls::pki_types::pem::PemObject as _;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(CERTIFICATE)
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_slice(KEY).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(certificates, key)
        .unwrap();
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

#[tokio::test]
async fn https_through_rustls_negotiates_http2() {
    let addr = version_server(Some(acceptor())).await;
    let client = Client::builder(&format!("https://127.0.0.1:{}", addr.port()))
        .root_certificates(CERTIFICATE)
        .build()
        .unwrap();
    assert_eq!(version(&client).await, "HTTP/2.0");
    // Without the test's root, the server is not trusted: no connection.
    let untrusting = Client::builder(&format!("https://127.0.0.1:{}", addr.port()))
        .retry(quick(1))
        .build()
        .unwrap();
    let error = untrusting
        .call::<Raw, _>(Method::GET, CallOptions::default(), |request| request.path("/"))
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
}

/// Who the client certificate says the caller is, and the HTTP version it spoke.
#[get("/whoami")]
async fn whoami(cert: ferrapi::tls::ClientCert, version: hyper::Version) -> String {
    format!("{} {version:?}", cert.subject())
}

/// A CA certificate (PEM, in a file of `dir`) and a client certificate and key it issued (PEM).
fn client_ca(dir: &std::path::Path) -> (std::path::PathBuf, String, String) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca = ca.self_signed(&ca_key).unwrap();
    let mut client = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    client.distinguished_name = rcgen::DistinguishedName::new();
    client
        .distinguished_name
        .push(rcgen::DnType::CommonName, "caller");
    let client_key = rcgen::KeyPair::generate().unwrap();
    let client = client.signed_by(&client_key, &ca, &ca_key).unwrap();
    let path = dir.join("clients-ca.pem");
    std::fs::write(&path, ca.pem()).unwrap();
    (path, client.pem(), client_key.serialize_pem())
}

#[tokio::test]
async fn a_client_identity_is_presented_to_a_server_that_requires_one_over_http2_and_http1() {
    let dir = std::env::temp_dir().join(format!("ferrapi-client-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ca, cert_pem, key_pem) = client_ca(&dir);
    let (cert_path, key_path) = (dir.join("server.crt"), dir.join("server.key"));
    std::fs::write(&cert_path, CERTIFICATE).unwrap();
    std::fs::write(&key_path, KEY).unwrap();
    let tls = ferrapi::tls::TlsConfig::from_pem_files(&cert_path, &key_path)
        .client_auth(&ca, ferrapi::tls::ClientAuth::Required);
    let server = App::new()
        .routes(routes![whoami])
        .tls(tls)
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let base = format!("https://127.0.0.1:{}", server.local_addr().port());
    tokio::spawn(server.run_until(std::future::pending()));

    let builder = || {
        Client::builder(&base)
            .root_certificates(CERTIFICATE)
            .retry(quick(1))
    };
    let whoami = |client: Client| async move {
        client
            .call::<Raw, _>(Method::GET, CallOptions::default(), |request| {
                request.path("/whoami")
            })
            .await
            .map(|answer| answer.body().text().into_owned())
    };
    let h2 = builder()
        .identity(cert_pem.as_bytes(), key_pem.as_bytes())
        .build()
        .unwrap();
    assert_eq!(whoami(h2).await.unwrap(), "CN=caller HTTP/2.0");
    let h1 = builder()
        .identity(cert_pem.as_bytes(), key_pem.as_bytes())
        .http1_only(true)
        .build()
        .unwrap();
    assert_eq!(whoami(h1).await.unwrap(), "CN=caller HTTP/1.1");
    // Without an identity the server refuses: no answer (TLS 1.3 tells the client with its first
    // read, after its side of the handshake completed).
    let error = whoami(builder().build().unwrap()).await.unwrap_err();
    assert!(error.to_string().contains("CertificateRequired"), "{error}");
    // A key that is not PEM is the builder's error.
    let refused = builder().identity(cert_pem.as_bytes(), b"not a key").build();
    assert!(refused.is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_app_is_called_in_process_through_its_service() {
    let seen = Arc::new(Seen::default());
    let service = app(&seen).build().unwrap();
    let client = Client::builder("http://in-process.test")
        .transport(ServiceTransport::new(service))
        .retry(quick(4))
        .build()
        .unwrap();
    let answer = post_busy(&client, Some("in-process")).await;
    assert_eq!(
        (answer.status.as_u16(), answer.text().as_ref()),
        (200, r#"{"attempt":3}"#)
    );
}

/// An endless body as a byte stream.
struct Download(ferrapi_client::ByteStream);

impl Decode for Download {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(Download(incoming.byte_stream()))
    }
}

#[tokio::test]
async fn a_byte_stream_is_read_as_it_comes_never_buffered_whole() {
    let seen = Arc::new(Seen::default());
    let client = served(&seen, RetryPolicy::none()).await;
    // The body never ends: a client that buffered it would never return.
    let answer = client
        .call::<Download, _>(Method::GET, CallOptions::default(), |request| {
            request.path("/endless")
        })
        .await
        .unwrap();
    let mut stream = answer.into_body().0;
    let mut read = 0;
    while read < 1 << 20 {
        read += stream.next().await.expect("more").expect("a chunk").len();
    }
    assert!(read >= 1 << 20);
}

#[tokio::test]
async fn server_sent_events_resume_from_the_last_event_id_after_a_cut() {
    let seen = Arc::new(Seen::default());
    let client = served(&seen, RetryPolicy::none()).await;
    let mut options = CallOptions::default();
    options.resumable();
    let answer = client
        .call::<Ticks, _>(Method::GET, options, |request| request.path("/ticks"))
        .await
        .unwrap();
    assert_eq!(answer.header("content-type"), Some("text/event-stream"));
    let events: Vec<_> = answer.into_body().0.take(5).collect().await;
    let events: Vec<(u64, Option<String>, Option<String>)> = events
        .into_iter()
        .map(|event| {
            let event = event.expect("an event");
            (event.data.n, event.id, event.event)
        })
        .collect();
    let tick = |n: u64| (n, Some(n.to_string()), Some("tick".to_owned()));
    assert_eq!(events, [tick(1), tick(2), tick(3), tick(4), tick(5)]);
    assert_eq!(seen.attempts.load(Ordering::SeqCst), 2, "one reconnection");
    assert_eq!(*seen.keys.lock().unwrap(), ["2"], "it sent the last id it had");
}

struct Lines(JsonLines<Tick>);

impl Decode for Lines {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(Lines(incoming.json_lines()))
    }
}

#[tokio::test]
async fn json_lines_are_read_one_value_a_line() {
    let seen = Arc::new(Seen::default());
    let client = served(&seen, RetryPolicy::none()).await;
    let answer = client
        .call::<Lines, _>(Method::GET, CallOptions::default(), |request| {
            request.path("/lines")
        })
        .await
        .unwrap();
    let ticks: Vec<u64> = answer.into_body().0.map(|tick| tick.unwrap().n).collect().await;
    assert_eq!(ticks, [1, 2, 3]);
}

#[tokio::test]
async fn a_request_that_cannot_be_built_is_refused_before_anything_is_sent() {
    let error = Client::new("ftp://example.org").unwrap_err();
    assert!(error.to_string().contains("http or https"), "{error}");
    let seen = Arc::new(Seen::default());
    let client = served(&seen, RetryPolicy::none()).await;
    let error = client
        .call::<Raw, _>(Method::POST, CallOptions::default(), |request| {
            request.path("/busy");
            request.header("X-Bad", &"line\nbreak");
        })
        .await
        .unwrap_err();
    assert!(matches!(error.kind(), ErrorKind::InvalidRequest(_)), "{error}");
    assert_eq!(seen.attempts.load(Ordering::SeqCst), 0);
}

/// What the dead-holder test's booking route counts: attempts started, bookings made.
#[derive(Default)]
struct Bookings {
    started: AtomicUsize,
    booked: AtomicUsize,
}

/// Book, keyed: the first attempt hangs for good (its process "died" after taking the key), the
/// next ones book.
#[post("/book", status = 201)]
async fn book(bookings: State<Arc<Bookings>>, key: IdempotencyKey) -> Kept<(StatusCode, Json<Value>)> {
    if bookings.started.fetch_add(1, Ordering::SeqCst) == 0 {
        std::future::pending::<()>().await;
    }
    let n = bookings.booked.fetch_add(1, Ordering::SeqCst) + 1;
    key.keep((StatusCode::CREATED, Json(json!({ "visit": n })))).await
}

/// Keys kept in memory whose renewals never arrive, as a process that died sends none: a key's
/// lease runs out one lease after it was taken, though its first attempt is still "running".
struct NoRenewals(MemoryKeys);

impl KeyStore for NoRenewals {
    fn begin<'a>(&'a self, key: &'a str, fingerprint: &'a str, now: u64, until: u64) -> KeyFuture<'a, Begin> {
        self.0.begin(key, fingerprint, now, until)
    }
    fn finish<'a>(
        &'a self,
        key: &'a str,
        fingerprint: &'a str,
        answer: KeptResponse,
        expires: u64,
    ) -> KeyFuture<'a, ()> {
        self.0.finish(key, fingerprint, answer, expires)
    }
    fn release<'a>(&'a self, key: &'a str, fingerprint: &'a str) -> KeyFuture<'a, ()> {
        self.0.release(key, fingerprint)
    }
    fn renew<'a>(&'a self, _: &'a str, _: &'a str, _: u64) -> KeyFuture<'a, bool> {
        Box::pin(std::future::ready(Ok(true)))
    }
}

#[tokio::test]
async fn a_dead_holders_key_is_answered_409_with_retry_after_and_the_default_policy_ends_created() {
    // Issue 43, item 3. A 3 s lease (the default is 6 s: the same path, faster).
    let lease = Duration::from_secs(3);
    let bookings = Arc::new(Bookings::default());
    let keys = IdempotencyKeys::new(NoRenewals(MemoryKeys::new()), Duration::from_secs(60)).lease(lease);
    let app = App::new()
        .state(bookings.clone())
        .state(keys)
        .routes(routes![book]);
    let addr = spawn(app).await;
    let headers = [("Idempotency-Key", "visit-1")];
    let first =
        tokio::spawn(async move { ferrapi_tests::client::send(addr, "POST", "/book", &headers, None).await });
    let deadline = Instant::now() + Duration::from_secs(30);
    while bookings.started.load(Ordering::SeqCst) == 0 {
        assert!(Instant::now() < deadline, "the first attempt started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // The key is held by an attempt that will never answer: 409, and when to come back.
    let probe = ferrapi_tests::client::send(addr, "POST", "/book", &headers, None).await;
    assert_eq!(probe.status, 409, "{}", probe.text());
    assert_eq!(
        probe.text(),
        r#"{"detail":"A request with this Idempotency-Key is being processed; retry later"}"#
    );
    let wait: u64 = probe
        .header("retry-after")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    assert!((1..=3).contains(&wait), "{:?}", probe.header("retry-after"));

    // The client's default policy waits as told, and its retry runs once the lease is over.
    let started = Instant::now();
    let client = Client::new(&format!("http://{addr}")).unwrap();
    let answer = client
        .call::<Raw, _>(Method::POST, CallOptions::default(), |request| {
            request.path("/book");
            request.header("Idempotency-Key", &"visit-1");
        })
        .await
        .unwrap();
    let took = started.elapsed();
    assert_eq!(
        (answer.status().as_u16(), answer.body().text().as_ref()),
        (201, r#"{"visit":1}"#)
    );
    assert_eq!(bookings.booked.load(Ordering::SeqCst), 1, "one booking");
    assert!(
        took < Duration::from_secs(25),
        "within the default budget: {took:?}"
    );
    println!("a dead holder's key: Created after {took:?}");
    first.abort();
}
