//! `format: duration`: pydantic's `timedelta`, written in ISO 8601 (`P1DT2H`, `PT1.5S`).
//!
//! Rules enforced here: written exactly as pydantic writes it (years of 365 days, no months,
//! microseconds at most, `PT0S` for zero, a leading `-` for a negative one); read from ISO 8601
//! (`P1W`, `P1Y` = 365 days, `P1M` = 30 days, fractions) or a number of seconds, as pydantic
//! reads one.

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

/// The text is not a duration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidDuration(String);

impl fmt::Display for InvalidDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not an ISO 8601 duration: `{}`", self.0)
    }
}

impl std::error::Error for InvalidDuration {}

impl Duration {
    /// `seconds` (fractions down to the microsecond).
    fn from_seconds(seconds: f64) -> Option<Duration> {
        let micros = (seconds * 1e6).round();
        (micros.is_finite() && micros.abs() < 9.2e18)
            .then(|| Duration(chrono::TimeDelta::microseconds(micros as i64)))
    }
}

impl FromStr for Duration {
    type Err = InvalidDuration;

    fn from_str(text: &str) -> Result<Self, InvalidDuration> {
        let invalid = || InvalidDuration(text.to_owned());
        if let Ok(seconds) = text.trim().parse::<f64>() {
            return Duration::from_seconds(seconds).ok_or_else(invalid);
        }
        let (sign, rest) = match text.strip_prefix('-') {
            Some(rest) => (-1.0, rest),
            None => (1.0, text.strip_prefix('+').unwrap_or(text)),
        };
        let mut rest = rest.strip_prefix(['P', 'p']).ok_or_else(invalid)?;
        if rest.is_empty() {
            return Err(invalid());
        }
        let mut total = 0.0;
        let mut in_time = false;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix(['T', 't']) {
                if in_time || after.is_empty() {
                    return Err(invalid());
                }
                in_time = true;
                rest = after;
                continue;
            }
            let digits = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .ok_or_else(invalid)?;
            let value: f64 = rest[..digits].parse().map_err(|_| invalid())?;
            let unit = rest[digits..].chars().next().ok_or_else(invalid)?;
            total += value
                * match (in_time, unit.to_ascii_uppercase()) {
                    (false, 'Y') => 365.0 * 86_400.0,
                    (false, 'M') => 30.0 * 86_400.0,
                    (false, 'W') => 7.0 * 86_400.0,
                    (false, 'D') => 86_400.0,
                    (true, 'H') => 3_600.0,
                    (true, 'M') => 60.0,
                    (true, 'S') => 1.0,
                    _ => return Err(invalid()),
                };
            rest = &rest[digits + unit.len_utf8()..];
        }
        Duration::from_seconds(sign * total).ok_or_else(invalid)
    }
}

impl fmt::Display for Duration {
    /// pydantic's form: `P1DT2H`, `-PT5S`, `PT1H0.5S`, `PT0S`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = self.0.num_microseconds().unwrap_or(i64::MAX);
        let total = micros.unsigned_abs();
        if micros < 0 {
            f.write_char('-')?;
        }
        let (whole, fraction) = (total / 1_000_000, total % 1_000_000);
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
            return if total == 0 { f.write_str("T0S") } else { Ok(()) };
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
            Wire::Seconds(seconds) => Duration::from_seconds(seconds)
                .ok_or_else(|| serde::de::Error::custom("a duration out of range")),
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
            ("3600.5", "PT1H0.5S"),
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
        for bad in ["", "P", "PT", "1 hour", "P1H", "PT1D"] {
            assert!(bad.parse::<Duration>().is_err(), "{bad}");
        }
    }
}
