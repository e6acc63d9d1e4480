//! What one connection is doing, as far as the connection limit needs to know: whether it may be
//! closed to make room for a new one, and whether it was used since it was last looked at
//! (`connections.rs` chooses which: the least recently used).
//!
//! Rules enforced here:
//! - a connection is *idle*, and may be asked to leave, while it has no request in progress and
//!   no write waiting for its client: it is reading its first bytes (an HTTP/2 preface too),
//!   reading a request head, or waiting between requests (HTTP/2: no stream in progress) — and
//!   only once it has been seen so, with no request since, [`RECENTLY_USED`] ago or more
//!   (`connections.rs`): a pooled client sends its next request within a few milliseconds of its
//!   last answer, and the connection must not close under it (before, evictions by accept order
//!   lost 10–24 of 14,400 such requests after they were written, and closed the pooled client's
//!   connection under 20–23 % of them);
//! - an HTTP/1 connection whose request body waits for bytes, and has brought less than
//!   `Config::body_min_rate` a second for [`STALE_AFTER`], is *trickling*: it may be asked to
//!   leave too (its body then ends as a missed deadline: 408, closed). Before, 800 connections
//!   trickling bodies held every place, as busy ones, and kept a third of fresh clients out;
//! - an HTTP/1 request is in progress from its parsed head (`admit.rs` tells it) until its
//!   response body is handed to the connection (`served.rs`), so reading its body, running the
//!   route and writing the answer all count (hyper reads the next head only once its buffers are
//!   flushed; a request body the route left unread, hyper drains or closes after the answer,
//!   idle: the head clock, `conn_timer.rs`, bounds that too); an HTTP/2 one as `h2.rs` counts it
//!   (from the stream's head until its response body is handed over or dropped). A write that
//!   waits for the client keeps either busy too (`io.rs`): an answer hyper finished before the
//!   request's body was read may still be in its buffers when the next head is awaited, and is
//!   never cut for room either;
//! - whether it was used since it was looked at is its count of requests ([`ConnState::heads`],
//!   which HTTP/1 keeps anyway for its head clock; an HTTP/2 stream adds one): no clock is read
//!   for it per request (a stamp per request cost ≈ 80 instructions, callgrind); a trickling
//!   body's stamp ([`ConnState::body_progressed`]) is written only by a body that waited, when
//!   it starts to wait and each time it brings another `body_min_rate`'s worth;
//! - even a connection asked to leave by mistake would not be cut mid-request: it decides only
//!   where it would read (HTTP/1: while awaiting a head, or in its body's wait; HTTP/2: before its
//!   connection is polled and a stream could start);
//! - one word holds it all: the requests in progress, a bit while its body waits, a bit while a
//!   write waits, a bit once asked to leave, a bit once it left. Asking is a compare-and-swap
//!   from 0 (idle) or from one request whose body waits, so a busy connection is never asked.
//!   The connection decides in its own task, before it reads anything more: still idle (or still
//!   waiting for its body), it closes; busy by then (a head arrived, bytes of its body came), it
//!   declines and the request it started is served;
//! - an HTTP/1 request costs a load and a plain store at its start and at its end (no lock, no
//!   read-modify-write: only the connection's own task moves the word away from 0 or from a
//!   waiting body); an HTTP/2 stream the atomic addition its connection made anyway.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::Waker;
use std::time::Duration;

use tokio::time::Instant;

use crate::body::Heard;

pub(crate) use crate::budget::STALE_AFTER;

/// A connection used this recently is never closed to make room.
pub(crate) const RECENTLY_USED: Duration = Duration::from_millis(100);

/// The requests in progress (HTTP/1: 0 or 1; HTTP/2: the streams).
const REQUESTS: u32 = (1 << 28) - 1;
/// HTTP/1: set while the request's body waits for bytes.
const BODY_WAITS: u32 = 1 << 28;
/// Set once the connection left because it was asked to.
const LEFT: u32 = 1 << 29;
/// Set while a write waits for the client.
const WRITING: u32 = 1 << 30;
/// Set when asked to leave, until the connection leaves or declines.
const LEAVE: u32 = 1 << 31;

/// Milliseconds since the first stamp the process took: the connections' common clock.
#[inline]
pub(crate) fn stamp(at: Instant) -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let since = at.saturating_duration_since(*EPOCH.get_or_init(Instant::now));
    // Seconds and milliseconds apart: `as_millis` divides a 128-bit number.
    since.as_secs() * 1000 + u64::from(since.subsec_millis())
}

/// What asking a connection to leave found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asked {
    /// It was asked, and woken to decide.
    Yes,
    /// It is busy (or already asked).
    Busy,
}

/// One connection's state word, its count of requests, when its waiting body last progressed,
/// and the waker of its task (see the module rules).
#[derive(Debug, Default)]
pub(crate) struct ConnState {
    word: AtomicU32,
    /// The requests that arrived: HTTP/1 heads, so that the head clock (`conn_timer.rs`) tells
    /// one wait for a head from the next (only the connection's task writes it), and HTTP/2
    /// streams.
    heads: AtomicU32,
    /// HTTP/1: when its request's body, waiting, last progressed ([`stamp`]).
    body_progressed: AtomicU64,
    waker: OnceLock<Waker>,
    /// What its requests' bodies tell the server (`body/handed.rs`): read when an answer is
    /// ready, so a layer that replaced the answer does not hide a cut body.
    heard: Arc<Heard>,
}

impl ConnState {
    /// A new connection's: idle (reading its first bytes).
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(ConnState::default())
    }

    /// Remember the connection task's waker, which asking to leave wakes (the first call wins:
    /// a task's waker wakes that task, whatever future inside it was polled).
    pub(crate) fn set_waker(&self, waker: &Waker) {
        let _ = self.waker.set(waker.clone());
    }

    /// Where its requests' bodies tell what became of them.
    pub(crate) fn heard(&self) -> &Arc<Heard> {
        &self.heard
    }

    /// The requests that arrived so far.
    pub(crate) fn heads(&self) -> u32 {
        self.heads.load(Ordering::Relaxed)
    }

    /// HTTP/1: the request's body, waiting, progressed (or started to wait) at `at`.
    #[cold]
    pub(crate) fn body_progressed(&self, at: Instant) {
        self.body_progressed.store(stamp(at), Ordering::Relaxed);
    }

    /// Whether it is idle now (no request in progress, no write waiting, not asked to leave).
    pub(crate) fn is_idle(&self) -> bool {
        self.word.load(Ordering::Acquire) == 0
    }

    /// HTTP/1: the connection waits for a request head; the request before it, if any, is over.
    #[inline(always)]
    pub(crate) fn awaiting_head(&self) {
        let word = self.word.load(Ordering::Relaxed);
        if word & REQUESTS != 0 {
            // Not 0: nobody else moves the word now (asking needs 0, or a waiting body the
            // request no longer has), so a plain store is safe.
            self.word
                .store(word & !(REQUESTS | BODY_WAITS), Ordering::Release);
        }
    }

    /// HTTP/1: a head arrived, a request is in progress. A request to leave made just before is
    /// declined: the request is served.
    #[inline(always)]
    pub(crate) fn head_arrived(&self) {
        let word = self.word.load(Ordering::Relaxed);
        // A request to leave made between the load and the store is lost, i.e. declined, which
        // is what it would have been: the asker tries another connection.
        self.word.store((word & (WRITING | LEFT)) | 1, Ordering::Release);
        let heads = self.heads.load(Ordering::Relaxed);
        self.heads.store(heads.wrapping_add(1), Ordering::Relaxed);
    }

    /// HTTP/1: the heads that arrived so far when the connection is idle (no request in
    /// progress, no write waiting), `None` when it is busy.
    #[inline(always)]
    pub(crate) fn idle_heads(&self) -> Option<u32> {
        let word = self.word.load(Ordering::Acquire);
        (word & (REQUESTS | WRITING) == 0).then(|| self.heads.load(Ordering::Relaxed))
    }

    /// HTTP/1: the request's body waits for bytes (it may be asked to leave once it trickles).
    #[cold]
    pub(crate) fn body_waits(&self) {
        self.word.fetch_or(BODY_WAITS, Ordering::AcqRel);
    }

    /// HTTP/1: bytes of the request's body came: it no longer waits, and a request to leave
    /// made meanwhile is declined.
    #[cold]
    pub(crate) fn body_moves(&self) {
        self.word.fetch_and(!(BODY_WAITS | LEAVE), Ordering::AcqRel);
    }

    /// HTTP/1, in the task reading the body, while it waits: true when the connection was asked
    /// to leave as trickling and still waits (its body must end now; the connection closes
    /// after the answer).
    #[cold]
    pub(crate) fn body_should_leave(&self) -> bool {
        let word = self.word.load(Ordering::Acquire);
        if word & LEAVE == 0 || word & BODY_WAITS == 0 {
            return false;
        }
        self.word.fetch_or(LEFT, Ordering::AcqRel);
        true
    }

    /// HTTP/2: a stream's request started (in the connection's task).
    #[inline]
    pub(crate) fn request_started(&self) {
        self.word.fetch_add(1, Ordering::AcqRel);
        let heads = self.heads.load(Ordering::Relaxed);
        self.heads.store(heads.wrapping_add(1), Ordering::Relaxed);
    }

    /// HTTP/2: a stream's request ended (in any task).
    #[inline]
    pub(crate) fn request_ended(&self) {
        self.word.fetch_sub(1, Ordering::AcqRel);
    }

    /// The requests in progress.
    #[inline]
    pub(crate) fn requests(&self) -> u32 {
        self.word.load(Ordering::Acquire) & REQUESTS
    }

    /// A write waits for the client: busy until [`write_resumed`](Self::write_resumed).
    #[cold]
    pub(crate) fn write_waits(&self) {
        self.word.fetch_or(WRITING, Ordering::AcqRel);
    }

    /// The waiting write proceeded.
    #[cold]
    pub(crate) fn write_resumed(&self) {
        self.word.fetch_and(!WRITING, Ordering::AcqRel);
    }

    /// Ask the connection to leave, at `now` ([`stamp`]), if it is idle (how long for, the
    /// connection limit judges) or trickles a body, and wake its task to decide (see the module
    /// rules).
    pub(crate) fn ask_to_leave(&self, now: u64) -> Asked {
        let word = self.word.load(Ordering::Acquire);
        let trickled_for = now.saturating_sub(self.body_progressed.load(Ordering::Relaxed));
        let from = match word {
            0 => 0,
            w if w == BODY_WAITS | 1 && trickled_for >= STALE_AFTER.as_millis() as u64 => w,
            _ => return Asked::Busy,
        };
        if self
            .word
            .compare_exchange(from, from | LEAVE, Ordering::AcqRel, Ordering::Relaxed)
            .is_err()
        {
            return Asked::Busy;
        }
        if let Some(waker) = self.waker.get() {
            waker.wake_by_ref();
        }
        Asked::Yes
    }

    /// In the connection's task, before it reads more: true when it was asked to leave and is
    /// still idle (it must close now); asked but busy, it declines.
    #[inline(always)]
    pub(crate) fn should_leave(&self) -> bool {
        let word = self.word.load(Ordering::Acquire);
        word & LEAVE != 0 && self.decide(word)
    }

    #[cold]
    fn decide(&self, word: u32) -> bool {
        if word == LEAVE {
            self.word.store(LEAVE | LEFT, Ordering::Release);
            true
        } else if word & BODY_WAITS != 0 {
            // Asked as trickling: the body decides, where it waits.
            false
        } else {
            self.word.fetch_and(!LEAVE, Ordering::AcqRel);
            false
        }
    }

    /// Whether the connection left because it was asked to.
    pub(crate) fn left(&self) -> bool {
        self.word.load(Ordering::Acquire) & LEFT != 0
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::{Wake, Waker};

    use tokio::time::Instant;

    use super::{stamp, Asked, ConnState, STALE_AFTER};

    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn an_idle_connection_is_asked_woken_and_leaves() {
        let state = ConnState::new();
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        state.set_waker(&Waker::from(woken.clone()));
        assert!(!state.should_leave(), "not asked yet");
        assert_eq!(state.ask_to_leave(0), Asked::Yes);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert_eq!(state.ask_to_leave(0), Asked::Busy, "asked once");
        assert!(state.should_leave());
        assert!(state.left());
    }

    #[test]
    fn a_connection_with_a_request_in_progress_is_never_asked() {
        let state = ConnState::new();
        state.awaiting_head();
        state.head_arrived();
        assert_eq!(state.heads(), 1);
        assert_eq!(state.ask_to_leave(0), Asked::Busy, "HTTP/1 request in progress");
        state.awaiting_head();
        assert!(state.is_idle());
        assert_eq!(state.ask_to_leave(0), Asked::Yes, "between requests");

        let h2 = ConnState::new();
        h2.request_started();
        h2.request_started();
        assert_eq!(h2.heads(), 2, "streams count as requests");
        h2.request_ended();
        assert_eq!(h2.ask_to_leave(0), Asked::Busy, "one stream still in progress");
        h2.request_ended();
        assert_eq!(h2.ask_to_leave(0), Asked::Yes, "no stream in progress");
    }

    #[test]
    fn a_waiting_write_keeps_the_connection_busy() {
        let state = ConnState::new();
        state.head_arrived();
        state.write_waits();
        state.awaiting_head();
        assert!(!state.is_idle());
        assert_eq!(
            state.ask_to_leave(0),
            Asked::Busy,
            "its answer is still being written"
        );
        state.write_resumed();
        assert_eq!(state.ask_to_leave(0), Asked::Yes);
    }

    #[test]
    fn a_head_that_arrives_after_the_request_declines_it() {
        let state = ConnState::new();
        assert_eq!(state.ask_to_leave(0), Asked::Yes);
        state.head_arrived();
        assert!(!state.should_leave(), "the request it started is served");
        assert!(!state.left());
        assert_eq!(state.requests(), 1);

        let h2 = ConnState::new();
        assert_eq!(h2.ask_to_leave(0), Asked::Yes);
        h2.request_started();
        assert!(!h2.should_leave(), "a stream started: declined");
        h2.request_ended();
        assert_eq!(
            h2.ask_to_leave(0),
            Asked::Yes,
            "idle again, it can be asked again"
        );
        assert!(h2.should_leave());
    }

    #[test]
    fn a_body_that_trickles_may_be_asked_and_leaves_where_it_waits() {
        let stale = STALE_AFTER.as_millis() as u64;
        let state = ConnState::new();
        state.head_arrived();
        state.body_waits();
        let started = Instant::now();
        state.body_progressed(started);
        let at = stamp(started);
        assert_eq!(
            state.ask_to_leave(at + stale - 1),
            Asked::Busy,
            "waiting, not trickling yet"
        );
        assert_eq!(state.ask_to_leave(at + stale), Asked::Yes);
        assert!(!state.should_leave(), "only the body decides");
        assert!(state.body_should_leave());
        assert!(state.left());
    }

    #[test]
    fn a_body_that_moves_declines() {
        let state = ConnState::new();
        state.head_arrived();
        state.body_waits();
        assert_eq!(state.ask_to_leave(u64::MAX / 2), Asked::Yes);
        state.body_moves();
        assert!(!state.body_should_leave());
        state.body_waits();
        assert!(!state.body_should_leave(), "the request to leave was declined");
        state.awaiting_head();
        assert!(!state.should_leave(), "nor does it close after its answer");
        assert!(!state.left());
    }
}
