//! pydantic's constraint semantics, required-nullable values and `status = N` (issue 32, items 2
//! to 4), replayed against FastAPI's recorded answers (tests/fastapi/constraints_observed.json,
//! written by tests/fastapi/constraints_probe.py against FastAPI 0.165 / pydantic 2.14): the
//! constraints of one value are checked in pydantic's fixed order whatever order they are written
//! in (each route below writes them in another order than the probe), and a bound is spelled as
//! pydantic spells it for the value's type (a float's `ctx` a float, its `msg` without `.0`; an
//! integer's an integer; a decimal's as written); a `Nullable<T>` field or parameter is required
//! and may be null; `status = 201` is the answer's status unless the handler chooses its own.

use crate::recorded::{self, Difference};
use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi::testing::TestClient;
use ferrapi::types::Nullable;

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_float {
    #[multiple_of(0.5)]
    #[le(100)]
    #[gt(0)]
    v: f64,
}

#[post("/constraints/float")]
async fn body_float(b: Body_float) -> Json<Body_float> {
    Json(b)
}

#[get("/constraints/float")]
async fn query_float(
    #[le(100)]
    #[multiple_of(0.5)]
    #[gt(0)]
    v: f64,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_float_written {
    #[lt(2.5)]
    #[ge(0.0)]
    v: f64,
}

#[post("/constraints/float_written")]
async fn body_float_written(b: Body_float_written) -> Json<Body_float_written> {
    Json(b)
}

#[get("/constraints/float_written")]
async fn query_float_written(
    #[lt(2.5)]
    #[ge(0.0)]
    v: f64,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_int {
    #[ge(1)]
    #[le(9)]
    #[multiple_of(2)]
    v: i64,
}

#[post("/constraints/int")]
async fn body_int(b: Body_int) -> Json<Body_int> {
    Json(b)
}

#[get("/constraints/int")]
async fn query_int(
    #[ge(1)]
    #[multiple_of(2)]
    #[le(9)]
    v: i64,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_string {
    #[pattern(r"^[a-z]+$")]
    #[max_length(4)]
    #[min_length(2)]
    v: String,
}

#[post("/constraints/string")]
async fn body_string(b: Body_string) -> Json<Body_string> {
    Json(b)
}

#[get("/constraints/string")]
async fn query_string(
    #[pattern(r"^[a-z]+$")]
    #[min_length(2)]
    #[max_length(4)]
    v: String,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_decimal {
    #[gt(0)]
    #[multiple_of(0.25)]
    #[le(100)]
    #[decimal_places(2)]
    #[max_digits(5)]
    v: Decimal,
}

#[post("/constraints/decimal")]
async fn body_decimal(b: Body_decimal) -> Json<Body_decimal> {
    Json(b)
}

#[get("/constraints/decimal")]
async fn query_decimal(
    #[multiple_of(0.25)]
    #[gt(0)]
    #[decimal_places(2)]
    #[le(100)]
    #[max_digits(5)]
    v: Decimal,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_list {
    #[max_length(3)]
    #[min_length(2)]
    v: Vec<i64>,
}

#[post("/constraints/list")]
async fn body_list(b: Body_list) -> Json<Body_list> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_nullable {
    v: Nullable<String>,
}

#[post("/constraints/nullable")]
async fn body_nullable(b: Body_nullable) -> Json<Body_nullable> {
    Json(b)
}

#[get("/constraints/nullable")]
async fn query_nullable(v: Nullable<String>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_nullable_int {
    #[ge(1)]
    v: Nullable<i64>,
}

#[post("/constraints/nullable_int")]
async fn body_nullable_int(b: Body_nullable_int) -> Json<Body_nullable_int> {
    Json(b)
}

#[get("/constraints/nullable_int")]
async fn query_nullable_int(#[ge(1)] v: Nullable<i64>) -> Json<Value> {
    Json(json!({ "v": v }))
}

/// The route's status is the answer's.
#[post("/created", status = 201)]
async fn created() -> Json<Value> {
    Json(json!({ "created": true }))
}

/// A handler that answers a response of its own keeps its status (FastAPI's `JSONResponse`).
#[post("/created/own", status = 201)]
async fn created_own() -> Response {
    Json(json!({ "created": false })).into_response()
}

fn app() -> App {
    App::new().routes(ferrapi::routes![
        body_float,
        query_float,
        body_float_written,
        query_float_written,
        body_int,
        query_int,
        body_string,
        query_string,
        body_decimal,
        query_decimal,
        body_list,
        body_nullable,
        query_nullable,
        body_nullable_int,
        query_nullable_int,
        created,
        created_own,
    ])
}

/// Cases answered differently on purpose: (kind, source, input as JSON, the manual's reason).
const DIFFERENCES: &[Difference] = &[];

fn cases() -> Vec<Value> {
    recorded::cases(include_str!("../../fastapi/constraints_observed.json"))
}

#[tokio::test]
async fn constraints_are_checked_and_spelled_as_pydantic_does() {
    let client = TestClient::new(app());
    let cases = cases();
    // A query route answers with serde's form of the value, FastAPI's with `jsonable_encoder`'s
    // (a float for a decimal): the body of a valid decimal query is not compared.
    let (compared, mismatches) = recorded::replay_all(
        &client,
        "/constraints",
        &cases,
        DIFFERENCES,
        |_, _| false,
        |source, status| !(status == 200 && source == "query"),
    )
    .await;
    assert!(compared > 80, "{compared} cases compared");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[tokio::test]
async fn nullable_values_and_statuses_answer_as_fastapi_does() {
    let client = TestClient::new(app());
    let observed: Value =
        serde_json::from_str(include_str!("../../fastapi/constraints_observed.json")).unwrap_or(Value::Null);
    let requests = observed["requests"].as_array().cloned().unwrap_or_default();
    assert_eq!(requests.len(), 7, "the recorded requests are read");
    for request in requests {
        let (method, path) = (
            request["method"].as_str().unwrap_or_default(),
            request["path"].as_str().unwrap_or_default(),
        );
        let reply = match (method, &request["body"]) {
            ("GET", _) => client.get(path).send().await,
            (_, Value::Null) => client.post(path).send().await,
            (_, body) => client.post(path).json(body).send().await,
        };
        assert_eq!(
            (reply.status().as_u16(), reply.json::<Value>()),
            (
                request["status"].as_u64().unwrap_or_default() as u16,
                request["answer"].clone()
            ),
            "{method} {path}"
        );
    }
}

#[tokio::test]
async fn nullable_and_status_documents_are_fastapis() {
    let client = TestClient::new(app());
    let mut ours: Value = client.get("/openapi.json").send().await.json();
    recorded::without_integer_formats(&mut ours);
    let observed: Value =
        serde_json::from_str(include_str!("../../fastapi/constraints_observed.json")).unwrap_or(Value::Null);
    let theirs = &observed["document"];
    for kind in ["nullable", "nullable_int"] {
        let body = format!("Body_{kind}");
        assert_eq!(
            ours["components"]["schemas"][&body].to_string(),
            theirs["components"]["schemas"][&body].to_string(),
            "{body}"
        );
        let path = format!("/constraints/{kind}");
        assert_eq!(
            ours["paths"][&path]["get"]["parameters"].to_string(),
            theirs["paths"][&path]["get"]["parameters"].to_string(),
            "{path}"
        );
    }
    // `status = 201` documents the status the route answers with.
    let created = &ours["paths"]["/created"]["post"]["responses"];
    assert_eq!(
        created["201"]["description"],
        theirs["paths"]["/created"]["post"]["responses"]["201"]["description"]
    );
}
