//! The example program `examples/types.rs` (compiled into this binary as a module, so the tests
//! exercise exactly what a reader runs): an event and a booking written and read back with every
//! value type, the errors of its constraints, validators and unions, its routes' own answers
//! (404, 409, an idempotent retry), and its document, kept as a snapshot
//! (`tests/snapshots/openapi_types_example.json`, which `scripts/docs-checks.sh` validates with
//! openapi-spec-validator; update it with `UPDATE_SNAPSHOTS=1`).

use ferrapi::testing::{TestClient, TestResponse};
use ferrapi_tests::snapshot::assert_document_snapshot;
use serde_json::{json, Value};

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../../examples/types.rs"]
mod example;

const EVENT: &str = "/events/0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e";
const BOOKING: &str =
    "/events/0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e/bookings/9d2c4b3a-1e0f-4a5b-8c7d-6e5f4a3b2c1d";

fn client() -> TestClient {
    TestClient::new(example::app(example::Store::default()))
}

/// An event as a client writes it: lax forms where pydantic takes them.
fn event() -> Value {
    json!({
        "title": "Rust Nights",
        "code": "RSN-2025",
        "starts": "2025-06-01 19:30+02:00",
        "length": 9000,
        "doors_open": "19:00",
        "sales_end": "2025-06-01T18:00",
        "organiser": "Ferris <Ferris@Example.ORG>",
        "link": "https://example.org/rust-nights",
        "calendar": "webcal://example.org/rust.ics",
        "tickets": [
            { "kind": "standard", "price": "25.00" },
            { "kind": "vip", "price": 60, "perks": ["lounge"] }
        ]
    })
}

fn booking() -> Value {
    json!({
        "kind": "vip",
        "seats": "2",
        "day": "2025-06-01",
        "contact": { "email": "ada@example.com" },
        "terminal": "2001:DB8::1"
    })
}

async fn put(client: &TestClient, path: &str, body: &Value) -> TestResponse {
    client.put(path).json(body).send().await
}

fn status_and_body(reply: &TestResponse) -> (u16, Value) {
    (reply.status().as_u16(), reply.json())
}

#[tokio::test]
async fn an_event_is_written_back_as_fastapi_writes_each_type() {
    let client = client();
    let reply = put(&client, EVENT, &event()).await;
    let written = json!({
        "title": "Rust Nights",
        "code": "RSN-2025",
        "starts": "2025-06-01T19:30:00+02:00",
        "length": "PT2H30M",
        "doors_open": "19:00:00",
        "sales_end": "2025-06-01T18:00:00",
        "organiser": "Ferris@example.org",
        "link": "https://example.org/rust-nights",
        "calendar": "webcal://example.org/rust.ics",
        "tickets": [
            { "kind": "standard", "price": "25.00" },
            { "kind": "vip", "price": "60", "perks": ["lounge"] }
        ]
    });
    assert_eq!(status_and_body(&reply), (200, written.clone()));
    let read = client.get(EVENT).send().await;
    assert_eq!(status_and_body(&read), (200, written));
}

#[tokio::test]
async fn the_lists_filter_by_typed_query_and_path_parameters() {
    let client = client();
    put(&client, EVENT, &event()).await;
    let summary = json!([{
        "id": "0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e",
        "title": "Rust Nights",
        "starts": "2025-06-01T19:30:00+02:00",
        "from_price": "25.00"
    }]);
    let cases = [
        (
            "/events?starts_after=2025-06-01T17:29:59Z&max_price=25",
            summary.clone(),
        ),
        ("/events?starts_after=2025-06-01T17:30:00Z", json!([])),
        ("/events?max_price=24.99", json!([])),
        ("/events?organiser=Ferris%40EXAMPLE.org", summary.clone()),
        ("/events?organiser=ada%40example.org", json!([])),
        ("/events?at_most=PT2H30M", summary.clone()),
        ("/events?at_most=PT2H29M59S", json!([])),
        ("/days/2025-06-01/events?doors_from=19:00", summary.clone()),
        ("/days/2025-06-01/events?doors_from=19:00:01", json!([])),
        ("/days/2025-06-02/events", json!([])),
    ];
    for (uri, expected) in cases {
        let reply = client.get(uri).send().await;
        assert_eq!(status_and_body(&reply), (200, expected), "{uri}");
    }
}

#[tokio::test]
async fn a_booking_is_priced_and_a_retry_books_nothing_more() {
    let client = client();
    put(&client, EVENT, &event()).await;
    let receipt = json!({
        "booking_id": "9d2c4b3a-1e0f-4a5b-8c7d-6e5f4a3b2c1d",
        "event_id": "0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e",
        "total": "120",
        "booking": {
            "kind": "vip",
            "seats": 2,
            "day": "2025-06-01",
            "contact": { "email": "ada@example.com" },
            "terminal": "2001:db8::1"
        }
    });
    let reply = put(&client, BOOKING, &booking()).await;
    assert_eq!(status_and_body(&reply), (200, receipt.clone()));
    let mut changed = booking();
    changed["seats"] = json!(9);
    let retry = put(&client, BOOKING, &changed).await;
    assert_eq!(status_and_body(&retry), (200, receipt.clone()));
    let listed = client.get("/bookings?terminal=2001:db8:0::1").send().await;
    assert_eq!(status_and_body(&listed), (200, json!([receipt])));
    let other = client.get("/bookings?terminal=192.0.2.10").send().await;
    assert_eq!(status_and_body(&other), (200, json!([])));
}

#[tokio::test]
async fn a_booking_the_event_cannot_take_is_404_or_409() {
    let client = client();
    let reply = put(&client, BOOKING, &booking()).await;
    assert_eq!(
        status_and_body(&reply),
        (404, json!({ "detail": "Event not found" }))
    );
    let mut event = event();
    event["tickets"] = json!([{ "kind": "standard", "price": "25.00" }]);
    put(&client, EVENT, &event).await;
    let reply = put(&client, BOOKING, &booking()).await;
    assert_eq!(
        status_and_body(&reply),
        (
            409,
            json!({ "detail": "The event does not sell that kind of ticket" })
        )
    );
    let mut booking = booking();
    booking["day"] = json!("2025-06-02");
    let reply = put(&client, BOOKING, &booking).await;
    assert_eq!(
        status_and_body(&reply),
        (409, json!({ "detail": "The event is not on that day" }))
    );
}

#[tokio::test]
async fn every_rule_of_the_event_reports_at_its_field() {
    let client = client();
    let bad = json!({
        "title": "",
        "code": "rsn-2025",
        "starts": "2025-06-01T19:30",
        "length": "-PT1H",
        "doors_open": "25:00",
        "sales_end": "2025-06-01",
        "organiser": "ferris",
        "link": "ftp://example.org",
        "calendar": "example.org",
        "tickets": [
            { "kind": "standard", "price": "25.03" },
            { "kind": "vip", "price": "10000", "perks": [] },
            { "kind": "gold" },
            { "price": 1 }
        ]
    });
    let reply = put(&client, EVENT, &bad).await;
    let (status, body) = status_and_body(&reply);
    assert_eq!(status, 422);
    let seen: Vec<(String, Value)> = body["detail"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| (i["type"].as_str().unwrap_or("").to_owned(), i["loc"].clone()))
                .collect()
        })
        .unwrap_or_default();
    let expected = [
        ("string_too_short", json!(["body", "title"])),
        ("string_pattern_mismatch", json!(["body", "code"])),
        ("timezone_aware", json!(["body", "starts"])),
        ("value_error", json!(["body", "length"])),
        ("time_parsing", json!(["body", "doors_open"])),
        ("value_error", json!(["body", "organiser"])),
        ("url_scheme", json!(["body", "link"])),
        ("url_parsing", json!(["body", "calendar"])),
        ("multiple_of", json!(["body", "tickets", 0, "standard", "price"])),
        // 10000.00 has six digits in all, but six before the point of the four allowed.
        (
            "decimal_whole_digits",
            json!(["body", "tickets", 1, "vip", "price"]),
        ),
        ("too_short", json!(["body", "tickets", 1, "vip", "perks"])),
        ("union_tag_invalid", json!(["body", "tickets", 2])),
        ("union_tag_not_found", json!(["body", "tickets", 3])),
    ];
    let expected: Vec<(String, Value)> = expected
        .into_iter()
        .map(|(kind, loc)| (kind.to_owned(), loc))
        .collect();
    assert_eq!(seen, expected, "{body}");
    assert_eq!(
        body["detail"][8],
        json!({
            "type": "multiple_of",
            "loc": ["body", "tickets", 0, "standard", "price"],
            "msg": "Input should be a multiple of 0.05",
            "input": "25.03",
            "ctx": { "multiple_of": 0.05 }
        })
    );
}

#[tokio::test]
async fn the_model_validator_runs_once_the_fields_are_read() {
    let client = client();
    let mut event = event();
    event["sales_end"] = json!("2025-06-01T19:31");
    let reply = put(&client, EVENT, &event).await;
    assert_eq!(
        status_and_body(&reply),
        (
            422,
            json!({ "detail": [{
                "type": "value_error",
                "loc": ["body"],
                "msg": "Value error, ticket sales end after the event starts",
                "input": event,
                "ctx": { "error": {} }
            }]})
        )
    );
}

#[tokio::test]
async fn a_contact_fitting_no_shape_lists_each_shapes_errors() {
    let client = client();
    put(&client, EVENT, &event()).await;
    let mut booking = booking();
    booking["contact"] = json!({ "phone": "079 123 45 67" });
    booking["terminal"] = json!("192.0.2.300");
    let reply = put(&client, BOOKING, &booking).await;
    let (status, body) = status_and_body(&reply);
    assert_eq!(status, 422);
    let locs: Vec<&Value> = body["detail"]
        .as_array()
        .map(|items| items.iter().map(|i| &i["loc"]).collect())
        .unwrap_or_default();
    assert_eq!(
        locs,
        [
            &json!(["body", "contact", "ByEmail", "email"]),
            &json!(["body", "contact", "ByPhone", "phone"]),
            &json!(["body", "terminal"]),
        ],
        "{body}"
    );
    let reply = client.get("/events/not-a-uuid").send().await;
    assert_eq!(reply.json::<Value>()["detail"][0]["type"], "uuid_parsing");
}

const SNAPSHOT: &str = "snapshots/openapi_types_example.json";

#[test]
fn the_examples_document_matches_its_snapshot() {
    let service = example::app(example::Store::default())
        .build()
        .expect("the app builds");
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("the document is JSON");
    assert_document_snapshot(SNAPSHOT, &doc);
}
