//! The in-process test client itself (`ferrapi::testing`): headers both ways, JSON, text and raw
//! bodies, query parameters, HEAD, `json::<T>()` and its errors, a client made from an app or a
//! service, the blocking form, headers for every request, the cookie jar, and the layers and dependencies of the app running
//! as they do behind the server.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ferrapi::http::header;
use ferrapi::layer::MatchedRoute;
use ferrapi::prelude::*;
use ferrapi::testing::TestClient;
use ferrapi_tests::app::{app, service};
use serde::Deserialize;
use tower::util::{MapRequestLayer, MapResponseLayer};

/// Reads every header it is given, in order.
#[get("/headers")]
async fn echo_headers(headers: HeaderMap) -> Json<Value> {
    let pairs: Vec<Value> = headers
        .iter()
        .map(|(name, value)| json!([name.as_str(), value.to_str().unwrap_or("?")]))
        .collect();
    Json(Value::Array(pairs))
}

/// Echoes its raw body as text would be read by a handler: through a JSON map.
#[post("/echo")]
async fn echo(body: Json<serde_json::Map<String, Value>>) -> Json<Value> {
    Json(Value::Object(body.0))
}

fn echo_app() -> App {
    App::new().routes(routes![echo_headers, echo])
}

#[tokio::test]
async fn headers_go_out_as_given_and_come_back_readable() {
    let client = TestClient::new(echo_app());
    let response = client
        .get("/headers")
        .header("x-one", "1")
        .header("X-Two", "2")
        .header("x-one", "again")
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>(),
        json!([["x-one", "1"], ["x-one", "again"], ["x-two", "2"]])
    );
    assert_eq!(response.header("Content-Type"), Some("application/json"));
    assert_eq!(
        response.headers().len(),
        1,
        "the server adds the length on the wire, not the app"
    );
    assert_eq!(response.bytes().len(), response.text().len());
    assert_eq!(response.header("x-missing"), None);
    // A request without a body carries no header the test did not give.
    assert_eq!(client.get("/headers").send().await.text(), "[]");
}

#[tokio::test]
async fn a_json_body_is_serialized_with_its_content_type() {
    let client = TestClient::new(echo_app());
    let response = client
        .post("/echo")
        .json(&json!({"name": "Tweety", "wings": 2}))
        .header("x-check", "yes")
        .send()
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.text(), r#"{"name":"Tweety","wings":2}"#);
    // The content type and length an HTTP client would send.
    let seen = client.get("/headers").json(&json!({})).send().await;
    assert_eq!(
        seen.json::<Value>(),
        json!([["content-type", "application/json"], ["content-length", "2"]])
    );
    // A content type given by the test is kept.
    let seen = client
        .get("/headers")
        .content_type("application/vnd.api+json")
        .json(&json!([1]))
        .send()
        .await;
    assert_eq!(
        seen.json::<Value>()[0],
        json!(["content-type", "application/vnd.api+json"])
    );
}

#[tokio::test]
async fn raw_and_text_bodies_are_sent_as_they_are() {
    let client = TestClient::new(app());
    // JSON that does not parse, declared as JSON.
    let response = client
        .post("/item")
        .content_type("application/json")
        .body(r#"{"name":"#)
        .send()
        .await;
    assert_eq!(response.status(), 422);
    assert_eq!(response.json::<Value>()["detail"][0]["type"], "json_invalid");
    // Bytes that are not UTF-8.
    let response = client
        .post("/item")
        .content_type("application/json")
        .body(&b"{\"name\":\"\xff\",\"price\":1}"[..])
        .send()
        .await;
    assert_eq!(response.status(), 400);
    // Text: `text/plain`, validated as text (not an object).
    let response = client
        .post("/item")
        .text(r#"{"name":"a","price":1}"#)
        .send()
        .await;
    assert_eq!(
        response.json::<Value>()["detail"][0]["type"],
        "model_attributes_type"
    );
    // A raw body without a content type.
    let response = client
        .post("/item")
        .body(r#"{"name":"a","price":1}"#)
        .send()
        .await;
    assert_eq!(response.status(), 422);
}

#[tokio::test]
async fn query_pairs_are_form_encoded_onto_the_uri() {
    let client = TestClient::new(app());
    let response = client
        .get("/items/a%20b")
        .query(&[("needy", "x y&z"), ("skip", "2")])
        .send()
        .await;
    assert_eq!(
        response.text(),
        r#"{"item_id":"a b","needy":"x y&z","skip":2,"limit":null}"#
    );
    let response = client
        .get("/items/a?needy=1")
        .query(&[("limit", "3")])
        .send()
        .await;
    assert_eq!(response.json::<Value>()["limit"], 3);
}

#[tokio::test]
async fn every_method_has_its_builder() {
    let client = TestClient::new(app());
    assert_eq!(
        client
            .put("/item/1")
            .json(&json!({"name": "a", "price": 1}))
            .send()
            .await
            .status(),
        200
    );
    assert_eq!(client.delete("/item/1").send().await.status(), 405);
    assert_eq!(client.patch("/item/1").send().await.status(), 405);
    assert_eq!(client.options("/item/1").send().await.status(), 405);
    assert_eq!(
        client
            .request(ferrapi::http::Method::GET, "/agent")
            .send()
            .await
            .json::<Value>()["method"],
        "GET"
    );
    // HEAD: GET's headers, with the length, and no body.
    let head = client.head("/item/42").send().await;
    assert_eq!(head.status(), 200);
    assert_eq!(head.header("content-length"), Some("9"));
    assert!(head.bytes().is_empty());
}

/// What `/item/{id}` answers.
#[derive(Debug, Deserialize, PartialEq)]
struct ItemId {
    id: i64,
}

#[tokio::test]
async fn json_deserializes_into_a_type_and_says_why_it_cannot() {
    let client = TestClient::new(app());
    let response = client.get("/item/42").send().await;
    assert_eq!(response.json::<ItemId>(), ItemId { id: 42 });
    // Not the type: the error names the type, the status and the body.
    let error = client
        .get("/item/x")
        .send()
        .await
        .try_json::<ItemId>()
        .expect_err("a 422 body is not an ItemId");
    let message = error.to_string();
    assert!(message.contains("ItemId"), "{message}");
    assert!(message.contains("422 Unprocessable Entity"), "{message}");
    assert!(message.contains("int_parsing"), "{message}");
    assert!(error.body().starts_with(r#"{"detail":"#));
    // Not JSON at all: `json()` panics with the same message.
    let html = client.get("/hello/ada").send().await;
    let panic = catch_unwind(AssertUnwindSafe(|| html.json::<Value>())).expect_err("HTML is not JSON");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("content-type: text/html; charset=utf-8"),
        "{message}"
    );
    assert!(message.contains("<h1>Hello ada</h1>"), "{message}");
}

#[tokio::test]
async fn a_malformed_request_is_the_tests_mistake_and_panics_with_it() {
    let client = TestClient::new(app());
    let bad_header = client.get("/agent").header("bad header", "x");
    let panic = tokio::spawn(bad_header.send())
        .await
        .expect_err("a header name with a space");
    let message = panic
        .into_panic()
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("GET /agent: a header name"), "{message}");
    let bad_uri = client.get("no spaces in a URI");
    let panic = tokio::spawn(bad_uri.send()).await.expect_err("not a URI");
    let message = panic
        .into_panic()
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("not a request"), "{message}");
}

#[test]
fn send_blocking_answers_from_synchronous_code() {
    let client = TestClient::new(service());
    let response = client.get("/item/7").send_blocking();
    assert_eq!(
        (response.status(), response.text()),
        (StatusCode::OK, r#"{"id":7}"#.to_owned())
    );
    // State persists across requests: one app, however many runtimes.
    let first = client.get("/count").send_blocking().json::<Value>()["count"].clone();
    let second = client.get("/count").send_blocking().json::<Value>()["count"].clone();
    assert_eq!(second.as_i64(), first.as_i64().map(|n| n + 1));
}

#[test]
fn an_app_that_does_not_build_fails_the_test_with_the_reason() {
    let panic = catch_unwind(|| TestClient::new(App::new().routes(routes![ferrapi_tests::app::count])))
        .expect_err("State<Counter> is not registered");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.starts_with("the app does not build: "), "{message}");
    assert!(
        message.contains("State<ferrapi_tests::app::Counter>"),
        "{message}"
    );
}

#[tokio::test]
async fn clones_send_requests_concurrently() {
    let client = TestClient::new(app());
    let requests = (0..8).map(|n| {
        let client = client.clone();
        tokio::spawn(async move { client.get(&format!("/item/{n}")).send().await.text() })
    });
    for (n, request) in requests.enumerate() {
        assert_eq!(request.await.expect("no panic"), format!(r#"{{"id":{n}}}"#));
    }
    // The service is there for the document and the route table.
    assert!(client
        .service()
        .openapi_json()
        .starts_with(b"{\"openapi\":\"3.1.0\""));
}

#[tokio::test]
async fn layers_run_around_every_answer_and_see_the_matched_route() {
    let tagged = app()
        .layer(MapRequestLayer::new(
            |mut request: hyper::Request<ferrapi::Body>| {
                let route = request
                    .extensions()
                    .get::<MatchedRoute>()
                    .map_or("none".to_owned(), |m| m.path().to_owned());
                request.headers_mut().insert(
                    "user-agent",
                    hyper::header::HeaderValue::from_str(&route)
                        .unwrap_or(hyper::header::HeaderValue::from_static("?")),
                );
                request
            },
        ))
        .layer(MapResponseLayer::new(|mut response: ferrapi::Response| {
            response
                .headers_mut()
                .insert("x-layer", hyper::header::HeaderValue::from_static("ran"));
            response
        }));
    let client = TestClient::new(tagged);
    let response = client.get("/agent").send().await;
    assert_eq!(response.header("x-layer"), Some("ran"));
    // The inner layer replaced the user agent with the route it saw.
    assert_eq!(response.json::<Value>()["agent"], "/agent");
    let missing = client.get("/nope").send().await;
    assert_eq!(
        (missing.status(), missing.header("x-layer")),
        (StatusCode::NOT_FOUND, Some("ran"))
    );
}

/// Sets a session and a theme cookie.
#[post("/login")]
async fn login() -> (HeaderMap, &'static str) {
    let mut headers = HeaderMap::new();
    for line in [
        "session=s-1; Path=/; HttpOnly; SameSite=Lax",
        "theme=dark; Max-Age=3600",
    ] {
        headers.append(header::SET_COOKIE, header::HeaderValue::from_static(line));
    }
    (headers, "in")
}

/// Removes the session cookie.
#[post("/logout")]
async fn logout() -> ([(header::HeaderName, header::HeaderValue); 1], &'static str) {
    let gone = header::HeaderValue::from_static("session=; Path=/; Max-Age=0");
    ([(header::SET_COOKIE, gone)], "out")
}

/// What the request's `Cookie` headers say.
#[get("/cookies")]
async fn cookies(headers: HeaderMap) -> Json<Value> {
    let lines: Vec<&str> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    Json(json!(lines))
}

#[tokio::test]
async fn cookies_the_app_sets_are_sent_back_until_it_removes_them() {
    let client = TestClient::new(App::new().routes(routes![login, logout, cookies]));
    assert_eq!(client.get("/cookies").send().await.json::<Value>(), json!([]));
    let response = client.post("/login").send().await;
    assert_eq!(
        (response.cookie("session"), response.cookie("theme")),
        (Some("s-1"), Some("dark"))
    );
    assert_eq!(response.cookie("other"), None);
    assert_eq!(client.cookie("session").as_deref(), Some("s-1"));
    // One `Cookie` header, in the order the cookies were set.
    assert_eq!(
        client.get("/cookies").send().await.json::<Value>(),
        json!(["session=s-1; theme=dark"])
    );
    // A request's own cookie goes over the held one, for that request only; a `Cookie` header
    // the test writes comes first in the one line.
    let response = client
        .get("/cookies")
        .header("cookie", "raw=1")
        .cookie("theme", "light")
        .send()
        .await;
    assert_eq!(
        response.json::<Value>(),
        json!(["raw=1; session=s-1; theme=light"])
    );
    assert_eq!(client.cookie("theme").as_deref(), Some("dark"));
    // Clones share the jar: one browser.
    let other = client.clone();
    let response = other.post("/logout").send().await;
    assert_eq!(response.cookie("session"), None);
    assert_eq!(client.cookie("session"), None);
    assert_eq!(
        client.get("/cookies").send().await.json::<Value>(),
        json!(["theme=dark"])
    );
    // A test can start with a session, and drop them all.
    client.set_cookie("session", "from-the-test");
    assert_eq!(
        client.get("/cookies").send().await.json::<Value>(),
        json!(["theme=dark; session=from-the-test"])
    );
    client.clear_cookies();
    assert_eq!(client.get("/cookies").send().await.json::<Value>(), json!([]));
    // Another client is another user.
    let stranger = TestClient::new(App::new().routes(routes![cookies]));
    assert_eq!(stranger.get("/cookies").send().await.json::<Value>(), json!([]));
}

#[tokio::test]
async fn a_clients_headers_go_with_every_request_under_the_requests_own() {
    let client = TestClient::new(echo_app())
        .with_header("authorization", "Bearer t-1")
        .with_header("x-many", "1")
        .with_header("x-many", "2");
    let sent = client.get("/headers").send().await.json::<Value>();
    assert_eq!(
        sent,
        json!([["authorization", "Bearer t-1"], ["x-many", "1"], ["x-many", "2"]])
    );
    // The request's own header replaces every value of the client's.
    let sent = client
        .get("/headers")
        .header("x-many", "mine")
        .header("accept", "text/plain")
        .send()
        .await
        .json::<Value>();
    assert_eq!(
        sent,
        json!([
            ["x-many", "mine"],
            ["accept", "text/plain"],
            ["authorization", "Bearer t-1"]
        ])
    );
    let bad = catch_unwind(AssertUnwindSafe(|| {
        TestClient::new(echo_app()).with_header("x", "a\nb")
    }));
    assert!(bad.is_err());
}
