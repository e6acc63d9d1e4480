//! The version named as a path's first segment (`/2026-01-15/items/1`, in an app whose versions
//! allow it: `Versions::path_prefix`), and the path the routes see without it.
//!
//! Rules enforced here: a first segment shaped like a date (`NNNN-NN-NN`: ten bytes, digits but
//! the dashes) is a version prefix, whether or not it is a real date or a served version (one
//! that is not served is refused, as in the header: a typo must not fall through to a route
//! that takes a parameter there); the segment ends at the path's end or at a `/`; the path
//! without it is what follows, `/` when nothing does.

/// The length of `/YYYY-MM-DD`.
const PREFIX_LEN: usize = 11;

/// The date bytes of `path`'s version prefix, if it has one.
#[inline]
pub(crate) fn of(path: &str) -> Option<&[u8]> {
    let bytes = path.as_bytes();
    let date = bytes.get(1..PREFIX_LEN)?;
    let ends = matches!(bytes.get(PREFIX_LEN), None | Some(b'/'));
    let shaped = date.iter().enumerate().all(|(at, &b)| match at {
        4 | 7 => b == b'-',
        _ => b.is_ascii_digit(),
    });
    (bytes.first() == Some(&b'/') && ends && shaped).then_some(date)
}

/// `path` without its version prefix (the caller knows it has one): what follows it, `/` when
/// nothing does.
#[inline]
pub(crate) fn rest(path: &str) -> &str {
    match path.get(PREFIX_LEN..) {
        Some("") | None => "/",
        Some(rest) => rest,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_shaped_first_segment_is_a_prefix() {
        assert_eq!(of("/2026-01-15/items/1"), Some(&b"2026-01-15"[..]));
        assert_eq!(of("/2026-01-15"), Some(&b"2026-01-15"[..]));
        assert_eq!(of("/2026-02-30/x"), Some(&b"2026-02-30"[..]));
        assert_eq!(of("/2026-01-150/x"), None);
        assert_eq!(of("/2026-01-1x/x"), None);
        assert_eq!(of("/items/2026-01-15"), None);
        assert_eq!(of("/2026/01/15"), None);
        assert_eq!(of("/"), None);
    }

    #[test]
    fn the_routes_see_the_rest() {
        assert_eq!(rest("/2026-01-15/items/1"), "/items/1");
        assert_eq!(rest("/2026-01-15"), "/");
        assert_eq!(rest("/2026-01-15/"), "/");
    }
}
