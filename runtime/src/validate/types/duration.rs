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

use std::fmt::{self, Write as _};

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use super::speedate_duration::{self, DurationParts};
use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

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

fn parsing(error: &str) -> Failure {
    Failure::with_ctx(
        "time_delta_parsing",
        format!("Input should be a valid timedelta, {error}"),
        json!({ "error": error }),
    )
}

/// The `TimeDelta` of speedate's parts (which hold at most 999,999,999 days: within range).
fn from_parts(parts: DurationParts) -> Duration {
    let delta = chrono::TimeDelta::days(i64::from(parts.day))
        + chrono::TimeDelta::seconds(i64::from(parts.second))
        + chrono::TimeDelta::microseconds(i64::from(parts.micro));
    Duration(if parts.positive { delta } else { -delta })
}

/// A JSON number of seconds, as pydantic splits it: whole days (saturating), seconds of the day,
/// microseconds rounded.
fn from_seconds(seconds: f64) -> Result<Duration, Failure> {
    if !seconds.is_finite() {
        return Err(parsing("invalid digit in duration"));
    }
    let magnitude = seconds.abs();
    let parts = DurationParts {
        positive: seconds >= 0.0,
        day: (magnitude / 86_400.0) as u32,
        second: (magnitude as u64 % 86_400) as u32,
        micro: (magnitude.fract() * 1_000_000.0).round() as u32,
    };
    parts.normalized().map(from_parts).map_err(parsing)
}

fn duration_text(raw: &str) -> Result<Duration, Failure> {
    speedate_duration::duration(raw).map(from_parts).map_err(parsing)
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
        // Whole seconds and the microseconds beyond them, of the magnitude (a `TimeDelta` keeps
        // its nanoseconds non-negative, so a negative one is negated first).
        let negative = self.0 < chrono::TimeDelta::zero();
        let magnitude = if negative { -self.0 } else { self.0 };
        if negative {
            f.write_char('-')?;
        }
        let whole = magnitude.num_seconds().unsigned_abs();
        let fraction = u64::from(magnitude.subsec_nanos().unsigned_abs() / 1000);
        let (days, seconds) = (whole / 86_400, whole % 86_400);
        let (years, days) = (days / 365, days % 365);
        let (hours, minutes, seconds) = (seconds / 3_600, seconds % 3_600 / 60, seconds % 60);
        f.write_char('P')?;
        if years > 0 {
            write!(f, "{years}Y")?;
        }
        if days > 0 {
            write!(f, "{days}D")?;
        }
        if hours == 0 && minutes == 0 && seconds == 0 && fraction == 0 {
            return if whole == 0 && fraction == 0 {
                f.write_str("T0S")
            } else {
                Ok(())
            };
        }
        f.write_char('T')?;
        if hours > 0 {
            write!(f, "{hours}H")?;
        }
        if minutes > 0 {
            write!(f, "{minutes}M")?;
        }
        if seconds > 0 || fraction > 0 {
            write!(f, "{seconds}")?;
            if fraction > 0 {
                let digits = format!("{fraction:06}");
                write!(f, ".{}", digits.trim_end_matches('0'))?;
            }
            f.write_char('S')?;
        }
        Ok(())
    }
}

impl Duration {
    /// The length in seconds, as Python's `timedelta.total_seconds()` gives it.
    pub fn total_seconds(&self) -> f64 {
        let seconds = self.0.num_seconds() as f64;
        seconds + f64::from(self.0.subsec_nanos() / 1000) / 1e6
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

    fn written(text: &str) -> String {
        duration_text(text)
            .map(|d| d.to_string())
            .unwrap_or_else(|f| f.msg.into_owned())
    }

    #[test]
    fn iso_and_clock_forms_write_back_as_pydantic() {
        for (input, out) in [
            ("PT1H", "PT1H"),
            ("P1DT2H", "P1DT2H"),
            ("PT1.5S", "PT1.5S"),
            ("-PT1H", "-PT1H"),
            ("P1W", "P7D"),
            ("P1Y", "P1Y"),
            ("P1M", "P30D"),
            ("01:00:00", "PT1H"),
            ("1 day, 2:00:00", "P1DT2H"),
            ("PT0S", "PT0S"),
        ] {
            assert_eq!(written(input), out, "{input}");
        }
        let negative = Duration(chrono::TimeDelta::microseconds(-86_394_999_997));
        assert_eq!(negative.to_string(), "-PT23H59M54.999997S");
        assert_eq!(from_seconds(3600.5).unwrap().to_string(), "PT1H0.5S");
    }

    #[test]
    fn speedates_errors() {
        assert_eq!(
            written("PT"),
            "Input should be a valid timedelta, input is too short"
        );
        assert_eq!(
            written("3600"),
            "Input should be a valid timedelta, \"day\" identifier in duration not correctly formatted"
        );
        assert_eq!(
            written("bad"),
            "Input should be a valid timedelta, invalid digit in duration"
        );
        assert_eq!(
            written("3600.5"),
            "Input should be a valid timedelta, invalid character in hour"
        );
        assert_eq!(
            Duration::from_value(&Value::Null).unwrap_err().kind,
            "time_delta_type"
        );
    }
}
