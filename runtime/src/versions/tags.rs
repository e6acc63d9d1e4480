//! Entity tags that differ per version: an answer's `ETag` names the version it was made at, so
//! a conditional request at one version never matches a tag another version's answer carried.
//!
//! Rules enforced here:
//! - in an app with versions, an answer at a version has its `ETag` (whoever set it: `Tagged`,
//!   a file, a route's own header) written with `@` and the version's date at the end of its
//!   opaque part (`"42"` at `2026-01-15` is `"42@2026-01-15"`, `W/"42"` is `W/"42@2026-01-15"`);
//! - the request's `If-Match` and `If-None-Match` lose that ending where it names the version the
//!   request is served at, before any route sees them, so a route compares tags as it made them;
//!   a tag naming another version keeps its ending and so matches none of the route's (a
//!   conditional GET at one version is not a 304 against another version's tag);
//! - a `"` never appears inside a tag's opaque part, so `@date"` can only end a tag: the rewrite
//!   is a byte search, no parse; an app without versions never comes here.

use hyper::header::{HeaderMap, HeaderValue, ETAG, IF_MATCH, IF_NONE_MATCH};

/// Write `date` into the answer's `ETag`, if it has one (see the module's rules).
#[inline]
pub(crate) fn tag(headers: &mut HeaderMap, date: &str) {
    // Most answers have none: their few names walked, not `ETag` hashed and probed.
    if crate::head::surely_absent(headers, &ETAG) {
        return;
    }
    if let Some(etag) = headers.get_mut(ETAG) {
        if let Some(tagged) = with_date(etag.as_bytes(), date) {
            *etag = tagged;
        }
    }
}

/// The tag `value` with `@date` before its closing quote; `None` for a value that is not a tag.
#[cold]
fn with_date(value: &[u8], date: &str) -> Option<HeaderValue> {
    let (last, opaque) = value.split_last()?;
    if *last != b'"' || !opaque.contains(&b'"') {
        return None;
    }
    let mut out = Vec::with_capacity(value.len() + 1 + date.len());
    out.extend_from_slice(opaque);
    out.push(b'@');
    out.extend_from_slice(date.as_bytes());
    out.push(b'"');
    HeaderValue::from_bytes(&out).ok()
}

/// Take `date`'s ending off the tags of the request's `If-Match` and `If-None-Match`.
#[inline]
pub(crate) fn untag(headers: &mut HeaderMap, date: &str) {
    // Most requests have neither: the names walked once for both (`crate::head`; a look-up
    // each cost ≈ 170 instructions, and `entry` would make room for an insert first, at twice
    // that; BENCHMARKS.md, "API versions: a versioned route's cost").
    if !crate::head::holds_either(headers, &IF_MATCH, &IF_NONE_MATCH) {
        return;
    }
    untag_present(headers, date);
}

/// [`untag`] of a request with at least one of the two headers.
#[cold]
fn untag_present(headers: &mut HeaderMap, date: &str) {
    for name in [IF_MATCH, IF_NONE_MATCH] {
        if let hyper::header::Entry::Occupied(mut entry) = headers.entry(name) {
            for value in entry.iter_mut() {
                if let Some(untagged) = without_date(value.as_bytes(), date) {
                    *value = untagged;
                }
            }
        }
    }
}

/// `value` with every `@date"` made `"`; `None` when it holds none.
#[cold]
fn without_date(value: &[u8], date: &str) -> Option<HeaderValue> {
    let mut ending = Vec::with_capacity(date.len() + 2);
    ending.push(b'@');
    ending.extend_from_slice(date.as_bytes());
    ending.push(b'"');
    let mut out = Vec::with_capacity(value.len());
    let mut rest = value;
    let mut found = false;
    while let Some(at) = rest.windows(ending.len()).position(|window| window == ending) {
        out.extend_from_slice(&rest[..at]);
        out.push(b'"');
        rest = &rest[at + ending.len()..];
        found = true;
    }
    if !found {
        return None;
    }
    out.extend_from_slice(rest);
    HeaderValue::from_bytes(&out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_tag_names_its_version() {
        let mut headers = HeaderMap::new();
        headers.insert(ETAG, HeaderValue::from_static("W/\"42\""));
        tag(&mut headers, "2026-01-15");
        assert_eq!(headers[ETAG], "W/\"42@2026-01-15\"");
        let mut untagged = HeaderMap::new();
        tag(&mut untagged, "2026-01-15");
        assert!(untagged.is_empty());
        let mut odd = HeaderMap::new();
        odd.insert(ETAG, HeaderValue::from_static("42"));
        tag(&mut odd, "2026-01-15");
        assert_eq!(odd[ETAG], "42");
    }

    #[test]
    fn a_request_tag_loses_only_its_own_version() {
        let mut headers = HeaderMap::new();
        headers.insert(
            IF_NONE_MATCH,
            HeaderValue::from_static("\"42@2026-01-15\", W/\"7@2026-03-01\", \"9\""),
        );
        headers.insert(IF_MATCH, HeaderValue::from_static("*"));
        untag(&mut headers, "2026-01-15");
        assert_eq!(headers[IF_NONE_MATCH], "\"42\", W/\"7@2026-03-01\", \"9\"");
        assert_eq!(headers[IF_MATCH], "*");
    }

    /// The look-up that lets most requests through untouched finds either header alone.
    #[test]
    fn either_header_alone_is_untagged() {
        for name in [IF_MATCH, IF_NONE_MATCH] {
            let mut headers = HeaderMap::new();
            headers.insert("x-other", HeaderValue::from_static("\"1@2026-01-15\""));
            headers.insert(name.clone(), HeaderValue::from_static("\"1@2026-01-15\""));
            untag(&mut headers, "2026-01-15");
            assert_eq!(headers[&name], "\"1\"", "{name}");
            assert_eq!(headers["x-other"], "\"1@2026-01-15\"", "{name}");
        }
    }
}
