//! `format: time`: pydantic's `time` may carry an offset (FastAPI answers `"10:30:00+02:00"` or
//! `"01:01:01Z"`) and writes the same schema either way, so a client cannot know which it gets.
//!
//! Rules enforced here: [`Time`] holds either, as it came, never guessing an offset; it is read
//! as pydantic reads a `time` and written as pydantic (and ferrapi's server) writes it (`Z` for
//! UTC, six digits of fraction when there is one), both by `ferrapi-wire`, the server's own code.

use std::fmt;
use std::str::FromStr;

use chrono::{FixedOffset, NaiveTime};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::param::ToParam;

/// A `time`: aware (with its offset from UTC) or naive (a wall-clock time, no offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Time {
    /// With an offset: `10:30:00+02:00`, `01:01:01Z`.
    Aware(NaiveTime, FixedOffset),
    /// Without: `10:30:00`.
    Naive(NaiveTime),
}

impl Time {
    /// The time of day as written, at its own offset (or without one).
    pub fn local(&self) -> NaiveTime {
        match self {
            Time::Aware(time, _) | Time::Naive(time) => *time,
        }
    }

    /// The offset from UTC it was sent with; `None` for a naive time.
    pub fn offset(&self) -> Option<FixedOffset> {
        match self {
            Time::Aware(_, offset) => Some(*offset),
            Time::Naive(_) => None,
        }
    }

    /// The naive time, if it is one.
    pub fn naive(&self) -> Option<NaiveTime> {
        match self {
            Time::Naive(time) => Some(*time),
            Time::Aware(..) => None,
        }
    }
}

impl From<NaiveTime> for Time {
    fn from(time: NaiveTime) -> Self {
        Time::Naive(time)
    }
}

impl PartialEq<NaiveTime> for Time {
    fn eq(&self, other: &NaiveTime) -> bool {
        self.naive().is_some_and(|time| time == *other)
    }
}

/// The text is not a time (pydantic's words for why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidTime(String);

impl fmt::Display for InvalidTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidTime {}

impl FromStr for Time {
    type Err = InvalidTime;

    fn from_str(text: &str) -> Result<Self, InvalidTime> {
        let invalid = |words: String| InvalidTime(format!("`{text}`: {words}"));
        let (time, offset) = ferrapi_wire::datetime::time_text(text).map_err(|e| invalid(e.to_string()))?;
        match offset {
            None => Ok(Time::Naive(time)),
            // The reader keeps offsets below a day, which is `FixedOffset`'s range.
            Some(seconds) => FixedOffset::east_opt(seconds)
                .map(|offset| Time::Aware(time, offset))
                .ok_or_else(|| invalid("timezone offset must be less than 24 hours".to_owned())),
        }
    }
}

impl fmt::Display for Time {
    /// pydantic's text: `10:30:00`, `10:30:00.250000+02:00`, `01:01:01Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ferrapi_wire::datetime::write_time(f, self.local(), self.offset())
    }
}

impl Serialize for Time {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Time {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl ToParam for Time {
    fn write_param(&self, out: &mut String) {
        use fmt::Write as _;
        let _ = write!(out, "{self}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aware_and_naive_round_trip_as_pydantic_writes_them() {
        for text in [
            "10:30:00+02:00",
            "01:01:01Z",
            "10:30:00",
            "10:30:00.250000",
            "23:59:59.999999-05:30",
        ] {
            let value: Time = text.parse().unwrap();
            assert_eq!(value.to_string(), text);
            let json = serde_json::to_string(&value).unwrap();
            assert_eq!(serde_json::from_str::<Time>(&json).unwrap(), value);
        }
        let aware: Time = serde_json::from_str(r#""10:30:00+02:00""#).unwrap();
        assert_eq!(aware.offset(), FixedOffset::east_opt(7200));
        assert_eq!(aware.local(), NaiveTime::from_hms_opt(10, 30, 0).unwrap());
        let naive: Time = "10:30".parse().unwrap();
        assert_eq!(naive, NaiveTime::from_hms_opt(10, 30, 0).unwrap());
        assert_eq!(naive.to_string(), "10:30:00");
        assert_eq!(
            "10:30:00.25".parse::<Time>().unwrap().to_string(),
            "10:30:00.250000"
        );
    }

    #[test]
    fn other_text_is_refused_with_pydantics_words() {
        let error = "10:30:00 trailing".parse::<Time>().unwrap_err();
        assert!(error.to_string().contains("invalid timezone sign"), "{error}");
        assert!("25:00".parse::<Time>().is_err());
        assert!(serde_json::from_str::<Time>("3600").is_err());
    }
}
