//! Reading request bodies: whole, bounded, and classified by content type.
//!
//! Rules enforced here (FastAPI's, measured; see tests/fastapi/observed.json):
//! - the body is read only for routes with a body argument, never beyond the configured limit: a
//!   `Content-Length` over it is refused before reading, a stream that grows over it is cut off
//!   (413 `{"detail": …}`), also when a layer limits it (`RequestBodyLimitLayer`); a body that
//!   cannot be read is a 400;
//! - an empty body is a `missing` body; a body is JSON only when its `Content-Type` is
//!   `application/json` or `application/*+json` (any case, any parameters); any other or absent
//!   content type hands the raw bytes to validation (which reports `model_attributes_type`, with
//!   the body as text, invalid UTF-8 replaced, as its input);
//! - a route that streams its body (an upload) gets it unread, in a [`StreamSlot`], taken once;
//!   a route that takes files gets its form read (`spool`).

use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use http_body_util::LengthLimitError;
use hyper::header::CONTENT_TYPE;
use hyper::{HeaderMap, StatusCode};
use serde_json::json;

use super::form_parts::FormParts;
use crate::budget::Charge;
use crate::response::{error_response, over_budget, Body, BodyError, BoxError, Response};

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

/// The unread body of a route that streams it, with its limits: taken once, by the
/// [`Multipart`] argument.
#[doc(hidden)]
pub struct StreamSlot {
    body: Mutex<Option<Body>>,
    pub(crate) total: u64,
    pub(crate) part: u64,
}

impl StreamSlot {
    /// The slot for `body`, to be read within `total` bytes, `part` bytes a part.
    pub(crate) fn new(body: Body, total: u64, part: u64) -> Self {
        StreamSlot {
            body: Mutex::new(Some(body)),
            total,
            part,
        }
    }

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
            total: self.total,
            part: self.part,
        }
    }
}

impl PartialEq for StreamSlot {
    fn eq(&self, _other: &Self) -> bool {
        false
    }
}

/// Reads a whole body, refusing more than `limit` bytes, by polling (see `dispatch`). With a
/// memory budget, what it keeps is charged before it is kept, and only what has arrived: a client
/// that declares a length and stalls holds nothing of the budget (it could otherwise hold all of
/// it, 64 connections × 1 MiB, for the whole body deadline, without sending a byte).
pub(crate) struct BodyReader<B> {
    body: B,
    /// The request's charge against the memory budget, when the app has one.
    charge: Option<Charge>,
    /// Bytes charged for the body so far (what it holds).
    charged: usize,
    /// The first data frame, kept as it came: a body of one frame (most bodies) is not copied.
    first: Bytes,
    /// The body so far, once a second frame arrived.
    buffer: BytesMut,
    /// The declared length: the most `buffer` grows to (it grows by doubling what arrived).
    capacity: usize,
    limit: usize,
}

impl<B> BodyReader<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: Into<BoxError>,
{
    /// Start reading `body`; a declared `Content-Length` over `limit` is refused at once, and
    /// one the memory budget (`charge`) has no room for now (503) or could never hold (413).
    pub(crate) fn new(body: B, limit: usize, charge: Option<Charge>) -> Result<Self, Response> {
        // hyper turns `Content-Length` into the body's exact size hint (and refuses a malformed
        // one), so the header need not be looked up and parsed again.
        let hint = body.size_hint();
        if hint.lower() > limit as u64 {
            return Err(too_large(limit));
        }
        let capacity = hint.exact().map_or(limit, |len| len as usize);
        if let Some(charge) = &charge {
            charge.fits(hint.lower() as usize).map_err(over_budget)?;
        }
        Ok(BodyReader {
            body,
            charge,
            charged: 0,
            first: Bytes::new(),
            buffer: BytesMut::new(),
            capacity,
            limit,
        })
    }

    /// The request's charge, once the body is read (its parse grows it).
    pub(crate) fn take_charge(&mut self) -> Option<Charge> {
        self.charge.take()
    }

    /// Charge what the body holds once it holds `held` bytes.
    #[inline]
    fn charge_up_to(&mut self, held: usize) -> Result<(), Response> {
        if held > self.charged {
            if let Some(charge) = &self.charge {
                charge.grow(held - self.charged).map_err(over_budget)?;
            }
            self.charged = held;
        }
        Ok(())
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
                Poll::Ready(Some(Err(err))) => return Poll::Ready(Err(unreadable(err.into()))),
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(mut data) = frame.into_data() {
                        let read = self.first.len() + self.buffer.len();
                        let needed = read + data.remaining();
                        if needed > self.limit {
                            return Poll::Ready(Err(too_large(self.limit)));
                        }
                        if read == 0 {
                            if let Err(refused) = self.charge_up_to(needed) {
                                return Poll::Ready(Err(refused));
                            }
                            // `Bytes` hands itself over without a copy.
                            self.first = data.copy_to_bytes(data.remaining());
                            continue;
                        }
                        if needed > self.buffer.capacity() {
                            // Twice what arrived, never past the declared length: what the body
                            // holds follows what was sent.
                            let room = needed.max(2 * read).min(self.capacity.max(needed));
                            if let Err(refused) = self.charge_up_to(room) {
                                return Poll::Ready(Err(refused));
                            }
                            self.buffer.reserve(room - self.buffer.len());
                            // The allocator's own rounding, if any.
                            if let Err(refused) = self.charge_up_to(self.buffer.capacity()) {
                                return Poll::Ready(Err(refused));
                            }
                        }
                        if self.buffer.is_empty() {
                            self.buffer.put(std::mem::take(&mut self.first));
                        }
                        self.buffer.put(data);
                    }
                }
            }
        }
    }
}

/// The answer to a body that failed while being read: 408 when it missed its deadline, 413 when
/// a layer limited its length (`tower-http`'s `RequestBodyLimitLayer`), else 400.
#[cold]
pub(super) fn unreadable(err: BoxError) -> Response {
    // A layer's body reaches the route boxed in a `Body`, its error in a `BodyError`.
    let err = match err.downcast::<BodyError>() {
        Ok(body_error) => body_error.into_inner(),
        Err(err) => err,
    };
    if is_body_timeout(&*err) {
        return body_timed_out();
    }
    if let Some(limited) = err.downcast_ref::<LengthLimitError>() {
        tracing::debug!(error = %limited, "request body over a layer's limit");
        return error_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            &json!("Request body is larger than the limit"),
        );
    }
    tracing::debug!(error = %err, "request body could not be read");
    error_response(
        StatusCode::BAD_REQUEST,
        &json!("The request body could not be read"),
    )
}

/// The error a request body ends with when it missed its deadline (`Config::body_timeout`): the
/// server's body wrapper raises it, the readers of bodies answer it with [`body_timed_out`].
#[derive(Debug)]
pub(crate) struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body was not received in time")
    }
}

impl std::error::Error for BodyTimedOut {}

/// True when `error` is, or wraps (as a [`BodyError`] or a source), a missed body deadline.
pub(crate) fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if error.is::<BodyTimedOut>() {
            return true;
        }
        // `BodyError::source` skips the error it wraps, so look inside it first.
        next = match error.downcast_ref::<BodyError>() {
            Some(wrapped) => Some(wrapped.inner()),
            None => error.source(),
        };
    }
    false
}

/// Marks the 408 of [`body_timed_out`] (a response extension), so the server counts it apart
/// from a route's own 408.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyDeadlineMissed;

/// 408 for a body that missed its deadline; the connection is closed after it (the rest of the
/// body may still be on its way, and would otherwise be read as the next request).
#[cold]
pub(crate) fn body_timed_out() -> Response {
    let mut response = error_response(
        StatusCode::REQUEST_TIMEOUT,
        &json!("The request body was not received in time"),
    );
    response.headers_mut().insert(
        hyper::header::CONNECTION,
        hyper::header::HeaderValue::from_static("close"),
    );
    response.extensions_mut().insert(BodyDeadlineMissed);
    response
}

pub(crate) fn too_large(limit: usize) -> Response {
    error_response(
        StatusCode::PAYLOAD_TOO_LARGE,
        &json!(format!("Request body is larger than the limit of {limit} bytes")),
    )
}

/// True for `application/json` and `application/<anything>+json`, ignoring case and parameters.
pub(super) fn is_json_content_type(value: &str) -> bool {
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

/// The waker of the dispatcher's first look at a request body, one poll before the request would
/// wait for it: a body that would wait can tell this look by `will_wake(FIRST_LOOK)` and arm no
/// timer for it (`server/body_deadline.rs`). One static, so every use holds the same vtable:
/// `Waker::noop()` is a promoted constant, and two uses of it in different codegen units need not
/// share an address (they did not once `dispatch/run.rs` moved: `POST /item` then armed the body
/// timer on every request, +1,150 instructions, callgrind).
pub(crate) static FIRST_LOOK: &Waker = Waker::noop();

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
        let mut reader = BodyReader::new(body, limit, None).map_err(|r| r.status())?;
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
}
