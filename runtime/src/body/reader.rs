//! Reading a body whole ([`BodyReader`]): the body of a route that takes JSON or text, and an
//! urlencoded form; within its limit and the memory budget.
//!
//! Rules enforced here:
//! - the body is read by polling, never beyond its limit (`limit.rs`: a declared length over it
//!   is refused before reading, bytes over it as they arrive); a body of one frame (most bodies)
//!   is not copied;
//! - with a memory budget, what it keeps is charged before it is kept, and only what has arrived:
//!   a client that declares a length and stalls holds nothing of the budget. Its buffer is
//!   allocated exactly (no allocator's doubling on top): twice what arrived when it must grow,
//!   never past the declared length, so a nearly whole 1 MiB body holds and is charged 1 MiB
//!   (before, `BytesMut::reserve`'s own doubling made it 2 MiB);
//! - a charge that does not fit first resets bodies that do not progress (`budget/receiving.rs`)
//!   and takes what they free; when none can be reset yet, a body of up to [`WAITS_UP_TO`] waits
//!   for room a bounded time (`budget/wait.rs`), keeping the frame it could not charge (what all
//!   such frames hold is bounded by the budget's headroom: past it, 503 at once), before its 503
//!   (the dispatcher's look, which cannot wait, leaves that to the next poll); a larger one is
//!   answered 503 at once;
//! - a body that waits for bytes from a task is registered as still being received, with the
//!   connection's share (HTTP/2) it counts against (its first frame copied out of the
//!   connection's read buffer, which it would otherwise keep whole while it waits); it progresses each time it brings another
//!   `Config::body_min_rate`'s worth of bytes; reset (it did not progress for a second while
//!   others needed the memory), it is answered 503 with `Retry-After` and `Connection: close`
//!   (HTTP/2: the stream is reset after the answer) and what it held is dropped;
//! - a body that cannot be read is answered: 408 when it missed its deadline (`deadline.rs`), 413
//!   when a layer limited its length (`RequestBodyLimitLayer`), else 400;
//! - the dispatcher's first look ([`BodyReader::first_look`]) polls without a task to wake, and
//!   tells the body so ([`Look`]: a timed body starts no clock for that look); the dispatcher
//!   polls again with its task's waker before it waits;
//! - a reset is told to the server ([`Heard`], `handed.rs`) where it is met, here: the answer
//!   says it too, but a layer may replace the answer.

use bytes::{Buf, Bytes};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use http_body_util::LengthLimitError;
use hyper::StatusCode;
use serde_json::json;

use super::deadline::{body_timed_out, is_body_timeout};
use super::handed::{Handed, Heard, Look, News};
use super::limit::Limit;
use crate::budget::{Charge, OverBudget, Registration, RoomWait, Share, Waiting};
use crate::response::{body_reset, error_response, over_budget, BodyError, BoxError, Response};

/// The largest body that waits for room in the budget (a bounded time) rather than being
/// answered 503 at once: the small requests the budget's fair share is for.
const WAITS_UP_TO: usize = 64 * 1024;

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
    buffer: Vec<u8>,
    /// The declared length (else the limit): the most `buffer` grows to (it grows by doubling
    /// what arrived).
    capacity: usize,
    /// Whether `capacity` is a declared length.
    declared: bool,
    limit: Limit,
    /// What a body that waited, or that the budget had no room for, keeps (most never do).
    slow: Option<Box<Slow>>,
    /// The share of its connection's bodies being received, when it counts against one.
    share: Option<Arc<Share>>,
    /// Where the server hears of a reset, when a server handed the body over.
    heard: Option<Arc<Heard>>,
    /// Bytes that make progress (`Config::body_min_rate`, at least 1).
    step: usize,
}

/// What a body that had to wait keeps.
#[derive(Default)]
struct Slow {
    /// Its place among the bodies still being received, once it waited from a task.
    registration: Option<Registration>,
    /// Admitted among them (it reserved its length).
    admitted: bool,
    /// It waits to be admitted.
    admitting: bool,
    /// Bytes received since it last progressed.
    since_progress: usize,
    /// A frame the budget had no room for yet, and the wait for that room.
    unkept: Option<(Bytes, Waiting)>,
    room: Option<RoomWait>,
}

impl<B> BodyReader<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: Into<BoxError>,
{
    /// Start reading `body`; a declared `Content-Length` over `limit` is refused at once, and
    /// one the memory budget (`charge`) could never hold (413). A body that waits counts against
    /// its connection's share, when `handed` has one, and progresses by `step` bytes.
    pub(crate) fn new(
        body: B,
        limit: Limit,
        charge: Option<Charge>,
        (handed, step): (Handed<'_>, u32),
    ) -> Result<Self, Response> {
        // hyper turns `Content-Length` into the body's exact size hint (and refuses a malformed
        // one), so the header need not be looked up and parsed again.
        let hint = body.size_hint();
        limit.check_declared(&hint)?;
        let capacity = hint.exact().map_or(limit.as_usize(), |len| len as usize);
        if let Some(charge) = &charge {
            let declared = hint.lower() as usize;
            match charge.fits(declared) {
                Ok(()) => {}
                Err(OverBudget::TooLarge) => return Err(over_budget(OverBudget::TooLarge)),
                // A large body the budget has no room for, nor can free any, is refused before
                // it is read (read, a flood's refused bodies filled their connections' buffers
                // first). A small one, or one for which stale bodies are reset, is read as the
                // room comes.
                Err(OverBudget::Busy) if declared > WAITS_UP_TO && !charge.room_coming(declared) => {
                    return Err(over_budget(OverBudget::Busy));
                }
                Err(OverBudget::Busy) => {}
            }
        }
        Ok(BodyReader {
            body,
            charge,
            charged: 0,
            first: Bytes::new(),
            buffer: Vec::new(),
            capacity,
            declared: hint.exact().is_some(),
            limit,
            slow: None,
            share: handed.share.cloned(),
            heard: handed.heard.cloned(),
            step: (step as usize).max(1),
        })
    }

    /// Where the server hears what became of the body, when a server handed it over.
    pub(crate) fn heard(&self) -> Option<&Arc<Heard>> {
        self.heard.as_ref()
    }

    /// The request's charge, once the body is read (its parse grows it).
    pub(crate) fn take_charge(&mut self) -> Option<Charge> {
        self.charge.take()
    }

    /// Charge what the body holds once it holds `held` bytes.
    #[inline]
    fn charge_up_to(&mut self, held: usize) -> Result<(), OverBudget> {
        if held > self.charged {
            if let Some(charge) = &self.charge {
                let more = held - self.charged;
                match self.slow.as_deref().and_then(Slow::admitted) {
                    Some(registration) => charge.grow_received(registration, more)?,
                    None => charge.grow(more)?,
                }
            }
            self.charged = held;
        }
        Ok(())
    }

    /// Poll until the body is complete, too large, or broken.
    #[inline]
    pub(crate) fn poll_read(&mut self, cx: &mut Context<'_>) -> Poll<Result<Bytes, Response>> {
        self.poll_body(cx, false)
    }

    fn poll_body(&mut self, cx: &mut Context<'_>, looking: bool) -> Poll<Result<Bytes, Response>> {
        if self.slow.is_some() {
            if let Err(stop) = self.resume(cx, looking) {
                return stop;
            }
        }
        loop {
            match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Pending => {
                    if !looking {
                        if let Err(stop) = self.admit(cx) {
                            return stop;
                        }
                    }
                    return Poll::Pending;
                }
                Poll::Ready(None) => {
                    // No longer being received: its charge stays with the request.
                    if self.slow.is_some() {
                        self.slow = None;
                    }
                    let body = if self.buffer.is_empty() {
                        std::mem::take(&mut self.first)
                    } else {
                        Bytes::from(std::mem::take(&mut self.buffer))
                    };
                    return Poll::Ready(Ok(body));
                }
                Poll::Ready(Some(Err(err))) => return Poll::Ready(Err(unreadable(err.into()))),
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(mut data) = frame.into_data() {
                        let data = data.copy_to_bytes(data.remaining());
                        if let Err(stop) = self.keep(data, cx, looking) {
                            return stop;
                        }
                    }
                }
            }
        }
    }

    /// Where a body that waited is: reset, waiting to be admitted, or holding a frame the budget
    /// had no room for yet.
    #[cold]
    fn resume(&mut self, cx: &mut Context<'_>, looking: bool) -> Result<(), Poll<Result<Bytes, Response>>> {
        let Some(slow) = &mut self.slow else {
            return Ok(());
        };
        if slow.registration.as_ref().is_some_and(Registration::is_reset) {
            if let Some(heard) = &self.heard {
                heard.tell(News::MemoryReset);
            }
            return Err(Poll::Ready(Err(body_reset())));
        }
        if slow.admitting {
            self.admit(cx)?;
        }
        match self.slow.as_mut().and_then(|slow| slow.unkept.take()) {
            Some((data, waiting)) => {
                // Taken again if it must wait again.
                drop(waiting);
                self.keep(data, cx, looking)
            }
            None => Ok(()),
        }
    }

    /// The body waits for bytes in a task: register it as still being received (once), with the
    /// waker a reset wakes, and have it admitted (`budget/receiving.rs`); until it is, wait (a
    /// bounded time) before the 503, reading nothing more meanwhile. `Err` holds what the caller
    /// returns instead of going on.
    #[cold]
    fn admit(&mut self, cx: &mut Context<'_>) -> Result<(), Poll<Result<Bytes, Response>>> {
        let Some(charge) = &self.charge else {
            return Ok(());
        };
        let slow = self.slow.get_or_insert_with(Box::default);
        if slow.registration.is_none() && !self.first.is_empty() {
            // A body that waits keeps its bytes in its own allocation: its first frame is a
            // slice of the connection's read buffer, which it would keep whole (up to 256 KiB)
            // for as long as it waits.
            self.buffer = Vec::with_capacity(self.first.len());
            self.buffer.extend_from_slice(&std::mem::take(&mut self.first));
        }
        let registration = slow
            .registration
            .get_or_insert_with(|| charge.register(self.charged, self.share.clone()));
        registration.set_waker(cx.waker());
        if !slow.admitting && slow.admitted {
            return Ok(());
        }
        let declared = self.declared.then_some(self.capacity);
        loop {
            match charge.admit(registration, declared) {
                Ok(()) => {
                    slow.admitted = true;
                    slow.admitting = false;
                    slow.room = None;
                    return Ok(());
                }
                Err(OverBudget::TooLarge) => return Err(Poll::Ready(Err(over_budget(OverBudget::TooLarge)))),
                Err(refused) => match slow.room.get_or_insert_with(RoomWait::admission).poll_retry(cx) {
                    Poll::Ready(true) => continue,
                    Poll::Ready(false) => return Err(Poll::Ready(Err(over_budget(refused)))),
                    Poll::Pending => {
                        slow.admitting = true;
                        return Err(Poll::Pending);
                    }
                },
            }
        }
    }

    /// Keep `data`, the body's next bytes, once its limit and the budget allow: `Err` holds what
    /// the caller returns instead of going on (the 413 or 503, or `Pending` while it waits for
    /// room, the frame kept for the next poll).
    #[inline]
    fn keep(
        &mut self,
        data: Bytes,
        cx: &mut Context<'_>,
        looking: bool,
    ) -> Result<(), Poll<Result<Bytes, Response>>> {
        let read = self.first.len() + self.buffer.len();
        let needed = read + data.len();
        if let Err(refused) = self.limit.check(needed as u64) {
            return Err(Poll::Ready(Err(refused)));
        }
        let room = if read == 0 {
            needed
        } else if needed > self.buffer.capacity() {
            // Twice what arrived, never past the declared length: what the body holds follows
            // what was sent.
            needed.max(2 * read).min(self.capacity.max(needed))
        } else {
            self.charged
        };
        if let Err(refused) = self.charge_up_to(room) {
            return self.refused(refused, data, (needed, room), cx, looking);
        }
        self.store(data, needed, room);
        Ok(())
    }

    /// Keep `data`, charged (the body now holds `needed` bytes, in `room`).
    #[inline(always)]
    fn store(&mut self, data: Bytes, needed: usize, room: usize) {
        if let Some(slow) = &mut self.slow {
            slow.kept(data.len(), self.step);
        }
        if self.first.is_empty() && self.buffer.is_empty() {
            // `Bytes` hands itself over without a copy.
            self.first = data;
            return;
        }
        if needed > self.buffer.capacity() {
            // Exactly `room`: `Vec::reserve` would double on its own.
            self.buffer.reserve_exact(room - self.buffer.len());
        }
        if self.buffer.is_empty() {
            self.buffer.extend_from_slice(&std::mem::take(&mut self.first));
        }
        self.buffer.extend_from_slice(&data);
    }

    /// The budget refused the room `data` needs: 413 when it never can have it; else a small
    /// body waits for it a bounded time (the frame kept for the next poll), a large one is
    /// answered 503.
    #[cold]
    fn refused(
        &mut self,
        mut refused: OverBudget,
        data: Bytes,
        (needed, room): (usize, usize),
        cx: &mut Context<'_>,
        looking: bool,
    ) -> Result<(), Poll<Result<Bytes, Response>>> {
        loop {
            if refused == OverBudget::TooLarge || needed > WAITS_UP_TO {
                // A large body does not wait holding what it read (and its connection's buffers):
                // a flood of them held ~20 MiB more, waiting; room freed by resets it took.
                return Err(Poll::Ready(Err(over_budget(refused))));
            }
            let Some(waiting) = self
                .charge
                .as_ref()
                .and_then(|charge| charge.wait_holding(data.len()))
            else {
                // What waits for room is bounded too: past it, a 503 now.
                return Err(Poll::Ready(Err(over_budget(refused))));
            };
            let slow = self.slow.get_or_insert_with(Box::default);
            if looking {
                // No task to wake: the next poll, from one, waits.
                slow.unkept = Some((data, waiting));
                return Err(Poll::Pending);
            }
            match slow.room.get_or_insert_with(RoomWait::new).poll_retry(cx) {
                Poll::Ready(true) => drop(waiting),
                Poll::Ready(false) => return Err(Poll::Ready(Err(over_budget(refused)))),
                Poll::Pending => {
                    slow.unkept = Some((data, waiting));
                    return Err(Poll::Pending);
                }
            }
            match self.charge_up_to(room) {
                Ok(()) => {
                    if let Some(slow) = &mut self.slow {
                        slow.room = None;
                    }
                    self.store(data, needed, room);
                    return Ok(());
                }
                Err(again) => refused = again,
            }
        }
    }
}

impl<B> BodyReader<B>
where
    B: hyper::body::Body + Look + Unpin,
    B::Error: Into<BoxError>,
{
    /// The first look at the body, where no task can be woken (the dispatcher's, inside the
    /// server's call of the service): the body if it is whole already. The body is told of the
    /// look ([`Look`]), so a wait met in it starts no clock; before the caller waits for the
    /// body, it polls again with [`poll_read`](Self::poll_read) and its task's waker.
    #[inline]
    pub(crate) fn first_look(&mut self) -> Poll<Result<Bytes, Response>> {
        self.body.looking(true);
        let looked = self.poll_body(&mut Context::from_waker(Waker::noop()), true);
        self.body.looking(false);
        looked
    }
}

impl Slow {
    /// Its registration, once it is admitted.
    fn admitted(&self) -> Option<&Registration> {
        self.registration.as_ref().filter(|_| self.admitted)
    }

    /// `bytes` more were kept: another step of them is progress.
    fn kept(&mut self, bytes: usize, step: usize) {
        if let Some(registration) = &self.registration {
            self.since_progress += bytes;
            if self.since_progress >= step {
                self.since_progress = 0;
                registration.progressed();
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
        /// Whether it is being looked at, and the polls it was looked at in.
        looking: bool,
        looked_polls: usize,
    }

    impl Look for Frames {
        fn looking(&mut self, on: bool) {
            self.looking = on;
        }
    }

    impl hyper::body::Body for Frames {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
            if self.looking {
                self.looked_polls += 1;
            }
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
            looking: false,
            looked_polls: 0,
        };
        let mut reader = BodyReader::new(body, Limit::of_usize(limit), None, (Handed::default(), 0))
            .map_err(|r| r.status())?;
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
            looking: false,
            looked_polls: 0,
        };
        let mut whole = BodyReader::new(frames(false), Limit::new(10), None, (Handed::default(), 0))
            .map_err(|r| r.status());
        let looked = whole.as_mut().map(|reader| reader.first_look());
        assert!(matches!(looked, Ok(Poll::Ready(Ok(ref bytes))) if bytes == "{}"));
        let mut waiting = BodyReader::new(frames(true), Limit::new(10), None, (Handed::default(), 0))
            .map_err(|r| r.status());
        let Ok(reader) = waiting.as_mut() else {
            panic!("refused")
        };
        assert!(reader.first_look().is_pending());
        // The body was told of the look, and of its end: the next poll is a task's.
        assert_eq!((reader.body.looked_polls, reader.body.looking), (1, false));
        let read = std::future::poll_fn(|cx| reader.poll_read(cx)).await;
        assert_eq!(read.ok(), Some(Bytes::from_static(b"{}")));
        assert_eq!(reader.body.looked_polls, 1);
    }
}
