//! The data a real API carries: an events-and-bookings API whose models and parameters are
//! date-times, dates, times, durations, UUIDs, decimals, e-mail addresses, URLs and IP
//! addresses, with patterns, list lengths, validators and unions (the manual's "Types" chapter
//! and "Models": validators, unions).
//!
//! Shows: an `Event` with a start with its UTC offset (`DateTime<FixedOffset>`), a length
//! (`Duration`, ISO 8601 or seconds, checked by a field validator), the venue's door time
//! (`NaiveTime`) and end of sales (`NaiveDateTime`, checked against the start by a model
//! validator), an organiser (`EmailStr`), a web page (`HttpUrl`), a calendar feed of any scheme
//! (`Url`), a box-office code (`#[pattern]`) and one to four kinds of ticket (a list with length
//! bounds of a discriminated union, each with a `Decimal` price with `max_digits` /
//! `decimal_places`); a `Booking` for a day (`NaiveDate`) with a contact that is an e-mail
//! address or a phone number (an untagged union) and the box-office terminal that sold it
//! (`IpAddr`). Events and bookings are created with `PUT` under an id the client picks (`Uuid`
//! path parameters), so a retried request creates nothing twice. The lists filter by query
//! parameters of the same types, and a day's events are under `/days/{day}`. Everything is kept
//! in memory.
//!
//! Run it from the workspace root:
//!
//! ```text
//! cargo run -p ferrapi-examples --example types
//! ```
//!
//! then open <http://127.0.0.1:8000/docs>. `PORT` picks another port, `RUST_LOG` the log level.
//! A session from a fresh start (real output):
//!
//! ```text
//! $ curl -X PUT -H 'Content-Type: application/json' \
//!     http://127.0.0.1:8000/events/0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e -d '{
//!       "title": "Rust Nights", "code": "RSN-2025", "starts": "2025-06-01 19:30+02:00",
//!       "length": "PT2H30M", "doors_open": "19:00", "sales_end": "2025-06-01T18:00",
//!       "organiser": "Ferris <Ferris@Example.ORG>", "link": "https://example.org/rust-nights",
//!       "calendar": "webcal://example.org/rust.ics",
//!       "tickets": [{"kind": "standard", "price": "25.00"},
//!                   {"kind": "vip", "price": 60, "perks": ["lounge"]}]}'
//! {"title":"Rust Nights","code":"RSN-2025","starts":"2025-06-01T19:30:00+02:00","length":"PT2H30M","doors_open":"19:00:00","sales_end":"2025-06-01T18:00:00","organiser":"Ferris@example.org","link":"https://example.org/rust-nights","calendar":"webcal://example.org/rust.ics","tickets":[{"kind":"standard","price":"25.00"},{"kind":"vip","price":"60","perks":["lounge"]}]}
//!
//! $ curl 'http://127.0.0.1:8000/events?max_price=30&starts_after=2025-05-01T00:00:00Z'
//! [{"id":"0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e","title":"Rust Nights","starts":"2025-06-01T19:30:00+02:00","from_price":"25.00"}]
//!
//! $ curl -X PUT -H 'Content-Type: application/json' \
//!     http://127.0.0.1:8000/events/0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e/bookings/9d2c4b3a-1e0f-4a5b-8c7d-6e5f4a3b2c1d \
//!     -d '{"kind": "vip", "seats": 2, "day": "2025-06-01", "contact": {"phone": "+41791234567"},
//!          "terminal": "192.0.2.10"}'
//! {"booking_id":"9d2c4b3a-1e0f-4a5b-8c7d-6e5f4a3b2c1d","event_id":"0b6f1d1e-5a3c-4d4e-9f00-3c2a1b0c9d8e","total":"120","booking":{"kind":"vip","seats":2,"day":"2025-06-01","contact":{"phone":"+41791234567"},"terminal":"192.0.2.10"}}
//!
//! $ curl http://127.0.0.1:8000/days/2025-06-31/events
//! {"detail":[{"type":"date_from_datetime_parsing","loc":["path","day"],"msg":"Input should be a valid date or datetime, day value is outside expected range","input":"2025-06-31","ctx":{"error":"day value is outside expected range"}}]}
//! ```

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::ops::RangeInclusive;
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard, PoisonError};

use ferrapi::chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime};
use ferrapi::prelude::*;
use ferrapi::rust_decimal::Decimal;
use ferrapi::types::{Duration, EmailStr, HttpUrl};
use ferrapi::url::Url;
use ferrapi::uuid::Uuid;
use serde::Serialize;

/// A seat.
#[derive(Debug, Clone, Model, Serialize)]
pub struct Standard {
    /// The price of one seat: at most 9999.99, in steps of 0.05.
    #[max_digits(6)]
    #[decimal_places(2)]
    #[multiple_of(0.05)]
    pub price: Decimal,
}

/// A seat and what comes with it.
#[derive(Debug, Clone, Model, Serialize)]
pub struct Vip {
    /// The price of one package: at most 9999.99.
    #[max_digits(6)]
    #[decimal_places(2)]
    pub price: Decimal,
    /// What comes with it ("lounge", "meet the band"): one to five things.
    #[min_length(1)]
    #[max_length(5)]
    pub perks: Vec<String>,
}

/// A kind of ticket on sale, told apart by its `kind`.
#[derive(Debug, Clone, Model, Serialize)]
#[serde(tag = "kind")]
pub enum Ticket {
    /// A seat.
    #[serde(rename = "standard")]
    Standard(Standard),
    /// A seat and more.
    #[serde(rename = "vip")]
    Vip(Vip),
}

impl Ticket {
    fn kind(&self) -> TicketKind {
        match self {
            Ticket::Standard(_) => TicketKind::Standard,
            Ticket::Vip(_) => TicketKind::Vip,
        }
    }

    fn price(&self) -> Decimal {
        match self {
            Ticket::Standard(t) => t.price,
            Ticket::Vip(t) => t.price,
        }
    }
}

/// An event: a concert, a talk, a festival of several days.
#[derive(Debug, Clone, Model, Serialize)]
#[validate(sales_end_before_start)]
pub struct Event {
    /// Its name.
    #[min_length(1)]
    #[max_length(100)]
    pub title: String,
    /// The box-office code printed on its tickets: three capitals, a dash, four digits.
    #[pattern(r"^[A-Z]{3}-[0-9]{4}$")]
    pub code: String,
    /// When it starts, with the venue's offset from UTC.
    pub starts: DateTime<FixedOffset>,
    /// How long it lasts: ISO 8601 (`PT2H30M`, `P2D`) or seconds.
    #[validate(positive)]
    pub length: Duration,
    /// When the doors open, on the venue's clock.
    pub doors_open: NaiveTime,
    /// When ticket sales end, on the venue's clock.
    pub sales_end: NaiveDateTime,
    /// Whom to write to about it.
    pub organiser: EmailStr,
    /// Its web page.
    pub link: HttpUrl,
    /// A calendar feed to subscribe to, of any scheme (`webcal://`, `https://`).
    pub calendar: Option<Url>,
    /// The kinds of ticket on sale: one to four.
    #[min_length(1)]
    #[max_length(4)]
    pub tickets: Vec<Ticket>,
}

/// A field validator: a length of time can be negative, an event cannot.
fn positive(length: &Duration) -> Result<(), String> {
    if length.0 <= ferrapi::chrono::TimeDelta::zero() {
        return Err("an event lasts some time".into());
    }
    Ok(())
}

/// A model validator, run once every field is read: it compares two of them.
fn sales_end_before_start(event: &Event) -> Result<(), String> {
    if event.sales_end > event.starts.naive_local() {
        return Err("ticket sales end after the event starts".into());
    }
    Ok(())
}

impl Event {
    /// The days it is on, on the venue's calendar.
    fn days(&self) -> RangeInclusive<NaiveDate> {
        let start = self.starts.naive_local();
        let end = start.checked_add_signed(self.length.0).unwrap_or(start);
        start.date()..=end.date()
    }

    fn cheapest(&self) -> Decimal {
        self.tickets.iter().map(Ticket::price).min().unwrap_or_default()
    }

    fn summary(&self, id: Uuid) -> EventSummary {
        EventSummary {
            id,
            title: self.title.clone(),
            starts: self.starts,
            from_price: self.cheapest(),
        }
    }
}

/// An event in a list.
#[derive(Debug, Clone, Model, Serialize)]
pub struct EventSummary {
    /// Its id.
    pub id: Uuid,
    /// Its name.
    pub title: String,
    /// When it starts.
    pub starts: DateTime<FixedOffset>,
    /// The price of its cheapest ticket.
    pub from_price: Decimal,
}

/// The kinds of ticket, by name.
#[derive(Debug, Clone, Copy, PartialEq, StrEnum)]
pub enum TicketKind {
    /// A seat.
    Standard,
    /// A seat and more.
    Vip,
}

/// Reach the attendee by e-mail.
#[derive(Debug, Clone, Model, Serialize)]
pub struct ByEmail {
    /// Their address.
    pub email: EmailStr,
}

/// Reach the attendee by phone.
#[derive(Debug, Clone, Model, Serialize)]
pub struct ByPhone {
    /// Their number, in international form (`+41791234567`).
    #[pattern(r"^\+[1-9][0-9]{6,14}$")]
    pub phone: String,
}

/// How to reach the attendee: whichever of the shapes the value fits.
#[derive(Debug, Clone, Model, Serialize)]
#[serde(untagged)]
pub enum Contact {
    /// By e-mail.
    Email(ByEmail),
    /// By phone.
    Phone(ByPhone),
}

/// A booking: which ticket, how many, for which day, and whom to tell.
#[derive(Debug, Clone, Model, Serialize)]
pub struct Booking {
    /// The kind of ticket.
    pub kind: TicketKind,
    /// How many: one to ten.
    #[ge(1)]
    #[le(10)]
    pub seats: u8,
    /// The day it is for (an event of several days is booked by the day).
    pub day: NaiveDate,
    /// Whom to tell about changes.
    pub contact: Contact,
    /// The box-office terminal that sold it; none for a sale online.
    pub terminal: Option<IpAddr>,
}

/// A booking as it was taken: its ids and what it costs.
#[derive(Debug, Clone, Model, Serialize)]
pub struct Receipt {
    /// The booking's id.
    pub booking_id: Uuid,
    /// The event's id.
    pub event_id: Uuid,
    /// The ticket's price times the seats.
    pub total: Decimal,
    /// What was booked.
    pub booking: Booking,
}

/// The events and bookings, in memory.
#[derive(Default)]
pub struct Store {
    events: Mutex<BTreeMap<Uuid, Event>>,
    receipts: Mutex<BTreeMap<Uuid, Receipt>>,
}

/// The data behind `mutex`; a panic elsewhere while it was held leaves whole values behind
/// (each write is one `insert`), so a poisoned lock is still read.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn event_not_found() -> HttpError {
    HttpError::not_found("Event not found")
}

/// Create or replace an event.
///
/// The client picks the id, so a retried request does not create a second event.
#[put("/events/{event_id}", tags("events"))]
pub async fn put_event(store: State<Store>, event_id: Uuid, event: Event) -> Json<Event> {
    lock(&store.events).insert(event_id, event.clone());
    Json(event)
}

/// Read one event.
#[get("/events/{event_id}", tags("events"), responses(404 = "Event not found"))]
pub async fn read_event(store: State<Store>, event_id: Uuid) -> Result<Json<Event>, HttpError> {
    let event = lock(&store.events).get(&event_id).cloned();
    event.map(Json).ok_or_else(event_not_found)
}

/// List the events, soonest first.
///
/// Only those starting after `starts_after`, with a ticket at `max_price` or less, by
/// `organiser`, lasting `at_most` or less, as asked.
#[get("/events", tags("events"))]
pub async fn list_events(
    store: State<Store>,
    starts_after: Option<DateTime<FixedOffset>>,
    max_price: Option<Decimal>,
    organiser: Option<EmailStr>,
    at_most: Option<Duration>,
) -> Json<Vec<EventSummary>> {
    let events = lock(&store.events);
    let mut found: Vec<EventSummary> = events
        .iter()
        .filter(|(_, e)| starts_after.is_none_or(|after| e.starts > after))
        .filter(|(_, e)| max_price.is_none_or(|max| e.cheapest() <= max))
        .filter(|(_, e)| organiser.as_ref().is_none_or(|o| *o == e.organiser))
        .filter(|(_, e)| at_most.is_none_or(|most| e.length <= most))
        .map(|(id, e)| e.summary(*id))
        .collect();
    found.sort_by_key(|summary| summary.starts);
    Json(found)
}

/// List the events on a day, soonest first.
///
/// The day is on the venue's calendar; with `doors_from`, only the events whose doors open then
/// or later.
#[get("/days/{day}/events", tags("events"))]
pub async fn events_on(
    store: State<Store>,
    day: NaiveDate,
    doors_from: Option<NaiveTime>,
) -> Json<Vec<EventSummary>> {
    let events = lock(&store.events);
    let mut found: Vec<EventSummary> = events
        .iter()
        .filter(|(_, e)| e.days().contains(&day))
        .filter(|(_, e)| doors_from.is_none_or(|from| e.doors_open >= from))
        .map(|(id, e)| e.summary(*id))
        .collect();
    found.sort_by_key(|summary| summary.starts);
    Json(found)
}

/// Book tickets of an event.
///
/// The client picks the booking's id: a retried request answers the receipt of the first and
/// books nothing more.
#[put(
    "/events/{event_id}/bookings/{booking_id}",
    tags("bookings"),
    responses(
        404 = "Event not found",
        409 = "The event does not sell that kind of ticket, is not on that day, or the booking id is taken"
    )
)]
pub async fn book(
    store: State<Store>,
    event_id: Uuid,
    booking_id: Uuid,
    booking: Booking,
) -> Result<Json<Receipt>, HttpError> {
    let price = {
        let events = lock(&store.events);
        let event = events.get(&event_id).ok_or_else(event_not_found)?;
        if !event.days().contains(&booking.day) {
            return Err(HttpError::new(409, "The event is not on that day"));
        }
        let ticket = event.tickets.iter().find(|t| t.kind() == booking.kind);
        ticket
            .map(Ticket::price)
            .ok_or_else(|| HttpError::new(409, "The event does not sell that kind of ticket"))?
    };
    let mut receipts = lock(&store.receipts);
    if let Some(earlier) = receipts.get(&booking_id) {
        if earlier.event_id != event_id {
            return Err(HttpError::new(409, "The booking id is taken"));
        }
        return Ok(Json(earlier.clone()));
    }
    let receipt = Receipt {
        booking_id,
        event_id,
        total: price * Decimal::from(booking.seats),
        booking,
    };
    receipts.insert(booking_id, receipt.clone());
    Ok(Json(receipt))
}

/// List the bookings, or those a box-office `terminal` sold.
#[get("/bookings", tags("bookings"))]
pub async fn list_bookings(store: State<Store>, terminal: Option<IpAddr>) -> Json<Vec<Receipt>> {
    let receipts = lock(&store.receipts);
    let sold = receipts
        .values()
        .filter(|r| terminal.is_none_or(|t| r.booking.terminal == Some(t)))
        .cloned()
        .collect();
    Json(sold)
}

/// The example's app over `store`.
pub fn app(store: Store) -> App {
    App::new().title("types example").state(store).routes(routes![
        put_event,
        read_event,
        list_events,
        events_on,
        book,
        list_bookings
    ])
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> ExitCode {
    ferrapi::logging::init();
    // Reads `PORT` (default 8000), binds 127.0.0.1 and serves until Ctrl-C.
    ferrapi_examples::serve(app(Store::default())).await
}
