//! Issue 24 over real HTTP, against FastAPI 0.165's own answers: every case
//! `tests/fastapi/probe_forms.py` recorded from `tests/fastapi/forms_app.py`
//! (tests/fastapi/observed_forms.json) is replayed against `ferrapi_tests::forms`, and status,
//! body bytes, `WWW-Authenticate` and `X-Trace` must be FastAPI's.

use std::net::SocketAddr;

use ferrapi::arg::Parts;
use ferrapi::prelude::*;
use ferrapi::validation::ValidationErrors;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::get;
use ferrapi_tests::observed::assert_same_form;

/// The recorded cases whose path (without the query) is one of `paths`.
fn observed(paths: &[&str]) -> Vec<Value> {
    ferrapi_tests::observed::cases(include_str!("../../fastapi/observed_forms.json"), paths)
}

/// Replay each case against the server at `addr`, `WWW-Authenticate` and `X-Trace` included;
/// returns how many ran.
async fn replay(addr: SocketAddr, cases: &[Value]) -> usize {
    ferrapi_tests::observed::replay(addr, cases, &["www-authenticate", "x-trace"]).await
}

#[tokio::test]
async fn form_fields_answer_as_fastapi() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    let cases = observed(&["/ff/login", "/ff/tags", "/ff/mixed"]);
    assert_eq!(replay(addr, &cases).await, 20);
}

#[tokio::test]
async fn a_string_enumeration_as_a_form_field_answers_as_fastapi() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    assert_eq!(replay(addr, &observed(&["/ff/side"])).await, 5);
}

/// FastAPI's document, recorded by the probe.
fn fastapi_document() -> Value {
    let case = observed(&["/openapi.json"]).pop().unwrap_or_default();
    serde_json::from_str(case["body"].as_str().unwrap_or("")).expect("FastAPI's document parses")
}

/// `value` without the `format` this framework adds to integers and floats (a deliberate
/// difference, listed in the manual).
fn without_number_formats(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            if matches!(
                map.get("format").and_then(Value::as_str),
                Some("int64" | "double")
            ) {
                map.shift_remove("format");
            }
            for item in map.values_mut() {
                *item = without_number_formats(item.take());
            }
        }
        Value::Array(items) => {
            for item in items {
                *item = without_number_formats(item.take());
            }
        }
        _ => {}
    }
    value
}

#[tokio::test]
async fn form_fields_are_documented_as_fastapi_documents_them() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    let ours = without_number_formats(get(addr, "/openapi.json").await.json());
    let theirs = fastapi_document();
    for path in ["/ff/login", "/ff/tags", "/ff/side", "/ff/mixed", "/token"] {
        let (op, their_op) = (&ours["paths"][path]["post"], &theirs["paths"][path]["post"]);
        assert_eq!(op["parameters"], their_op["parameters"], "{path}");
        assert_same_form(&ours, &theirs, path, "application/x-www-form-urlencoded");
    }
}

#[tokio::test]
async fn the_oauth2_password_form_answers_as_fastapi() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    assert_eq!(replay(addr, &observed(&["/token"])).await, 6);
}

#[tokio::test]
async fn malformed_credentials_answer_as_fastapi() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    let cases = observed(&["/sec/bearer", "/sec/basic", "/sec/oauth2", "/sec/key-header"]);
    assert_eq!(replay(addr, &cases).await, 17);
}

#[tokio::test]
async fn an_http_error_carries_its_headers() {
    let addr = spawn(ferrapi_tests::forms::app()).await;
    assert_eq!(replay(addr, &observed(&["/err/headers"])).await, 1);
}

#[tokio::test]
async fn errors_a_route_finds_itself_are_answered_as_the_app_answers_validation_errors() {
    let expected =
        r#"{"detail":[{"type":"range","loc":["query","low"],"msg":"low must not exceed high","input":5}]}"#;
    let addr = spawn(ferrapi_tests::forms::app()).await;
    let reply = get(addr, "/hand-made?low=5&high=1").await;
    assert_eq!(
        (reply.status, reply.text()),
        (422, expected.to_owned()),
        "FastAPI's answer"
    );
    let reply = get(addr, "/hand-made?low=1&high=5").await;
    assert_eq!(
        (reply.status, reply.text()),
        (200, r#"{"low":1,"high":5}"#.to_owned())
    );

    /// The app's own answer: the number of errors and the path.
    fn answer(errors: &ValidationErrors, head: &Parts) -> Json<Value> {
        Json(json!({ "errors": errors.items().len(), "path": head.uri.path() }))
    }
    let app = ferrapi_tests::forms::app().on_validation_error(StatusCode::BAD_REQUEST, answer);
    let addr = spawn(app).await;
    let reply = get(addr, "/hand-made?low=5&high=1").await;
    assert_eq!(
        (reply.status, reply.text()),
        (400, r#"{"errors":1,"path":"/hand-made"}"#.to_owned()),
        "the app's answer, with its status"
    );
    let reply = get(addr, "/hand-made?low=x&high=1").await;
    assert_eq!(reply.status, 400, "the framework's own errors too");
}
