//! Problem details (RFC 9457) over real HTTP: the example app with `App::problem_details()`
//! answers its 404, 405, 413, 422, 500 and `HttpError`s as `application/problem+json`, keeps
//! their statuses and headers, and documents the schema on every error response; without the
//! switch nothing changes (the other modules check FastAPI's bodies byte for byte). The server's
//! own answers follow the switch too: its 503 over the concurrency limit, its 400 to a head strict
//! HTTP/1.1 refuses, and the 408 of a layer's timeout added after the switch.

use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi_tests::app::{app, spawn};
use ferrapi_tests::client::{get, raw, send, Reply};

fn problem(reply: &Reply) -> Value {
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json"),
        "{}",
        reply.text()
    );
    reply.json()
}

#[tokio::test]
async fn every_framework_answer_and_http_error_is_a_problem() {
    let addr = spawn(app().body_limit(64).problem_details()).await;
    let reply = get(addr, "/nowhere").await;
    assert_eq!(
        (reply.status, problem(&reply)),
        (
            404,
            json!({"type": "about:blank", "title": "Not Found", "status": 404, "detail": "Not Found", "instance": "/nowhere"})
        )
    );
    let reply = send(addr, "DELETE", "/item/1", &[], None).await;
    assert_eq!(
        (reply.status, problem(&reply)["title"].clone()),
        (405, json!("Method Not Allowed"))
    );
    assert!(reply.header("allow").is_some(), "405 keeps Allow");
    let reply = get(addr, "/employee/2").await;
    assert_eq!(
        problem(&reply),
        json!({"type": "about:blank", "title": "Not Found", "status": 404, "detail": "Employee not found", "instance": "/employee/2"})
    );
    let reply = get(addr, "/item/forty-two").await;
    let body = problem(&reply);
    assert_eq!(
        (reply.status, body["title"].clone()),
        (422, json!("Unprocessable Entity"))
    );
    assert_eq!(body["errors"][0]["loc"], json!(["path", "id"]));
    assert_eq!(body["errors"][0]["type"], json!("int_parsing"));
    let reply = get(addr, "/panic").await;
    assert_eq!(
        (reply.status, problem(&reply)["detail"].clone()),
        (500, json!("Internal Server Error"))
    );
    let big = vec![b' '; 100];
    let headers = [("Content-Type", "application/json")];
    let reply = send(addr, "POST", "/item", &headers, Some(&big)).await;
    assert_eq!(
        (reply.status, problem(&reply)["status"].clone()),
        (413, json!(413))
    );
    // Successes are untouched.
    let reply = get(addr, "/item/42").await;
    assert_eq!(
        (reply.status, reply.header("content-type")),
        (200, Some("application/json"))
    );
}

#[test]
fn the_document_shows_the_problem_schema_on_every_error_response() {
    let on = app().problem_details().build().expect("builds");
    let document: Value = serde_json::from_slice(on.openapi_json()).expect("JSON");
    assert_eq!(
        document["components"]["schemas"]["ProblemDetails"]["title"],
        "ProblemDetails"
    );
    let problem_ref =
        json!({"application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemDetails"}}});
    assert_eq!(
        document["paths"]["/item/{id}"]["get"]["responses"]["422"]["content"],
        problem_ref
    );
    assert_eq!(
        document["paths"]["/employee/{id}"]["get"]["responses"]["404"]["content"],
        problem_ref
    );
    assert_eq!(
        document["paths"]["/employee/{id}"]["get"]["responses"]["404"]["description"],
        "Employee not found"
    );
    let off = app().build().expect("builds");
    assert!(
        !String::from_utf8_lossy(off.openapi_json()).contains("ProblemDetails"),
        "off by default"
    );
}

/// Holds its request's place for a while.
#[get("/slow")]
async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_millis(800)).await;
    "done"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_servers_own_503_is_a_problem() {
    let addr = spawn(
        App::new()
            .routes(routes![slow])
            .max_concurrency(Some(1))
            .problem_details(),
    )
    .await;
    let busy = tokio::spawn(async move { get(addr, "/slow").await.status });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let reply = get(addr, "/slow?again=1").await;
    assert_eq!((reply.status, reply.header("retry-after")), (503, Some("1")));
    assert_eq!(
        problem(&reply),
        json!({"type": "about:blank", "title": "Service Unavailable", "status": 503,
               "detail": "The server is busy; retry shortly", "instance": "/slow"})
    );
    assert_eq!(busy.await.expect("join"), 200);
}

#[tokio::test]
async fn a_head_strict_http1_refuses_is_a_problem_and_without_the_switch_a_detail() {
    let head = b"GET /item/1 HTTP/1.1\r\nAccept: */*\r\n\r\n";
    let addr = spawn(app().problem_details()).await;
    let reply = raw(addr, head).await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        problem(&reply),
        json!({"type": "about:blank", "title": "Bad Request", "status": 400,
               "detail": "The request has no Host header", "instance": "/item/1"})
    );
    assert_eq!(reply.header("connection"), Some("close"));
    let addr = spawn(app()).await;
    let reply = raw(addr, head).await;
    assert_eq!(reply.json(), json!({"detail": "The request has no Host header"}));
}

#[tokio::test]
async fn a_layers_error_is_a_problem_whichever_order_they_were_added_in() {
    let timeout = || tower::timeout::TimeoutLayer::new(Duration::from_millis(50));
    for app in [
        App::new()
            .routes(routes![slow])
            .problem_details()
            .layer(timeout()),
        App::new()
            .routes(routes![slow])
            .layer(timeout())
            .problem_details(),
    ] {
        let addr = spawn(app).await;
        let reply = get(addr, "/slow").await;
        assert_eq!(
            (reply.status, problem(&reply)),
            (
                408,
                json!({"type": "about:blank", "title": "Request Timeout", "status": 408,
                       "detail": "Request Timeout", "instance": "/slow"})
            )
        );
    }
}
