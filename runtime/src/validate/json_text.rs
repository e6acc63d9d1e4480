//! Parsing a JSON body's text, with the errors FastAPI gives for a text that is not JSON.
//!
//! Rules enforced here (FastAPI's, measured; see tests/fastapi/observed.json):
//! - a UTF-8 byte-order mark is skipped, as Python's `json` does;
//! - invalid UTF-8 is a 400 `There was an error parsing the body`; invalid JSON is a 422
//!   `json_invalid` with Python's message and character offset (see [`super::json_error`]), and is
//!   the only error reported;
//! - what Python would accept but serde_json refuses (NaN, Infinity, numbers out of range, nesting
//!   beyond 128 levels) is a `json_invalid` with a message saying so.

use serde_json::{json, Value};

use super::error::{BadBody, ErrorItem, Failure, LocItem, ValidationErrors};
use super::json_error;

/// The JSON text without a UTF-8 byte-order mark (Python's `json` accepts one).
pub(crate) fn strip_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body)
}

/// Parse a JSON body into a `Value`; a body that is not UTF-8 or not JSON is recorded in
/// `errors` (it replaces every other error) and gives `None`.
pub(crate) fn parse_json_value(body: &[u8], errors: &mut ValidationErrors) -> Option<Value> {
    let Ok(text) = std::str::from_utf8(strip_bom(body)) else {
        errors.bad_body(BadBody::NotUtf8);
        return None;
    };
    match super::json_tree::parse_value(text) {
        Ok(value) => Some(value),
        Err(err) => {
            errors.bad_body(BadBody::InvalidJson(Box::new(json_invalid(text, &err))));
            None
        }
    }
}

fn json_invalid(text: &str, err: &serde_json::Error) -> ErrorItem {
    let (pos, message) = match json_error::locate(text) {
        Some(found) => (found.pos, found.msg.to_owned()),
        None => (
            char_offset(text, err.line(), err.column()),
            describe_serde_error(text, err),
        ),
    };
    Failure::with_ctx("json_invalid", "JSON decode error", json!({ "error": message }))
        .at(vec![LocItem::Static("body"), LocItem::Index(pos)], json!({}))
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
    use crate::response::IntoResponse;
    use http_body_util::BodyExt;
    use hyper::StatusCode;

    async fn body_text(response: crate::response::Response) -> String {
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let mut errors = ValidationErrors::new();
        assert_eq!(
            parse_json_value(b"\xEF\xBB\xBF{\"a\":1}", &mut errors),
            Some(json!({"a": 1}))
        );
        assert!(errors.is_empty());
    }

    async fn answer(body: &[u8]) -> (StatusCode, String) {
        let mut errors = ValidationErrors::new();
        assert_eq!(parse_json_value(body, &mut errors), None);
        let response = errors.into_response();
        (response.status(), body_text(response).await)
    }

    #[tokio::test]
    async fn invalid_json_is_json_invalid_with_python_offsets() {
        let (status, text) = answer(br#"{"name":"#).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            text,
            r#"{"detail":[{"type":"json_invalid","loc":["body",8],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}"#
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_a_400() {
        let (status, text) = answer(b"{\"a\":\"\xff\"}").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(text, r#"{"detail":"There was an error parsing the body"}"#);
    }

    #[tokio::test]
    async fn non_finite_and_deep_json_are_422() {
        for (text, needle) in [
            (r#"{"price":NaN}"#.to_owned(), "NaN and Infinity"),
            (r#"{"price":1e400}"#.to_owned(), "Number out of range"),
            ("[".repeat(5000), "nested too deeply"),
        ] {
            let (status, body) = answer(text.as_bytes()).await;
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            assert!(body.contains(needle), "{body}");
        }
    }

    #[test]
    fn char_offsets_count_code_points() {
        assert_eq!(char_offset("é{", 1, 3), 1);
        assert_eq!(char_offset("ab\ncd", 2, 2), 4);
    }
}
