//! The clinic's own rules for its dates and instants. Reading them is the framework's: its
//! strict date and date-time ([`Strict`], pydantic's strict mode, with pydantic's errors, schema
//! and `YYYY-MM-DD` text); what is left here is what the clinic adds.
//!
//! Rules enforced here:
//! - a [`Date`] is the framework's strict date: `YYYY-MM-DD` (or text that is a unix timestamp
//!   at midnight UTC, as pydantic's strict mode takes it), never a JSON number;
//! - a [`BirthDate`] is a [`Date`] that is not in the future anywhere on Earth (not after today
//!   at UTC+14, `date_in_future`), so a baby born today can be registered in every time zone;
//! - an [`Instant`] is the framework's strict date-time with an offset, kept and written back in
//!   UTC to the second (`2024-05-01T07:30:00Z`): fractional seconds are dropped, and the fixed
//!   width makes the text sort in time order. One whose UTC form leaves the years 1 to 9999
//!   (`0001-01-01T00:30:00+01:00`) has no such text and is refused (`datetime_parsing`).

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use ferrapi::chrono::{DateTime, Datelike, NaiveDate, Timelike, Utc};
use ferrapi::convert::{Constrainable, FastJson, FromJson};
use ferrapi::schema::{JsonSchema, SchemaRegistry};
use ferrapi::types::Strict;
use ferrapi::validation::{Failure, Loc, ValidationErrors};
use serde::{Deserializer, Serialize, Serializer};
use serde_json::{json, Value};

/// A day of the Gregorian calendar, read strictly (`YYYY-MM-DD`).
pub type Date = Strict<NaiveDate>;

/// The latest UTC offset in use (Kiribati's Line Islands): "today" somewhere on Earth.
const LATEST_OFFSET_SECONDS: i64 = 14 * 3600;

/// A date of birth: a [`Date`] not in the future (see the module rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BirthDate(pub NaiveDate);

/// The message of a date of birth in the future.
pub const FUTURE_BIRTH_DATE: &str = "Date of birth should not be in the future";

impl BirthDate {
    /// Check `date` against today (at UTC+14).
    pub fn new(date: NaiveDate) -> Result<Self, Failure> {
        if date > BirthDate::latest() {
            Err(Failure::new("date_in_future", FUTURE_BIRTH_DATE))
        } else {
            Ok(BirthDate(date))
        }
    }

    /// The latest date anywhere on Earth right now (today at UTC+14): the latest birth date.
    pub fn latest() -> NaiveDate {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
        DateTime::from_timestamp(now.saturating_add(LATEST_OFFSET_SECONDS), 0)
            .map_or(NaiveDate::MAX, |utc| utc.date_naive())
    }
}

impl FromJson for BirthDate {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let date = Date::from_json(value, loc, errors)?;
        BirthDate::new(date.0)
            .map_err(|failure| errors.push(failure.at(loc.clone(), value.clone())))
            .ok()
    }
}

impl FastJson for BirthDate {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let date = Date::fast(deserializer)?;
        BirthDate::new(date.0).map_err(|failure| serde::de::Error::custom(failure.msg))
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

/// An instant, from a date-time with an offset; kept in UTC to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(DateTime<Utc>);

const UTC_YEAR_OUT_OF_RANGE: &str = "year is out of range in UTC";

impl Instant {
    /// `utc` to the second, when its text has four digits of year.
    pub fn new(utc: DateTime<Utc>) -> Result<Self, Failure> {
        match utc.with_nanosecond(0) {
            Some(second) if (1..=9999).contains(&second.year()) => Ok(Instant(second)),
            _ => Err(Failure::with_ctx(
                "datetime_parsing",
                format!("Input should be a valid datetime, {UTC_YEAR_OUT_OF_RANGE}"),
                json!({ "error": UTC_YEAR_OUT_OF_RANGE }),
            )),
        }
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `new` keeps the year to four digits, which `%Y` writes padded.
        write!(f, "{}", self.0.format("%Y-%m-%dT%H:%M:%SZ"))
    }
}

impl FromJson for Instant {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        let utc = Strict::<DateTime<Utc>>::from_json(value, loc, errors)?;
        Instant::new(utc.0)
            .map_err(|failure| errors.push(failure.at(loc.clone(), value.clone())))
            .ok()
    }
}

impl FastJson for Instant {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let utc = Strict::<DateTime<Utc>>::fast(deserializer)?;
        Instant::new(utc.0).map_err(|failure| serde::de::Error::custom(failure.msg))
    }
}

impl JsonSchema for Instant {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        DateTime::<Utc>::schema(registry)
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
    use ferrapi::convert::FromParam;

    fn instant(text: &str) -> Result<String, Failure> {
        let utc = Strict::<DateTime<Utc>>::from_param(text)?;
        Instant::new(utc.0).map(|i| i.to_string())
    }

    #[test]
    fn birth_dates_are_not_in_the_future() {
        let today = BirthDate::latest();
        assert!(BirthDate::new(today).is_ok());
        let tomorrow = today.succ_opt().unwrap();
        assert_eq!(BirthDate::new(tomorrow).unwrap_err().kind, "date_in_future");
        assert!(BirthDate::new(NaiveDate::from_ymd_opt(1950, 6, 15).unwrap()).is_ok());
    }

    #[test]
    fn instants_are_kept_in_utc_to_the_second() {
        assert_eq!(
            instant("2024-05-01T09:30:00+02:00").unwrap(),
            "2024-05-01T07:30:00Z"
        );
        assert_eq!(
            instant("2024-05-01t09:30:00.999999Z").unwrap(),
            "2024-05-01T09:30:00Z"
        );
        assert_eq!(
            instant("2024-12-31T23:30:00-01:00").unwrap(),
            "2025-01-01T00:30:00Z"
        );
        assert_eq!(instant("0999-05-01T09:30:00Z").unwrap(), "0999-05-01T09:30:00Z");
        for out_of_range in ["0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"] {
            let failure = instant(out_of_range).unwrap_err();
            assert_eq!(
                (failure.kind, failure.msg.as_ref()),
                (
                    "datetime_parsing",
                    "Input should be a valid datetime, year is out of range in UTC"
                )
            );
        }
    }

    #[test]
    fn utc_text_sorts_in_time_order() {
        let a = instant("2024-05-01T09:30:00+02:00").unwrap();
        let b = instant("2024-05-01T08:00:00Z").unwrap();
        assert!(a < b);
    }
}
