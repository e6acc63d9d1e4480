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
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::header::CONTENT_TYPE;
use hyper::{HeaderMap, StatusCode};
use serde_json::{json, Value};

use crate::error::{BadBody, ErrorItem, Failure, LocItem, ValidationErrors};
use crate::json_error;
use crate::response::{error_response, Response};

/// The body as validation sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyInput {
    /// No body was sent.
    Missing,
    /// A body declared as JSON, not parsed yet (the target type decides how: see `fast_json`).
    Json(Bytes),
    /// A body that is not declared as JSON, as text.
    Text(String),
}

/// Reads a whole body, refusing more than `limit` bytes, by polling (see `dispatch`).
pub(crate) struct BodyReader<B> {
    body: B,
    /// The first data frame, kept as it came: a body of one frame (most bodies) is not copied.
    first: Bytes,
    /// The body so far, once a second frame arrived.
    buffer: BytesMut,
    /// The declared length, to size `buffer`.
    capacity: usize,
    limit: usize,
}

impl<B> BodyReader<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: std::fmt::Display,
{
    /// Start reading `body`; a declared `Content-Length` over `limit` is refused at once.
    pub(crate) fn new(body: B, limit: usize) -> Result<Self, Response> {
        // hyper turns `Content-Length` into the body's exact size hint (and refuses a malformed
        // one), so the header need not be looked up and parsed again.
        let hint = body.size_hint();
        if hint.lower() > limit as u64 {
            return Err(too_large(limit));
        }
        let capacity = hint.exact().map_or(0, |len| len as usize);
        Ok(BodyReader {
            body,
            first: Bytes::new(),
            buffer: BytesMut::new(),
            capacity,
            limit,
        })
    }

    /// Poll until the body is complete, too large, or broken.
    pub(crate) fn poll_read(&mut self, cx: &mut Context<'_>) -> Poll<Result<Bytes, Response>> {
        loop {
            match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    let body = if self.buffer.is_empty() {
                        std::mem::take(&mut self.first)
                    } else {
                        std::mem::take(&mut self.buffer).freeze()
                    };
                    return Poll::Ready(Ok(body));
                }
                Poll::Ready(Some(Err(err))) => {
                    tracing::debug!(error = %err, "request body could not be read");
                    return Poll::Ready(Err(error_response(
                        StatusCode::BAD_REQUEST,
                        &json!("The request body could not be read"),
                    )));
                }
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(mut data) = frame.into_data() {
                        let read = self.first.len() + self.buffer.len();
                        if read + data.remaining() > self.limit {
                            return Poll::Ready(Err(too_large(self.limit)));
                        }
                        if read == 0 {
                            // `Bytes` hands itself over without a copy.
                            self.first = data.copy_to_bytes(data.remaining());
                        } else {
                            if self.buffer.is_empty() {
                                self.buffer.reserve(self.capacity.max(read + data.remaining()));
                                self.buffer.put(std::mem::take(&mut self.first));
                            }
                            self.buffer.put(data);
                        }
                    }
                }
            }
        }
    }
}

fn too_large(limit: usize) -> Response {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &json!(format!("Request body is larger than the limit of {limit} bytes")),
    )
}

/// True for `application/json` and `application/<anything>+json`, ignoring case and parameters.
pub fn is_json_content_type(value: &str) -> bool {
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
pub fn classify(headers: &HeaderMap, body: Bytes) -> BodyInput {
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
        BodyInput::Text(String::from_utf8_lossy(&body).into_owned())
    }
}

/// The JSON text without a UTF-8 byte-order mark (Python's `json` accepts one).
pub fn strip_bom(body: &[u8]) -> &[u8] {
    body.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(body)
}

/// Parse a JSON body into a `Value`; a body that is not UTF-8 or not JSON is recorded in
/// `errors` (it replaces every other error) and gives `None`.
pub fn parse_json_value(body: &[u8], errors: &mut ValidationErrors) -> Option<Value> {
    let Ok(text) = std::str::from_utf8(strip_bom(body)) else {
        errors.bad_body(BadBody::NotUtf8);
        return None;
    };
    match serde_json::from_str::<Value>(text) {
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
    use http_body_util::BodyExt;
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
        let bytes = |b: &'static [u8]| Bytes::from_static(b);
        assert_eq!(
            classify(&headers(Some("application/json")), bytes(b"")),
            BodyInput::Missing
        );
        assert_eq!(classify(&headers(None), bytes(b"")), BodyInput::Missing);
        assert_eq!(
            classify(&headers(None), bytes(b"{\"a\":1}")),
            BodyInput::Text("{\"a\":1}".into())
        );
        assert_eq!(
            classify(&headers(Some("text/plain")), bytes(b"x")),
            BodyInput::Text("x".into())
        );
        assert_eq!(
            classify(&headers(Some("application/json")), bytes(b"{}")),
            BodyInput::Json(bytes(b"{}"))
        );
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

    /// A body of the given frames, `Pending` (with a wake-up) before each when `stall`.
    struct Frames {
        frames: std::collections::VecDeque<&'static [u8]>,
        stall: bool,
        stalled: bool,
    }

    impl hyper::body::Body for Frames {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
            if self.stall && !std::mem::replace(&mut self.stalled, true) {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            self.stalled = false;
            let frame = self.frames.pop_front();
            Poll::Ready(frame.map(|f| Ok(hyper::body::Frame::data(Bytes::from_static(f)))))
        }
    }

    async fn read(frames: &[&'static [u8]], stall: bool, limit: usize) -> Result<Bytes, StatusCode> {
        let body = Frames {
            frames: frames.iter().copied().collect(),
            stall,
            stalled: false,
        };
        let mut reader = BodyReader::new(body, limit).map_err(|r| r.status())?;
        std::future::poll_fn(|cx| reader.poll_read(cx))
            .await
            .map_err(|r| r.status())
    }

    #[tokio::test]
    async fn bodies_of_one_or_many_frames_are_read_whole() {
        for stall in [false, true] {
            assert_eq!(read(&[], stall, 10).await, Ok(Bytes::new()));
            assert_eq!(read(&[b"{}"], stall, 10).await, Ok(Bytes::from_static(b"{}")));
            assert_eq!(
                read(&[b"", b"ab"], stall, 10).await,
                Ok(Bytes::from_static(b"ab"))
            );
            assert_eq!(
                read(&[b"ab", b"", b"cd", b"e"], stall, 10).await,
                Ok(Bytes::from_static(b"abcde"))
            );
            assert_eq!(
                read(&[b"abcd", b"efg"], stall, 6).await,
                Err(StatusCode::PAYLOAD_TOO_LARGE)
            );
            assert_eq!(
                read(&[b"abcdefg"], stall, 6).await,
                Err(StatusCode::PAYLOAD_TOO_LARGE)
            );
        }
    }

    #[test]
    fn char_offsets_count_code_points() {
        assert_eq!(char_offset("é{", 1, 3), 1);
        assert_eq!(char_offset("ab\ncd", 2, 2), 4);
    }
}
