//! Dates, times and date-times as chrono's values, read as pydantic reads `date`, `time` and
//! `datetime` (lax and strict) and written as pydantic writes them.
//!
//! Rules enforced here:
//! - a date is a date, or (lax) a date-time or timestamp at exactly midnight
//!   (`date_from_datetime_inexact` otherwise); bad text is `date_from_datetime_parsing`, in
//!   strict mode `date_parsing`; year 0 is `date_parsing` (Python's dates start at year 1);
//! - a date-time is read as written, its offset kept apart ([`Local`]); a timestamp is UTC; lax
//!   text that is not one is `datetime_from_date_parsing`, strict `datetime_parsing`;
//!   [`naive`] and [`aware`] are pydantic's `timezone_naive` / `timezone_aware` checks;
//! - a time keeps its offset as written; a number of seconds after midnight must be below a day;
//! - written: `HH:MM:SS`, six digits of fraction when there is one, then the offset (`Z` for UTC
//!   where pydantic writes the value, `+HH:MM`, `:SS` only when it has seconds).

use std::fmt;

use chrono::{DateTime, Datelike, FixedOffset, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};

use crate::speedate::{self, DateParts, Instant, TimeParts};
use crate::WireError;

/// A date-time as written: its local date and time, and its offset from UTC in seconds when it
/// had one.
pub type Local = (NaiveDateTime, Option<i32>);

/// The date of parts the parser checked, or `date_parsing` for year 0.
#[inline]
pub fn date_of(parts: DateParts) -> Result<NaiveDate, WireError> {
    // Python's dates start at year 1; chrono's do not.
    let year = Some(parts.year).filter(|&y| y > 0);
    year.and_then(|y| NaiveDate::from_ymd_opt(y, parts.month, parts.day))
        .ok_or_else(|| {
            WireError::parsing(
                "date_parsing",
                "Input should be a valid date in the format YYYY-MM-DD",
                "year 0 is out of range",
            )
        })
}

/// The time of day of parts the parser checked (the offset is left to the caller).
#[inline]
pub fn time_of(parts: TimeParts) -> NaiveTime {
    // The parser checked every range, so this is a real time of day.
    NaiveTime::from_hms_micro_opt(parts.hour, parts.minute, parts.second, parts.micro)
        .unwrap_or(NaiveTime::MIN)
}

/// A date-time read as written: the local date-time and its offset, if it had one.
#[inline]
pub fn read_instant(instant: Instant) -> Result<Local, WireError> {
    match instant {
        Instant::Civil(date, time) => Ok((date_of(date)?.and_time(time_of(time)), time.offset)),
        Instant::Unix(seconds, micro) => DateTime::from_timestamp(seconds, micro * 1000)
            .map(|utc| (utc.naive_utc(), Some(0)))
            .ok_or_else(|| {
                WireError::parsing(
                    "datetime_parsing",
                    "Input should be a valid datetime",
                    "timestamp value is outside expected range",
                )
            }),
    }
}

const DATETIME_WORDS: &str = "Input should be a valid datetime or date";

/// Lax date-time text (a date-time, a date alone, a timestamp), with its offset when it has one.
#[inline]
pub fn datetime_text(raw: &str) -> Result<Local, WireError> {
    speedate::datetime(raw)
        .map_err(|error| WireError::parsing("datetime_from_date_parsing", DATETIME_WORDS, error))
        .and_then(read_instant)
}

/// A JSON number where a date-time is expected: a unix timestamp (UTC).
#[inline]
pub fn datetime_timestamp(seconds: f64) -> Result<Local, WireError> {
    speedate::timestamp(seconds)
        .map_err(|error| WireError::parsing("datetime_from_date_parsing", DATETIME_WORDS, error))
        .and_then(read_instant)
}

/// The date-time, if it has no offset (`timezone_naive` otherwise).
#[inline]
pub fn naive((local, offset): Local) -> Result<NaiveDateTime, WireError> {
    match offset {
        None => Ok(local),
        Some(_) => Err(WireError::new(
            "timezone_naive",
            "Input should not have timezone info",
        )),
    }
}

/// The instant, if the date-time has an offset (`timezone_aware` otherwise).
#[inline]
pub fn aware((local, offset): Local) -> Result<DateTime<FixedOffset>, WireError> {
    let missing = || WireError::new("timezone_aware", "Input should have timezone info");
    let offset = FixedOffset::east_opt(offset.ok_or_else(missing)?).ok_or_else(missing)?;
    offset.from_local_datetime(&local).single().ok_or_else(missing)
}

const DATE_WORDS: &str = "Input should be a valid date or datetime";

fn inexact() -> WireError {
    WireError::new(
        "date_from_datetime_inexact",
        "Datetimes provided to dates should have zero time - e.g. be exact dates",
    )
}

/// A date from a date-time (or timestamp) at exactly midnight.
fn exact_date(instant: Instant) -> Result<NaiveDate, WireError> {
    let (local, _) = read_instant(instant)?;
    if local.time() == NaiveTime::MIN {
        Ok(local.date())
    } else {
        Err(inexact())
    }
}

/// A date, else (pydantic's lax fallback) a date-time at exactly midnight: text that is neither
/// reports the date-time's own error (`2024-03-01Z` is a bad separator), as pydantic does.
#[inline]
pub fn date_text(raw: &str) -> Result<NaiveDate, WireError> {
    match speedate::date(raw) {
        Ok(parts) => date_of(parts),
        Err(_) => match speedate::datetime_strict(raw) {
            Ok(instant) => exact_date(instant),
            Err(error) => Err(WireError::parsing(
                "date_from_datetime_parsing",
                DATE_WORDS,
                error,
            )),
        },
    }
}

/// A JSON number where a date is expected: a timestamp at exactly midnight UTC.
#[inline]
pub fn date_timestamp(seconds: f64) -> Result<NaiveDate, WireError> {
    speedate::timestamp(seconds)
        .map_err(|error| WireError::parsing("date_from_datetime_parsing", DATE_WORDS, error))
        .and_then(exact_date)
}

const TIME_WORDS: &str = "Input should be in a valid time format";

/// Time text, with its offset from UTC in seconds when it has one.
#[inline]
pub fn time_text(raw: &str) -> Result<(NaiveTime, Option<i32>), WireError> {
    let parts = speedate::time(raw).map_err(|error| WireError::parsing("time_parsing", TIME_WORDS, error))?;
    Ok((time_of(parts), parts.offset))
}

/// A JSON number where a time is expected: seconds after midnight, below a day.
#[inline]
pub fn time_seconds(seconds: f64) -> Result<NaiveTime, WireError> {
    // pydantic's words: its own for a negative number, speedate's beyond a day.
    let error = if seconds.floor() < 0.0 {
        Some("time in seconds should be positive")
    } else if seconds >= 86_400.0 || seconds.is_nan() {
        Some("numeric times may not exceed 86,399 seconds")
    } else {
        None
    };
    if let Some(error) = error {
        return Err(WireError::parsing("time_parsing", TIME_WORDS, error));
    }
    let whole = seconds.floor();
    let nanos = (((seconds - whole) * 1e6).round() as u32).min(999_999) * 1000;
    Ok(NaiveTime::from_num_seconds_from_midnight_opt(whole as u32, nanos).unwrap_or(NaiveTime::MIN))
}

const STRICT_DATE_WORDS: &str = "Input should be a valid date in the format YYYY-MM-DD";
const NOT_EXACT: &str = "Timestamp is not an exact date";
const STRICT_DATETIME_WORDS: &str = "Input should be a valid datetime";

/// The day a whole integer timestamp names, when it is midnight UTC of a year Python has.
fn exact_day(stamp: i64) -> Option<NaiveDate> {
    let (local, _) = speedate::timestamp(stamp as f64)
        .ok()
        .and_then(|i| read_instant(i).ok())?;
    Some(local.date())
        .filter(|_| local.time() == NaiveTime::MIN)
        .filter(|day| (1..=9999).contains(&day.year()))
}

/// A date as pydantic's strict mode reads text: `YYYY-MM-DD`, or an integer timestamp at exactly
/// midnight UTC (speedate's `Date::parse_bytes`); no date-time is cut to a date.
#[inline]
pub fn strict_date(raw: &str) -> Result<NaiveDate, WireError> {
    match speedate::date(raw) {
        Ok(parts) => date_of(parts),
        Err(error) => match speedate::integer_text(raw) {
            Some(stamp) => exact_day(stamp)
                .ok_or_else(|| WireError::parsing("date_parsing", STRICT_DATE_WORDS, NOT_EXACT)),
            None => Err(WireError::parsing("date_parsing", STRICT_DATE_WORDS, error)),
        },
    }
}

/// A date-time as pydantic's strict mode reads text: it needs its time, or is a timestamp; the
/// error is the date-time's own.
#[inline]
pub fn strict_datetime(raw: &str) -> Result<Local, WireError> {
    speedate::datetime_strict(raw)
        .map_err(|error| WireError::parsing("datetime_parsing", STRICT_DATETIME_WORDS, error))
        .and_then(read_instant)
}

/// The offset after a time: `utc` for zero (`Z` or `+00:00`), else `±HH:MM[:SS]`.
fn write_offset(out: &mut impl fmt::Write, offset: FixedOffset, utc: &str) -> fmt::Result {
    let seconds = offset.local_minus_utc();
    if seconds == 0 {
        return out.write_str(utc);
    }
    let sign = if seconds < 0 { '-' } else { '+' };
    let magnitude = seconds.unsigned_abs();
    write!(out, "{sign}{:02}:{:02}", magnitude / 3600, magnitude % 3600 / 60)?;
    if !magnitude.is_multiple_of(60) {
        write!(out, ":{:02}", magnitude % 60)?;
    }
    Ok(())
}

/// `HH:MM:SS`, then `.ffffff` when there is a fraction (microseconds, six digits).
fn write_clock(out: &mut impl fmt::Write, time: NaiveTime) -> fmt::Result {
    write!(
        out,
        "{:02}:{:02}:{:02}",
        time.hour(),
        time.minute(),
        time.second()
    )?;
    let micro = time.nanosecond() / 1000 % 1_000_000;
    if micro != 0 {
        write!(out, ".{micro:06}")?;
    }
    Ok(())
}

/// A date-time as pydantic writes it: `2024-03-01T10:00:00.500000+02:00`; `utc` is what an
/// offset of zero is written as (`Z`, or `+00:00` where FastAPI's `jsonable_encoder` writes it).
pub fn write_datetime(
    out: &mut impl fmt::Write,
    local: NaiveDateTime,
    offset: Option<FixedOffset>,
    utc: &str,
) -> fmt::Result {
    let date = local.date();
    write!(out, "{:04}-{:02}-{:02}T", date.year(), date.month(), date.day())?;
    write_clock(out, local.time())?;
    match offset {
        Some(offset) => write_offset(out, offset, utc),
        None => Ok(()),
    }
}

/// A time as pydantic writes it: `10:30:00`, `10:30:00.250000`, `10:30:00+02:00`, `01:01:01Z`.
pub fn write_time(out: &mut impl fmt::Write, time: NaiveTime, offset: Option<FixedOffset>) -> fmt::Result {
    write_clock(out, time)?;
    match offset {
        Some(offset) => write_offset(out, offset, "Z"),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn datetime(raw: &str) -> String {
        let (local, offset) = datetime_text(raw).unwrap();
        let mut out = String::new();
        write_datetime(&mut out, local, offset.and_then(FixedOffset::east_opt), "Z").unwrap();
        out
    }

    fn time(raw: &str) -> String {
        let (time, offset) = time_text(raw).unwrap();
        let mut out = String::new();
        write_time(&mut out, time, offset.and_then(FixedOffset::east_opt)).unwrap();
        out
    }

    #[test]
    fn datetimes_are_written_as_pydantic_writes_them() {
        assert_eq!(datetime("2024-03-01T10:00:00"), "2024-03-01T10:00:00");
        assert_eq!(datetime("2024-03-01"), "2024-03-01T00:00:00");
        assert_eq!(
            datetime("2024-03-01T10:00:00.5+05:30"),
            "2024-03-01T10:00:00.500000+05:30"
        );
        assert_eq!(datetime("2024-03-01T10:00:00-00:00"), "2024-03-01T10:00:00Z");
        assert_eq!(datetime("1709287200"), "2024-03-01T10:00:00Z");
        let (local, _) = datetime_text("0999-03-01T10:00:00").unwrap();
        let mut out = String::new();
        write_datetime(&mut out, local, FixedOffset::east_opt(-30), "Z").unwrap();
        assert_eq!(out, "0999-03-01T10:00:00-00:00:30");
    }

    #[test]
    fn times_keep_their_offset() {
        assert_eq!(time("10:30:00+02:00"), "10:30:00+02:00");
        assert_eq!(time("01:01:01Z"), "01:01:01Z");
        assert_eq!(time("10:30:00.25"), "10:30:00.250000");
        assert_eq!(time("10:30"), "10:30:00");
        assert_eq!(time("10:30-0130"), "10:30:00-01:30");
        let error = time_text("10:30:00x").unwrap_err();
        assert_eq!(
            (error.kind, error.error),
            ("time_parsing", Some("invalid timezone sign"))
        );
        assert_eq!(time_seconds(3600.5).unwrap().to_string(), "01:00:00.500");
        assert_eq!(
            time_seconds(-1.0).unwrap_err().error,
            Some("time in seconds should be positive")
        );
    }

    #[test]
    fn errors_carry_pydantics_kinds() {
        assert_eq!(
            date_text("2024-02-30").unwrap_err().msg,
            "Input should be a valid date or datetime, day value is outside expected range"
        );
        assert_eq!(
            date_text("2024-05-01T10:00:00").unwrap_err().kind,
            "date_from_datetime_inexact"
        );
        assert_eq!(date_text("0000-01-01").unwrap_err().kind, "date_parsing");
        assert_eq!(
            datetime_text("2024-05-01T25:00:00Z").unwrap_err().kind,
            "datetime_from_date_parsing"
        );
        assert_eq!(
            datetime_text("2024-05-01T07:30:00Z")
                .and_then(naive)
                .unwrap_err()
                .kind,
            "timezone_naive"
        );
        assert_eq!(
            datetime_text("2024-05-01").and_then(aware).unwrap_err().kind,
            "timezone_aware"
        );
        assert_eq!(strict_date("1714521601").unwrap_err().error, Some(NOT_EXACT));
        assert_eq!(
            strict_datetime("2024-05-01").unwrap_err().kind,
            "datetime_parsing"
        );
    }
}
