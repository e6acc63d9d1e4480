//! Reading a body whole ([`BodyReader`]): the body of a route that takes JSON or text, and an
//! urlencoded form; within its limit and the memory budget.
//!
//! Rules enforced here:
//! - the body is read by polling, never beyond its limit (`limit.rs`: a declared length over it
//!   is refused before reading, bytes over it as they arrive); a body of one frame (most bodies)
//!   is not copied;
//! - with a memory budget, what it keeps is charged before it is kept, and only what has arrived
//!   (a buffer grows by doubling what arrived, never past the declared length): a client that
//!   declares a length and stalls holds nothing of the budget (it could otherwise hold all of it,
//!   64 connections x 1 MiB, for the whole body deadline, without sending a byte);
//! - a body that cannot be read is answered: 408 when it missed its deadline (`deadline.rs`), 413
//!   when a layer limited its length (`RequestBodyLimitLayer`), else 400;
//! - the dispatcher's first look ([`BodyReader::first_look`]) polls without a task to wake, and
//!   the dispatcher polls again with its task's waker before it waits: the contract of
//!   `deadline.rs` (a timed body starts no clock for that look).

use bytes::{Buf, BufMut, Bytes, BytesMut};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use http_body_util::LengthLimitError;
use hyper::StatusCode;
use serde_json::json;

use super::deadline::{body_timed_out, is_body_timeout};
use super::limit::Limit;
use crate::budget::Charge;
use crate::response::{error_response, over_budget, BodyError, BoxError, Response};

/// Reads a whole body within its limit, charged against the memory budget (see the module
/// rules), by polling.
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
    limit: Limit,
}

impl<B> BodyReader<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: Into<BoxError>,
{
    /// Start reading `body`; a declared `Content-Length` over `limit` is refused at once, and
    /// one the memory budget (`charge`) has no room for now (503) or could never hold (413).
    pub(crate) fn new(body: B, limit: Limit, charge: Option<Charge>) -> Result<Self, Response> {
        // hyper turns `Content-Length` into the body's exact size hint (and refuses a malformed
        // one), so the header need not be looked up and parsed again.
        let hint = body.size_hint();
        limit.check_declared(&hint)?;
        let capacity = hint.exact().map_or(limit.as_usize(), |len| len as usize);
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

    /// The first look at the body, where no task can be woken (the dispatcher's, inside the
    /// server's call of the service): the body if it is whole already. Before the caller waits
    /// for it, it polls again with [`poll_read`](Self::poll_read) and its task's waker: that is
    /// the contract a body with a deadline relies on (`deadline.rs`).
    #[inline]
    pub(crate) fn first_look(&mut self) -> Poll<Result<Bytes, Response>> {
        self.poll_read(&mut Context::from_waker(Waker::noop()))
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
                        if let Err(refused) = self.limit.check(needed as u64) {
                            return Poll::Ready(Err(refused));
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
pub(crate) fn unreadable(err: BoxError) -> Response {
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut reader = BodyReader::new(body, Limit::of_usize(limit), None).map_err(|r| r.status())?;
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

    #[tokio::test]
    async fn the_first_look_reads_a_whole_body_and_leaves_one_not_arrived_to_the_next_poll() {
        let frames = |stall| Frames {
            frames: [&b"{}"[..]].into_iter().collect(),
            stall,
            stalled: false,
        };
        let mut whole = BodyReader::new(frames(false), Limit::new(10), None).map_err(|r| r.status());
        let looked = whole.as_mut().map(|reader| reader.first_look());
        assert!(matches!(looked, Ok(Poll::Ready(Ok(ref bytes))) if bytes == "{}"));
        let mut waiting = BodyReader::new(frames(true), Limit::new(10), None).map_err(|r| r.status());
        let Ok(reader) = waiting.as_mut() else {
            panic!("refused")
        };
        assert!(reader.first_look().is_pending());
        let read = std::future::poll_fn(|cx| reader.poll_read(cx)).await;
        assert_eq!(read.ok(), Some(Bytes::from_static(b"{}")));
    }
}
