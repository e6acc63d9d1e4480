//! The date and time inputs people send (issue 32, item 1), replayed against FastAPI's recorded
//! answers (tests/fastapi/datetimes_observed.json, written by tests/fastapi/datetimes_probe.py
//! against FastAPI 0.165 / pydantic 2.14): plain `datetime` ([`Datetime`], naive or aware, kept
//! as sent, and written as FastAPI writes it with a response model and without), the aware and
//! naive date-times, dates, times, durations and e-mail addresses with white space around them.
//! Every case is compared whole (status and body), as a JSON body field and as a query
//! parameter; the answers that differ on purpose are listed in `DIFFERENCES`, each with the
//! manual's reason.

use crate::recorded::{self, Difference};
use ferrapi::chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime};
use ferrapi::prelude::*;
use ferrapi::testing::TestClient;
use ferrapi::types::{Datetime, Duration, EmailStr};

// One kind of the probe: a query route answering `{"v": v}` (a `json!`, FastAPI's
// `jsonable_encoder`) and a body route answering the model, at `/types/<kind>`. (Written out:
// a route attribute inside a `macro_rules!` loses its hygiene.)

#[derive(Model, serde::Serialize)]
#[allow(non_camel_case_types)]
struct Body_datetime {
    v: Datetime,
}

#[get("/types/datetime")]
async fn query_datetime(v: Datetime) -> Json<Value> {
    Json(json!({ "v": v }))
}

#[post("/types/datetime")]
async fn body_datetime(b: Body_datetime) -> Json<Body_datetime> {
    Json(b)
}

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

/// A body answered without a model: `{"v": b.v}` through `json!`, as FastAPI answers a dict.
#[post("/types/datetime_raw")]
async fn body_datetime_raw(b: Body_datetime) -> Json<Value> {
    Json(json!({ "v": b.v }))
}

fn app() -> App {
    App::new().routes(ferrapi::routes![
        query_datetime,
        body_datetime,
        body_datetime_raw,
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
        query_email,
        body_email,
    ])
}

/// Cases answered differently on purpose: (kind, source, input as JSON), with the reason the
/// manual's "Differences from FastAPI" gives.
const DIFFERENCES: &[Difference] = &[
    // A NaiveTime keeps no offset: pydantic's `time` keeps it, ferrapi refuses it.
    ("time", "body", "\"10:00:00Z\"", "NaiveTime has no offset"),
    ("time", "query", "\"10:00:00Z\"", "NaiveTime has no offset"),
    ("time", "body", "\"10:00:00+02:00\"", "NaiveTime has no offset"),
    ("time", "query", "\"10:00:00+02:00\"", "NaiveTime has no offset"),
    ("time", "body", "\"10:00:00-0530\"", "NaiveTime has no offset"),
    ("time", "query", "\"10:00:00-0530\"", "NaiveTime has no offset"),
    (
        "time",
        "body",
        "36000",
        "NaiveTime has no offset: written without Z",
    ),
    (
        "time",
        "body",
        "36000.5",
        "NaiveTime has no offset: written without Z",
    ),
];

/// The kinds whose values chrono writes itself (`DateTime<FixedOffset>`, `NaiveDateTime`,
/// `NaiveTime`): fractions in groups of three digits, UTC as `Z` also in a `json!`. The manual's
/// "Differences from FastAPI" says so and points to [`Datetime`], which writes as FastAPI does.
const CHRONO_WRITTEN: &[&str] = &["aware", "naive", "time"];

/// FastAPI's text of a date-time or time as chrono writes the same value.
fn chrono_form(text: &str) -> String {
    let text = text
        .strip_suffix("+00:00")
        .map_or(text.to_owned(), |t| format!("{t}Z"));
    let Some(dot) = text.find('.') else {
        return text;
    };
    let digits = text[dot + 1..].bytes().take_while(u8::is_ascii_digit).count();
    let (fraction, rest) = text[dot + 1..].split_at(digits);
    let mut fraction = fraction.to_owned();
    while fraction.len() > 3 && fraction.ends_with("000") {
        fraction.truncate(fraction.len() - 3);
    }
    format!("{}.{fraction}{rest}", &text[..dot])
}

/// The recorded cases, a chrono-written value's answer in chrono's form.
fn cases() -> Vec<Value> {
    let mut cases = recorded::cases(include_str!("../../fastapi/datetimes_observed.json"));
    for case in &mut cases {
        let kind = case["kind"].as_str().unwrap_or_default();
        if CHRONO_WRITTEN.contains(&kind) && case["status"] == 200 {
            if let Some(Value::String(v)) = case["body"].get_mut("v") {
                *v = chrono_form(v);
            }
        }
    }
    cases
}

#[tokio::test]
async fn every_recorded_answer_of_fastapi_is_replayed() {
    let client = TestClient::new(app());
    let cases = cases();
    assert!(cases.len() > 500, "the recorded corpus is read");
    let (compared, mismatches) =
        recorded::replay_all(&client, "/types", &cases, DIFFERENCES, |_, _| false, |_, _| true).await;
    assert!(compared > 500);
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

#[tokio::test]
async fn a_plain_datetime_is_written_as_fastapi_writes_it() {
    let client = TestClient::new(app());
    let post = |kind: &'static str, v: Value| {
        let client = &client;
        async move {
            let reply = client
                .post(&format!("/types/{kind}"))
                .json(&json!({ "v": v }))
                .send()
                .await;
            reply.text()
        }
    };
    // With a response model: pydantic's `Z`; without one (a `json!`): `jsonable_encoder`'s.
    assert_eq!(
        post("datetime", json!("2024-03-01T10:00:00.5Z")).await,
        r#"{"v":"2024-03-01T10:00:00.500000Z"}"#
    );
    assert_eq!(
        post("datetime_raw", json!("2024-03-01T10:00:00.5Z")).await,
        r#"{"v":"2024-03-01T10:00:00.500000+00:00"}"#
    );
    // Naive stays naive, a date alone is midnight.
    assert_eq!(
        post("datetime", json!("2024-03-01")).await,
        r#"{"v":"2024-03-01T00:00:00"}"#
    );
    // A duration in a `json!` is its seconds, as `jsonable_encoder` writes a timedelta.
    let reply = client.get("/types/duration?v=PT1H30M").send().await;
    assert_eq!(reply.text(), r#"{"v":5400.0}"#);
}

#[test]
fn chronos_form_of_fastapis_text() {
    assert_eq!(
        chrono_form("2024-03-01T10:00:00.500000+00:00"),
        "2024-03-01T10:00:00.500Z"
    );
    assert_eq!(chrono_form("10:00:00.123456"), "10:00:00.123456");
    assert_eq!(
        chrono_form("2024-03-01T10:00:00+02:00"),
        "2024-03-01T10:00:00+02:00"
    );
}
