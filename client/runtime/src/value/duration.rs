//! `format: duration`: pydantic's `timedelta`, written in ISO 8601 (`P1DT2H`, `PT1.5S`).
//!
//! Rules enforced here: written exactly as pydantic writes it (years of 365 days, no months,
//! microseconds at most, `PT0S` for zero, a leading `-` for a negative one); read as pydantic
//! reads one: ISO 8601 (`P1W`, `P1Y` = 365 days, `P1M` = 30 days, fractions), `[D days, ]HH:MM:SS`,
//! or a JSON number of seconds. Both by `ferrapi-wire`, the server's own code.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::param::ToParam;

/// A duration (pydantic's `timedelta`): a `chrono::TimeDelta`, in ISO 8601 on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub chrono::TimeDelta);

impl From<chrono::TimeDelta> for Duration {
    fn from(delta: chrono::TimeDelta) -> Self {
        Duration(delta)
    }
}

impl From<Duration> for chrono::TimeDelta {
    fn from(duration: Duration) -> Self {
        duration.0
    }
}

impl std::ops::Deref for Duration {
    type Target = chrono::TimeDelta;

    fn deref(&self) -> &chrono::TimeDelta {
        &self.0
    }
}

/// The text is not a duration (pydantic's words for why).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidDuration(String);

impl fmt::Display for InvalidDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InvalidDuration {}

impl FromStr for Duration {
    type Err = InvalidDuration;

    fn from_str(text: &str) -> Result<Self, InvalidDuration> {
        ferrapi_wire::duration::duration_text(text)
            .map(Duration)
            .map_err(|error| InvalidDuration(format!("`{text}`: {error}")))
    }
}

impl fmt::Display for Duration {
    /// pydantic's form: `P1DT2H`, `-PT5S`, `PT1H0.5S`, `PT0S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        ferrapi_wire::duration::write_duration(f, self.0)
    }
}

impl Serialize for Duration {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Wire<'a> {
            Seconds(f64),
            #[serde(borrow)]
            Text(std::borrow::Cow<'a, str>),
        }
        match Wire::deserialize(deserializer)? {
            Wire::Seconds(seconds) => ferrapi_wire::duration::from_seconds(seconds)
                .map(Duration)
                .map_err(serde::de::Error::custom),
            Wire::Text(text) => text.parse().map_err(serde::de::Error::custom),
        }
    }
}

impl ToParam for Duration {
    fn write_param(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> String {
        text.parse::<Duration>().unwrap().to_string()
    }

    #[test]
    fn written_as_pydantic_writes() {
        for (input, out) in [
            ("PT1H", "PT1H"),
            ("P1DT2H", "P1DT2H"),
            ("PT1.5S", "PT1.5S"),
            ("-PT1H", "-PT1H"),
            ("P1W", "P7D"),
            ("P1Y", "P1Y"),
            ("P1M", "P30D"),
            ("PT0S", "PT0S"),
            ("1 day, 01:00:00.5", "P1DT1H0.5S"),
            ("P2DT30M", "P2DT30M"),
        ] {
            assert_eq!(written(input), out, "{input}");
        }
    }

    #[test]
    fn read_from_text_or_seconds_and_refused_otherwise() {
        assert_eq!(
            serde_json::from_str::<Duration>("90").unwrap(),
            Duration(chrono::TimeDelta::seconds(90))
        );
        assert_eq!(
            serde_json::from_str::<Duration>("\"PT2H30M\"").unwrap(),
            Duration(chrono::TimeDelta::minutes(150))
        );
        assert_eq!(
            serde_json::from_str::<Duration>("3600.5").unwrap().to_string(),
            "PT1H0.5S"
        );
        for bad in ["", "P", "PT", "1 hour", "P1H", "PT1D", "3600.5"] {
            assert!(bad.parse::<Duration>().is_err(), "{bad}");
        }
    }
}
