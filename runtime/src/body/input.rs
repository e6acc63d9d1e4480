//! The body as a route's arguments see it ([`BodyInput`]): not sent, JSON or not, unread (an
//! upload the route streams), or a form read with its files.
//!
//! Rules enforced here (FastAPI's, measured; see tests/fastapi/observed.json):
//! - an empty body is a `missing` body;
//! - a body is JSON only when its `Content-Type` is `application/json` or `application/*+json`
//!   (any case, any parameters); any other or absent content type hands the raw bytes to
//!   validation (which reports `model_attributes_type`, with the body as text, invalid UTF-8
//!   replaced, as its input).

use bytes::Bytes;
use hyper::header::CONTENT_TYPE;
use hyper::HeaderMap;

use super::form::FormParts;
use super::stream::StreamSlot;

/// The body as validation sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyInput {
    /// No body was sent.
    Missing,
    /// A body declared as JSON, not parsed yet (the target type decides how: see `fast_json`).
    Json(Bytes),
    /// A body that is not declared as JSON, as it came: decoded (lossily) only where a
    /// validation error echoes it, so a form reads its own bytes and nothing binary is rewritten.
    Text(Bytes),
    /// A body not read yet, for a route that streams it (an upload).
    Stream(StreamSlot),
    /// The form of a route that takes files, read before its arguments (see `spool`).
    Form(FormParts),
}

/// True for `application/json` and `application/<anything>+json`, ignoring case and parameters.
fn is_json_content_type(value: &str) -> bool {
    if value == "application/json" {
        return true;
    }
    let essence = value.split(';').next().unwrap_or("").trim();
    let Some((main, sub)) = essence.split_once('/') else {
        return false;
    };
    main.eq_ignore_ascii_case("application")
        && (sub.eq_ignore_ascii_case("json")
            || (sub.len() > 5 && sub[sub.len() - 5..].eq_ignore_ascii_case("+json")))
}

/// Decide what the body is from its content type.
pub(crate) fn body_input(headers: &HeaderMap, body: Bytes) -> BodyInput {
    if body.is_empty() {
        return BodyInput::Missing;
    }
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_json_content_type);
    if is_json {
        BodyInput::Json(body)
    } else {
        BodyInput::Text(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn headers(content_type: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(ct) = content_type {
            headers.insert(CONTENT_TYPE, HeaderValue::from_static(ct));
        }
        headers
    }

    #[test]
    fn json_content_types() {
        for yes in [
            "application/json",
            "APPLICATION/JSON",
            "application/json; charset=utf-8",
            "application/vnd.api+json",
        ] {
            assert!(is_json_content_type(yes), "{yes}");
        }
        for no in [
            "text/plain",
            "text/json",
            "application/jsonx",
            "application/x-www-form-urlencoded",
            "",
            "json",
            "application/+json",
        ] {
            assert!(!is_json_content_type(no), "{no}");
        }
    }

    #[test]
    fn empty_and_non_json_bodies() {
        let bytes = |b: &'static [u8]| Bytes::from_static(b);
        assert_eq!(
            body_input(&headers(Some("application/json")), bytes(b"")),
            BodyInput::Missing
        );
        assert_eq!(body_input(&headers(None), bytes(b"")), BodyInput::Missing);
        assert_eq!(
            body_input(&headers(None), bytes(b"{\"a\":1}")),
            BodyInput::Text(Bytes::from_static(b"{\"a\":1}"))
        );
        assert_eq!(
            body_input(&headers(Some("text/plain")), bytes(b"x")),
            BodyInput::Text(Bytes::from_static(b"x"))
        );
        assert_eq!(
            body_input(&headers(Some("application/json")), bytes(b"{}")),
            BodyInput::Json(bytes(b"{}"))
        );
    }
}
