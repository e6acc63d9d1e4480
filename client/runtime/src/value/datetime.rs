//! `format: date-time`: pydantic writes the same schema for an aware datetime (with an offset)
//! and a naive one (without), so a client cannot know which it gets.
//!
//! Rules enforced here: [`DateTime`] holds either, as it came (with its offset, or a local
//! date-time), never guessing an offset for a naive one; it is read as pydantic reads a
//! `datetime` and written back as pydantic (and ferrapi's server) writes it (`Z` for UTC, six
//! digits of fraction when there is one): both by `ferrapi-wire`, the server's own code.

use std::fmt;
use std::str::FromStr;

use chrono::{FixedOffset, NaiveDateTime, TimeZone, Utc};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::param::ToParam;

/// A `date-time`: aware (with its offset from UTC) or naive (a wall-clock time, no offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateTime {
    /// With an offset: `2024-05-01T07:30:00Z`, `2024-05-01T09:30:00+02:00`.
    Aware(chrono::DateTime<FixedOffset>),
    /// Without: `2024-05-01T07:30:00`.
    Naive(NaiveDateTime),
}

impl DateTime {
    /// The aware date-time, if it is one.
    pub fn aware(&self) -> Option<chrono::DateTime<FixedOffset>> {
        match self {
            DateTime::Aware(aware) => Some(*aware),
            DateTime::Naive(_) => None,
        }
    }

    /// The naive date-time, if it is one.
    pub fn naive(&self) -> Option<NaiveDateTime> {
        match self {
            DateTime::Naive(naive) => Some(*naive),
            DateTime::Aware(_) => None,
        }
    }

    /// The instant in UTC, for an aware date-time.
    pub fn to_utc(&self) -> Option<chrono::DateTime<Utc>> {
        self.aware().map(|aware| aware.with_timezone(&Utc))
    }
}

impl<Tz: TimeZone> From<chrono::DateTime<Tz>> for DateTime {
    fn from(aware: chrono::DateTime<Tz>) -> Self {
        DateTime::Aware(aware.fixed_offset())
    }
}

impl From<NaiveDateTime> for DateTime {
    fn from(naive: NaiveDateTime) -> Self {
        DateTime::Naive(naive)
    }
}

impl PartialEq<chrono::DateTime<Utc>> for DateTime {
    fn eq(&self, other: &chrono::DateTime<Utc>) -> bool {
        self.aware().is_some_and(|aware| aware == *other)
    }
}

impl PartialEq<NaiveDateTime> for DateTime {
    fn eq(&self, other: &NaiveDateTime) -> bool {
        self.naive().is_some_and(|naive| naive == *other)
    }
}

/// The text is not a date-time (pydantic's words for why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidDateTime(String);

impl fmt::Display for InvalidDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidDateTime {}

impl FromStr for DateTime {
    type Err = InvalidDateTime;

    /// As pydantic reads a `datetime`: with or without an offset, a date alone (midnight,
    /// naive), or a unix timestamp (UTC).
    fn from_str(text: &str) -> Result<Self, InvalidDateTime> {
        let invalid = |error: ferrapi_wire::WireError| InvalidDateTime(format!("`{text}`: {error}"));
        let (local, offset) = ferrapi_wire::datetime::datetime_text(text).map_err(invalid)?;
        match offset {
            None => Ok(DateTime::Naive(local)),
            Some(_) => ferrapi_wire::datetime::aware((local, offset))
                .map(DateTime::Aware)
                .map_err(invalid),
        }
    }
}

impl fmt::Display for DateTime {
    /// pydantic's text: `2024-05-01T09:30:00.500000+02:00`, UTC as `Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateTime::Aware(aware) => {
                ferrapi_wire::datetime::write_datetime(f, aware.naive_local(), Some(*aware.offset()), "Z")
            }
            DateTime::Naive(naive) => ferrapi_wire::datetime::write_datetime(f, *naive, None, "Z"),
        }
    }
}

impl Serialize for DateTime {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DateTime {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl ToParam for DateTime {
    fn write_param(&self, out: &mut String) {
        use fmt::Write as _;
        let _ = write!(out, "{self}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kinds_round_trip_as_pydantic_writes_them() {
        for text in [
            "2024-05-01T07:30:00Z",
            "2024-05-01T09:30:00+02:00",
            "2024-05-01T07:30:00.123456Z",
            "2024-05-01T07:30:00",
            "2024-05-01T07:30:00.500000",
        ] {
            let value: DateTime = text.parse().unwrap();
            assert_eq!(value.to_string(), text);
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<DateTime>(&json).unwrap(), value);
        }
        assert!("2024-05-01T07:30:00"
            .parse::<DateTime>()
            .unwrap()
            .aware()
            .is_none());
        assert!("2024-05-01T07:30:00Z"
            .parse::<DateTime>()
            .unwrap()
            .naive()
            .is_none());
    }

    #[test]
    fn compares_with_chrono_and_refuses_other_text() {
        let utc = Utc.with_ymd_and_hms(2024, 5, 1, 7, 30, 0).unwrap();
        assert_eq!("2024-05-01T09:30:00+02:00".parse::<DateTime>().unwrap(), utc);
        assert_eq!(DateTime::from(utc).to_string(), "2024-05-01T07:30:00Z");
        assert!("yesterday".parse::<DateTime>().is_err());
        // Six digits of fraction, as the server (and pydantic) writes them.
        let quarter = "2024-05-01T10:30:00.25+02:00".parse::<DateTime>().unwrap();
        assert_eq!(quarter.to_string(), "2024-05-01T10:30:00.250000+02:00");
        assert!(serde_json::from_str::<DateTime>("1714548600").is_err());
    }
}
