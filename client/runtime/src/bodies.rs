//! The bodies a document leaves undescribed: an error answer without a schema, an answer of an
//! undocumented status, RFC 9457 problem details.
//!
//! Rules enforced here: the bytes are kept as they came; reading them as FastAPI's
//! `{"detail": …}` or as problem details is on demand and never fails the call (it is `None`
//! when the body is something else).

use std::borrow::Cow;

use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderValue};
use hyper::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An answer whose body the document does not describe (a `404` documented by its description
/// alone): its bytes, read as FastAPI's `{"detail": …}` on demand.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpError {
    content_type: Option<HeaderValue>,
    body: Bytes,
}

impl HttpError {
    /// The error `body`, of `content_type`.
    pub fn new(content_type: Option<HeaderValue>, body: Bytes) -> Self {
        HttpError { content_type, body }
    }

    /// The body as it came.
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }

    /// The `Content-Type`.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_ref()?.to_str().ok()
    }

    /// The `detail` of a FastAPI error (`{"detail": …}`), as JSON.
    pub fn detail(&self) -> Option<Value> {
        #[derive(Deserialize)]
        struct Detail {
            detail: Value,
        }
        serde_json::from_slice::<Detail>(&self.body)
            .ok()
            .map(|detail| detail.detail)
    }

    /// The `detail` when it is a string (`{"detail": "Doctor not found"}`).
    pub fn message(&self) -> Option<String> {
        match self.detail()? {
            Value::String(message) => Some(message),
            _ => None,
        }
    }

    /// The body as RFC 9457 problem details, when it is one.
    pub fn problem(&self) -> Option<ProblemDetails> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// An answer of a status the document does not list for the operation.
#[derive(Clone, Debug)]
pub struct Unexpected {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The body.
    pub body: Bytes,
}

impl Unexpected {
    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }
}

/// RFC 9457 problem details (`application/problem+json`), for an answer the document says is
/// one without giving its schema.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct ProblemDetails {
    /// A URI naming the kind of problem (`about:blank` when absent).
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub type_: Option<String>,
    /// A short summary of the kind of problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// What happened this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// A URI naming this occurrence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Any other members.
    #[serde(flatten)]
    pub extensions: serde_json::Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastapi_details_are_read_on_demand() {
        let error = HttpError::new(None, Bytes::from_static(br#"{"detail":"Doctor not found"}"#));
        assert_eq!(error.message().as_deref(), Some("Doctor not found"));
        let list = HttpError::new(None, Bytes::from_static(br#"{"detail":[1]}"#));
        assert_eq!(list.detail(), Some(serde_json::json!([1])));
        assert_eq!(list.message(), None);
        let text = HttpError::new(None, Bytes::from_static(b"Not Found"));
        assert_eq!((text.detail(), text.text().as_ref()), (None, "Not Found"));
    }

    #[test]
    fn problem_details_keep_their_extensions() {
        let error = HttpError::new(
            None,
            Bytes::from_static(br#"{"type":"https://e.x/p","title":"T","status":409,"balance":30}"#),
        );
        let problem = error.problem().unwrap();
        assert_eq!(problem.status, Some(409));
        assert_eq!(problem.extensions["balance"], 30);
    }
}
