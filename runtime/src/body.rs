//! Reading request bodies and turning them into the input of a JSON model.
//!
//! Rules enforced here (FastAPI's, measured; see tests/fastapi/observed.json):
//! - the body is read only for routes with a body argument, never beyond the configured limit: a
//!   `Content-Length` over it is refused before reading, a stream that grows over it is cut off
//!   (413 `{"detail": …}`);
//! - an empty body is a `missing` body; a body is JSON only when its `Content-Type` is
//!   `application/json` or `application/*+json` (any case, any parameters); any other or absent
//!   content type hands the raw text to validation (which reports `model_attributes_type`);
//! - invalid UTF-8 is a 400 `There was an error parsing the body`; invalid JSON is a 422
//!   `json_invalid` with Python's message and character offset, and is the only error reported.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use http_body_util::BodyExt;
use hyper::header::{CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{HeaderMap, StatusCode};
use serde_json::{json, Value};

use crate::error::{Failure, LocItem, ValidationErrors};
use crate::json_error;
use crate::response::{error_response, Response};

/// The body as validation sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyInput {
    /// No body was sent.
    Missing,
    /// A parsed JSON value.
    Json(Value),
    /// A body that is not declared as JSON, as text.
    Text(String),
}

/// Read the whole body, refusing more than `limit` bytes.
pub(crate) async fn read_limited<B>(body: B, headers: &HeaderMap, limit: usize) -> Result<Bytes, Response>
where
    B: hyper::body::Body,
    B::Error: std::fmt::Display,
{
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large(limit));
    }
    let mut body = std::pin::pin!(body);
    let mut buffer = BytesMut::with_capacity(declared.map_or(0, |len| len as usize));
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|err| {
            tracing::debug!(error = %err, "request body could not be read");
            error_response(
                StatusCode::BAD_REQUEST,
                &json!("The request body could not be read"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            if buffer.len() + data.remaining() > limit {
                return Err(too_large(limit));
            }
            buffer.put(data);
        }
    }
    Ok(buffer.freeze())
}

fn too_large(limit: usize) -> Response {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &json!(format!("Request body is larger than the limit of {limit} bytes")),
    )
}

/// True for `application/json` and `application/<anything>+json`, ignoring case and parameters.
pub fn is_json_content_type(value: &str) -> bool {
    let essence = value.split(';').next().unwrap_or("").trim();
    let Some((main, sub)) = essence.split_once('/') else {
        return false;
    };
    main.eq_ignore_ascii_case("application")
        && (sub.eq_ignore_ascii_case("json")
            || (sub.len() > 5 && sub[sub.len() - 5..].eq_ignore_ascii_case("+json")))
}

/// Decide what the body is, answering early for bodies that cannot be validated at all.
pub fn parse_body(headers: &HeaderMap, body: &[u8]) -> Result<BodyInput, Response> {
    if body.is_empty() {
        return Ok(BodyInput::Missing);
    }
    let is_json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_json_content_type);
    if !is_json {
        return Ok(BodyInput::Text(String::from_utf8_lossy(body).into_owned()));
    }
    let body = body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body);
    let Ok(text) = std::str::from_utf8(body) else {
        return Err(error_response(
            StatusCode::BAD_REQUEST,
            &json!("There was an error parsing the body"),
        ));
    };
    match serde_json::from_str::<Value>(text) {
        Ok(value) => Ok(BodyInput::Json(value)),
        Err(err) => Err(json_invalid(text, &err)),
    }
}

fn json_invalid(text: &str, err: &serde_json::Error) -> Response {
    let (pos, message) = match json_error::locate(text) {
        Some(found) => (found.pos, found.msg.to_owned()),
        None => (
            char_offset(text, err.line(), err.column()),
            describe_serde_error(text, err),
        ),
    };
    let mut errors = ValidationErrors::new();
    errors.push(
        Failure::with_ctx("json_invalid", "JSON decode error", json!({ "error": message }))
            .at(vec![LocItem::Static("body"), LocItem::Index(pos)], json!({})),
    );
    errors.into_response()
}

/// Describe an error Python would not have reported (non-finite numbers, nesting depth).
fn describe_serde_error(text: &str, err: &serde_json::Error) -> String {
    let full = err.to_string();
    let reason = full.split(" at line ").next().unwrap_or(&full);
    let at = char_offset(text, err.line(), err.column());
    let rest: String = text.chars().skip(at.saturating_sub(1)).take(10).collect();
    if reason == "recursion limit exceeded" {
        "JSON is nested too deeply (the limit is 128 levels)".to_owned()
    } else if reason == "number out of range" {
        "Number out of range (non-finite numbers are not accepted)".to_owned()
    } else if ["NaN", "Infinity", "-Infinity"].iter().any(|w| rest.contains(w)) {
        "NaN and Infinity are not valid JSON numbers".to_owned()
    } else {
        let mut chars = reason.chars();
        chars
            .next()
            .map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
    }
}

/// serde_json reports 1-based lines and byte columns; Python reports a character offset.
fn char_offset(text: &str, line: usize, column: usize) -> usize {
    let mut byte = 0;
    for (index, segment) in text.split_inclusive('\n').enumerate() {
        if index + 1 == line {
            byte += column.saturating_sub(1).min(segment.len());
            break;
        }
        byte += segment.len();
    }
    let byte = byte.min(text.len());
    text.char_indices().take_while(|(i, _)| *i < byte).count()
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

    async fn body_text(response: Response) -> String {
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
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
        assert_eq!(
            parse_body(&headers(Some("application/json")), b"").ok(),
            Some(BodyInput::Missing)
        );
        assert_eq!(parse_body(&headers(None), b"").ok(), Some(BodyInput::Missing));
        assert_eq!(
            parse_body(&headers(None), b"{\"a\":1}").ok(),
            Some(BodyInput::Text("{\"a\":1}".into()))
        );
        assert_eq!(
            parse_body(&headers(Some("text/plain")), b"x").ok(),
            Some(BodyInput::Text("x".into()))
        );
        assert_eq!(
            parse_body(&headers(Some("application/json")), b"\xEF\xBB\xBF{\"a\":1}").ok(),
            Some(BodyInput::Json(json!({"a": 1})))
        );
    }

    #[tokio::test]
    async fn invalid_json_is_json_invalid_with_python_offsets() {
        let response = parse_body(&headers(Some("application/json")), br#"{"name":"#).unwrap_err();
        assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            body_text(response).await,
            r#"{"detail":[{"type":"json_invalid","loc":["body",8],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}"#
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_a_400() {
        let response = parse_body(&headers(Some("application/json")), b"{\"a\":\"\xff\"}").unwrap_err();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            body_text(response).await,
            r#"{"detail":"There was an error parsing the body"}"#
        );
    }

    #[tokio::test]
    async fn non_finite_and_deep_json_are_422() {
        for (text, needle) in [
            (r#"{"price":NaN}"#.to_owned(), "NaN and Infinity"),
            (r#"{"price":1e400}"#.to_owned(), "Number out of range"),
            ("[".repeat(5000), "nested too deeply"),
        ] {
            let response = parse_body(&headers(Some("application/json")), text.as_bytes()).unwrap_err();
            assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
            let body = body_text(response).await;
            assert!(body.contains(needle), "{body}");
        }
    }

    #[test]
    fn char_offsets_count_code_points() {
        assert_eq!(char_offset("é{", 1, 3), 1);
        assert_eq!(char_offset("ab\ncd", 2, 2), 4);
    }
}
