//! Idempotency keys over real HTTP: a route taking `IdempotencyKey` runs once per key, a retry
//! gets the first answer (status, headers, body) with `Idempotent-Replayed: true`, a retry while
//! the first attempt runs gets 409 with `Retry-After` (and keeps getting it past the lease, which
//! the running attempt renews), the key with another request 422, and after the retention
//! period the key is forgotten; an answer larger than a key keeps is sent and its key released,
//! and a keyed request reserves room in the memory budget before its key is looked up. The decision table is unit-tested in `runtime/src/idempotency/`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ferrapi::http::header::{HeaderName, HeaderValue, LOCATION};
use ferrapi::idempotency::{IdempotencyKey, IdempotencyKeys, Kept, DEFAULT_MAX_KEPT};
use ferrapi::prelude::*;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};

/// How many orders were booked.
#[derive(Default)]
struct Booked(AtomicU64);

#[derive(Model)]
struct OrderIn {
    item: String,
}

/// A booked order.
#[derive(Model, serde::Serialize)]
struct Order {
    n: u64,
    item: String,
}

/// Book an order: 201, its `Location`, its number.
#[post("/orders", status = 201)]
async fn book(
    booked: State<Booked>,
    order: OrderIn,
    key: IdempotencyKey,
    slow: Option<bool>,
) -> Kept<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Order>)> {
    if slow == Some(true) {
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let n = booked.0.fetch_add(1, Ordering::SeqCst) + 1;
    let location = HeaderValue::try_from(format!("/orders/{n}")).unwrap_or(HeaderValue::from_static("/"));
    let order = Order { n, item: order.item };
    key.keep((StatusCode::CREATED, [(LOCATION, location)], Json(order)))
        .await
}

/// Fails the first time, succeeds after: a 5xx is not kept.
#[post("/flaky")]
async fn flaky(booked: State<Booked>, key: IdempotencyKey) -> Kept<Result<Json<Value>, HttpError>> {
    let n = booked.0.fetch_add(1, Ordering::SeqCst) + 1;
    let answer = if n == 1 {
        Err(HttpError::new(503, "try again"))
    } else {
        Ok(Json(json!({ "n": n })))
    };
    key.keep(answer).await
}

/// A report of `kib` KiB, counted: a legitimate answer that may be larger than a key keeps.
#[post("/report")]
async fn report(booked: State<Booked>, kib: usize, key: IdempotencyKey, slow: Option<bool>) -> Kept<String> {
    let n = booked.0.fetch_add(1, Ordering::SeqCst) + 1;
    if slow == Some(true) {
        tokio::time::sleep(Duration::from_millis(400)).await;
    }
    let mut text = format!("run {n}\n");
    text.push_str(&"x".repeat((kib * 1024).saturating_sub(text.len())));
    key.keep(text).await
}

fn app(retention: Duration) -> App {
    App::new()
        .state(Booked::default())
        .state(IdempotencyKeys::in_memory(retention))
        .routes(routes![book, flaky, report])
}

async fn post(addr: SocketAddr, path: &str, key: Option<&str>, body: &str) -> Reply {
    let mut headers = vec![("Content-Type", "application/json")];
    if let Some(key) = key {
        headers.push(("Idempotency-Key", key));
    }
    send(addr, "POST", path, &headers, Some(body.as_bytes())).await
}

#[tokio::test]
async fn a_retry_gets_the_first_answer_with_the_marker() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    let first = post(addr, "/orders", Some("k-1"), r#"{"item":"saw"}"#).await;
    assert_eq!((first.status, first.header("location")), (201, Some("/orders/1")));
    assert_eq!(first.header("idempotent-replayed"), None);
    let retry = post(addr, "/orders", Some("\"k-1\""), r#"{"item":"saw"}"#).await;
    assert_eq!(retry.status, 201);
    assert_eq!(retry.text(), first.text());
    assert_eq!(retry.header("location"), Some("/orders/1"));
    assert_eq!(retry.header("content-type"), Some("application/json"));
    assert_eq!(retry.header("idempotent-replayed"), Some("true"));
    // Another key books again; no key at all books every time.
    let other = post(addr, "/orders", Some("k-2"), r#"{"item":"saw"}"#).await;
    assert_eq!(other.json()["n"], 2);
    for n in [3, 4] {
        let reply = post(addr, "/orders", None, r#"{"item":"saw"}"#).await;
        assert_eq!(
            (reply.json()["n"].clone(), reply.header("idempotent-replayed")),
            (json!(n), None)
        );
    }
}

#[tokio::test]
async fn the_same_key_with_another_request_is_422() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    assert_eq!(
        post(addr, "/orders", Some("k"), r#"{"item":"saw"}"#).await.status,
        201
    );
    let other = post(addr, "/orders", Some("k"), r#"{"item":"drill"}"#).await;
    assert_eq!(
        (other.status, other.text()),
        (
            422,
            r#"{"detail":[{"type":"idempotency_key_reused","loc":["header","idempotency-key"],"msg":"This Idempotency-Key was used for another request","input":"k"}]}"#
                .to_owned()
        )
    );
    // Another path is another request too.
    assert_eq!(
        post(addr, "/orders?slow=false", Some("k"), r#"{"item":"saw"}"#)
            .await
            .status,
        422
    );
}

#[tokio::test]
async fn a_retry_while_the_first_runs_is_409_then_replayed() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    let first =
        tokio::spawn(async move { post(addr, "/orders?slow=true", Some("busy"), r#"{"item":"x"}"#).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let retry = post(addr, "/orders?slow=true", Some("busy"), r#"{"item":"x"}"#).await;
    assert_eq!(retry.status, 409, "{}", retry.text());
    // In the app's error format, as before; the lease left (under the 6 s default) in seconds.
    assert_eq!(
        retry.text(),
        r#"{"detail":"A request with this Idempotency-Key is being processed; retry later"}"#
    );
    let wait: u64 = retry
        .header("retry-after")
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    assert!((1..=6).contains(&wait), "{:?}", retry.header("retry-after"));
    let first = first.await.expect("the first request");
    assert_eq!(first.status, 201);
    let later = post(addr, "/orders?slow=true", Some("busy"), r#"{"item":"x"}"#).await;
    assert_eq!((later.status, later.text()), (201, first.text()));
    assert_eq!(later.header("idempotent-replayed"), Some("true"));
}

/// A booking slower than its key's lease, numbered as it starts.
#[post("/long", status = 201)]
async fn long(booked: State<Booked>, key: IdempotencyKey) -> Kept<(StatusCode, Json<Value>)> {
    let n = booked.0.fetch_add(1, Ordering::SeqCst) + 1;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    key.keep((StatusCode::CREATED, Json(json!({ "n": n })))).await
}

#[tokio::test]
async fn a_running_attempt_keeps_its_key_past_its_lease_by_renewing_it() {
    // A 600 ms lease, renewed every 200 ms; the route takes 2.5 s.
    let app = App::new()
        .state(Booked::default())
        .state(IdempotencyKeys::in_memory(Duration::from_secs(60)).lease(Duration::from_millis(600)))
        .routes(routes![long]);
    let addr = spawn(app).await;
    let first = tokio::spawn(async move { post(addr, "/long", Some("slow"), "").await });
    // Well past the first lease: still held, told to come back when the renewed lease ends.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let retry = post(addr, "/long", Some("slow"), "").await;
    assert_eq!(
        (retry.status, retry.header("retry-after")),
        (409, Some("1")),
        "{}",
        retry.text()
    );
    let first = first.await.expect("the first request");
    assert_eq!((first.status, first.json()["n"].clone()), (201, json!(1)));
    let later = post(addr, "/long", Some("slow"), "").await;
    assert_eq!(
        (later.status, later.text(), later.header("idempotent-replayed")),
        (201, first.text(), Some("true"))
    );
    // The next run is the second: the retry never took the key over and ran.
    let other = post(addr, "/long", Some("other"), "").await;
    assert_eq!(other.json()["n"], 2);
}

#[tokio::test]
async fn a_key_is_forgotten_after_its_retention() {
    let addr = spawn(app(Duration::from_millis(300))).await;
    let first = post(addr, "/orders", Some("short"), r#"{"item":"x"}"#).await;
    assert_eq!(first.json()["n"], 1);
    assert_eq!(
        post(addr, "/orders", Some("short"), r#"{"item":"x"}"#)
            .await
            .json()["n"],
        1
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    let after = post(addr, "/orders", Some("short"), r#"{"item":"x"}"#).await;
    assert_eq!(
        (after.json()["n"].clone(), after.header("idempotent-replayed")),
        (json!(2), None)
    );
}

#[tokio::test]
async fn a_server_error_is_not_kept() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    assert_eq!(post(addr, "/flaky", Some("f"), "").await.status, 503);
    let retry = post(addr, "/flaky", Some("f"), "").await;
    assert_eq!((retry.status, retry.json()["n"].clone()), (200, json!(2)));
    assert_eq!(
        post(addr, "/flaky", Some("f"), "")
            .await
            .header("idempotent-replayed"),
        Some("true")
    );
}

#[tokio::test]
async fn a_malformed_key_is_a_validation_error() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    let reply = post(addr, "/orders", Some("a b"), r#"{"item":"x"}"#).await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json()["detail"][0]["loc"],
        json!(["header", "idempotency-key"])
    );
}

/// The run a report answered (its first line).
fn run(reply: &Reply) -> String {
    reply.text().lines().next().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn an_answer_larger_than_a_key_keeps_is_sent_and_its_key_released() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    assert_eq!(DEFAULT_MAX_KEPT, 64 * 1024);
    // 65 KiB of body: over the 64 KiB a key keeps by default (headers count too). Sent whole, not
    // kept: the retry runs the route again, and a third time; nothing is replayed.
    let big = post(addr, "/report?kib=65", Some("big"), "").await;
    assert_eq!(
        (big.status, big.body.len(), run(&big)),
        (200, 65 * 1024, "run 1".to_owned())
    );
    for n in [2, 3] {
        let retry = post(addr, "/report?kib=65", Some("big"), "").await;
        assert_eq!((retry.status, run(&retry)), (200, format!("run {n}")));
        assert_eq!(retry.header("idempotent-replayed"), None);
    }
    // 63 KiB and its headers fit: kept and replayed, the route not run again.
    let fits = post(addr, "/report?kib=63", Some("fits"), "").await;
    assert_eq!(run(&fits), "run 4");
    let replayed = post(addr, "/report?kib=63", Some("fits"), "").await;
    assert_eq!(
        (replayed.text(), replayed.header("idempotent-replayed")),
        (fits.text(), Some("true"))
    );
    // The key was released with the large answer, not left running: the same key with another
    // request is a new request (a 409 or a 422 would say the key was still held or kept).
    let other = post(addr, "/report?kib=1", Some("big"), "").await;
    assert_eq!((other.status, run(&other)), (200, "run 5".to_owned()));

    // The maximum is the app's: 1 KiB keeps no 2 KiB answer.
    let small = App::new()
        .state(Booked::default())
        .state(IdempotencyKeys::in_memory(Duration::from_secs(60)).max_kept(1024))
        .routes(routes![report]);
    let addr = spawn(small).await;
    assert_eq!(run(&post(addr, "/report?kib=2", Some("k"), "").await), "run 1");
    assert_eq!(run(&post(addr, "/report?kib=2", Some("k"), "").await), "run 2");
}

#[tokio::test]
async fn a_key_reserves_room_for_its_answer_before_it_is_looked_up() {
    // Room for one keyed request (64 KiB and its record, kept in memory: nothing more per byte),
    // not two.
    let addr = spawn(app(Duration::from_secs(60)).memory_budget(Some(100 * 1024))).await;
    let first = tokio::spawn(async move { post(addr, "/report?kib=1&slow=true", Some("one"), "").await });
    tokio::time::sleep(Duration::from_millis(150)).await;
    // While the first holds its room: another keyed request is refused before its key is taken,
    // one without a key runs.
    let refused = post(addr, "/report?kib=1", Some("two"), "").await;
    assert_eq!((refused.status, refused.header("retry-after")), (503, Some("1")));
    let unkeyed = post(addr, "/report?kib=1", None, "").await;
    assert_eq!((unkeyed.status, run(&unkeyed)), (200, "run 2".to_owned()));
    let first = first.await.expect("the first request");
    assert_eq!((first.status, run(&first)), (200, "run 1".to_owned()));
    // Its room is given back with its answer kept; the refused key was never taken.
    let again = post(addr, "/report?kib=1", Some("two"), "").await;
    assert_eq!(
        (again.status, run(&again), again.header("idempotent-replayed")),
        (200, "run 3".to_owned(), None)
    );
    let replayed = post(addr, "/report?kib=1&slow=true", Some("one"), "").await;
    assert_eq!(
        (run(&replayed), replayed.header("idempotent-replayed")),
        ("run 1".to_owned(), Some("true"))
    );
}

/// Post an order with each of `keys` as its own `Idempotency-Key` field.
async fn post_keys(addr: SocketAddr, keys: &[&str]) -> Reply {
    let mut headers = vec![("Content-Type", "application/json")];
    headers.extend(keys.iter().map(|key| ("Idempotency-Key", *key)));
    send(addr, "POST", "/orders", &headers, Some(br#"{"item":"x"}"#)).await
}

#[tokio::test]
async fn two_keys_are_a_validation_error_before_anything_is_stored() {
    let addr = spawn(app(Duration::from_secs(60))).await;
    // Two fields, or one field holding both as HTTP combines them (bare or quoted): 422 naming
    // both values, and the route does not run (the next order is number 1).
    let cases: [(&[&str], Value); 4] = [
        (&["one", "two"], json!(["one", "two"])),
        (&["one, two"], json!("one, two")),
        (&["one,two"], json!("one,two")),
        (&["\"one\", \"two\""], json!("\"one\", \"two\"")),
    ];
    for (keys, input) in cases {
        let reply = post_keys(addr, keys).await;
        assert_eq!(reply.status, 422, "{keys:?}");
        assert_eq!(
            reply.json(),
            json!({"detail": [{
                "type": "value_error",
                "loc": ["header", "idempotency-key"],
                "msg": "Value error, Idempotency-Key must be sent once: the request has more than one value",
                "input": input,
            }]}),
            "{keys:?}"
        );
    }
    // Neither key was taken: each books (once) with the same request.
    for key in ["one", "two"] {
        let reply = post_keys(addr, &[key]).await;
        assert_eq!(reply.status, 201);
        assert_eq!(reply.header("idempotent-replayed"), None, "{key} was kept before");
    }
    assert_eq!(
        post_keys(addr, &["one"]).await.header("idempotent-replayed"),
        Some("true")
    );
    // A comma inside a quoted key is one key.
    assert_eq!(post_keys(addr, &["\"a,b\""]).await.json()["n"], 3);
}

#[test]
fn the_document_shows_the_header_and_an_app_without_keys_is_refused() {
    let service = app(Duration::from_secs(1)).build().expect("builds");
    let document: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let op = &document["paths"]["/orders"]["post"];
    let header = op["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|p| p["in"] == "header")
        .cloned();
    assert_eq!(
        header,
        Some(
            json!({"name": "Idempotency-Key", "in": "header", "required": false,
                    "schema": {"type": "string", "title": "Idempotency-Key", "maxLength": 255}})
        )
    );
    assert_eq!(
        op["responses"]["409"],
        json!({
            "description": "A request with this Idempotency-Key is being processed",
            "headers": {"Retry-After": {
                "description": "Seconds until the first attempt's lease on the key ends (at least 1): when a retry may run",
                "schema": {"type": "integer", "minimum": 1}
            }}
        })
    );
    assert_eq!(
        op["responses"]["201"]["content"]["application/json"]["schema"],
        json!({"$ref": "#/components/schemas/Order"}),
        "documented through Kept<..>"
    );
    let err = App::new()
        .routes(routes![book])
        .state(Booked::default())
        .build()
        .map(|_| ())
        .expect_err("no IdempotencyKeys");
    assert!(err.to_string().contains("IdempotencyKeys"), "{err}");
}
