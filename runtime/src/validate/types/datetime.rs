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
use ferrapi_wire::datetime::{self as wire, aware, naive, Local};
use serde_json::Value;

use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

/// A date-time from text or a JSON number, with its offset when it has one.
pub(super) fn datetime_value(value: &Value) -> Result<Local, Failure> {
    match value {
        Value::String(text) => Ok(wire::datetime_text(text)?),
        Value::Number(n) => Ok(wire::datetime_timestamp(n.as_f64().unwrap_or(f64::NAN))?),
        _ => Err(Failure::new("datetime_type", "Input should be a valid datetime")),
    }
}

#[inline]
pub(super) fn datetime_text(raw: &str) -> Result<Local, Failure> {
    Ok(wire::datetime_text(raw)?)
}

impl TextValue for NaiveDateTime {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        Ok(naive(datetime_text(raw)?)?)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        Ok(naive(datetime_value(value)?)?)
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

impl TextValue for DateTime<FixedOffset> {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        Ok(aware(datetime_text(raw)?)?)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        Ok(aware(datetime_value(value)?)?)
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

impl TextValue for DateTime<Utc> {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        Ok(aware(datetime_text(raw)?)?.with_timezone(&Utc))
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        Ok(aware(datetime_value(value)?)?.with_timezone(&Utc))
    }
    fn schema() -> Value {
        string_format("date-time")
    }
}

impl TextValue for NaiveDate {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        Ok(wire::date_text(raw)?)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => Ok(wire::date_text(text)?),
            Value::Number(n) => Ok(wire::date_timestamp(n.as_f64().unwrap_or(f64::NAN))?),
            _ => Err(Failure::new("date_type", "Input should be a valid date")),
        }
    }
    fn schema() -> Value {
        string_format("date")
    }
}

/// A time without an offset (`timezone_naive` otherwise: a `NaiveTime` has nowhere to keep one).
pub(super) fn time_text(raw: &str) -> Result<NaiveTime, Failure> {
    match wire::time_text(raw)? {
        (time, None) => Ok(time),
        (_, Some(_)) => Err(Failure::new(
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
            Value::Number(n) => Ok(wire::time_seconds(n.as_f64().unwrap_or(f64::NAN))?),
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
    use serde_json::json;

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
