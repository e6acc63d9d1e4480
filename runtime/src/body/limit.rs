//! The body limits, checked in one place ([`Limit`]): every comparison of a request body's length
//! with its limit, and the 413 that answers a body over it.
//!
//! Rules enforced here:
//! - a body whose declared length (`Content-Length`, which hyper turns into the body's exact size
//!   hint, refusing a malformed one) is over its limit is refused before a byte of it is read;
//!   bytes received over it are refused as soon as they arrive, and the rest is not read;
//! - the answer is 413 `{"detail": "Request body is larger than the limit of N bytes"}`, N the
//!   limit, whoever reads the body;
//! - which limit: a body read whole (a JSON or text body, an urlencoded form) has
//!   `Config::body_limit`; an upload (a body its route streams, a form with files)
//!   `Config::upload_limit` for all its bytes, and each of its parts `Config::upload_part_limit`,
//!   which the multipart parser checks as it splits them;
//! - a body read by someone else (an upload, by the multipart parser) is wrapped in [`Limited`]:
//!   its reader gets the error [`TooLarge`] instead of the bytes over the limit, and answers it
//!   with the same 413 ([`too_large_in`] finds it under the parser's error);
//! - a layer's own limit (`tower-http`'s `RequestBodyLimitLayer`) is the layer's: its error is
//!   answered 413 by the body's reader too (`reader.rs`, `unreadable`).

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use hyper::StatusCode;
use serde_json::json;

use super::cause;
use crate::response::{error_response, BoxError, Response};

/// The most bytes one request body may have (see the module rules).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limit(u64);

impl Limit {
    /// At most `bytes` bytes.
    pub(crate) const fn new(bytes: u64) -> Self {
        Limit(bytes)
    }

    /// At most `bytes` bytes (a limit of the configuration's in memory sizes).
    pub(crate) const fn of_usize(bytes: usize) -> Self {
        Limit(bytes as u64)
    }

    /// The limit in bytes, as a memory size (what a buffer holding the body may grow to).
    #[inline]
    pub(crate) fn as_usize(self) -> usize {
        usize::try_from(self.0).unwrap_or(usize::MAX)
    }

    /// The 413 of a body declared longer than the limit, before it is read.
    #[inline]
    pub(crate) fn check_declared(self, hint: &SizeHint) -> Result<(), Response> {
        self.check(hint.lower())
    }

    /// The 413 of a body once `received` bytes of it have arrived, if that is over the limit.
    #[inline]
    pub(crate) fn check(self, received: u64) -> Result<(), Response> {
        if received > self.0 {
            return Err(self.refusal());
        }
        Ok(())
    }

    /// The answer to a body over the limit.
    #[cold]
    pub(crate) fn refusal(self) -> Response {
        error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &json!(format!(
                "Request body is larger than the limit of {} bytes",
                self.0
            )),
        )
    }
}

/// The error of a body whose bytes went over its [`Limit`] (see [`Limited`]).
#[derive(Debug)]
pub(crate) struct TooLarge(Limit);

impl TooLarge {
    /// The 413 that answers it.
    pub(crate) fn answer(&self) -> Response {
        self.0.refusal()
    }
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the request body is larger than the limit of {} bytes",
            (self.0).0
        )
    }
}

impl std::error::Error for TooLarge {}

/// The [`TooLarge`] that `error` is or wraps (a reader's error caused by it), if any.
pub(crate) fn too_large_in<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a TooLarge> {
    cause::<TooLarge>(error)
}

/// A body that ends with [`TooLarge`] once more bytes than its limit arrived, for a reader that
/// does not check the limit itself.
pub(crate) struct Limited<B> {
    inner: B,
    limit: Limit,
    received: u64,
}

impl<B> Limited<B> {
    /// `inner`, within `limit`.
    pub(crate) fn new(inner: B, limit: Limit) -> Self {
        Limited {
            inner,
            limit,
            received: 0,
        }
    }
}

impl<B> hyper::body::Body for Limited<B>
where
    B: hyper::body::Body<Data = Bytes> + Unpin,
    B::Error: Into<BoxError>,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        let frame = match std::task::ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
            Some(Ok(frame)) => frame,
            Some(Err(error)) => return Poll::Ready(Some(Err(error.into()))),
            None => return Poll::Ready(None),
        };
        if let Some(data) = frame.data_ref() {
            this.received = this.received.saturating_add(data.len() as u64);
            if this.limit.check(this.received).is_err() {
                return Poll::Ready(Some(Err(Box::new(TooLarge(this.limit)))));
            }
        }
        Poll::Ready(Some(Ok(frame)))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::{BodyExt, Full};

    #[test]
    fn a_declared_or_received_length_over_the_limit_is_a_413_naming_it() {
        let limit = Limit::new(10);
        assert!(limit.check(10).is_ok());
        assert!(limit.check_declared(&SizeHint::with_exact(10)).is_ok());
        let refused = limit.check_declared(&SizeHint::with_exact(11)).err();
        assert_eq!(refused.map(|r| r.status()), Some(StatusCode::PAYLOAD_TOO_LARGE));
        assert_eq!(Limit::of_usize(7).as_usize(), 7);
    }

    #[tokio::test]
    async fn a_limited_body_fails_once_more_than_its_limit_arrived() {
        let within = Limited::new(Full::new(Bytes::from_static(b"0123456789")), Limit::new(10));
        assert_eq!(
            within.collect().await.map(|c| c.to_bytes()).ok(),
            Some(Bytes::from_static(b"0123456789"))
        );
        let over = Limited::new(Full::new(Bytes::from_static(b"0123456789")), Limit::new(9));
        let error = over.collect().await.err();
        let found = error.as_deref().and_then(|e| too_large_in(e));
        assert_eq!(
            found.map(|t| t.answer().status()),
            Some(StatusCode::PAYLOAD_TOO_LARGE)
        );
    }
}
