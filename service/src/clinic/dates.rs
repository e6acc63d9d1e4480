//! Calendar dates and instants for the clinic's models: the text parsed by hand (the grammar is
//! small, and the messages are pydantic's strict mode's), the calendar (which days exist, day
//! numbers) chrono's, through the framework's `datetime` feature.
//!
//! Rules enforced here:
//! - a [`Date`] is exactly `YYYY-MM-DD` (RFC 3339 `full-date`), a real day of the Gregorian
//!   calendar (leap years included) from 0001-01-01; it is never read from a number;
//! - a [`BirthDate`] is a [`Date`] that is not in the future anywhere on Earth (not after today at
//!   UTC+14), so a baby born today can be registered in every time zone;
//! - an [`Instant`] is an RFC 3339 `date-time` with its offset (`Z` or `±HH:MM`; `T`, `t` or a
//!   space between date and time; fractional seconds allowed): a time without an offset is
//!   refused (`timezone_aware`), since it names no instant. It is kept, and written back, in UTC
//!   to the second (`2024-05-01T07:30:00Z`): fractional seconds are dropped, and the fixed width
//!   makes the text sort in time order;
//! - a failure is pydantic's strict-mode error: `date_type`/`datetime_type` for a value that is
//!   not a string, `date_parsing`/`datetime_parsing` with speedate's words for a malformed one.

use std::borrow::Cow;
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use ferrapi::chrono::{DateTime, Datelike, NaiveDate};
use ferrapi::convert::{Constrainable, FastJson, FromJson, FromParam};
use ferrapi::schema::{JsonSchema, SchemaRegistry};
use ferrapi::validation::{Failure, Loc, ValidationErrors};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{json, Value};

const SECONDS_PER_DAY: i64 = 86_400;
/// The latest UTC offset in use (Kiribati's Line Islands): "today" somewhere on Earth.
const LATEST_OFFSET_SECONDS: i64 = 14 * 3600;

/// Days from 0001-01-01 (chrono's day 1 of the common era) to 1970-01-01.
const EPOCH_DAYS_FROM_CE: i64 = 719_163;

/// A day of the Gregorian calendar, written `YYYY-MM-DD` (chrono's, from year 1 to 9999).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(NaiveDate);

/// A cursor over the text being parsed, reporting speedate's errors.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor {
            bytes: text.as_bytes(),
            at: 0,
        }
    }

    fn digits(&mut self, count: usize, what: &'static str) -> Result<u32, &'static str> {
        let mut value = 0;
        for _ in 0..count {
            match self.bytes.get(self.at) {
                None => return Err("input is too short"),
                Some(b) if b.is_ascii_digit() => value = value * 10 + u32::from(b - b'0'),
                Some(_) => return Err(what),
            }
            self.at += 1;
        }
        Ok(value)
    }

    fn take_one_of(&mut self, allowed: &[u8], what: &'static str) -> Result<u8, &'static str> {
        match self.bytes.get(self.at) {
            None => Err("input is too short"),
            Some(b) if allowed.contains(b) => {
                self.at += 1;
                Ok(*b)
            }
            Some(_) => Err(what),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

fn parse_date_part(cursor: &mut Cursor<'_>) -> Result<Date, &'static str> {
    let year = cursor.digits(4, "invalid character in year")?;
    cursor.take_one_of(b"-", "invalid date separator, expected `-`")?;
    let month = cursor.digits(2, "invalid character in month")?;
    cursor.take_one_of(b"-", "invalid date separator, expected `-`")?;
    let day = cursor.digits(2, "invalid character in day")?;
    if year == 0 {
        return Err("year 0 is out of range");
    }
    if !(1..=12).contains(&month) {
        return Err("month value is outside expected range of 1-12");
    }
    // Four digits: the year fits an `i32`; chrono knows which days each month has.
    let year = i32::try_from(year).map_err(|_| "input is too short")?;
    NaiveDate::from_ymd_opt(year, month, day)
        .map(Date)
        .ok_or("day value is outside expected range")
}

impl Date {
    /// Parse `YYYY-MM-DD`; the error is speedate's description of the problem.
    pub fn parse(text: &str) -> Result<Self, &'static str> {
        let mut cursor = Cursor::new(text);
        let date = parse_date_part(&mut cursor)?;
        if cursor.done() {
            Ok(date)
        } else {
            Err("unexpected extra characters at the end of the input")
        }
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days_since_epoch(days: i64) -> Option<Self> {
        let from_ce = i32::try_from(days.checked_add(EPOCH_DAYS_FROM_CE)?).ok()?;
        NaiveDate::from_num_days_from_ce_opt(from_ce)
            .filter(|date| (1..=9999).contains(&date.year()))
            .map(Date)
    }

    /// Days since 1970-01-01.
    pub fn days_since_epoch(self) -> i64 {
        i64::from(self.0.num_days_from_ce()) - EPOCH_DAYS_FROM_CE
    }

    /// The latest date anywhere on Earth right now (today at UTC+14).
    pub fn latest_today() -> Self {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
        let days = (now + LATEST_OFFSET_SECONDS).div_euclid(SECONDS_PER_DAY);
        Date::from_days_since_epoch(days).unwrap_or(Date(LAST_DAY))
    }
}

/// The last day a [`Date`] can be.
const LAST_DAY: NaiveDate = match NaiveDate::from_ymd_opt(9999, 12, 31) {
    Some(day) => day,
    None => NaiveDate::MAX,
};

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let date = self.0;
        write!(f, "{:04}-{:02}-{:02}", date.year(), date.month(), date.day())
    }
}

fn date_failure(error: &'static str) -> Failure {
    Failure::with_ctx(
        "date_parsing",
        format!("Input should be a valid date in the format YYYY-MM-DD, {error}"),
        json!({ "error": error }),
    )
}

fn record(errors: &mut ValidationErrors, loc: &Loc, failure: Failure, input: &Value) {
    errors.push(failure.at(loc.clone(), input.clone()));
}

fn date_from_json(value: &Value, loc: &Loc, errors: &mut ValidationErrors) -> Option<Date> {
    match value {
        Value::String(text) => Date::parse(text)
            .map_err(|error| record(errors, loc, date_failure(error), value))
            .ok(),
        _ => {
            record(
                errors,
                loc,
                Failure::new("date_type", "Input should be a valid date"),
                value,
            );
            None
        }
    }
}

/// Strict deserialization of a date string (the fast path of a body, and stored documents).
fn deserialize_text<'de, D: Deserializer<'de>, T>(
    deserializer: D,
    parse: impl FnOnce(&str) -> Result<T, Cow<'static, str>>,
) -> Result<T, D::Error> {
    let text = Cow::<'de, str>::deserialize(deserializer)?;
    parse(&text).map_err(serde::de::Error::custom)
}

impl FromJson for Date {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        date_from_json(value, loc, errors)
    }
}

impl FromParam for Date {
    fn from_param(raw: &str) -> Result<Self, Failure> {
        Date::parse(raw).map_err(date_failure)
    }
}

impl FastJson for Date {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_text(deserializer, |text| Date::parse(text).map_err(Cow::Borrowed))
    }
}

impl JsonSchema for Date {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "string", "format": "date" })
    }
}

impl Constrainable for Date {}

impl Serialize for Date {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A date of birth: a [`Date`] not in the future (see the module rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BirthDate(pub Date);

/// The message of a date of birth in the future.
pub const FUTURE_BIRTH_DATE: &str = "Date of birth should not be in the future";

impl BirthDate {
    /// Check `date` against today (at UTC+14).
    pub fn new(date: Date) -> Result<Self, Failure> {
        if date > Date::latest_today() {
            Err(Failure::new("date_in_future", FUTURE_BIRTH_DATE))
        } else {
            Ok(BirthDate(date))
        }
    }
}

impl FromJson for BirthDate {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let date = date_from_json(value, loc, errors)?;
        BirthDate::new(date)
            .map_err(|failure| record(errors, loc, failure, value))
            .ok()
    }
}

impl FastJson for BirthDate {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let date = Date::fast(deserializer)?;
        BirthDate::new(date).map_err(|failure| serde::de::Error::custom(failure.msg))
    }
}

impl JsonSchema for BirthDate {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        Date::schema(registry)
    }
}

impl Constrainable for BirthDate {}

impl Serialize for BirthDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// An instant, from an RFC 3339 date-time with an offset; kept in UTC to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant {
    /// Seconds since 1970-01-01T00:00:00Z.
    seconds: i64,
}

/// Why a date-time was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstantError {
    /// Malformed; speedate's words.
    Parsing(&'static str),
    /// Well formed but without an offset.
    NoOffset,
}

impl Instant {
    /// Parse an RFC 3339 date-time with an offset.
    pub fn parse(text: &str) -> Result<Self, InstantError> {
        use InstantError::{NoOffset, Parsing};
        let mut cursor = Cursor::new(text);
        let date = parse_date_part(&mut cursor).map_err(Parsing)?;
        if cursor.done() {
            return Err(NoOffset);
        }
        cursor
            .take_one_of(
                b"Tt _",
                "invalid datetime separator, expected `T`, `t`, `_` or space",
            )
            .map_err(Parsing)?;
        let hour = cursor.digits(2, "invalid character in hour").map_err(Parsing)?;
        cursor
            .take_one_of(b":", "invalid time separator, expected `:`")
            .map_err(Parsing)?;
        let minute = cursor.digits(2, "invalid character in minute").map_err(Parsing)?;
        cursor
            .take_one_of(b":", "invalid time separator, expected `:`")
            .map_err(Parsing)?;
        let second = cursor.digits(2, "invalid character in second").map_err(Parsing)?;
        if hour > 23 {
            return Err(Parsing("hour value is outside expected range of 0-23"));
        }
        if minute > 59 {
            return Err(Parsing("minute value is outside expected range of 0-59"));
        }
        if second > 59 {
            return Err(Parsing("second value is outside expected range of 0-59"));
        }
        if cursor.peek() == Some(b'.') {
            cursor.at += 1;
            let start = cursor.at;
            while cursor.peek().is_some_and(|b| b.is_ascii_digit()) {
                cursor.at += 1;
            }
            if cursor.at == start {
                return Err(Parsing("second fraction must contain at least one digit"));
            }
        }
        let offset = match cursor.peek() {
            None => return Err(NoOffset),
            Some(b'Z' | b'z') => {
                cursor.at += 1;
                0
            }
            Some(sign @ (b'+' | b'-')) => {
                cursor.at += 1;
                let hours = cursor
                    .digits(2, "invalid timezone hour, expected `HH`")
                    .map_err(Parsing)?;
                cursor
                    .take_one_of(b":", "invalid timezone sign, expected `:`")
                    .map_err(Parsing)?;
                let minutes = cursor
                    .digits(2, "invalid timezone minute, expected `MM`")
                    .map_err(Parsing)?;
                if hours > 23 || minutes > 59 {
                    return Err(Parsing("timezone offset must be less than 24 hours"));
                }
                let offset = i64::from(hours * 3600 + minutes * 60);
                if sign == b'-' {
                    -offset
                } else {
                    offset
                }
            }
            Some(_) => return Err(Parsing("invalid timezone sign")),
        };
        if !cursor.done() {
            return Err(Parsing("unexpected extra characters at the end of the input"));
        }
        let local = date.days_since_epoch() * SECONDS_PER_DAY + i64::from(hour * 3600 + minute * 60 + second);
        let instant = Instant {
            seconds: local - offset,
        };
        // The UTC form must still be a four-digit year.
        if Date::from_days_since_epoch(instant.seconds.div_euclid(SECONDS_PER_DAY)).is_none() {
            return Err(Parsing("year is out of range in UTC"));
        }
        Ok(instant)
    }

    /// Seconds since 1970-01-01T00:00:00Z.
    pub fn unix_seconds(self) -> i64 {
        self.seconds
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `parse` keeps the UTC year to four digits, which `%Y` writes padded.
        match DateTime::from_timestamp(self.seconds, 0) {
            Some(utc) => write!(f, "{}", utc.format("%Y-%m-%dT%H:%M:%SZ")),
            None => write!(f, "{}", self.seconds),
        }
    }
}

fn instant_failure(error: InstantError) -> Failure {
    match error {
        InstantError::Parsing(error) => Failure::with_ctx(
            "datetime_parsing",
            format!("Input should be a valid datetime, {error}"),
            json!({ "error": error }),
        ),
        InstantError::NoOffset => Failure::new("timezone_aware", "Input should have timezone info"),
    }
}

impl FromJson for Instant {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let failure = match value {
            Value::String(text) => match Instant::parse(text) {
                Ok(instant) => return Some(instant),
                Err(error) => instant_failure(error),
            },
            _ => Failure::new("datetime_type", "Input should be a valid datetime"),
        };
        record(errors, loc, failure, value);
        None
    }
}

impl FastJson for Instant {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserialize_text(deserializer, |text| {
            Instant::parse(text).map_err(|_| Cow::Borrowed("not an RFC 3339 date-time"))
        })
    }
}

impl JsonSchema for Instant {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "string", "format": "date-time" })
    }
}

impl Constrainable for Instant {}

impl Serialize for Instant {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_real_calendar_days() {
        assert_eq!(
            Date::parse("2024-02-29").map(|d| d.to_string()),
            Ok("2024-02-29".into())
        );
        assert_eq!(
            Date::parse("2000-02-29").map(|d| d.to_string()),
            Ok("2000-02-29".into())
        );
        assert_eq!(
            Date::parse("1900-02-29"),
            Err("day value is outside expected range")
        );
        assert_eq!(
            Date::parse("2023-02-29"),
            Err("day value is outside expected range")
        );
        assert_eq!(
            Date::parse("2020-04-31"),
            Err("day value is outside expected range")
        );
        assert_eq!(
            Date::parse("2020-13-01"),
            Err("month value is outside expected range of 1-12")
        );
        assert_eq!(
            Date::parse("2020-00-10"),
            Err("month value is outside expected range of 1-12")
        );
        assert_eq!(Date::parse("2020-1-1"), Err("invalid character in month"));
        assert_eq!(Date::parse("abc"), Err("invalid character in year"));
        assert_eq!(Date::parse(""), Err("input is too short"));
        assert_eq!(Date::parse("2020-01"), Err("input is too short"));
        assert_eq!(
            Date::parse("2020/01/01"),
            Err("invalid date separator, expected `-`")
        );
        assert_eq!(
            Date::parse("2020-01-01T00:00:00"),
            Err("unexpected extra characters at the end of the input")
        );
        assert_eq!(Date::parse("0000-01-01"), Err("year 0 is out of range"));
        assert_eq!(Date::parse("٢٠٢٠-01-01"), Err("invalid character in year"));
    }

    #[test]
    fn day_numbers_round_trip() {
        for days in [-719_162, -1, 0, 1, 11_016, 19_782, 2_932_896] {
            let date = Date::from_days_since_epoch(days).unwrap();
            assert_eq!(date.days_since_epoch(), days, "{date}");
        }
        assert_eq!(Date::from_days_since_epoch(0).unwrap().to_string(), "1970-01-01");
        assert_eq!(
            Date::from_days_since_epoch(19_782).unwrap().to_string(),
            "2024-02-29"
        );
        assert_eq!(Date::from_days_since_epoch(-719_163), None, "year 0");
    }

    #[test]
    fn birth_dates_are_not_in_the_future() {
        let today = Date::latest_today();
        assert!(BirthDate::new(today).is_ok());
        let tomorrow = Date::from_days_since_epoch(today.days_since_epoch() + 1).unwrap();
        assert_eq!(BirthDate::new(tomorrow).unwrap_err().kind, "date_in_future");
        assert!(BirthDate::new(Date::parse("1950-06-15").unwrap()).is_ok());
    }

    #[test]
    fn instants_need_an_offset_and_are_kept_in_utc() {
        let utc = |text: &str| Instant::parse(text).map(|i| i.to_string());
        assert_eq!(
            utc("2024-05-01T09:30:00+02:00"),
            Ok("2024-05-01T07:30:00Z".into())
        );
        assert_eq!(utc("2024-05-01 09:30:00z"), Ok("2024-05-01T09:30:00Z".into()));
        assert_eq!(
            utc("2024-05-01t09:30:00.999999999Z"),
            Ok("2024-05-01T09:30:00Z".into())
        );
        assert_eq!(
            utc("2024-12-31T23:30:00-01:00"),
            Ok("2025-01-01T00:30:00Z".into())
        );
        assert_eq!(utc("1969-12-31T23:59:59Z"), Ok("1969-12-31T23:59:59Z".into()));
        assert_eq!(utc("2024-05-01T09:30:00"), Err(InstantError::NoOffset));
        assert_eq!(utc("2024-05-01"), Err(InstantError::NoOffset));
        assert_eq!(
            utc("2024-05-01T24:00:00Z"),
            Err(InstantError::Parsing(
                "hour value is outside expected range of 0-23"
            ))
        );
        assert_eq!(
            utc("2024-05-01T09:30Z"),
            Err(InstantError::Parsing("invalid time separator, expected `:`"))
        );
        assert_eq!(
            utc("2024-05-01T09:30:00+0200"),
            Err(InstantError::Parsing("invalid timezone sign, expected `:`"))
        );
        assert_eq!(
            utc("2024-05-01T09:30:00Zx"),
            Err(InstantError::Parsing(
                "unexpected extra characters at the end of the input"
            ))
        );
        assert_eq!(
            utc("0001-01-01T00:30:00+01:00"),
            Err(InstantError::Parsing("year is out of range in UTC"))
        );
    }

    #[test]
    fn utc_text_sorts_in_time_order() {
        let a = Instant::parse("2024-05-01T09:30:00+02:00").unwrap();
        let b = Instant::parse("2024-05-01T08:00:00Z").unwrap();
        assert!(a < b);
        assert!(a.to_string() < b.to_string());
    }
}
