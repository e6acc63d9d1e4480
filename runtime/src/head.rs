//! Fields of a request head found by name without hashing. `HeaderMap::get` hashes the name
//! first (FNV over each byte of a custom name: ≈ 45 instructions for `api-version`, ≈ 140 with
//! the probe for `traceparent`, callgrind), while most heads have a few fields: a small head is
//! walked name by name, a name comparing its length first, so only one of the same length
//! compares bytes (a standard name compares one number). A head of more than [`SCANNED_FIELDS`]
//! distinct names is looked up as `HeaderMap` does.

use hyper::header::{HeaderName, HeaderValue};
use hyper::HeaderMap;

/// The heads with at most this many distinct names are searched name by name.
const SCANNED_FIELDS: usize = 16;

/// The value of field `name` when the head holds exactly one (≈ 15 instructions for a one-field
/// head against ≈ 140 through `HeaderMap::get_all`, callgrind `GET /item/42`).
#[inline(always)]
pub(crate) fn sole_value<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Option<&'h HeaderValue> {
    if headers.keys_len() > SCANNED_FIELDS {
        let mut all = headers.get_all(name).iter();
        let first = all.next()?;
        return all.next().is_none().then_some(first);
    }
    // Most heads have none: the names alone are cheaper to walk than the fields.
    if !walk(headers, name) {
        return None;
    }
    let mut found = None;
    for (key, value) in headers {
        if key == name {
            if found.is_some() {
                return None;
            }
            found = Some(value);
        }
    }
    found
}

/// The first value of field `name`, as `HeaderMap::get` gives it: looked up only when a walk of
/// the names found it (most heads do not name it).
#[inline(always)]
pub(crate) fn first_value<'h>(headers: &'h HeaderMap, name: &HeaderName) -> Option<&'h HeaderValue> {
    if surely_absent(headers, name) {
        return None;
    }
    headers.get(name)
}

/// Whether a walk of the names of a small head (or an answer's: they are as small) found no
/// field named `name`; false for a larger head, which the caller looks up itself.
#[inline(always)]
pub(crate) fn surely_absent(headers: &HeaderMap, name: &HeaderName) -> bool {
    headers.keys_len() <= SCANNED_FIELDS && !walk(headers, name)
}

/// Whether the head has a field named `a` or `b`.
#[inline(always)]
pub(crate) fn holds_either(headers: &HeaderMap, a: &HeaderName, b: &HeaderName) -> bool {
    if headers.keys_len() > SCANNED_FIELDS {
        return headers.contains_key(a) || headers.contains_key(b);
    }
    headers.keys().any(|key| key == a || key == b)
}

/// Whether a head has a field named `name`, its names walked.
#[inline(always)]
fn walk(headers: &HeaderMap, name: &HeaderName) -> bool {
    headers.keys().any(|key| key == name)
}

/// A head of `fields` (names and values as written), for the tests of the modules that read one.
#[cfg(test)]
pub(crate) fn head_of(fields: &[(&str, &str)]) -> HeaderMap {
    let mut headers = HeaderMap::new();
    for (name, value) in fields {
        headers.append(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    headers
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::{ETAG, IF_MATCH, IF_NONE_MATCH};

    /// A head of `n` filler fields, then `fields`: small (walked) or large (looked up).
    fn padded(n: usize, fields: &[(&str, &str)]) -> HeaderMap {
        let mut headers = head_of(fields);
        for i in 0..n {
            headers.insert(
                HeaderName::from_bytes(format!("x-filler-{i}").as_bytes()).unwrap(),
                HeaderValue::from_static("1"),
            );
        }
        headers
    }

    #[test]
    fn small_and_large_heads_answer_as_header_map_does() {
        let name = HeaderName::from_static("api-version");
        for filler in [0, 3, SCANNED_FIELDS + 1] {
            let none = padded(filler, &[("host", "a")]);
            assert_eq!(first_value(&none, &name), None, "{filler}");
            assert_eq!(sole_value(&none, &name), None, "{filler}");
            let one = padded(filler, &[("API-Version", "2026-01-15")]);
            assert_eq!(first_value(&one, &name).unwrap(), "2026-01-15", "{filler}");
            assert_eq!(sole_value(&one, &name).unwrap(), "2026-01-15", "{filler}");
            let two = padded(
                filler,
                &[("api-version", "2026-01-15"), ("api-version", "2026-03-01")],
            );
            // The first, as `get` gives it; no sole value.
            assert_eq!(first_value(&two, &name).unwrap(), "2026-01-15", "{filler}");
            assert_eq!(sole_value(&two, &name), None, "{filler}");
            // Same length, other bytes: not it.
            let other = padded(filler, &[("api-vers1on", "x")]);
            assert_eq!(first_value(&other, &name), None, "{filler}");
            // A large head is never said to lack it: its caller looks it up.
            let small = filler <= SCANNED_FIELDS;
            assert_eq!(surely_absent(&none, &ETAG), small, "{filler}");
            assert!(
                !surely_absent(&padded(filler, &[("ETag", "\"1\"")]), &ETAG),
                "{filler}"
            );
        }
    }

    #[test]
    fn either_name_is_found_in_small_and_large_heads() {
        for filler in [0, SCANNED_FIELDS + 1] {
            assert!(!holds_either(&padded(filler, &[]), &IF_MATCH, &IF_NONE_MATCH));
            assert!(holds_either(
                &padded(filler, &[("if-match", "\"a\"")]),
                &IF_MATCH,
                &IF_NONE_MATCH
            ));
            assert!(holds_either(
                &padded(filler, &[("If-None-Match", "*")]),
                &IF_MATCH,
                &IF_NONE_MATCH
            ));
        }
    }
}
