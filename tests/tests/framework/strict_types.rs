//! `Strict<T>`, pydantic's strict mode for the date and time types, replayed against pydantic's
//! recorded answers (tests/fastapi/strict_observed.json, written by tests/fastapi/strict_probe.py
//! with pydantic 2.14's JSON mode, in FastAPI's error shape): every case as a JSON body field and
//! as a query parameter, status and whole body compared. The answers that differ on purpose are
//! listed in `DIFFERENCES`, each with the manual's reason.

use crate::recorded::{self, Difference};
use ferrapi::chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime};
use ferrapi::prelude::*;
use ferrapi::testing::TestClient;
use ferrapi::types::Strict;

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Strict_date {
    v: Strict<NaiveDate>,
}

#[get("/strict/date")]
async fn query_date(v: Strict<NaiveDate>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/strict/date")]
async fn body_date(b: Strict_date) -> Json<Strict_date> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Strict_aware {
    v: Strict<DateTime<FixedOffset>>,
}

#[get("/strict/aware")]
async fn query_aware(v: Strict<DateTime<FixedOffset>>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/strict/aware")]
async fn body_aware(b: Strict_aware) -> Json<Strict_aware> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Strict_naive {
    v: Strict<NaiveDateTime>,
}

#[get("/strict/naive")]
async fn query_naive(v: Strict<NaiveDateTime>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/strict/naive")]
async fn body_naive(b: Strict_naive) -> Json<Strict_naive> {
    Json(b)
}

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Strict_time {
    v: Strict<NaiveTime>,
}

#[get("/strict/time")]
async fn query_time(v: Strict<NaiveTime>) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/strict/time")]
async fn body_time(b: Strict_time) -> Json<Strict_time> {
    Json(b)
}

/// An optional strict date in a query, and a lax one beside it: the same schema.
#[get("/strict/optional")]
async fn optional(day: Option<Strict<NaiveDate>>, lax: Option<NaiveDate>) -> Json<Value> {
    Json(json!({ "day": day, "lax": lax }))
}

fn app() -> App {
    App::new().routes(ferrapi::routes![
        query_date,
        body_date,
        query_aware,
        body_aware,
        query_naive,
        body_naive,
        query_time,
        body_time,
        optional
    ])
}

/// Cases answered differently on purpose: (kind, source, input as JSON), with the reason the
/// manual's "Differences from FastAPI" gives.
const DIFFERENCES: &[Difference] = &[
    // chrono writes fractions in groups of three digits, pydantic always six.
    ("aware", "body", "\"2024-05-01T07:30:00,5Z\"", "fraction digits"),
    ("aware", "query", "\"2024-05-01T07:30:00,5Z\"", "fraction digits"),
    ("aware", "body", "\"1714548600.5\"", "fraction digits"),
    ("aware", "query", "\"1714548600.5\"", "fraction digits"),
    ("naive", "body", "\"2024-05-01T07:30:00.5\"", "fraction digits"),
    ("naive", "query", "\"2024-05-01T07:30:00.5\"", "fraction digits"),
    ("time", "body", "\"07:30:15.5\"", "fraction digits"),
    ("time", "query", "\"07:30:15.5\"", "fraction digits"),
    // A NaiveTime keeps no offset: pydantic's `time` keeps it, ferrapi refuses it.
    ("time", "body", "\"07:30:00Z\"", "NaiveTime has no offset"),
    ("time", "query", "\"07:30:00Z\"", "NaiveTime has no offset"),
    ("time", "body", "\"07:30:00+02:00\"", "NaiveTime has no offset"),
    ("time", "query", "\"07:30:00+02:00\"", "NaiveTime has no offset"),
];

#[tokio::test]
async fn every_recorded_answer_of_pydantic_strict_mode_is_replayed() {
    let client = TestClient::new(app());
    let cases = recorded::cases(include_str!("../../fastapi/strict_observed.json"));
    assert!(cases.len() > 200, "the recorded corpus is read");
    let (compared, mismatches) =
        recorded::replay_all(&client, "/strict", &cases, DIFFERENCES, |_, _| false, |_, _| true).await;
    assert!(compared > 200);
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[tokio::test]
async fn a_strict_type_is_documented_and_written_as_its_type() {
    let client = TestClient::new(app());
    let document: Value = client.get("/openapi.json").send().await.json();
    let schemas = &document["components"]["schemas"];
    for (model, format) in [
        ("Strict_date", "date"),
        ("Strict_aware", "date-time"),
        ("Strict_naive", "date-time"),
        ("Strict_time", "time"),
    ] {
        let v = &schemas[model]["properties"]["v"];
        assert_eq!(
            (&v["type"], &v["format"]),
            (&json!("string"), &json!(format)),
            "{model}"
        );
    }
    // An optional strict parameter has the lax one's schema, title aside.
    let parameters = &document["paths"]["/strict/optional"]["get"]["parameters"];
    let without_title = |i: usize| {
        let mut schema = parameters[i]["schema"].clone();
        schema.as_object_mut().map(|map| map.remove("title"));
        schema
    };
    assert!(without_title(0)["anyOf"].is_array(), "{parameters}");
    assert_eq!(without_title(0), without_title(1));
}

#[tokio::test]
async fn an_optional_strict_parameter_is_strict_when_given() {
    let client = TestClient::new(app());
    let reply = client
        .get("/strict/optional?day=2024-05-01&lax=2024-05-01T00:00:00")
        .send()
        .await;
    assert_eq!(
        reply.json::<Value>(),
        json!({"day": "2024-05-01", "lax": "2024-05-01"})
    );
    let reply = client.get("/strict/optional").send().await;
    assert_eq!(reply.json::<Value>(), json!({"day": null, "lax": null}));
    let reply = client
        .get("/strict/optional?day=2024-05-01T00:00:00")
        .send()
        .await;
    let extra = "unexpected extra characters at the end of the input";
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (
            422,
            json!({"detail": [{"type": "date_parsing", "loc": ["query", "day"],
                "msg": format!("Input should be a valid date in the format YYYY-MM-DD, {extra}"),
                "input": "2024-05-01T00:00:00", "ctx": {"error": extra}}]})
        )
    );
}

#[tokio::test]
async fn the_deliberate_differences_answer_as_the_manual_says() {
    let client = TestClient::new(app());
    let post = |kind: &'static str, v: &'static str| {
        let client = &client;
        async move {
            let reply = client
                .post(&format!("/strict/{kind}"))
                .json(&json!({ "v": v }))
                .send()
                .await;
            reply.json::<Value>()
        }
    };
    assert_eq!(
        post("aware", "1714548600.5").await,
        json!({"v": "2024-05-01T07:30:00.500Z"})
    );
    assert_eq!(
        post("time", "07:30:00Z").await["detail"][0]["type"],
        "timezone_naive"
    );
}
