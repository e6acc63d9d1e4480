//! [`Datetime`]: pydantic's plain `datetime`, FastAPI's most common annotation: a date-time with
//! an offset or without one, kept as it was sent.
//!
//! Rules enforced here:
//! - read as pydantic reads `datetime` in lax mode: a date-time with or without an offset, a date
//!   alone (midnight, no offset), a unix timestamp (UTC); the errors are those of
//!   `NaiveDatetime` and `AwareDatetime` without their time-zone ones;
//! - written as FastAPI writes it: `YYYY-MM-DDTHH:MM:SS`, six digits of fraction when there is
//!   one, then the offset as sent (`+02:00`); UTC is `Z` where pydantic writes the value (a model
//!   in a response) and `+00:00` where FastAPI's `jsonable_encoder` does (a value put into a
//!   `json!`, which serializes it into a `serde_json::Value`).

use std::fmt;

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::datetime::{datetime_text, datetime_value};
use super::{into_value, string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

/// A date-time as sent: its local date and time, and its offset from UTC when it had one
/// (pydantic's `datetime`, which keeps a naive value naive and an aware one aware).
///
/// Read from `2024-03-01T10:00:00`, `2024-03-01T10:00:00+02:00`, `…Z`, a date alone (midnight,
/// no offset) or a unix timestamp (UTC); written back as FastAPI writes it. Use
/// `chrono::DateTime<FixedOffset>` (pydantic's `AwareDatetime`) or `chrono::NaiveDateTime`
/// (`NaiveDatetime`) where one kind only is acceptable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Datetime {
    local: NaiveDateTime,
    offset: Option<FixedOffset>,
}

impl Datetime {
    /// A date-time without an offset (naive).
    pub fn naive(local: NaiveDateTime) -> Self {
        Datetime { local, offset: None }
    }

    /// A date-time at an offset from UTC (aware).
    pub fn aware<Tz: TimeZone>(instant: DateTime<Tz>) -> Self {
        let instant = instant.fixed_offset();
        Datetime {
            local: instant.naive_local(),
            offset: Some(*instant.offset()),
        }
    }

    /// The date and time as written, at the value's own offset (or without one).
    pub fn local(&self) -> NaiveDateTime {
        self.local
    }

    /// The offset from UTC it was sent with; `None` for a naive date-time.
    pub fn offset(&self) -> Option<FixedOffset> {
        self.offset
    }

    /// True when it has an offset (pydantic's "aware").
    pub fn is_aware(&self) -> bool {
        self.offset.is_some()
    }

    /// The instant, when it has an offset.
    pub fn to_aware(&self) -> Option<DateTime<FixedOffset>> {
        self.offset?.from_local_datetime(&self.local).single()
    }

    /// The instant in UTC, when it has an offset.
    pub fn to_utc(&self) -> Option<DateTime<Utc>> {
        self.to_aware().map(|instant| instant.with_timezone(&Utc))
    }

    /// FastAPI's text: `utc` is what UTC is written as (`Z` or `+00:00`).
    fn write(&self, out: &mut impl fmt::Write, utc: &str) -> fmt::Result {
        ferrapi_wire::datetime::write_datetime(out, self.local, self.offset, utc)
    }
}

impl From<NaiveDateTime> for Datetime {
    fn from(local: NaiveDateTime) -> Self {
        Datetime::naive(local)
    }
}

impl<Tz: TimeZone> From<DateTime<Tz>> for Datetime {
    fn from(instant: DateTime<Tz>) -> Self {
        Datetime::aware(instant)
    }
}

fn read((local, offset): (NaiveDateTime, Option<i32>)) -> Result<Datetime, Failure> {
    let offset = match offset {
        None => None,
        // The reader checked the range (less than 24 hours), which is `FixedOffset`'s.
        Some(seconds) => Some(
            FixedOffset::east_opt(seconds)
                .ok_or_else(|| Failure::new("datetime_type", "Input should be a valid datetime"))?,
        ),
    };
    Ok(Datetime { local, offset })
}

impl TextValue for Datetime {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        datetime_text(raw).and_then(read)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        datetime_value(value).and_then(read)
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

text_value!(Datetime => "datetime");

impl Constrainable for Datetime {}

impl fmt::Display for Datetime {
    /// pydantic's text: `2024-03-01T10:00:00.500000+02:00`, UTC as `Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, "Z")
    }
}

impl Serialize for Datetime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let utc = if into_value::<S>() { "+00:00" } else { "Z" };
        let mut text = String::with_capacity(32);
        self.write(&mut text, utc)
            .map_err(|_| serde::ser::Error::custom("a date-time could not be written"))?;
        serializer.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for Datetime {
    /// The text (or timestamp) read as pydantic reads it, so a client reads back what a server
    /// wrote.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Datetime::from_value(&value).map_err(|failure| serde::de::Error::custom(failure.msg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read_text(text: &str) -> Datetime {
        Datetime::from_text(text).unwrap()
    }

    #[test]
    fn naive_and_aware_are_kept_as_sent() {
        let naive = read_text("2024-03-01T10:00:00");
        assert!(!naive.is_aware());
        assert_eq!(naive.to_string(), "2024-03-01T10:00:00");
        assert_eq!(read_text("2024-03-01").to_string(), "2024-03-01T00:00:00");
        let aware = read_text("2024-03-01T10:00:00.5+05:30");
        assert_eq!(aware.to_string(), "2024-03-01T10:00:00.500000+05:30");
        assert_eq!(
            aware.to_utc().map(|t| t.to_rfc3339()),
            Some("2024-03-01T04:30:00.500+00:00".to_owned())
        );
        assert_eq!(read_text("1709287200").to_string(), "2024-03-01T10:00:00Z");
    }

    #[test]
    fn utc_is_z_in_a_response_and_plus_zero_in_a_json_value() {
        let utc = read_text("2024-03-01T10:00:00-00:00");
        assert_eq!(serde_json::to_string(&utc).unwrap(), r#""2024-03-01T10:00:00Z""#);
        assert_eq!(json!({ "v": utc }), json!({ "v": "2024-03-01T10:00:00+00:00" }));
        let back: Datetime = serde_json::from_str(r#""2024-03-01T10:00:00Z""#).unwrap();
        assert_eq!(back, utc);
    }

    #[test]
    fn errors_are_the_lax_readers() {
        let failure = Datetime::from_value(&json!(true)).unwrap_err();
        assert_eq!(failure.kind, "datetime_type");
        let failure = Datetime::from_text("2024-02-30").unwrap_err();
        assert_eq!(failure.kind, "datetime_from_date_parsing");
    }
}
