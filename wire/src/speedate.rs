//! Date, time and date-time text as pydantic reads it (its parser is the `speedate` crate):
//! the grammar and speedate's error words, before any date-time library sees the values.
//!
//! Rules enforced here:
//! - a date is exactly `YYYY-MM-DD`, a real day of the Gregorian calendar;
//! - a time is `HH:MM[:SS[.fraction]]` with an optional offset (`Z`, `±HH:MM`, `±HHMM`; the
//!   sign may be U+2212 `−`); fractions beyond microseconds are truncated, as pydantic does;
//! - a date-time is a date, then `T`, `t`, `_` or a space, then a time; a date alone is midnight
//!   in lax mode ([`datetime`]) and an error in strict mode ([`datetime_strict`]);
//! - a number, or text that is one, is a unix timestamp: seconds, or milliseconds when its
//!   magnitude is above 2e10 (speedate's rule), fractions kept to the microsecond;
//! - when a date-time does not parse, lax mode reports the error of reading the text as a date
//!   (pydantic's fallback, hence "unexpected extra characters" for a bad time part); strict mode
//!   reports the date-time's own error, as speedate finds it.

/// A calendar day as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateParts {
    /// The year (0 to 9999 as written).
    pub year: i32,
    /// The month, 1 to 12.
    pub month: u32,
    /// The day of the month, checked against the month.
    pub day: u32,
}

/// A time of day as written, with its offset from UTC in seconds when it has one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeParts {
    /// The hour, 0 to 23.
    pub hour: u32,
    /// The minute, 0 to 59.
    pub minute: u32,
    /// The second, 0 to 59.
    pub second: u32,
    /// The microseconds (digits beyond the sixth are dropped).
    pub micro: u32,
    /// The offset from UTC in seconds, when one was written.
    pub offset: Option<i32>,
}

impl TimeParts {
    const MIDNIGHT: TimeParts = TimeParts {
        hour: 0,
        minute: 0,
        second: 0,
        micro: 0,
        offset: None,
    };
}

/// What a date-time text or number reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instant {
    /// A date and a time as written (the offset, if any, in the time).
    Civil(DateParts, TimeParts),
    /// A unix timestamp: seconds and microseconds (always UTC).
    Unix(i64, u32),
}

/// speedate's words for text that ends too soon.
pub const TOO_SHORT: &str = "input is too short";
/// speedate's words for text left over after a value.
pub const EXTRA: &str = "unexpected extra characters at the end of the input";
const DATETIME_SEPARATOR: &str = "invalid datetime separator, expected `T`, `t`, `_` or space";

fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The two-digit number at `at`, or `error` when either byte is not a digit or is missing
/// (speedate's `get_digit!`: "07:30:" is a bad second, not too short).
fn two_digits(bytes: &[u8], at: usize, error: &'static str) -> Result<u32, &'static str> {
    match (bytes.get(at), bytes.get(at + 1)) {
        (Some(a @ b'0'..=b'9'), Some(b @ b'0'..=b'9')) => Ok(u32::from(a - b'0') * 10 + u32::from(b - b'0')),
        _ => Err(error),
    }
}

/// The date in the first ten bytes of `bytes`.
fn date_prefix(bytes: &[u8]) -> Result<DateParts, &'static str> {
    if bytes.len() < 10 {
        return Err(TOO_SHORT);
    }
    let mut year = 0i32;
    for &b in &bytes[..4] {
        if !b.is_ascii_digit() {
            return Err("invalid character in year");
        }
        year = year * 10 + i32::from(b - b'0');
    }
    if bytes[4] != b'-' {
        return Err("invalid date separator, expected `-`");
    }
    let month = two_digits(bytes, 5, "invalid character in month")?;
    if bytes[7] != b'-' {
        return Err("invalid date separator, expected `-`");
    }
    let day = two_digits(bytes, 8, "invalid character in day")?;
    if !(1..=12).contains(&month) {
        return Err("month value is outside expected range of 1-12");
    }
    if day == 0 || day > days_in_month(year, month) {
        return Err("day value is outside expected range");
    }
    Ok(DateParts { year, month, day })
}

/// A whole text as a date.
#[inline]
pub fn date(text: &str) -> Result<DateParts, &'static str> {
    let date = date_prefix(text.as_bytes())?;
    if text.len() > 10 {
        return Err(EXTRA);
    }
    Ok(date)
}

/// The offset at the start of `bytes` (after the time), in seconds, and its length.
fn offset(bytes: &[u8]) -> Result<(i32, usize), &'static str> {
    let (sign, at) = match bytes {
        [b'Z' | b'z', ..] => return Ok((0, 1)),
        [b'+', ..] => (1, 1),
        [b'-', ..] => (-1, 1),
        // U+2212 MINUS SIGN, which ISO 8601 allows for a negative offset.
        [0xE2, 0x88, 0x92, ..] => (-1, 3),
        _ => return Err("invalid timezone sign"),
    };
    let hours = two_digits(bytes, at, "invalid timezone hour")?;
    let (minutes, len) = match bytes.get(at + 2) {
        Some(b':') => (two_digits(bytes, at + 3, "invalid timezone minute")?, at + 5),
        _ => (two_digits(bytes, at + 2, "invalid timezone minute")?, at + 4),
    };
    if minutes > 59 {
        return Err("timezone minute value is outside expected range of 0-59");
    }
    if hours * 60 + minutes >= 24 * 60 {
        return Err("timezone offset must be less than 24 hours");
    }
    Ok((sign * (hours * 3600 + minutes * 60) as i32, len))
}

/// A time of day at the start of `bytes` (`HH:MM[:SS[.fraction]]`, no offset) and its length:
/// speedate's `PureTime`, which a duration's clock reads too.
#[inline]
pub fn pure_time(bytes: &[u8]) -> Result<(TimeParts, usize), &'static str> {
    if bytes.len() < 5 {
        return Err(TOO_SHORT);
    }
    let hour = two_digits(bytes, 0, "invalid character in hour")?;
    if bytes[2] != b':' {
        return Err("invalid time separator, expected `:`");
    }
    let minute = two_digits(bytes, 3, "invalid character in minute")?;
    if hour > 23 {
        return Err("hour value is outside expected range of 0-23");
    }
    if minute > 59 {
        return Err("minute value is outside expected range of 0-59");
    }
    let mut at = 5;
    let mut second = 0;
    let mut micro = 0;
    if bytes.get(at) == Some(&b':') {
        second = two_digits(bytes, at + 1, "invalid character in second")?;
        if second > 59 {
            return Err("second value is outside expected range of 0-59");
        }
        at += 3;
        if matches!(bytes.get(at), Some(b'.' | b',')) {
            at += 1;
            let digits = bytes[at..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return Err("second fraction digits missing after `.`");
            }
            for (i, b) in bytes[at..at + digits].iter().enumerate().take(6) {
                micro += u32::from(b - b'0') * 10u32.pow(5 - i as u32);
            }
            at += digits;
        }
    }
    let parts = TimeParts {
        hour,
        minute,
        second,
        micro,
        offset: None,
    };
    Ok((parts, at))
}

/// A whole text as a time of day.
#[inline]
pub fn time(text: &str) -> Result<TimeParts, &'static str> {
    let bytes = text.as_bytes();
    let (mut parts, mut at) = pure_time(bytes)?;
    if at < bytes.len() {
        let (seconds, len) = offset(&bytes[at..])?;
        parts.offset = Some(seconds);
        at += len;
    }
    if at < bytes.len() {
        return Err(EXTRA);
    }
    Ok(parts)
}

/// A text that is a number (`-1714548600`, `1714548600.5`): the timestamp it stands for.
fn numeric_text(text: &str) -> Option<Result<Instant, &'static str>> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    text.parse::<f64>().ok().map(timestamp)
}

/// A JSON number or numeric text as a unix timestamp.
#[inline]
pub fn timestamp(value: f64) -> Result<Instant, &'static str> {
    if !value.is_finite() {
        return Err("invalid timestamp");
    }
    // speedate's rule: beyond 2e10 (year 2603 in seconds) the number is in milliseconds.
    let seconds = if value.abs() > 2e10 { value / 1000.0 } else { value };
    if seconds.abs() > 253_402_300_800.0 {
        return Err("timestamp value is outside expected range");
    }
    let whole = seconds.floor();
    let micro = ((seconds - whole) * 1_000_000.0).round() as u32;
    Ok(Instant::Unix(whole as i64, micro.min(999_999)))
}

/// A text that is an integer (an optional sign, then digits, within `i64`), as speedate reads a
/// timestamp where a date is expected.
#[inline]
pub fn integer_text(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// A whole text as a date-time, as pydantic's strict mode reads it: a date, a separator and a
/// time (the error is the date-time's own), else a timestamp when the text is a number.
#[inline]
pub fn datetime_strict(text: &str) -> Result<Instant, &'static str> {
    let bytes = text.as_bytes();
    let civil = date_prefix(bytes).and_then(|date| {
        if !matches!(bytes.get(10), Some(b'T' | b't' | b'_' | b' ')) {
            return Err(DATETIME_SEPARATOR);
        }
        // Byte 10 is ASCII, so 11 is a character boundary.
        time(&text[11..]).map(|time| Instant::Civil(date, time))
    });
    civil.or_else(|error| numeric_text(text).unwrap_or(Err(error)))
}

/// A whole text as a date-time (or a timestamp). The error is the date reading's, as speedate's
/// fallback reports it.
#[inline]
pub fn datetime(text: &str) -> Result<Instant, &'static str> {
    if let Some(number) = numeric_text(text) {
        return number;
    }
    let bytes = text.as_bytes();
    let date = date_prefix(bytes)?;
    if bytes.len() == 10 {
        return Ok(Instant::Civil(date, TimeParts::MIDNIGHT));
    }
    if !matches!(bytes[10], b'T' | b't' | b'_' | b' ') {
        return Err(EXTRA);
    }
    // Byte 10 is ASCII, so 11 is a character boundary.
    time(&text[11..])
        .map(|time| Instant::Civil(date, time))
        .map_err(|_| EXTRA)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_follow_speedate() {
        assert_eq!(
            date("2024-02-29"),
            Ok(DateParts {
                year: 2024,
                month: 2,
                day: 29
            })
        );
        assert_eq!(date("2023-02-29"), Err("day value is outside expected range"));
        assert_eq!(date("2024-5-1"), Err(TOO_SHORT));
        assert_eq!(
            date("2024-13-01"),
            Err("month value is outside expected range of 1-12")
        );
        assert_eq!(date("24-05-01T0"), Err("invalid character in year"));
        assert_eq!(date("2024/05/01"), Err("invalid date separator, expected `-`"));
        assert_eq!(date("2024-05-01T"), Err(EXTRA));
    }

    #[test]
    fn times_and_offsets() {
        let t = time("07:30:15.1234567+02:00").unwrap();
        assert_eq!(
            (t.hour, t.minute, t.second, t.micro, t.offset),
            (7, 30, 15, 123_456, Some(7200))
        );
        assert_eq!(time("07:30").unwrap().offset, None);
        assert_eq!(time("07:30Z").unwrap().offset, Some(0));
        assert_eq!(time("07:30-0030").unwrap().offset, Some(-1800));
        assert_eq!(time("7:30"), Err(TOO_SHORT));
        assert_eq!(time("24:00"), Err("hour value is outside expected range of 0-23"));
        assert_eq!(time("3600.5"), Err("invalid time separator, expected `:`"));
        assert_eq!(time("07:30x"), Err("invalid timezone sign"));
        assert_eq!(time("07:30\u{2212}02:00").unwrap().offset, Some(-7200));
        assert_eq!(time("07:30+02"), Err("invalid timezone minute"));
        assert_eq!(time("07:30+0a"), Err("invalid timezone hour"));
        assert_eq!(
            time("07:30+02:60"),
            Err("timezone minute value is outside expected range of 0-59")
        );
        assert_eq!(
            time("07:30+24:00"),
            Err("timezone offset must be less than 24 hours")
        );
        assert_eq!(time("07:30:"), Err("invalid character in second"));
        assert_eq!(
            time("07:30:00.Z"),
            Err("second fraction digits missing after `.`")
        );
    }

    #[test]
    fn strict_datetimes_report_their_own_error() {
        assert_eq!(datetime_strict("2024-05-01"), Err(DATETIME_SEPARATOR));
        assert_eq!(datetime_strict("2024-05-01 "), Err(TOO_SHORT));
        assert_eq!(
            datetime_strict("2024-05-01T25:00:00Z"),
            Err("hour value is outside expected range of 0-23")
        );
        assert_eq!(
            datetime_strict("+1714548600"),
            Ok(Instant::Unix(1_714_548_600, 0))
        );
        assert_eq!(
            datetime_strict("2024-02-30T00:00:00Z"),
            Err("day value is outside expected range")
        );
        assert_eq!(integer_text("-86400"), Some(-86_400));
        assert_eq!(integer_text("1.0"), None);
        assert_eq!(integer_text("99999999999999999999"), None);
    }

    #[test]
    fn datetimes_and_timestamps() {
        assert_eq!(
            datetime("1714548600.5"),
            Ok(Instant::Unix(1_714_548_600, 500_000))
        );
        assert_eq!(datetime("-1"), Ok(Instant::Unix(-1, 0)));
        assert_eq!(datetime("1714548600000"), Ok(Instant::Unix(1_714_548_600, 0)));
        assert_eq!(datetime("2024-05-01T25:00:00Z"), Err(EXTRA));
        assert_eq!(datetime("x"), Err(TOO_SHORT));
        assert!(matches!(datetime("2024-05-01 07:30Z"), Ok(Instant::Civil(_, t)) if t.offset == Some(0)));
    }
}
