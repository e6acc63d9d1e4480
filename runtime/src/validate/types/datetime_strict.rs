//! The strict readings of `chrono`'s dates and times, for [`Strict`](super::Strict): pydantic's
//! strict mode for JSON input (`Annotated[date, Strict()]`, `model_validate_json`), replayed from
//! its recorded answers (tests/fastapi/strict_observed.json).
//!
//! Rules enforced here:
//! - a date is `YYYY-MM-DD`, or text that is an integer timestamp at exactly midnight UTC
//!   (speedate's `Date::parse_bytes`); no date-time is cut to a date; the errors are
//!   `date_parsing` (`Input should be a valid date in the format YYYY-MM-DD, <speedate's words>`);
//! - a date-time needs its time (`2024-05-01` alone is `invalid datetime separator`), or is text
//!   that is a timestamp; the error is the date-time's own (`datetime_parsing`, `Input should be a
//!   valid datetime, hour value is outside expected range of 0-23`), not lax mode's date fallback;
//!   the offset rules are the lax types' (`timezone_aware`, `timezone_naive`);
//! - a time reads text as the lax `NaiveTime` does;
//! - any JSON value but a string is the type error: `date_type`, `datetime_type`, `time_type`.

use chrono::{DateTime, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use ferrapi_wire::datetime::{aware, naive, strict_date, strict_datetime};

use super::datetime::time_text;
use super::strict::{sealed::Sealed, StrictValue};
use crate::validate::error::Failure;

const DATETIME_WORDS: &str = "Input should be a valid datetime";

fn datetime_type() -> Failure {
    Failure::new("datetime_type", DATETIME_WORDS)
}

impl Sealed for NaiveDate {}
impl StrictValue for NaiveDate {
    fn from_strict_text(raw: &str) -> Result<Self, Failure> {
        Ok(strict_date(raw)?)
    }
    fn type_error() -> Failure {
        Failure::new("date_type", "Input should be a valid date")
    }
}

impl Sealed for NaiveDateTime {}
impl StrictValue for NaiveDateTime {
    fn from_strict_text(raw: &str) -> Result<Self, Failure> {
        Ok(naive(strict_datetime(raw)?)?)
    }
    fn type_error() -> Failure {
        datetime_type()
    }
}

impl Sealed for DateTime<FixedOffset> {}
impl StrictValue for DateTime<FixedOffset> {
    fn from_strict_text(raw: &str) -> Result<Self, Failure> {
        Ok(aware(strict_datetime(raw)?)?)
    }
    fn type_error() -> Failure {
        datetime_type()
    }
}

impl Sealed for DateTime<Utc> {}
impl StrictValue for DateTime<Utc> {
    fn from_strict_text(raw: &str) -> Result<Self, Failure> {
        Ok(aware(strict_datetime(raw)?)?.with_timezone(&Utc))
    }
    fn type_error() -> Failure {
        datetime_type()
    }
}

impl Sealed for NaiveTime {}
impl StrictValue for NaiveTime {
    fn from_strict_text(raw: &str) -> Result<Self, Failure> {
        time_text(raw)
    }
    fn type_error() -> Failure {
        Failure::new("time_type", "Input should be a valid time")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error<T: StrictValue>(raw: &str) -> String {
        T::from_strict_text(raw)
            .err()
            .map(|f| format!("{} {}", f.kind, f.msg))
            .unwrap_or_default()
    }

    #[test]
    fn dates_are_text_or_exact_integer_timestamps() {
        let day = |raw| NaiveDate::from_strict_text(raw).map(|d| d.to_string()).ok();
        assert_eq!(day("2024-02-29").as_deref(), Some("2024-02-29"));
        assert_eq!(day("1714521600").as_deref(), Some("2024-05-01"));
        assert_eq!(
            day("1714521600000").as_deref(),
            Some("2024-05-01"),
            "milliseconds"
        );
        assert_eq!(day("-86400").as_deref(), Some("1969-12-31"));
        assert_eq!(
            error::<NaiveDate>("1714521601"),
            "date_parsing Input should be a valid date in the format YYYY-MM-DD, Timestamp is not an exact date"
        );
        assert!(
            error::<NaiveDate>("253402300800").ends_with("Timestamp is not an exact date"),
            "year 10000"
        );
        assert!(error::<NaiveDate>("1714521600.0").ends_with("invalid date separator, expected `-`"));
        assert!(error::<NaiveDate>("2024-05-01T00:00:00")
            .ends_with("unexpected extra characters at the end of the input"));
        assert_eq!(NaiveDate::type_error().kind, "date_type");
    }

    #[test]
    fn datetimes_report_their_own_error() {
        assert_eq!(
            error::<DateTime<Utc>>("2024-05-01"),
            "datetime_parsing Input should be a valid datetime, invalid datetime separator, expected `T`, `t`, `_` or space"
        );
        assert_eq!(
            error::<DateTime<Utc>>("2024-05-01T07:30:00"),
            "timezone_aware Input should have timezone info"
        );
        assert_eq!(
            error::<NaiveDateTime>("2024-05-01T07:30:00Z"),
            "timezone_naive Input should not have timezone info"
        );
        let utc = DateTime::<Utc>::from_strict_text("2024-05-01T09:30+0200").map(|t| t.to_rfc3339());
        assert_eq!(utc.as_deref(), Ok("2024-05-01T07:30:00+00:00"));
        assert_eq!(
            error::<NaiveTime>("07:30+02"),
            "time_parsing Input should be in a valid time format, invalid timezone minute"
        );
    }
}
