//! The app's own error answers (`App::on_not_found`, `on_method_not_allowed`,
//! `on_validation_error`, `on_internal_error`): each replaces its answer's body, keeps (or, for
//! validation, sets) its status, reaches every place that answers it (the direct and the layered
//! path, a handler's panic before and after it suspends, a failing layer, a route with
//! dependencies), and the OpenAPI document shows the app's validation error body. Without them the
//! answers stay FastAPI's (the other modules check those, byte for byte).

use std::task::{Context, Poll};
use std::time::Duration;

use ferrapi::arg::Parts;
use ferrapi::http::header;
use ferrapi::layer::BoxError;
use ferrapi::prelude::*;
use ferrapi::testing::{TestClient, TestResponse};
use ferrapi::validation::ValidationErrors;
use ferrapi_tests::app::{app, spawn};
use ferrapi_tests::client::{get, send};
use serde::Serialize;

/// One problem with the request, in the team's contract.
#[derive(Model, Serialize)]
struct Violation {
    /// Where: the location joined with dots (`query.skip`).
    field: String,
    /// What: pydantic's message.
    message: String,
}

/// The team's error body (an RFC 9457-like problem).
#[derive(Model, Serialize)]
struct Problem {
    /// A short, stable code.
    code: String,
    /// The request's path.
    instance: String,
    /// What was wrong with the input, when it was the input.
    violations: Vec<Violation>,
}

impl Problem {
    fn new(code: &str, head: &Parts) -> Json<Problem> {
        Json(Problem {
            code: code.to_owned(),
            instance: head.uri.path().to_owned(),
            violations: Vec::new(),
        })
    }

    fn invalid(errors: &ValidationErrors, head: &Parts) -> Json<Problem> {
        let violations = errors
            .items()
            .iter()
            .map(|item| Violation {
                field: item
                    .loc
                    .iter()
                    .map(|part| match serde_json::to_value(part) {
                        Ok(Value::String(name)) => name,
                        Ok(other) => other.to_string(),
                        Err(_) => "?".to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join("."),
                message: item.msg.to_string(),
            })
            .collect();
        Json(Problem {
            code: "invalid".to_owned(),
            instance: head.uri.path().to_owned(),
            violations,
        })
    }
}

/// The `field` of each violation in a `Problem` answer.
fn fields(response: &TestResponse) -> Vec<String> {
    let problem: Value = response.json();
    let violations = problem["violations"].as_array().cloned().unwrap_or_default();
    violations
        .iter()
        .map(|v| v["field"].as_str().unwrap_or("?").to_owned())
        .collect()
}

/// The example app with every answer overridden.
fn contract(app: App) -> App {
    app.on_not_found(|head| Problem::new("no-such-resource", head))
        .on_method_not_allowed(|head| Problem::new("method-not-allowed", head))
        .on_validation_error(StatusCode::BAD_REQUEST, Problem::invalid)
        .on_internal_error(|| {
            (
                [(
                    header::HeaderName::from_static("x-incident"),
                    header::HeaderValue::from_static("logged"),
                )],
                Json(json!({"code": "internal"})),
            )
        })
}

#[tokio::test]
async fn not_found_is_the_apps_body_with_404() {
    let client = TestClient::new(contract(app()));
    let response = client.get("/nope/deeper").send().await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.header("content-type"), Some("application/json"));
    assert_eq!(
        response.text(),
        r#"{"code":"no-such-resource","instance":"/nope/deeper","violations":[]}"#
    );
    // Over HTTP too: the server serves the same app.
    let addr = spawn(contract(app())).await;
    let reply = get(addr, "/nope").await;
    assert_eq!(reply.status, 404);
    assert_eq!(
        reply.text(),
        r#"{"code":"no-such-resource","instance":"/nope","violations":[]}"#
    );
}

#[tokio::test]
async fn method_not_allowed_keeps_405_and_allow() {
    let client = TestClient::new(contract(app()));
    let response = client.delete("/item/42").send().await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.header("allow"), Some("GET, PUT, HEAD"));
    assert_eq!(response.json::<Value>()["code"], "method-not-allowed");
}

#[tokio::test]
async fn an_override_may_set_headers_and_status_is_kept() {
    // The override's own status is replaced: 404 is the framework's to say.
    let app = app().on_not_found(|_: &Parts| {
        (
            StatusCode::IM_A_TEAPOT,
            [(
                header::HeaderName::from_static("x-hint"),
                header::HeaderValue::from_static("see /docs"),
            )],
            "nothing here",
        )
    });
    let response = TestClient::new(app).get("/nope").send().await;
    assert_eq!(response.status(), 404);
    assert_eq!(response.header("x-hint"), Some("see /docs"));
    assert_eq!(response.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(response.text(), "nothing here");
}

#[tokio::test]
async fn validation_errors_get_the_apps_status_and_body() {
    let client = TestClient::new(contract(app()));
    let response = client.get("/items/abc?needy=x&skip=foo&limit=bar").send().await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.text(),
        r#"{"code":"invalid","instance":"/items/abc","violations":[{"field":"query.skip","message":"Input should be a valid integer, unable to parse string as an integer"},{"field":"query.limit","message":"Input should be a valid integer, unable to parse string as an integer"}]}"#
    );
    // Path, query and body errors, all at once, in FastAPI's order.
    let response = client.put("/item/abc").json(&json!({"name": 1})).send().await;
    assert_eq!(fields(&response), ["path.item_id", "body.name", "body.price"]);
    // A body that is not JSON is a validation error too, its one `json_invalid`.
    let response = client
        .post("/item")
        .content_type("application/json")
        .body("{")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>()["violations"][0]["field"], "body.1");
    assert_eq!(
        response.json::<Value>()["violations"][0]["message"],
        "JSON decode error"
    );
    // A body that is not UTF-8 is an HTTP error in FastAPI, not a validation error: unchanged.
    let response = client
        .post("/item")
        .content_type("application/json")
        .body(&b"{\"name\":\"\xff\",\"price\":1}"[..])
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.text(),
        r#"{"detail":"There was an error parsing the body"}"#
    );
    // A valid request is untouched.
    assert_eq!(client.get("/item/42").send().await.text(), r#"{"id":42}"#);
}

#[tokio::test]
async fn the_internal_error_answers_a_handlers_panic() {
    #[get("/early")]
    async fn early() -> Json<Value> {
        // Panics before suspending: inside the handler's call.
        panic!("early")
    }
    #[get("/late")]
    async fn late() -> Json<Value> {
        tokio::task::yield_now().await;
        panic!("late")
    }
    let client = TestClient::new(contract(App::new().routes(routes![early, late])));
    for path in ["/early", "/late"] {
        let response = client.get(path).send().await;
        assert_eq!(response.status(), 500, "{path}");
        assert_eq!(response.header("x-incident"), Some("logged"), "{path}");
        assert_eq!(response.text(), r#"{"code":"internal"}"#, "{path}");
    }
    // The example app's `/panic`, through the server.
    let addr = spawn(contract(app())).await;
    let reply = get(addr, "/panic").await;
    assert_eq!(
        (reply.status, reply.text()),
        (500, r#"{"code":"internal"}"#.to_owned())
    );
}

/// A layer whose service fails every request with an error of its own.
#[derive(Clone)]
struct Failing<S>(S);

impl<S> tower::Service<hyper::Request<ferrapi::Body>> for Failing<S> {
    type Response = ferrapi::Response;
    type Error = BoxError;
    type Future = std::future::Ready<Result<ferrapi::Response, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _request: hyper::Request<ferrapi::Body>) -> Self::Future {
        std::future::ready(Err("the database is gone".into()))
    }
}

#[tokio::test]
async fn the_internal_error_answers_a_failing_layer_but_not_a_timeout() {
    let failing = contract(app()).layer(tower::layer::layer_fn(Failing));
    let response = TestClient::new(failing).get("/item/1").send().await;
    assert_eq!(response.status(), 500);
    assert_eq!(response.text(), r#"{"code":"internal"}"#);
    // A timeout keeps its own answer (408), and the overrides hold behind the layers.
    #[get("/slow")]
    async fn slow() -> &'static str {
        tokio::time::sleep(Duration::from_millis(300)).await;
        "late"
    }
    let timed = contract(App::new().routes(routes![slow]))
        .layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(20)));
    let client = TestClient::new(timed);
    assert_eq!(client.get("/slow").send().await.status(), 408);
    let response = client.get("/slow/nope").send().await;
    assert_eq!(
        (response.status(), response.json::<Value>()["code"].clone()),
        (StatusCode::NOT_FOUND, json!("no-such-resource"))
    );
    let response = client.post("/slow").send().await;
    assert_eq!(response.json::<Value>()["code"], "method-not-allowed");
}

#[tokio::test]
async fn the_overrides_answer_behind_tower_http_layers() {
    // A layer sees the override's answer like any other: CORS marks the app's 400 and 404.
    let cors = || {
        tower_http::cors::CorsLayer::new()
            .allow_origin(header::HeaderValue::from_static("https://app.example"))
    };
    let client = TestClient::new(contract(app()).layer(cors()));
    let response = client
        .get("/items/abc?needy=x&skip=foo")
        .header("origin", "https://app.example")
        .send()
        .await;
    assert_eq!(response.status(), 400);
    assert_eq!(
        response.header("access-control-allow-origin"),
        Some("https://app.example")
    );
    assert_eq!(response.json::<Value>()["violations"][0]["field"], "query.skip");
    // Over HTTP, through the server and the layer.
    let addr = spawn(contract(app()).layer(cors())).await;
    let origin = [("Origin", "https://app.example")];
    let reply = send(addr, "GET", "/item/x", &origin, None).await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.header("access-control-allow-origin"),
        Some("https://app.example")
    );
    assert_eq!(
        reply.text(),
        r#"{"code":"invalid","instance":"/item/x","violations":[{"field":"path.id","message":"Input should be a valid integer, unable to parse string as an integer"}]}"#
    );
    let reply = send(addr, "GET", "/nope", &origin, None).await;
    assert_eq!(
        (reply.status, reply.json()["code"].clone()),
        (404, json!("no-such-resource"))
    );
}

#[tokio::test]
async fn an_override_that_panics_falls_back_to_fastapis_answer() {
    let app = app()
        .on_not_found(|_: &Parts| -> Json<Value> { panic!("a bug in the override") })
        .on_validation_error(
            StatusCode::BAD_REQUEST,
            |_: &ValidationErrors, _: &Parts| -> Json<Value> { panic!("a third") },
        )
        .on_internal_error(|| -> Json<Value> { panic!("another") });
    let client = TestClient::new(app);
    let response = client.get("/nope").send().await;
    assert_eq!(
        (response.status(), response.text()),
        (StatusCode::NOT_FOUND, r#"{"detail":"Not Found"}"#.to_owned())
    );
    let response = client.get("/panic").send().await;
    assert_eq!(
        (response.status(), response.text()),
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            r#"{"detail":"Internal Server Error"}"#.to_owned()
        )
    );
    // FastAPI's whole answer, its 422 included.
    let response = client.get("/item/x").send().await;
    assert_eq!(response.status(), 422);
    assert_eq!(response.json::<Value>()["detail"][0]["type"], "int_parsing");
}

#[test]
fn the_document_shows_the_apps_validation_error() {
    let plain: Value = serde_json::from_slice(app().build().expect("builds").openapi_json()).expect("JSON");
    let service = contract(app()).build().expect("builds");
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let schemas = doc["components"]["schemas"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    assert!(!schemas.contains_key("HTTPValidationError") && !schemas.contains_key("ValidationError"));
    assert_eq!(
        schemas["Problem"]["properties"]["violations"],
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Violation"}, "title": "Violations",
               "description": "What was wrong with the input, when it was the input."})
    );
    assert!(schemas.contains_key("Violation"));
    let own = json!({"description": "Validation Error",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Problem"}}}});
    // Every operation that validates answers 400 with `Problem` where it answered 422.
    let mut validating = 0;
    for (path, item) in plain["paths"].as_object().cloned().unwrap_or_default() {
        for (method, operation) in item.as_object().cloned().unwrap_or_default() {
            let mine = &doc["paths"][&path][&method]["responses"];
            assert!(mine.get("422").is_none(), "{method} {path}");
            if operation["responses"].get("422").is_some() {
                validating += 1;
                assert_eq!(mine["400"], own, "{method} {path}");
                // In 422's place: last, after the statuses the route documents.
                let last = mine.as_object().and_then(|m| m.keys().next_back().cloned());
                let reads_body = operation["responses"].get("400").is_some();
                if !reads_body {
                    assert_eq!(last.as_deref(), Some("400"), "{method} {path}");
                }
            } else {
                assert_eq!(mine, &operation["responses"], "{method} {path}");
            }
        }
    }
    assert!(validating > 10, "{validating}");
}

#[tokio::test]
async fn a_json_value_body_documents_any_schema_and_a_422_can_stay_422() {
    let app = app().on_validation_error(
        StatusCode::UNPROCESSABLE_ENTITY,
        |errors: &ValidationErrors, _: &Parts| Json(json!({ "errors": errors.items().len() })),
    );
    let client = TestClient::new(app);
    let response = client.get("/items/abc?needy=x&skip=foo&limit=bar").send().await;
    assert_eq!(
        (response.status(), response.text()),
        (StatusCode::UNPROCESSABLE_ENTITY, r#"{"errors":2}"#.to_owned())
    );
    let doc: Value = serde_json::from_slice(client.service().openapi_json()).expect("JSON");
    assert_eq!(
        doc["paths"]["/item/{id}"]["get"]["responses"]["422"],
        json!({"description": "Validation Error", "content": {"application/json": {"schema": {}}}})
    );
}

#[test]
fn a_validation_status_that_is_not_a_client_error_does_not_build() {
    let answer = |_: &ValidationErrors, _: &Parts| Json(json!({}));
    for status in [StatusCode::OK, StatusCode::INTERNAL_SERVER_ERROR] {
        let error = app()
            .on_validation_error(status, answer)
            .build()
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some(
                format!(
                    "on_validation_error: status {} is not a client error (4xx)",
                    status.as_u16()
                )
                .as_str()
            )
        );
    }
}

/// A group dependency that always lets the request through.
#[derive(Clone)]
struct Audited;

#[ferrapi::dependency]
async fn audited() -> Result<Audited, Response> {
    Ok(Audited)
}

#[get("/{n}")]
async fn numbered(n: i64, #[ge(0)] skip: i64) -> Json<Value> {
    Json(json!({ "n": n, "skip": skip }))
}

#[get("/fail")]
async fn fail() -> Json<Value> {
    tokio::task::yield_now().await;
    panic!("in a group")
}

#[tokio::test]
async fn the_overrides_answer_the_routes_of_groups_with_dependencies_and_layers() {
    let guarded = ferrapi::group!("/guarded", dependencies(Audited)).routes(routes![fail, numbered]);
    let layered = ferrapi::group!("/layered")
        .routes(routes![fail, numbered])
        .layer(tower::layer::util::Identity::new());
    let failing = ferrapi::group!("/failing")
        .routes(routes![numbered])
        .layer(tower::layer::layer_fn(Failing));
    let app = contract(App::new().group(guarded).group(layered).group(failing));
    let client = TestClient::new(app);
    for prefix in ["/guarded", "/layered"] {
        let response = client.get(&format!("{prefix}/x?skip=-1")).send().await;
        assert_eq!(response.status(), 400, "{prefix}");
        assert_eq!(fields(&response), ["path.n", "query.skip"], "{prefix}");
        let response = client.get(&format!("{prefix}/fail")).send().await;
        assert_eq!(
            (response.status(), response.text()),
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                r#"{"code":"internal"}"#.to_owned()
            ),
            "{prefix}"
        );
        assert_eq!(
            client.get(&format!("{prefix}/3?skip=1")).send().await.text(),
            r#"{"n":3,"skip":1}"#
        );
    }
    // A group layer's error is the app's 500 too.
    let response = client.get("/failing/1").send().await;
    assert_eq!(
        (response.status(), response.text()),
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            r#"{"code":"internal"}"#.to_owned()
        )
    );
}
