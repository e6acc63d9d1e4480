//! pydantic's constraint semantics (issue 32, item 2), replayed against FastAPI's recorded answers
//! (tests/fastapi/constraints_observed.json, written by tests/fastapi/constraints_probe.py
//! against FastAPI 0.165 / pydantic 2.14): the constraints of one value are checked in pydantic's
//! fixed order whatever order they are written in (each route below writes them in another order
//! than the probe), and a bound is spelled as pydantic spells it for the value's type (a float's
//! `ctx` a float, its `msg` without `.0`; an integer's an integer; a decimal's as written).

use crate::recorded::{self, Difference};
use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi::testing::TestClient;

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
        |kind, _| kind.starts_with("nullable"),
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
