//! What an answer at a deprecated version carries: `Deprecation` (RFC 9745: a structured-field
//! date, `@` and the Unix time of the day it was deprecated) and, when the version has a last
//! day, `Sunset` (RFC 8594: an HTTP-date), both made once when the app is built.
//!
//! Rules enforced here: a date is a checked `YYYY-MM-DD` (the declaration's check ran first) and
//! means its midnight UTC; a date this cannot read gives no header rather than a wrong one.

use std::time::{Duration, SystemTime};

use hyper::header::{HeaderMap, HeaderName, HeaderValue};

/// The `Deprecation` header (RFC 9745).
pub(crate) const DEPRECATION: HeaderName = HeaderName::from_static("deprecation");
/// The `Sunset` header (RFC 8594).
pub(crate) const SUNSET: HeaderName = HeaderName::from_static("sunset");

/// The headers of one deprecated version's answers.
#[derive(Debug, Clone)]
pub(crate) struct Notice {
    deprecation: HeaderValue,
    sunset: Option<HeaderValue>,
}

impl Notice {
    /// The notice of a version deprecated on `since` (and gone after `sunset`, if set); `None`
    /// for a date that is not `YYYY-MM-DD`.
    pub(crate) fn new(since: &str, sunset: Option<&str>) -> Option<Self> {
        let deprecation = HeaderValue::from_str(&format!("@{}", unix_seconds(since)?)).ok()?;
        let sunset = match sunset {
            None => None,
            Some(date) => {
                let at = SystemTime::UNIX_EPOCH + Duration::from_secs(unix_seconds(date)?);
                Some(HeaderValue::from_str(&httpdate::fmt_http_date(at)).ok()?)
            }
        };
        Some(Notice { deprecation, sunset })
    }

    /// Add the notice to an answer's headers.
    #[inline]
    pub(crate) fn apply(&self, headers: &mut HeaderMap) {
        headers.insert(DEPRECATION, self.deprecation.clone());
        if let Some(sunset) = &self.sunset {
            headers.insert(SUNSET, sunset.clone());
        }
    }
}

/// The Unix time of `date`'s midnight UTC (`YYYY-MM-DD`, a real day, not before 1970), by the
/// days-from-civil count of the proleptic Gregorian calendar.
fn unix_seconds(date: &str) -> Option<u64> {
    // The route option's own check (no February 30th, two digits each): a date it refuses when
    // it compiles is refused when a hand-built route or group is built, not sent as March 2nd.
    if !ferrapi_template::version::is_date(date) {
        return None;
    }
    let mut parts = date.splitn(3, '-').map(str::parse::<u64>);
    let (year, month, day) = (parts.next()?.ok()?, parts.next()?.ok()?, parts.next()?.ok()?);
    if year < 1970 || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    // Years counted from March, so the leap day is the last of its year.
    let (year, month) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = year / 400;
    let year_of_era = year % 400;
    let day_of_year = (153 * month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    let days = era * 146_097 + day_of_era;
    // 719,468 days from 0000-03-01 to 1970-01-01.
    days.checked_sub(719_468).map(|days| days * 86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_their_midnight_utc() {
        assert_eq!(unix_seconds("1970-01-01"), Some(0));
        assert_eq!(unix_seconds("2000-03-01"), Some(951_868_800));
        assert_eq!(unix_seconds("2024-02-29"), Some(1_709_164_800));
        assert_eq!(unix_seconds("2026-01-15"), Some(1_768_435_200));
        assert_eq!(unix_seconds("2026-13-01"), None);
        assert_eq!(unix_seconds("1969-12-31"), None);
        // Not a day, or not written `YYYY-MM-DD`.
        assert_eq!(unix_seconds("2026-02-30"), None);
        assert_eq!(unix_seconds("2025-02-29"), None);
        assert_eq!(unix_seconds("2026-3-1"), None);
    }

    #[test]
    fn the_headers_are_in_the_rfcs_forms() {
        let notice = Notice::new("2026-01-15", Some("2026-12-31")).unwrap();
        let mut headers = HeaderMap::new();
        notice.apply(&mut headers);
        assert_eq!(headers.get("deprecation").unwrap(), "@1768435200");
        assert_eq!(headers.get("sunset").unwrap(), "Thu, 31 Dec 2026 00:00:00 GMT");
        let mut headers = HeaderMap::new();
        Notice::new("2026-01-15", None).unwrap().apply(&mut headers);
        assert!(headers.get("sunset").is_none());
    }
}
