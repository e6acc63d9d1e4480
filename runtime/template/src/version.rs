//! The grammar of an API version: a calendar date written `YYYY-MM-DD` (years 1 to 9999). The
//! route macros check a route's `versions = ..` with it at compile time, and the app the versions
//! it declares when it is built, so both sides agree on what a version is.

/// Whether `text` is a calendar date written `YYYY-MM-DD` (years 1 to 9999).
///
/// ```
/// assert!(ferrapi_template::version::is_date("2024-02-29"));
/// assert!(!ferrapi_template::version::is_date("2026-02-29"));
/// ```
pub fn is_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    let number = |range: std::ops::Range<usize>| {
        bytes.get(range).and_then(|digits| {
            digits.iter().try_fold(0u32, |n, &b| {
                b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
            })
        })
    };
    if bytes.len() != 10 || bytes.get(4) != Some(&b'-') || bytes.get(7) != Some(&b'-') {
        return false;
    }
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    year >= 1 && (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::is_date;

    #[test]
    fn dates_are_calendar_dates() {
        assert!(is_date("2026-01-15"));
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2026-02-29"));
        assert!(!is_date("2026-13-01"));
        assert!(!is_date("2026-1-15"));
        assert!(!is_date("v1"));
        assert!(!is_date("2026-01-1x"));
        assert!(!is_date("0000-01-01"));
        assert!(!is_date("2026-01-15 "));
    }
}
