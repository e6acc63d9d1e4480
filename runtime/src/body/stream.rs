//! The unread body of a route that streams it ([`StreamSlot`]): an upload, read part by part by
//! the route's `Multipart` argument while the route runs.
//!
//! Rules enforced here:
//! - the body is taken once (a clone of the slot has none: a stream is read once);
//! - it is within the upload limit (`limit.rs`): a declared length over `Config::upload_limit`
//!   is refused before the route runs, and bytes over it end the stream with the 413's error;
//!   each part has `Config::upload_part_limit`, which the multipart parser checks.

use std::sync::Mutex;

use bytes::Bytes;

use super::limit::{Limit, Limited};
use crate::response::{Body, BoxError, Response};

/// The unread body of a route that streams it, with its part limit: taken once, by the
/// [`Multipart`](crate::Multipart) argument.
#[doc(hidden)]
pub struct StreamSlot {
    body: Mutex<Option<Body>>,
    /// The most bytes of one part.
    pub(crate) part: u64,
}

impl StreamSlot {
    /// The slot of `body`, an upload of at most `total` bytes and `part` bytes a part; the 413
    /// of a body declared longer than `total`.
    pub(crate) fn unread<B>(body: B, total: Limit, part: u64) -> Result<Self, Response>
    where
        B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
        B::Error: Into<BoxError>,
    {
        total.check_declared(&body.size_hint())?;
        Ok(StreamSlot {
            body: Mutex::new(Some(Body::new(Limited::new(body, total)))),
            part,
        })
    }

    /// The body, the first time.
    pub(crate) fn take(&self) -> Option<Body> {
        self.body.lock().ok().and_then(|mut body| body.take())
    }
}

impl std::fmt::Debug for StreamSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StreamSlot")
    }
}

impl Clone for StreamSlot {
    /// A clone has no body: a stream is read once.
    fn clone(&self) -> Self {
        StreamSlot {
            body: Mutex::new(None),
            part: self.part,
        }
    }
}

impl PartialEq for StreamSlot {
    fn eq(&self, _other: &Self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::Full;
    use hyper::StatusCode;

    #[test]
    fn a_stream_is_taken_once_and_refused_when_declared_over_the_limit() {
        let body = || Full::new(Bytes::from_static(b"0123456789"));
        let slot = StreamSlot::unread(body(), Limit::new(10), 4).unwrap_or_else(|_| panic!("within"));
        assert!(slot.clone().take().is_none(), "a clone has no body");
        assert!(slot.take().is_some());
        assert!(slot.take().is_none(), "taken once");
        let refused = StreamSlot::unread(body(), Limit::new(9), 4).err();
        assert_eq!(refused.map(|r| r.status()), Some(StatusCode::PAYLOAD_TOO_LARGE));
    }
}
