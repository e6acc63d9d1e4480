//! A client generated from ferrapi's types example's document (build.rs) round-trips each of its
//! types through the example itself, served on 127.0.0.1 and, once, in-process through its
//! `tower::Service`: aware and naive date-times, dates, times, durations, UUIDs, decimals (read as
//! text, written as text with their scale), e-mail addresses, URLs, IP addresses, a discriminated
//! union (tickets), an untagged one (contacts), in bodies, paths and queries; then invalid values
//! come back as typed 422s naming the rule and the field, and an unknown id as the typed 404.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::str::FromStr;

use ferrapi_client::chrono::{NaiveDate, NaiveTime};
use ferrapi_client::rust_decimal::Decimal;
use ferrapi_client::url::Url;
use ferrapi_client::uuid::Uuid;
use ferrapi_client::Time;
use ferrapi_client::{Client as Runtime, DateTime, Duration, Nullable, ServiceTransport};
use ferrapi_client_tests::types_example::operations::{BookResponse, PutEventResponse, ReadEventResponse};
use ferrapi_client_tests::types_example::types::{
    Booking, BookingContact, ByEmail, ByPhone, EventInput, EventInputTicketsItem, EventOutputTicketsItem,
    StandardInput, TicketKind, VipInput,
};
use ferrapi_client_tests::types_example::Client;
use ferrapi_tests::app::spawn;

// The example program itself, compiled into this test (its `main` is not called).
#[allow(dead_code, missing_docs)]
#[path = "../../../examples/types.rs"]
mod program;

const EVENT: &str = "0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e";

fn event() -> EventInput {
    EventInput {
        title: "Rust Nights".into(),
        code: "RSN-2025".into(),
        starts: "2025-06-01T19:30:00+02:00".parse().unwrap(),
        length: "PT2H30M".parse().unwrap(),
        doors_open: Time::from(NaiveTime::from_hms_opt(19, 0, 0).unwrap()),
        sales_end: "2025-06-01T18:00:00".parse().unwrap(),
        organiser: "Ferris <Ferris@Example.ORG>".into(),
        link: Url::parse("https://example.org/rust-nights").unwrap(),
        calendar: Url::parse("webcal://example.org/rust.ics").unwrap().into(),
        tickets: vec![
            EventInputTicketsItem::StandardInput(StandardInput {
                kind: Default::default(),
                price: Decimal::from_str("25.00").unwrap(),
            }),
            EventInputTicketsItem::VipInput(VipInput {
                kind: Default::default(),
                price: Decimal::from_str("60").unwrap(),
                perks: vec!["lounge".into()],
            }),
        ],
    }
}

async fn round_trip(api: &Client) {
    let id = Uuid::parse_str(EVENT).unwrap();
    let stored = api.put_event(id, &event()).await.unwrap().into_ok().unwrap();
    // Each value as the service writes it back.
    assert_eq!(stored.starts.to_string(), "2025-06-01T19:30:00+02:00");
    assert!(stored.starts.aware().is_some(), "an aware date-time");
    assert_eq!(stored.length, "PT2H30M".parse::<Duration>().unwrap());
    assert_eq!(stored.length.num_minutes(), 150);
    assert_eq!(stored.doors_open, NaiveTime::from_hms_opt(19, 0, 0).unwrap());
    assert_eq!(stored.sales_end.to_string(), "2025-06-01T18:00:00");
    assert!(
        stored.sales_end.naive().is_some(),
        "a naive date-time stays naive"
    );
    assert_eq!(
        stored.organiser, "Ferris@example.org",
        "the domain lower-cased, as pydantic does"
    );
    assert_eq!(stored.link.as_str(), "https://example.org/rust-nights");
    assert_eq!(
        stored.calendar.as_ref().map(Url::as_str),
        Nullable::Value("webcal://example.org/rust.ics")
    );
    match &stored.tickets[..] {
        [EventOutputTicketsItem::StandardOutput(standard), EventOutputTicketsItem::VipOutput(vip)] => {
            assert_eq!(standard.price, "25.00", "a decimal keeps its scale");
            assert_eq!(
                (vip.price.as_str(), vip.perks.as_slice()),
                ("60", &["lounge".to_owned()][..])
            );
        }
        other => panic!("{other:?}"),
    }
    let read = api.read_event(id).await.unwrap().into_ok().unwrap();
    assert_eq!(read, stored);

    // Queries of each type.
    let after: DateTime = "2025-05-01T00:00:00Z".parse().unwrap();
    let listed = api
        .list_events()
        .starts_after(after)
        .max_price(Decimal::from_str("30").unwrap())
        .organiser("Ferris@example.org")
        .at_most("PT3H".parse().unwrap())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!((listed[0].id, listed[0].from_price.as_str()), (id, "25.00"));
    let too_short = api
        .list_events()
        .at_most("PT1H".parse().unwrap())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert!(too_short.is_empty());
    let day = NaiveDate::from_ymd_opt(2025, 6, 1).unwrap();
    let on_day = api
        .events_on(day)
        .doors_from(Time::from(NaiveTime::from_hms_opt(18, 30, 0).unwrap()))
        .await
        .unwrap();
    assert_eq!(on_day.into_ok().unwrap().len(), 1);

    // A booking by e-mail from a terminal, and one by phone online (the untagged union).
    let booking_id = Uuid::from_u128(7);
    let by_email = Booking {
        kind: TicketKind::Standard,
        seats: 2,
        day,
        contact: BookingContact::ByEmail(ByEmail {
            email: "ada@example.org".into(),
        }),
        terminal: Nullable::Value("192.0.2.7".parse().unwrap()),
    };
    let receipt = api
        .book(id, booking_id, &by_email)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        (receipt.booking_id, receipt.total.as_str()),
        (booking_id, "50.00")
    );
    assert_eq!(receipt.booking, by_email);
    let by_phone = Booking {
        kind: TicketKind::Vip,
        seats: 1,
        contact: BookingContact::ByPhone(ByPhone {
            phone: "+41791234567".into(),
        }),
        terminal: Nullable::Absent,
        ..by_email.clone()
    };
    let receipt = api
        .book(id, Uuid::from_u128(8), &by_phone)
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(receipt.booking.contact, by_phone.contact);
    let sold = api
        .list_bookings()
        .terminal("192.0.2.7".parse().unwrap())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(sold.len(), 1);

    // Invalid values: typed 422s naming the rule and the field.
    let invalid = EventInput {
        code: "rsn-2025".into(),
        length: "-PT1H".parse().unwrap(),
        ..event()
    };
    match api.put_event(id, &invalid).await.unwrap().into_body() {
        PutEventResponse::UnprocessableEntity(error) => {
            let rules: Vec<(String, String)> = error
                .detail
                .unwrap_or_default()
                .into_iter()
                .map(|item| (item.type_, format!("{:?}", item.loc)))
                .collect();
            assert_eq!(rules.len(), 2, "{rules:?}");
            assert_eq!(rules[0].0, "string_pattern_mismatch");
            assert!(rules[0].1.contains("\"code\""), "{rules:?}");
            assert_eq!(rules[1].0, "value_error");
            assert!(rules[1].1.contains("\"length\""), "{rules:?}");
        }
        other => panic!("{other:?}"),
    }
    // A booking for a day the event is not on: the documented 409.
    let wrong_day = Booking {
        day: NaiveDate::from_ymd_opt(2025, 7, 1).unwrap(),
        ..by_email.clone()
    };
    match api
        .book(id, Uuid::from_u128(9), &wrong_day)
        .await
        .unwrap()
        .into_body()
    {
        BookResponse::Conflict(error) => {
            assert_eq!(error.message().as_deref(), Some("The event is not on that day"))
        }
        other => panic!("{other:?}"),
    }
    // An unknown event: the typed 404.
    match api.read_event(Uuid::from_u128(1)).await.unwrap().into_body() {
        ReadEventResponse::NotFound(error) => assert_eq!(error.message().as_deref(), Some("Event not found")),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn every_type_round_trips_over_http() {
    let addr = spawn(program::app(program::Store::default())).await;
    round_trip(&Client::new(&format!("http://{addr}")).unwrap()).await;
}

#[tokio::test]
async fn every_type_round_trips_in_process() {
    let service = program::app(program::Store::default()).build().unwrap();
    let runtime = Runtime::builder("http://types.test")
        .transport(ServiceTransport::new(service))
        .build()
        .unwrap();
    round_trip(&Client::from_client(runtime)).await;
}
