//! The value types and constraints of issue 23, replayed against FastAPI's recorded answers
//! (tests/fastapi/types_observed.json, written by tests/fastapi/types_probe.py against FastAPI
//! 0.165 / pydantic 2.14): every case as a JSON body field (status and whole body compared) and
//! as a query parameter (status compared, and the 422 body, whose `loc` starts with `query`).
//! The answers that differ on purpose are listed in `DIFFERENCES`, each with the manual's reason.

use crate::recorded::{self, Difference};
use ferrapi::chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime};
use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi::testing::TestClient;
use ferrapi::types::{Duration, EmailStr, HttpUrl};
use ferrapi::url::Url;
use ferrapi::uuid::Uuid;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

// One kind of the probe: a query route and a body route at `/types/<kind>`, the value named `v`.

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_aware {
    v: DateTime<FixedOffset>,
}

#[get("/types/aware")]
async fn query_aware(v: DateTime<FixedOffset>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/aware")]
async fn body_aware(b: Body_aware) -> Json<Body_aware> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_naive {
    v: NaiveDateTime,
}

#[get("/types/naive")]
async fn query_naive(v: NaiveDateTime) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/naive")]
async fn body_naive(b: Body_naive) -> Json<Body_naive> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_date {
    v: NaiveDate,
}

#[get("/types/date")]
async fn query_date(v: NaiveDate) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/date")]
async fn body_date(b: Body_date) -> Json<Body_date> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_time {
    v: NaiveTime,
}

#[get("/types/time")]
async fn query_time(v: NaiveTime) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/time")]
async fn body_time(b: Body_time) -> Json<Body_time> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_duration {
    v: Duration,
}

#[get("/types/duration")]
async fn query_duration(v: Duration) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/duration")]
async fn body_duration(b: Body_duration) -> Json<Body_duration> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_uuid {
    v: Uuid,
}

#[get("/types/uuid")]
async fn query_uuid(v: Uuid) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/uuid")]
async fn body_uuid(b: Body_uuid) -> Json<Body_uuid> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_decimal {
    v: Decimal,
}

#[get("/types/decimal")]
async fn query_decimal(v: Decimal) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/decimal")]
async fn body_decimal(b: Body_decimal) -> Json<Body_decimal> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_email {
    v: EmailStr,
}

#[get("/types/email")]
async fn query_email(v: EmailStr) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/email")]
async fn body_email(b: Body_email) -> Json<Body_email> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_url {
    v: Url,
}

#[get("/types/url")]
async fn query_url(v: Url) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/url")]
async fn body_url(b: Body_url) -> Json<Body_url> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_httpurl {
    v: HttpUrl,
}

#[get("/types/httpurl")]
async fn query_httpurl(v: HttpUrl) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/httpurl")]
async fn body_httpurl(b: Body_httpurl) -> Json<Body_httpurl> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_ipv4 {
    v: Ipv4Addr,
}

#[get("/types/ipv4")]
async fn query_ipv4(v: Ipv4Addr) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/ipv4")]
async fn body_ipv4(b: Body_ipv4) -> Json<Body_ipv4> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_ipv6 {
    v: Ipv6Addr,
}

#[get("/types/ipv6")]
async fn query_ipv6(v: Ipv6Addr) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/ipv6")]
async fn body_ipv6(b: Body_ipv6) -> Json<Body_ipv6> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_ip {
    v: IpAddr,
}

#[get("/types/ip")]
async fn query_ip(v: IpAddr) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/ip")]
async fn body_ip(b: Body_ip) -> Json<Body_ip> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_pattern {
    #[pattern(r"^[a-z]+-\d{2}$")]
    v: String,
}

#[get("/types/pattern")]
async fn query_pattern(#[pattern(r"^[a-z]+-\d{2}$")] v: String) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/pattern")]
async fn body_pattern(b: Body_pattern) -> Json<Body_pattern> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_multiple {
    #[multiple_of(5)]
    v: i64,
}

#[get("/types/multiple")]
async fn query_multiple(#[multiple_of(5)] v: i64) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/multiple")]
async fn body_multiple(b: Body_multiple) -> Json<Body_multiple> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_fmultiple {
    #[multiple_of(0.5)]
    v: f64,
}

#[get("/types/fmultiple")]
async fn query_fmultiple(#[multiple_of(0.5)] v: f64) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/fmultiple")]
async fn body_fmultiple(b: Body_fmultiple) -> Json<Body_fmultiple> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_money {
    #[max_digits(5)]
    #[decimal_places(2)]
    v: Decimal,
}

#[get("/types/money")]
async fn query_money(
    #[max_digits(5)]
    #[decimal_places(2)]
    v: Decimal,
) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/money")]
async fn body_money(b: Body_money) -> Json<Body_money> {
    Json(b)
}

/// `tags`: list lengths are checked on a body's list (a repeated query parameter's constraints
/// apply to each item, so it has no query route here).
#[derive(Model, serde::Serialize)]
struct Tags {
    #[min_length(1)]
    #[max_length(3)]
    v: Vec<String>,
}

#[post("/types/tags")]
async fn tags(b: Tags) -> Json<Tags> {
    Json(b)
}

fn app() -> App {
    App::new().routes(ferrapi::routes![
        query_aware,
        body_aware,
        query_naive,
        body_naive,
        query_date,
        body_date,
        query_time,
        body_time,
        query_duration,
        body_duration,
        query_uuid,
        body_uuid,
        query_decimal,
        body_decimal,
        query_email,
        body_email,
        query_url,
        body_url,
        query_httpurl,
        body_httpurl,
        query_ipv4,
        body_ipv4,
        query_ipv6,
        body_ipv6,
        query_ip,
        body_ip,
        query_pattern,
        body_pattern,
        query_multiple,
        body_multiple,
        query_fmultiple,
        body_fmultiple,
        query_money,
        body_money,
        tags
    ])
}

/// Cases answered differently on purpose: (kind, source, input as JSON), with the reason the
/// manual's "Differences from FastAPI" gives.
const DIFFERENCES: &[Difference] = &[
    // chrono writes fractions in groups of three digits, pydantic always six.
    ("aware", "body", "1714548600.5", "fraction digits"),
    ("naive", "body", "\"2024-05-01T07:30:00.5\"", "fraction digits"),
    ("time", "body", "\"07:30:15.5\"", "fraction digits"),
    ("time", "body", "\"07:30:15.1234567\"", "fraction digits"),
    // A NaiveTime keeps no offset: pydantic's `time` keeps it, ferrapi refuses it.
    ("time", "body", "\"07:30:00Z\"", "NaiveTime has no offset"),
    ("time", "body", "\"07:30:00+02:00\"", "NaiveTime has no offset"),
    ("time", "query", "\"07:30:00Z\"", "NaiveTime has no offset"),
    ("time", "query", "\"07:30:00+02:00\"", "NaiveTime has no offset"),
    (
        "time",
        "body",
        "3600",
        "NaiveTime has no offset: written without Z",
    ),
    (
        "time",
        "body",
        "3600.5",
        "NaiveTime has no offset: written without Z",
    ),
    // Python's Decimal keeps the exponent form (`1E+3`), rust_decimal writes digits.
    ("decimal", "body", "\"1e3\"", "exponent form"),
    // 1e300 is beyond rust_decimal's 96 bits.
    ("decimal", "body", "1e+300", "96-bit range"),
    ("decimal", "query", "1e+300", "96-bit range"),
    // ferrapi's integer grammar (an existing difference): `7.0` is not an integer in a query.
    ("multiple", "query", "7.0", "integer grammar"),
    // std writes IPv4-mapped IPv6 addresses dotted, Python in hex; Python takes zone ids.
    ("ipv6", "body", "\"::ffff:1.2.3.4\"", "mapped address form"),
    ("ipv6", "body", "\"fe80::1%eth0\"", "zone ids"),
    ("ipv6", "query", "\"fe80::1%eth0\"", "zone ids"),
];

fn observed() -> Value {
    let text = include_str!("../../fastapi/types_observed.json");
    serde_json::from_str(text).unwrap_or(Value::Null)
}

#[tokio::test]
async fn every_recorded_answer_of_fastapi_is_replayed() {
    let client = TestClient::new(app());
    let cases = recorded::cases(include_str!("../../fastapi/types_observed.json"));
    assert!(cases.len() > 400, "the recorded corpus is read");
    // A query route answers with serde's form of the value, FastAPI's with `jsonable_encoder`'s
    // (floats for decimals and durations): only the status of a valid query is compared.
    let (compared, mismatches) = recorded::replay_all(
        &client,
        "/types",
        &cases,
        DIFFERENCES,
        |kind, source| kind == "tags" && source == "query",
        |source, status| !(status == 200 && source == "query"),
    )
    .await;
    assert!(compared > 380);
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[tokio::test]
async fn the_deliberate_differences_answer_as_the_manual_says() {
    let client = TestClient::new(app());
    let post = |kind: &'static str, v: Value| {
        let client = &client;
        async move {
            let reply = client
                .post(&format!("/types/{kind}"))
                .json(&json!({ "v": v }))
                .send()
                .await;
            (reply.status().as_u16(), reply.json::<Value>())
        }
    };
    assert_eq!(
        post("aware", json!(1_714_548_600.5)).await.1,
        json!({"v": "2024-05-01T07:30:00.500Z"})
    );
    assert_eq!(
        post("time", json!("07:30:00Z")).await.1["detail"][0]["type"],
        "timezone_naive"
    );
    assert_eq!(post("time", json!(3600)).await.1, json!({"v": "01:00:00"}));
    assert_eq!(post("decimal", json!("1e3")).await.1, json!({"v": "1000"}));
    assert_eq!(
        post("decimal", json!(1e300)).await.1["detail"][0]["type"],
        "decimal_parsing"
    );
    assert_eq!(
        post("ipv6", json!("::ffff:1.2.3.4")).await.1,
        json!({"v": "::ffff:1.2.3.4"})
    );
    assert_eq!(
        post("ipv6", json!("fe80::1%eth0")).await.1["detail"][0]["type"],
        "ip_v6_address"
    );
}

#[tokio::test]
async fn the_schemas_are_pydantics() {
    let client = TestClient::new(app());
    let document: Value = client.get("/openapi.json").send().await.json();
    let observed = observed();
    let theirs = observed["schemas"].as_object().cloned().unwrap_or_default();
    assert_eq!(theirs.len(), 18);
    for (name, theirs) in theirs {
        let name = if name == "Body_tags" {
            "Tags".to_owned()
        } else {
            name
        };
        // These routes also answer with their model, FastAPI's only read it: a model with a
        // decimal is then `Name-Input` (what is read) beside `Name-Output`.
        let schemas = &document["components"]["schemas"];
        let input = format!("{name}-Input");
        let schema = schemas.get(&name).or_else(|| schemas.get(&input));
        let mut ours = schema.map_or(Value::Null, |s| s["properties"]["v"].clone());
        // ferrapi's integers and floats carry their `format` (pydantic's do not), as before.
        if let Some(map) = ours.as_object_mut().filter(|_| name.contains("multiple")) {
            map.remove("format");
        }
        assert_eq!(ours, theirs["properties"]["v"], "{name}");
    }
}
