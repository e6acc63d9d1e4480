//! `chrono`'s dates, times and date-times as parameters and fields, read as pydantic reads
//! `date`, `time`, `NaiveDatetime` and `AwareDatetime`.
//!
//! Rules enforced here:
//! - `NaiveDate` is pydantic's `date`: a date, or a date-time or timestamp at exactly midnight
//!   (`date_from_datetime_inexact` otherwise); bad text is `date_from_datetime_parsing`;
//! - `NaiveDateTime` is `NaiveDatetime`: an offset or a timestamp (which is UTC) is
//!   `timezone_naive`; `DateTime<FixedOffset>` and `DateTime<Utc>` are `AwareDatetime`: text
//!   without an offset is `timezone_aware`; bad text is `datetime_from_date_parsing`;
//! - `NaiveTime` is `time` without an offset (`timezone_naive`, a difference from pydantic, which
//!   keeps it: a `NaiveTime` has nowhere to keep it); a JSON number is seconds after midnight;
//! - JSON `null`, booleans, arrays and objects are the type errors (`date_type`, ...).

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Utc};
use serde_json::{json, Value};

use super::speedate::{self, DateParts, Instant, TimeParts};
use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

pub(super) fn parsing(kind: &'static str, words: &str, error: &str) -> Failure {
    Failure::with_ctx(kind, format!("{words}, {error}"), json!({ "error": error }))
}

pub(super) fn date_of(parts: DateParts) -> Result<NaiveDate, Failure> {
    // Python's dates start at year 1; chrono's do not.
    let year = Some(parts.year).filter(|&y| y > 0);
    year.and_then(|y| NaiveDate::from_ymd_opt(y, parts.month, parts.day))
        .ok_or_else(|| {
            parsing(
                "date_parsing",
                "Input should be a valid date in the format YYYY-MM-DD",
                "year 0 is out of range",
            )
        })
}

fn time_of(parts: TimeParts) -> NaiveTime {
    // The parser checked every range, so this is a real time of day.
    NaiveTime::from_hms_micro_opt(parts.hour, parts.minute, parts.second, parts.micro)
        .unwrap_or(NaiveTime::MIN)
}

/// A date-time read as written: the local date-time and its offset, if it had one.
pub(super) fn read_instant(instant: Instant) -> Result<(NaiveDateTime, Option<i32>), Failure> {
    match instant {
        Instant::Civil(date, time) => Ok((date_of(date)?.and_time(time_of(time)), time.offset)),
        Instant::Unix(seconds, micro) => DateTime::from_timestamp(seconds, micro * 1000)
            .map(|utc| (utc.naive_utc(), Some(0)))
            .ok_or_else(|| {
                parsing(
                    "datetime_parsing",
                    "Input should be a valid datetime",
                    "timestamp value is outside expected range",
                )
            }),
    }
}

const DATETIME_WORDS: &str = "Input should be a valid datetime or date";

/// A date-time from text or a JSON number, with its offset when it has one.
pub(super) fn datetime_value(value: &Value) -> Result<(NaiveDateTime, Option<i32>), Failure> {
    let instant = match value {
        Value::String(text) => speedate::datetime(text),
        Value::Number(n) => speedate::timestamp(n.as_f64().unwrap_or(f64::NAN)),
        _ => return Err(Failure::new("datetime_type", "Input should be a valid datetime")),
    };
    instant
        .map_err(|error| parsing("datetime_from_date_parsing", DATETIME_WORDS, error))
        .and_then(read_instant)
}

pub(super) fn datetime_text(raw: &str) -> Result<(NaiveDateTime, Option<i32>), Failure> {
    speedate::datetime(raw)
        .map_err(|error| parsing("datetime_from_date_parsing", DATETIME_WORDS, error))
        .and_then(read_instant)
}

pub(super) fn naive((local, offset): (NaiveDateTime, Option<i32>)) -> Result<NaiveDateTime, Failure> {
    match offset {
        None => Ok(local),
        Some(_) => Err(Failure::new(
            "timezone_naive",
            "Input should not have timezone info",
        )),
    }
}

pub(super) fn aware((local, offset): (NaiveDateTime, Option<i32>)) -> Result<DateTime<FixedOffset>, Failure> {
    let missing = || Failure::new("timezone_aware", "Input should have timezone info");
    let offset = FixedOffset::east_opt(offset.ok_or_else(missing)?).ok_or_else(missing)?;
    offset.from_local_datetime(&local).single().ok_or_else(missing)
}

impl TextValue for NaiveDateTime {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        datetime_text(raw).and_then(naive)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        datetime_value(value).and_then(naive)
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

impl TextValue for DateTime<FixedOffset> {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        datetime_text(raw).and_then(aware)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        datetime_value(value).and_then(aware)
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

impl TextValue for DateTime<Utc> {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        datetime_text(raw).and_then(aware).map(|t| t.with_timezone(&Utc))
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        datetime_value(value)
            .and_then(aware)
            .map(|t| t.with_timezone(&Utc))
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

const DATE_WORDS: &str = "Input should be a valid date or datetime";

fn inexact() -> Failure {
    Failure::new(
        "date_from_datetime_inexact",
        "Datetimes provided to dates should have zero time - e.g. be exact dates",
    )
}

/// A date from a date-time (or timestamp) at exactly midnight.
fn exact_date(instant: Instant) -> Result<NaiveDate, Failure> {
    let (local, _) = read_instant(instant)?;
    if local.time() == NaiveTime::MIN {
        Ok(local.date())
    } else {
        Err(inexact())
    }
}

/// A date, else (pydantic's lax fallback) a date-time at exactly midnight: text that is neither
/// reports the date-time's own error (`2024-03-01Z` is a bad separator), as pydantic does.
fn date_text(raw: &str) -> Result<NaiveDate, Failure> {
    match speedate::date(raw) {
        Ok(parts) => date_of(parts),
        Err(_) => match speedate::datetime_strict(raw) {
            Ok(instant) => exact_date(instant),
            Err(error) => Err(parsing("date_from_datetime_parsing", DATE_WORDS, error)),
        },
    }
}

impl TextValue for NaiveDate {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        date_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => date_text(text),
            Value::Number(n) => speedate::timestamp(n.as_f64().unwrap_or(f64::NAN))
                .map_err(|error| parsing("date_from_datetime_parsing", DATE_WORDS, error))
                .and_then(exact_date),
            _ => Err(Failure::new("date_type", "Input should be a valid date")),
        }
    }
    fn schema() -> Value {
        string_format("date")
    }
}

pub(super) fn time_text(raw: &str) -> Result<NaiveTime, Failure> {
    let parts = speedate::time(raw)
        .map_err(|error| parsing("time_parsing", "Input should be in a valid time format", error))?;
    match parts.offset {
        None => Ok(time_of(parts)),
        Some(_) => Err(Failure::new(
            "timezone_naive",
            "Input should not have timezone info",
        )),
    }
}

impl TextValue for NaiveTime {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        time_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => time_text(text),
            Value::Number(n) => {
                let seconds = n.as_f64().unwrap_or(f64::NAN);
                // pydantic's words: its own for a negative number, speedate's beyond a day.
                let error = if seconds.floor() < 0.0 {
                    Some("time in seconds should be positive")
                } else if seconds >= 86_400.0 || seconds.is_nan() {
                    Some("numeric times may not exceed 86,399 seconds")
                } else {
                    None
                };
                if let Some(error) = error {
                    return Err(parsing(
                        "time_parsing",
                        "Input should be in a valid time format",
                        error,
                    ));
                }
                let whole = seconds.floor();
                let nanos = (((seconds - whole) * 1e6).round() as u32).min(999_999) * 1000;
                Ok(NaiveTime::from_num_seconds_from_midnight_opt(whole as u32, nanos)
                    .unwrap_or(NaiveTime::MIN))
            }
            _ => Err(Failure::new("time_type", "Input should be a valid time")),
        }
    }
    fn schema() -> Value {
        string_format("time")
    }
}

text_value!(
    NaiveDate => "date",
    NaiveTime => "time",
    NaiveDateTime => "datetime",
    DateTime<FixedOffset> => "datetime",
    DateTime<Utc> => "datetime"
);

impl Constrainable for NaiveDate {}
impl Constrainable for NaiveTime {}
impl Constrainable for NaiveDateTime {}
impl<Tz: TimeZone> Constrainable for DateTime<Tz> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind<T: TextValue + std::fmt::Debug>(value: Value) -> (&'static str, String) {
        let failure = T::from_value(&value).unwrap_err();
        (failure.kind, failure.msg.into_owned())
    }

    #[test]
    fn aware_datetimes_keep_their_offset() {
        let t = DateTime::<FixedOffset>::from_text("2024-05-01T07:30:00+02:00").unwrap();
        assert_eq!(
            serde_json::to_value(t).unwrap(),
            json!("2024-05-01T07:30:00+02:00")
        );
        let t = DateTime::<FixedOffset>::from_value(&json!(1_714_548_600)).unwrap();
        assert_eq!(serde_json::to_value(t).unwrap(), json!("2024-05-01T07:30:00Z"));
        assert_eq!(
            kind::<DateTime<FixedOffset>>(json!("2024-05-01")).0,
            "timezone_aware"
        );
        assert_eq!(kind::<DateTime<FixedOffset>>(json!(true)).0, "datetime_type");
        let utc = DateTime::<Utc>::from_text("2024-05-01T09:30:00+02:00").unwrap();
        assert_eq!(serde_json::to_value(utc).unwrap(), json!("2024-05-01T07:30:00Z"));
    }

    #[test]
    fn naive_datetimes_refuse_offsets_and_timestamps() {
        assert_eq!(
            kind::<NaiveDateTime>(json!("2024-05-01T07:30:00Z")).0,
            "timezone_naive"
        );
        assert_eq!(kind::<NaiveDateTime>(json!(1)).0, "timezone_naive");
        let t = NaiveDateTime::from_text("2024-05-01").unwrap();
        assert_eq!(serde_json::to_value(t).unwrap(), json!("2024-05-01T00:00:00"));
    }

    #[test]
    fn dates_take_exact_datetimes() {
        assert_eq!(
            NaiveDate::from_value(&json!(1_714_521_600)).map(|d| d.to_string()),
            Ok("2024-05-01".into())
        );
        assert_eq!(
            kind::<NaiveDate>(json!("2024-05-01T10:00:00")).0,
            "date_from_datetime_inexact"
        );
        assert_eq!(
            kind::<NaiveDate>(json!("2024-02-30")),
            (
                "date_from_datetime_parsing",
                "Input should be a valid date or datetime, day value is outside expected range".into()
            )
        );
        assert_eq!(kind::<NaiveDate>(json!("0000-01-01")).0, "date_parsing");
    }

    #[test]
    fn times() {
        assert_eq!(
            NaiveTime::from_value(&json!(3600.5)).unwrap().to_string(),
            "01:00:00.500"
        );
        assert_eq!(kind::<NaiveTime>(json!("07:30Z")).0, "timezone_naive");
        assert_eq!(kind::<NaiveTime>(json!(null)).0, "time_type");
    }
}
