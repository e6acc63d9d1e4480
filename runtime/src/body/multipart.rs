//! The failures of reading a `multipart/form-data` body ([`MultipartError`]), whether the route
//! reads it part by part (`Multipart`) or the dispatcher reads it as a form with files
//! (`spool.rs`), and the boundary its content type declares.
//!
//! Rules enforced here:
//! - each failure has its answer: 413 when a limit was reached (the body's, `limit.rs`, or a
//!   part's), 408 when the body missed its deadline (`deadline.rs`), 400 when the body is
//!   malformed, could not be read, or a text part is not UTF-8, a logged 500 when a file could
//!   not be written;
//! - the 413 and the 408 are the ones every other reader of a body answers.

use hyper::header::CONTENT_TYPE;
use hyper::StatusCode;
use serde_json::json;

use super::deadline::{body_timed_out, is_body_timeout};
use super::limit::{too_large_in, TooLarge};
use crate::response::{error_response, IntoResponse, Response};

/// A failure while reading an upload: 413 when a limit was reached (the rest is not read), 400
/// when the body is malformed, could not be read, or a text part is not UTF-8, 500 when a file
/// could not be written (the route's `?` answers it).
#[derive(Debug)]
pub struct MultipartError(Failure);

#[derive(Debug)]
enum Failure {
    Parse(multer::Error),
    NotUtf8,
    Io(std::io::Error),
}

impl MultipartError {
    pub(crate) fn parse(error: multer::Error) -> Self {
        MultipartError(Failure::Parse(error))
    }

    pub(crate) fn io(error: std::io::Error) -> Self {
        MultipartError(Failure::Io(error))
    }

    pub(crate) fn not_utf8() -> Self {
        MultipartError(Failure::NotUtf8)
    }

    /// The status the failure is answered with.
    pub fn status(&self) -> StatusCode {
        if self.is_timeout() {
            return StatusCode::REQUEST_TIMEOUT;
        }
        if self.over_limit().is_some() {
            return StatusCode::PAYLOAD_TOO_LARGE;
        }
        match &self.0 {
            Failure::Parse(multer::Error::FieldSizeExceeded { .. }) => StatusCode::PAYLOAD_TOO_LARGE,
            Failure::Parse(_) | Failure::NotUtf8 => StatusCode::BAD_REQUEST,
            Failure::Io(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// True when a size limit was reached.
    pub fn is_too_large(&self) -> bool {
        self.status() == StatusCode::PAYLOAD_TOO_LARGE
    }

    /// True when the body missed its deadline (`Config::body_timeout`): answered 408.
    pub fn is_timeout(&self) -> bool {
        self.stream_error().is_some_and(is_body_timeout)
    }

    /// The body's limit, when the body went over it.
    fn over_limit(&self) -> Option<&TooLarge> {
        self.stream_error().and_then(too_large_in)
    }

    /// Why the body itself could not be read, when it could not.
    fn stream_error(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0 {
            Failure::Parse(multer::Error::StreamReadFailed(error)) => Some(&**error),
            _ => None,
        }
    }
}

impl std::fmt::Display for MultipartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Failure::Parse(error) => error.fmt(f),
            Failure::NotUtf8 => f.write_str("a text part is not UTF-8"),
            Failure::Io(error) => write!(f, "an upload could not be saved: {error}"),
        }
    }
}

impl std::error::Error for MultipartError {}

impl IntoResponse for MultipartError {
    fn into_response(self) -> Response {
        if self.is_timeout() {
            return body_timed_out();
        }
        if let Some(too_large) = self.over_limit() {
            tracing::debug!(error = %self, "upload refused");
            return too_large.answer();
        }
        let detail = match &self.0 {
            Failure::Parse(multer::Error::FieldSizeExceeded { limit, .. }) => {
                format!("An uploaded part is larger than the limit of {limit} bytes")
            }
            Failure::Io(error) => {
                tracing::error!(error = %error, "an upload could not be saved");
                return crate::response::internal_error();
            }
            _ => "There was an error parsing the body".to_owned(),
        };
        tracing::debug!(error = %self, "upload refused");
        error_response(self.status(), &json!(detail))
    }
}

/// The boundary a `multipart/form-data` content type in `headers` declares.
pub(crate) fn boundary_of(headers: &hyper::HeaderMap) -> Option<String> {
    let content_type = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    multer::parse_boundary(content_type).ok()
}
