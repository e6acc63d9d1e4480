//! [`Duration`]: pydantic's `timedelta`, read from ISO 8601 (`P1DT2H`), from `[D day[s], ]HH:MM:SS`
//! and from a number of seconds, and written back as pydantic writes it (`P1DT2H`).
//!
//! Rules enforced here:
//! - ISO 8601 durations take years (365 days), months (30 days), weeks, days, hours, minutes and
//!   seconds with a fraction, and a leading sign, as speedate does;
//! - text that is neither form is `time_delta_parsing` with speedate's words (the grammar is
//!   `speedate_duration`'s); a JSON number is seconds, a boolean 0 or 1 second; `null`, arrays
//!   and objects are `time_delta_type`;
//! - the written form is pydantic's: days split into years of 365 days, then `T` hours, minutes
//!   and seconds, each part left out when zero, `PT0S` for nothing, a leading `-` when negative;
//!   put into a `json!`, the seconds as a float, as FastAPI's `jsonable_encoder` writes it.

use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;
use ferrapi_wire::duration as wire;

/// A signed length of time (pydantic's `timedelta`), to the microsecond. The value is a
/// `chrono::TimeDelta`; the newtype exists because chrono writes a `TimeDelta` as a
/// `[seconds, nanoseconds]` pair, and FastAPI writes an ISO 8601 duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub chrono::TimeDelta);

impl std::ops::Deref for Duration {
    type Target = chrono::TimeDelta;
    fn deref(&self) -> &chrono::TimeDelta {
        &self.0
    }
}

impl From<chrono::TimeDelta> for Duration {
    fn from(delta: chrono::TimeDelta) -> Self {
        Duration(delta)
    }
}

fn duration_text(raw: &str) -> Result<Duration, Failure> {
    Ok(Duration(wire::duration_text(raw)?))
}

fn from_seconds(seconds: f64) -> Result<Duration, Failure> {
    Ok(Duration(wire::from_seconds(seconds)?))
}

impl TextValue for Duration {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        duration_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => duration_text(text),
            Value::Number(n) => from_seconds(n.as_f64().unwrap_or(f64::NAN)),
            // pydantic's lax mode reads a boolean as 0 or 1 second.
            Value::Bool(b) => from_seconds(f64::from(u8::from(*b))),
            _ => Err(Failure::new(
                "time_delta_type",
                "Input should be a valid timedelta",
            )),
        }
    }
    fn schema() -> Value {
        string_format("duration")
    }
}

text_value!(Duration => "timedelta");

impl Constrainable for Duration {}

impl fmt::Display for Duration {
    /// pydantic's ISO 8601 form: `P1DT2H`, `-PT5S`, `PT1H0.5S`, `PT0S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        wire::write_duration(f, self.0)
    }
}

impl Duration {
    /// The length in seconds, as Python's `timedelta.total_seconds()` gives it.
    pub fn total_seconds(&self) -> f64 {
        wire::total_seconds(self.0)
    }
}

impl Serialize for Duration {
    /// pydantic's ISO 8601 text in a response of a model; in a `json!`, the seconds as a float,
    /// as FastAPI's `jsonable_encoder` writes a `timedelta` (`3600.0`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if super::into_value::<S>() {
            return serializer.serialize_f64(self.total_seconds());
        }
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The grammar and the written form are ferrapi-wire's (its tests); here, what the server adds.
    #[test]
    fn json_values_and_errors() {
        assert_eq!(
            Duration::from_value(&serde_json::json!(3600.5))
                .unwrap()
                .to_string(),
            "PT1H0.5S"
        );
        assert_eq!(
            Duration::from_value(&serde_json::json!(true))
                .unwrap()
                .to_string(),
            "PT1S"
        );
        assert_eq!(
            Duration::from_text("3600.5").unwrap_err().ctx,
            Some(serde_json::json!({ "error": "invalid character in hour" }))
        );
        assert_eq!(
            Duration::from_value(&Value::Null).unwrap_err().kind,
            "time_delta_type"
        );
    }
}
