//! Durations (pydantic's `timedelta`) as `chrono::TimeDelta`: read from speedate's three text
//! forms or a number of seconds, written in pydantic's ISO 8601.
//!
//! Rules enforced here:
//! - text is read by [`speedate_duration`]; each mistake is
//!   `time_delta_parsing` with speedate's words as its `ctx`;
//! - a number is seconds, split as pydantic splits it: whole days, seconds of the day,
//!   microseconds rounded; beyond 999,999,999 days, or not finite, it is refused;
//! - the written form is pydantic's: days split into years of 365 days, then `T` hours, minutes
//!   and seconds, each part left out when zero, `PT0S` for nothing, a leading `-` when negative.

use std::fmt;

use chrono::TimeDelta;

use crate::speedate_duration::{self, DurationParts};
use crate::WireError;

fn parsing(error: &'static str) -> WireError {
    WireError::parsing("time_delta_parsing", "Input should be a valid timedelta", error)
}

/// The `TimeDelta` of speedate's parts (which hold at most 999,999,999 days: within range).
#[inline]
pub fn from_parts(parts: DurationParts) -> TimeDelta {
    let delta = TimeDelta::days(i64::from(parts.day))
        + TimeDelta::seconds(i64::from(parts.second))
        + TimeDelta::microseconds(i64::from(parts.micro));
    if parts.positive {
        delta
    } else {
        -delta
    }
}

/// A JSON number of seconds, as pydantic splits it: whole days (saturating), seconds of the day,
/// microseconds rounded.
#[inline]
pub fn from_seconds(seconds: f64) -> Result<TimeDelta, WireError> {
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

/// Duration text in any of speedate's forms.
#[inline]
pub fn duration_text(raw: &str) -> Result<TimeDelta, WireError> {
    speedate_duration::duration(raw).map(from_parts).map_err(parsing)
}

/// pydantic's ISO 8601 form: `P1DT2H`, `-PT5S`, `PT1H0.5S`, `PT0S`.
pub fn write_duration(f: &mut impl fmt::Write, delta: TimeDelta) -> fmt::Result {
    // Whole seconds and the microseconds beyond them, of the magnitude (a `TimeDelta` keeps
    // its nanoseconds non-negative, so a negative one is negated first).
    let negative = delta < TimeDelta::zero();
    let magnitude = if negative { -delta } else { delta };
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
            let mut digits = fraction;
            let mut width = 6;
            while digits.is_multiple_of(10) {
                digits /= 10;
                width -= 1;
            }
            write!(f, ".{digits:0width$}")?;
        }
        f.write_char('S')?;
    }
    Ok(())
}

/// The length in seconds, as Python's `timedelta.total_seconds()` gives it.
pub fn total_seconds(delta: TimeDelta) -> f64 {
    let seconds = delta.num_seconds() as f64;
    seconds + f64::from(delta.subsec_nanos() / 1000) / 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(text: &str) -> String {
        match duration_text(text) {
            Ok(delta) => {
                let mut out = String::new();
                write_duration(&mut out, delta).unwrap();
                out
            }
            Err(error) => error.msg.into_owned(),
        }
    }

    #[test]
    fn iso_and_clock_forms_write_back_as_pydantic() {
        for (input, out) in [
            ("PT1H", "PT1H"),
            ("P1DT2H", "P1DT2H"),
            ("PT1.5S", "PT1.5S"),
            ("PT0.000250S", "PT0.00025S"),
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
        let mut out = String::new();
        write_duration(&mut out, TimeDelta::microseconds(-86_394_999_997)).unwrap();
        assert_eq!(out, "-PT23H59M54.999997S");
        out.clear();
        write_duration(&mut out, from_seconds(3600.5).unwrap()).unwrap();
        assert_eq!(out, "PT1H0.5S");
        assert_eq!(total_seconds(TimeDelta::milliseconds(1500)), 1.5);
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
            written("3600.5"),
            "Input should be a valid timedelta, invalid character in hour"
        );
        assert_eq!(from_seconds(f64::NAN).unwrap_err().kind, "time_delta_parsing");
        assert_eq!(
            from_seconds(1e20).unwrap_err().error,
            Some(crate::speedate_duration::TOO_MANY_DAYS)
        );
    }
}
