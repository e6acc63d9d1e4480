//! Request ids and raw answers over real HTTP on 127.0.0.1 (issue 43, item 4), against a ferrapi
//! app that gives every request an id: every call sends an `X-Request-Id` the server keeps and
//! echoes, the same on every attempt of a retried call; an id of the caller's (the call's, the
//! client's default header) is sent instead, and a client can turn ids off; every error names the
//! call's id (a timeout, no connection, a body that is not what the document says, an item of a
//! stream, an answer `into_ok` did not expect); an answer read whole keeps its bytes as received,
//! a stream's answer has none.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::prelude::*;
use ferrapi::streaming::StreamingResponse;
use ferrapi_client::{
    Answer, CallOptions, Client, Decode, Error, ErrorKind, Incoming, JsonLines, Method, Outcome, Raw,
    RetryPolicy, Unexpected,
};
use ferrapi_tests::app::spawn;
use futures_util::StreamExt as _;
use tokio::net::TcpListener;

/// What the app saw: each request's `X-Request-Id` (`None` for none), in order.
#[derive(Default)]
struct Seen {
    attempts: AtomicUsize,
    ids: Mutex<Vec<Option<String>>>,
}

impl Seen {
    fn saw(&self, id: &Header<Option<String>>) {
        self.ids.lock().unwrap().push(id.0.clone());
    }

    fn ids(&self) -> Vec<Option<String>> {
        self.ids.lock().unwrap().clone()
    }

    /// The one id the app saw, on each of `attempts` requests.
    fn one_id(&self, attempts: usize) -> String {
        let ids = self.ids();
        assert_eq!(ids.len(), attempts, "{ids:?}");
        let first = ids[0].clone().expect("an id was sent");
        assert!(ids.iter().all(|id| id.as_deref() == Some(&first)), "{ids:?}");
        first
    }
}

/// The id it was sent, as JSON (`null` for none).
#[get("/id")]
async fn id(seen: State<Arc<Seen>>, x_request_id: Header<Option<String>>) -> Json<Value> {
    seen.saw(&x_request_id);
    Json(json!({ "id": x_request_id.0 }))
}

/// Busy (503, `Retry-After: 0`) at the first attempt, then the id it was sent.
#[get("/flaky")]
async fn flaky(
    seen: State<Arc<Seen>>,
    x_request_id: Header<Option<String>>,
) -> Result<Json<Value>, HttpError> {
    seen.saw(&x_request_id);
    if seen.attempts.fetch_add(1, Ordering::SeqCst) == 0 {
        return Err(HttpError::new(503, "busy").with_header(
            HeaderName::from_static("retry-after"),
            HeaderValue::from_static("0"),
        ));
    }
    Ok(Json(json!({ "id": x_request_id.0 })))
}

/// Slower than the tests' timeout.
#[get("/slow")]
async fn slow(seen: State<Arc<Seen>>, x_request_id: Header<Option<String>>) -> Json<Value> {
    seen.saw(&x_request_id);
    tokio::time::sleep(Duration::from_secs(5)).await;
    Json(json!({}))
}

/// The body [`as_sent`] answers: JSON spaced as no serializer writes it.
const AS_SENT: &str = "{ \"n\" :7 ,  \"note\": \"kept as sent\" }";

/// A JSON body, written by hand.
#[get("/as-sent")]
async fn as_sent() -> &'static str {
    AS_SENT
}

/// A body that is not JSON.
#[get("/garbled")]
async fn garbled(seen: State<Arc<Seen>>, x_request_id: Header<Option<String>>) -> &'static str {
    seen.saw(&x_request_id);
    "{not json"
}

/// Not found.
#[get("/missing")]
async fn missing() -> Result<Json<Value>, HttpError> {
    Err(HttpError::not_found("no such thing"))
}

/// JSON lines, the second not JSON.
#[get("/lines")]
async fn lines(seen: State<Arc<Seen>>, x_request_id: Header<Option<String>>) -> StreamingResponse {
    seen.saw(&x_request_id);
    StreamingResponse::new(futures_util::stream::iter([Ok::<_, Infallible>(Bytes::from(
        "{\"n\":1}\nnope\n{\"n\":3}\n",
    ))]))
}

/// An app that gives every request an id (kept from the request when well-formed), as the
/// Resource API's binary does.
async fn served(seen: &Arc<Seen>) -> SocketAddr {
    let app = App::new()
        .state(seen.clone())
        .request_ids(true)
        .routes(routes![id, flaky, slow, as_sent, garbled, missing, lines]);
    spawn(app).await
}

fn client(addr: SocketAddr) -> Client {
    Client::builder(&format!("http://{addr}"))
        .retry(quick(3))
        .build()
        .unwrap()
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

/// `GET path`, answered as it came.
async fn get(client: &Client, path: &'static str, options: CallOptions) -> Result<Answer<Raw>, Error> {
    client
        .call::<Raw, _>(Method::GET, options, |request| request.path(path))
        .await
}

/// An id the client made: 32 lowercase hex digits.
fn is_made(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The id in the body of `/id` or `/flaky`.
fn echoed(answer: &Answer<Raw>) -> Option<String> {
    let body: Value = answer.body().json().unwrap();
    body["id"].as_str().map(str::to_owned)
}

#[tokio::test]
async fn every_call_sends_a_made_id_the_server_keeps_and_answers_with() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let first = get(&client, "/id", CallOptions::default()).await.unwrap();
    let second = get(&client, "/id", CallOptions::default()).await.unwrap();
    let ids = seen.ids();
    let sent: Vec<String> = ids.iter().map(|id| id.clone().expect("an id was sent")).collect();
    assert!(sent.iter().all(|id| is_made(id)), "{sent:?}");
    assert_ne!(sent[0], sent[1], "one id per call");
    // The server kept each as sent: its answer's header, and what the route read.
    assert_eq!(first.request_id(), Some(sent[0].as_str()));
    assert_eq!(second.request_id(), Some(sent[1].as_str()));
    assert_eq!(echoed(&first).as_deref(), Some(sent[0].as_str()));
}

#[tokio::test]
async fn a_retried_call_sends_its_one_id_on_every_attempt() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let answer = get(&client, "/flaky", CallOptions::default()).await.unwrap();
    assert_eq!(answer.status(), 200, "retried after the 503");
    let id = seen.one_id(2);
    assert!(is_made(&id), "{id}");
    assert_eq!(answer.request_id(), Some(id.as_str()));
}

#[tokio::test]
async fn an_id_of_the_callers_is_sent_instead() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let mut options = CallOptions::default();
    options.request_id("trace-7");
    let answer = get(&client(addr), "/flaky", options).await.unwrap();
    assert_eq!(seen.one_id(2), "trace-7", "on both attempts");
    assert_eq!(answer.request_id(), Some("trace-7"));

    // A client's default header is every call's id.
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let defaulted = Client::builder(&format!("http://{addr}"))
        .header("X-Request-Id", "tenant-a")
        .build()
        .unwrap();
    let answer = get(&defaulted, "/id", CallOptions::default()).await.unwrap();
    assert_eq!(seen.ids(), [Some("tenant-a".to_owned())]);
    assert_eq!(echoed(&answer).as_deref(), Some("tenant-a"));
}

#[tokio::test]
async fn a_client_without_request_ids_sends_none_and_its_errors_name_none() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let quiet = Client::builder(&format!("http://{addr}"))
        .request_ids(false)
        .build()
        .unwrap();
    let answer = get(&quiet, "/id", CallOptions::default()).await.unwrap();
    assert_eq!(seen.ids(), [None], "no header sent");
    assert_eq!(echoed(&answer), None);
    // The server made one of its own.
    assert!(answer.request_id().is_some());
    // An id the call gives is still sent.
    let mut options = CallOptions::default();
    options.request_id("mine");
    get(&quiet, "/id", options).await.unwrap();
    assert_eq!(seen.ids()[1].as_deref(), Some("mine"));

    let error = get(&unreachable(false).await, "/", CallOptions::default())
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
    assert_eq!(error.request_id(), None);
    assert!(!error.to_string().contains("request id"), "{error}");
}

/// A client of a port nobody listens on, with request ids `on` or off.
async fn unreachable(on: bool) -> Client {
    let probe = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = probe.local_addr().unwrap();
    drop(probe);
    Client::builder(&format!("http://{addr}"))
        .retry(quick(2))
        .request_ids(on)
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_timeout_and_a_refused_connection_name_the_calls_id() {
    let seen = Arc::new(Seen::default());
    let addr = served(&seen).await;
    let impatient = Client::builder(&format!("http://{addr}"))
        .timeout(Some(Duration::from_millis(200)))
        .retry(quick(2))
        .build()
        .unwrap();
    let error = get(&impatient, "/slow", CallOptions::default())
        .await
        .unwrap_err();
    assert!(error.is_timeout(), "{error}");
    let id = seen.one_id(2);
    assert_eq!(error.request_id(), Some(id.as_str()));
    assert_eq!(
        error.to_string(),
        format!("no answer within 200ms (request id {id})")
    );

    // Nothing reached a server, and the error names the id its two attempts carried.
    let error = get(&unreachable(true).await, "/", CallOptions::default())
        .await
        .unwrap_err();
    assert!(error.is_connect(), "{error}");
    let id = error.request_id().expect("named");
    assert!(is_made(id), "{id}");
    assert!(
        error.to_string().ends_with(&format!(" (request id {id})")),
        "{error}"
    );
    assert!(matches!(error.into_kind(), ErrorKind::Connect(_)));
}

/// A JSON answer, decoded: what a generated operation's enum does for a `200`.
#[derive(Debug)]
enum Found {
    Ok(Tick),
    Unexpected(Unexpected),
}

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Tick {
    n: u64,
}

impl Decode for Found {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(match incoming.status().as_u16() {
            200 => Found::Ok(incoming.json().await?),
            _ => Found::Unexpected(incoming.unexpected().await?),
        })
    }
}

impl Outcome for Found {
    type Ok = Tick;

    fn into_ok(self) -> Result<Tick, Self> {
        match self {
            Found::Ok(tick) => Ok(tick),
            other => Err(other),
        }
    }
}

async fn found(client: &Client, path: &'static str) -> Result<Answer<Found>, Error> {
    client
        .call::<Found, _>(Method::GET, CallOptions::default(), |request| request.path(path))
        .await
}

#[tokio::test]
async fn a_body_not_as_documented_names_the_id_and_keeps_the_answers_headers() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let error = found(&client, "/garbled").await.unwrap_err();
    let id = seen.one_id(1);
    assert_eq!(error.request_id(), Some(id.as_str()));
    assert!(
        error
            .to_string()
            .ends_with(&format!("body: {{not json (request id {id})")),
        "{error}"
    );
    let ErrorKind::Decode(decode) = error.into_kind() else {
        panic!("a decode error")
    };
    assert_eq!(decode.status, 200);
    assert_eq!(&decode.body[..], b"{not json");
    assert_eq!(
        decode.headers.get("x-request-id").and_then(|v| v.to_str().ok()),
        Some(id.as_str())
    );
    assert!(decode.headers.contains_key("content-type"));
}

#[tokio::test]
async fn an_answer_into_ok_did_not_expect_names_the_id_the_server_answered_with() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let answer = found(&client, "/missing").await.unwrap();
    let answered = answer.request_id().expect("the server's id").to_owned();
    assert!(is_made(&answered), "the id sent, kept: {answered}");
    let rejected = answer.into_ok().unwrap_err();
    assert!(
        rejected
            .to_string()
            .ends_with(&format!(" (request id {answered})")),
        "{rejected}"
    );
    let error = Error::from(rejected);
    assert_eq!(error.request_id(), Some(answered.as_str()));
    assert_eq!(error.status().map(|s| s.as_u16()), Some(404));
    assert!(
        matches!(error.kind(), ErrorKind::Status(status) if status.headers.contains_key("x-request-id")),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .starts_with("unexpected answer 404 Not Found: Unexpected"),
        "{error}"
    );
    assert!(
        error.to_string().ends_with(&format!(" (request id {answered})")),
        "{error}"
    );
}

struct Lines(JsonLines<Tick>);

impl Decode for Lines {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(Lines(incoming.json_lines()))
    }
}

#[tokio::test]
async fn a_streams_item_names_the_id_and_a_stream_has_no_raw_body() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let answer = client
        .call::<Lines, _>(Method::GET, CallOptions::default(), |request| {
            request.path("/lines")
        })
        .await
        .unwrap();
    assert!(answer.raw_body().is_none(), "handed over unread");
    let items: Vec<Result<Tick, Error>> = answer.into_body().0.collect().await;
    let id = seen.one_id(1);
    assert_eq!(items.len(), 3);
    assert_eq!(items[0].as_ref().unwrap(), &Tick { n: 1 });
    let error = items[1].as_ref().unwrap_err();
    assert_eq!(error.request_id(), Some(id.as_str()));
    let ErrorKind::Decode(decode) = error.kind() else {
        panic!("a decode error: {error}")
    };
    assert_eq!(&decode.body[..], b"nope");
    assert!(
        decode.headers.contains_key("x-request-id"),
        "the answer's headers"
    );
    assert_eq!(items[2].as_ref().unwrap(), &Tick { n: 3 });
}

#[tokio::test]
async fn an_answer_read_whole_keeps_its_bytes_as_the_server_sent_them() {
    let seen = Arc::new(Seen::default());
    let client = client(served(&seen).await);
    let answer = found(&client, "/as-sent").await.unwrap();
    assert_eq!(answer.raw_body().map(|b| &b[..]), Some(AS_SENT.as_bytes()));
    assert!(matches!(answer.body(), Found::Ok(Tick { n: 7 })));
    // An answer of another status too (read whole as `Unexpected`), and a raw one.
    let answer = found(&client, "/missing").await.unwrap();
    let Found::Unexpected(unexpected) = answer.body() else {
        panic!("a 404")
    };
    assert_eq!(answer.raw_body(), Some(&unexpected.body));
    assert_eq!(
        answer.raw_body().map(|b| &b[..]),
        Some(&br#"{"detail":"no such thing"}"#[..])
    );
    let raw = get(&client, "/as-sent", CallOptions::default()).await.unwrap();
    assert_eq!(raw.raw_body(), Some(&raw.body().body));
    // Kept through `into_ok`'s rejection.
    let rejected = found(&client, "/missing").await.unwrap().into_ok().unwrap_err();
    assert!(rejected.into_answer().raw_body().is_some());
}
