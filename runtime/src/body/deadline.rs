//! A request body's deadline as its readers meet it: the error a body that missed it ends with,
//! and the answer to it. The deadline itself (`Config::body_timeout`, `Config::body_min_rate`)
//! is the server's (`server/body_deadline.rs`); the dispatcher's look, which starts no clock, is
//! an explicit call (`handed.rs`, [`Look`](super::Look)).
//!
//! Rules enforced here:
//! - a body that missed its deadline ends with the error [`BodyTimedOut`]; every reader of a
//!   body answers it with [`body_timed_out`]: 408 `{"detail": …}`, `Connection: close` (the rest
//!   of the body may still be on its way, and would otherwise be read as the next request). Found
//!   however the error is wrapped ([`is_body_timeout`]: a layer's `BodyError`, a multipart
//!   parser's source). The server counts it, and closes the connection, from what its body told
//!   it (`handed.rs`), not from this answer, which a layer may replace.

use hyper::header::{HeaderValue, CONNECTION};
use hyper::StatusCode;
use serde_json::json;

use super::cause;
use crate::response::{error_response, Response};

/// The error a request body ends with when it missed its deadline (`Config::body_timeout`): the
/// server's timed body raises it, the readers of bodies answer it with [`body_timed_out`].
#[derive(Debug)]
pub(crate) struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body was not received in time")
    }
}

impl std::error::Error for BodyTimedOut {}

/// True when `error` is, or wraps (as a [`BodyError`](crate::BodyError) or a source), a missed
/// body deadline.
pub(crate) fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    cause::<BodyTimedOut>(error).is_some()
}

/// 408 for a body that missed its deadline; the connection is closed after it (the rest of the
/// body may still be on its way, and would otherwise be read as the next request).
#[cold]
pub(crate) fn body_timed_out() -> Response {
    let mut response = error_response(
        StatusCode::REQUEST_TIMEOUT,
        &json!("The request body was not received in time"),
    );
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error caused by another, as a multipart parser reports a stream that failed.
    #[derive(Debug)]
    struct Caused(BodyTimedOut);

    impl std::fmt::Display for Caused {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("caused")
        }
    }

    impl std::error::Error for Caused {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_missed_deadline_is_found_as_the_source_of_another_error() {
        assert!(is_body_timeout(&BodyTimedOut));
        assert!(is_body_timeout(&Caused(BodyTimedOut)));
        let other: crate::response::BoxError = "other".into();
        assert!(!is_body_timeout(&*other));
        let answer = body_timed_out();
        assert_eq!(answer.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(answer.headers()[CONNECTION], "close");
    }
}
