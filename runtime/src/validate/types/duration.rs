//! [`Duration`]: pydantic's `timedelta`, read from ISO 8601 (`P1DT2H`), from `[D day[s], ]HH:MM:SS`
//! and from a number of seconds, and written back as pydantic writes it (`P1DT2H`).
//!
//! Rules enforced here:
//! - ISO 8601 durations take years (365 days), months (30 days), weeks, days, hours, minutes and
//!   seconds with a fraction, and a leading sign, as speedate does;
//! - text that is neither form is `time_delta_parsing` with speedate's words; JSON `null`,
//!   booleans, arrays and objects are `time_delta_type`;
//! - the written form is pydantic's: days split into years of 365 days, then `T` hours, minutes
//!   and seconds, each part left out when zero, `PT0S` for nothing, a leading `-` when negative.

use std::fmt::{self, Write as _};

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

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

const MICROS_PER_SECOND: f64 = 1e6;

fn from_seconds(seconds: f64) -> Result<Duration, Failure> {
    let micros = (seconds * MICROS_PER_SECOND).round();
    if !micros.is_finite() || micros.abs() > 8.64e19 {
        return Err(parsing("durations may not exceed 999,999,999 days"));
    }
    Ok(Duration(chrono::TimeDelta::microseconds(micros as i64)))
}

/// A number with an optional fraction at the start of `text`, and its length.
fn number(text: &str) -> Option<(f64, usize)> {
    let len = text
        .bytes()
        .position(|b| !(b.is_ascii_digit() || b == b'.' || b == b','))
        .unwrap_or(text.len());
    let value = text[..len].replace(',', ".").parse().ok()?;
    Some((value, len))
}

/// `P…` after its `P`: the seconds it stands for.
fn iso(mut rest: &str) -> Result<f64, &'static str> {
    if rest.is_empty() || rest.eq_ignore_ascii_case("T") {
        return Err(super::speedate::TOO_SHORT);
    }
    let mut total = 0.0;
    let mut in_time = false;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix(['T', 't']) {
            if in_time || after.is_empty() {
                return Err(super::speedate::TOO_SHORT);
            }
            in_time = true;
            rest = after;
            continue;
        }
        let (value, len) = number(rest).ok_or("invalid digit in duration")?;
        let unit = rest[len..].chars().next().ok_or("unexpected end of input")?;
        let seconds = match (in_time, unit.to_ascii_uppercase()) {
            (false, 'Y') => 365.0 * 86_400.0,
            (false, 'M') => 30.0 * 86_400.0,
            (false, 'W') => 7.0 * 86_400.0,
            (false, 'D') => 86_400.0,
            (true, 'H') => 3_600.0,
            (true, 'M') => 60.0,
            (true, 'S') => 1.0,
            _ => return Err("expected a duration unit"),
        };
        total += value * seconds;
        rest = &rest[len + unit.len_utf8()..];
    }
    Ok(total)
}

/// `HH:MM:SS[.f]`: the seconds.
fn clock(text: &str) -> Result<f64, &'static str> {
    let mut parts = text.splitn(3, ':');
    let hours = parts.next().unwrap_or_default();
    if hours.is_empty() || !hours.bytes().all(|b| b.is_ascii_digit()) {
        return Err("invalid character in hour");
    }
    let minutes = parts.next().ok_or(super::speedate::TOO_SHORT)?;
    if minutes.len() != 2 || !minutes.bytes().all(|b| b.is_ascii_digit()) {
        return Err("invalid character in minute");
    }
    let seconds = match parts.next() {
        Some(s) => match number(s) {
            Some((value, len)) if len == s.len() && value < 60.0 => value,
            _ => return Err("invalid character in second"),
        },
        None => 0.0,
    };
    let (hours, minutes): (f64, f64) = (hours.parse().unwrap_or(0.0), minutes.parse().unwrap_or(0.0));
    if minutes >= 60.0 {
        return Err("minute value is outside expected range of 0-59");
    }
    Ok(hours * 3_600.0 + minutes * 60.0 + seconds)
}

/// `[D day[s], ]HH:MM:SS[.f]`: the seconds.
fn days_and_clock(text: &str) -> Result<f64, &'static str> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err("invalid digit in duration");
    }
    match text.as_bytes().get(digits) {
        Some(b':') => clock(text),
        Some(b' ') => {
            let days: f64 = text[..digits].parse().unwrap_or(0.0);
            let rest = &text[digits + 1..];
            let rest = rest
                .strip_prefix("days")
                .or_else(|| rest.strip_prefix("day"))
                .ok_or("\"day\" identifier in duration not correctly formatted")?;
            let rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
            let time = if rest.is_empty() { 0.0 } else { clock(rest)? };
            Ok(days * 86_400.0 + time)
        }
        None => Err("\"day\" identifier in duration not correctly formatted"),
        Some(_) => Err("invalid character in hour"),
    }
}

fn duration_text(raw: &str) -> Result<Duration, Failure> {
    let (negative, unsigned) = match raw.as_bytes().first() {
        Some(b'-') => (true, &raw[1..]),
        Some(b'+') => (false, &raw[1..]),
        _ => (false, raw),
    };
    if unsigned.is_empty() {
        return Err(parsing(super::speedate::TOO_SHORT));
    }
    let seconds = match unsigned.strip_prefix(['P', 'p']) {
        Some(rest) => iso(rest),
        None => days_and_clock(unsigned),
    }
    .map_err(parsing)?;
    from_seconds(if negative { -seconds } else { seconds })
}

impl TextValue for Duration {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        duration_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => duration_text(text),
            Value::Number(n) => from_seconds(n.as_f64().unwrap_or(f64::NAN)),
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
