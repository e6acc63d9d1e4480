//! Duration text as pydantic reads a `timedelta` (its parser is the `speedate` crate): the
//! grammar and speedate's error words.
//!
//! Rules enforced here (measured against pydantic 2.14, tests/fastapi/datetimes_observed.json):
//! - an optional `+` or `-`, then one of three forms: ISO 8601 after an upper-case `P`
//!   (`P1DT2H`, units upper case, a year 365 days, a month 30, a week 7; a fraction only on the
//!   last quantity), a day count (`1d`, `2 days`, `1 day, 01:00:00`) when the text has a `d` or
//!   `D` or is shorter than five bytes, else a clock (`HH:MM[:SS[.f]]`, any number of hours);
//! - seconds carry into days, and a duration over 999,999,999 days is refused;
//! - each mistake is speedate's own error, found where speedate finds it (so `P1D2H` is a bad
//!   date unit and `forever` a bad hour).

use crate::speedate::{pure_time, EXTRA, TOO_SHORT};

/// A duration as speedate holds it: the sign, whole days, seconds (below a day) and
/// microseconds (below a second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DurationParts {
    /// False for a negative duration.
    pub positive: bool,
    /// Whole days.
    pub day: u32,
    /// Seconds below a day.
    pub second: u32,
    /// Microseconds below a second.
    pub micro: u32,
}

const TOO_LARGE: &str = "a numeric value in the duration is too large";
/// speedate's words for a duration beyond 999,999,999 days.
pub const TOO_MANY_DAYS: &str = "durations may not exceed 999,999,999 days";
const TOO_MANY_HOURS: &str = "durations may not exceed 999,999,999 hours";
const BAD_DAYS: &str = "\"day\" identifier in duration not correctly formatted";
const BAD_NUMBER: &str = "invalid digit in duration";

impl DurationParts {
    /// Carry microseconds into seconds and seconds into days; refuse more than 999,999,999 days.
    #[inline]
    pub fn normalized(mut self) -> Result<Self, &'static str> {
        if self.micro >= 1_000_000 {
            self.second = self.second.checked_add(self.micro / 1_000_000).ok_or(TOO_LARGE)?;
            self.micro %= 1_000_000;
        }
        if self.second >= 86_400 {
            self.day = self.day.checked_add(self.second / 86_400).ok_or(TOO_LARGE)?;
            self.second %= 86_400;
        }
        if self.day > 999_999_999 {
            return Err(TOO_MANY_DAYS);
        }
        Ok(self)
    }
}

/// `a + b` and `a * b` in `u32`, or speedate's "too large".
fn add(a: u32, b: u32) -> Result<u32, &'static str> {
    a.checked_add(b).ok_or(TOO_LARGE)
}

fn mul(a: u32, b: u32) -> Result<u32, &'static str> {
    a.checked_mul(b).ok_or(TOO_LARGE)
}

/// The digits at the start of `bytes` (at least one) as a `u32`, and how many there were.
fn number(bytes: &[u8]) -> Result<(u32, usize), &'static str> {
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return Err(BAD_NUMBER);
    }
    let mut value = 0u32;
    for &b in &bytes[..digits] {
        value = add(mul(value, 10)?, u32::from(b - b'0'))?;
    }
    Ok((value, digits))
}

/// A number with an optional fraction (`.` or `,`, possibly without digits), and its length.
fn number_with_fraction(bytes: &[u8]) -> Result<(u32, Option<f64>, usize), &'static str> {
    let (value, mut at) = number(bytes)?;
    if !matches!(bytes.get(at), Some(b'.' | b',')) {
        return Ok((value, None, at));
    }
    at += 1;
    let (mut fraction, mut scale) = (0f64, 1f64);
    while let Some(b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
        fraction = fraction * 10.0 + f64::from(b - b'0');
        scale *= 10.0;
        at += 1;
    }
    Ok((value, Some(fraction / scale), at))
}

/// A fraction of a quantity of `unit` seconds: whole seconds and microseconds.
fn split_seconds(seconds: f64) -> (u32, u32) {
    let whole = seconds.trunc();
    (whole as u32, ((seconds - whole) * 1_000_000.0).round() as u32)
}

/// ISO 8601 after its `P`.
fn iso(bytes: &[u8]) -> Result<DurationParts, &'static str> {
    let (mut day, mut second, mut micro) = (0u32, 0u32, 0u32);
    let (mut in_time, mut after_fraction) = (false, false);
    let mut at = 0;
    while let Some(&c) = bytes.get(at) {
        if c == b'T' {
            if in_time {
                return Err("`t` character repeated in duration");
            }
            in_time = true;
            at += 1;
            continue;
        }
        let (value, fraction, len) = number_with_fraction(&bytes[at..])?;
        if after_fraction {
            return Err("quantity fraction invalid in duration");
        }
        after_fraction = fraction.is_some();
        at += len;
        if in_time {
            let unit = match bytes.get(at) {
                Some(b'H') => 3_600,
                Some(b'M') => 60,
                Some(b'S') => 1,
                _ => return Err("quantity invalid in time part of duration"),
            };
            second = add(second, mul(unit, value)?)?;
            if let Some(fraction) = fraction {
                let (whole, part) = split_seconds(fraction * f64::from(unit));
                second = add(second, whole)?;
                micro = add(micro, part)?;
            }
        } else {
            let unit = match bytes.get(at) {
                Some(b'Y') => 365,
                Some(b'M') => 30,
                Some(b'W') => 7,
                Some(b'D') => 1,
                _ => return Err("quantity invalid in date part of duration"),
            };
            day = add(day, mul(value, unit)?)?;
            if let Some(fraction) = fraction {
                let days = fraction * f64::from(unit);
                let whole_days = days.trunc();
                day = add(day, whole_days as u32)?;
                let (whole, part) = split_seconds((days - whole_days) * 86_400.0);
                second = add(second, whole)?;
                micro = add(micro, part)?;
            }
        }
        at += 1;
    }
    // At least one quantity: `P` and `PT` alone are too short.
    if at < 2 {
        return Err(TOO_SHORT);
    }
    Ok(DurationParts {
        positive: true,
        day,
        second,
        micro,
    })
}

/// `HH:MM[:SS[.f]]` with any number of hours: days, seconds and microseconds.
fn clock(bytes: &[u8]) -> Result<DurationParts, &'static str> {
    if bytes.len() < 5 {
        return Err(TOO_SHORT);
    }
    let colon = bytes
        .iter()
        .position(|&b| b == b':')
        .ok_or("invalid character in hour")?;
    let (hours, rest) = (&bytes[..colon], &bytes[colon + 1..]);
    if hours.len() > 10 {
        return Err(TOO_MANY_HOURS);
    }
    let mut hour = 0u64;
    for &b in hours {
        if !b.is_ascii_digit() {
            return Err("invalid character in hour");
        }
        hour = hour * 10 + u64::from(b - b'0');
    }
    if hour > 2_400_000_000 {
        return Err(TOO_MANY_HOURS);
    }
    // The minutes and what follows, read as a time of day at hour zero; digits of fraction beyond
    // `00:00:00.000000` are dropped (pydantic truncates).
    let mut time = b"00:".to_vec();
    time.extend_from_slice(&rest[..rest.len().min(12)]);
    let (parts, length) = pure_time(&time)?;
    if length < time.len() {
        return Err(EXTRA);
    }
    let (day, hour) = ((hour / 24) as u32, (hour % 24) as u32);
    Ok(DurationParts {
        positive: true,
        day,
        second: parts.minute * 60 + parts.second + hour * 3_600,
        micro: parts.micro,
    })
}

/// `N d`, `N days`, `N day, HH:MM:SS`: a day count, then optionally a clock below a day.
fn days_and_clock(bytes: &[u8]) -> Result<DurationParts, &'static str> {
    if bytes.is_empty() {
        return Err(TOO_SHORT);
    }
    let (day, at) = number(bytes)?;
    let rest = match &bytes[at..] {
        [b' ', b'd' | b'D', rest @ ..] | [b'd' | b'D', rest @ ..] => rest,
        _ => return Err(BAD_DAYS),
    };
    let rest = match rest {
        [b'a', b'y', b's', rest @ ..] | [b'a', b'y', rest @ ..] => rest,
        [b'A', b'Y', b'S', rest @ ..] | [b'A', b'Y', rest @ ..] => rest,
        [b'a' | b'A', ..] => return Err(BAD_DAYS),
        rest => rest,
    };
    let rest = match rest {
        [b',', b' ', rest @ ..] | [b',', rest @ ..] | [b' ', rest @ ..] => rest,
        rest => rest,
    };
    if rest.is_empty() {
        return Ok(DurationParts {
            positive: true,
            day,
            second: 0,
            micro: 0,
        });
    }
    let time = clock(rest)?;
    if time.day > 0 {
        // `1 day, 24:00:00` is not a day and a clock.
        return Err(TOO_MANY_HOURS);
    }
    Ok(DurationParts { day, ..time })
}

/// A whole text as a duration.
#[inline]
pub fn duration(text: &str) -> Result<DurationParts, &'static str> {
    let (positive, bytes) = match text.as_bytes() {
        [b'-', rest @ ..] => (false, rest),
        [b'+', rest @ ..] => (true, rest),
        bytes => (true, bytes),
    };
    let parts = match bytes {
        [] => return Err(TOO_SHORT),
        [b'P', rest @ ..] => iso(rest)?,
        bytes if bytes.len() < 5 || bytes.iter().any(|&b| b == b'd' || b == b'D') => days_and_clock(bytes)?,
        bytes => clock(bytes)?,
    };
    DurationParts { positive, ..parts }.normalized()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(text: &str) -> Result<(bool, u64, u32), &'static str> {
        duration(text).map(|p| {
            (
                p.positive,
                u64::from(p.day) * 86_400 + u64::from(p.second),
                p.micro,
            )
        })
    }

    #[test]
    fn the_three_forms() {
        assert_eq!(seconds("P1DT2H3M4.5S"), Ok((true, 93_784, 500_000)));
        assert_eq!(seconds("P0.5D"), Ok((true, 43_200, 0)));
        assert_eq!(seconds("P1DT"), Ok((true, 86_400, 0)));
        assert_eq!(seconds("-P1W"), Ok((false, 604_800, 0)));
        assert_eq!(seconds("25:00:00"), Ok((true, 90_000, 0)));
        assert_eq!(seconds("10:00"), Ok((true, 36_000, 0)));
        assert_eq!(seconds("1d 01:00:00"), Ok((true, 90_000, 0)));
        assert_eq!(seconds("-1 day, 23:00:00"), Ok((false, 169_200, 0)));
        assert_eq!(seconds("2 DAYS"), Ok((true, 172_800, 0)));
    }

    #[test]
    fn speedates_errors() {
        assert_eq!(
            duration("P1D2H"),
            Err("quantity invalid in date part of duration")
        );
        assert_eq!(duration("PT1h"), Err("quantity invalid in time part of duration"));
        assert_eq!(duration("P1.5DT1H"), Err("quantity fraction invalid in duration"));
        assert_eq!(duration("PT1HT"), Err("`t` character repeated in duration"));
        assert_eq!(duration("PT"), Err(TOO_SHORT));
        assert_eq!(duration("p1d"), Err(BAD_NUMBER));
        assert_eq!(duration("forever"), Err("invalid character in hour"));
        assert_eq!(duration("90"), Err(BAD_DAYS));
        assert_eq!(duration("1:2:3"), Err("invalid character in minute"));
        assert_eq!(
            duration("00:00:60"),
            Err("second value is outside expected range of 0-59")
        );
        assert_eq!(duration("1 day, 24:00:00"), Err(TOO_MANY_HOURS));
        assert_eq!(duration("P1000000000D"), Err(TOO_MANY_DAYS));
        assert_eq!(duration("P9999999999D"), Err(TOO_LARGE));
        assert_eq!(duration("10:00:00junk"), Err(EXTRA));
    }
}
