//! What one connection is doing, as far as the connection limit needs to know: whether it may be
//! closed to make room for a new one (`connections.rs` chooses which, oldest first).
//!
//! Rules enforced here:
//! - a connection is *idle*, and only then may be asked to leave, while it has no request in
//!   progress and no write waiting for its client: it is reading its first bytes (an HTTP/2
//!   preface too), reading a request head, or waiting between requests (HTTP/2: no stream in
//!   progress);
//! - an HTTP/1 request is in progress from its parsed head (`admit.rs` tells it) until its
//!   response body is handed to the connection (`served.rs`), so reading its body, running the
//!   route and writing the answer all count (hyper reads the next head only once its buffers are
//!   flushed; a request body the route left unread, hyper drains or closes after the answer,
//!   idle: the head clock, `conn_timer.rs`, bounds that too); an HTTP/2 one as `h2.rs` counts it (from the stream's head until its response
//!   body is handed over or dropped). A write that waits for the client keeps either busy too
//!   (`io.rs`): an answer hyper finished before the request's body was read may still be in its
//!   buffers when the next head is awaited, and is never cut for room either;
//! - even a connection asked to leave by mistake would not be cut mid-request: it decides only
//!   where it would read (HTTP/1: while awaiting a head; HTTP/2: before its connection is polled
//!   and a stream could start);
//! - one word holds it all: the requests in progress, a bit while a write waits, a bit once asked
//!   to leave, a bit once it left. Asking is a compare-and-swap from 0 (idle), so a busy
//!   connection is never asked. The connection decides in its own task, before it reads anything
//!   more: still idle, it closes; busy by then (a head arrived meanwhile), it declines and the
//!   request it started is served;
//! - an HTTP/1 request costs a load and a plain store at its start and at its end (no lock, no
//!   read-modify-write: only the connection's own task moves the word away from 0); an HTTP/2
//!   stream the atomic addition its connection made anyway.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::Waker;

/// The requests in progress (HTTP/1: 0 or 1; HTTP/2: the streams).
const REQUESTS: u32 = (1 << 29) - 1;
/// Set once the connection left because it was asked to.
const LEFT: u32 = 1 << 29;
/// Set while a write waits for the client.
const WRITING: u32 = 1 << 30;
/// Set when asked to leave, until the connection leaves or declines.
const LEAVE: u32 = 1 << 31;

/// One connection's state word and the waker of its task (see the module rules).
#[derive(Debug, Default)]
pub(crate) struct ConnState {
    word: AtomicU32,
    /// HTTP/1: the heads that arrived, so that the head clock (`conn_timer.rs`) tells one wait
    /// for a head from the next. Only the connection's task writes it.
    heads: AtomicU32,
    waker: OnceLock<Waker>,
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

    /// HTTP/1: the connection waits for a request head; the request before it, if any, is over.
    #[inline(always)]
    pub(crate) fn awaiting_head(&self) {
        let word = self.word.load(Ordering::Relaxed);
        if word & REQUESTS != 0 {
            // Not 0: nobody else moves the word now (asking needs 0), so a plain store is safe.
            self.word.store(word & !REQUESTS, Ordering::Release);
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

    /// HTTP/2: a stream's request started (in the connection's task).
    #[inline]
    pub(crate) fn request_started(&self) {
        self.word.fetch_add(1, Ordering::AcqRel);
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

    /// Ask the connection to leave if it is idle, and wake its task to decide; false when it is
    /// not idle (or already asked).
    pub(crate) fn ask_to_leave(&self) -> bool {
        let asked = self
            .word
            .compare_exchange(0, LEAVE, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok();
        if asked {
            if let Some(waker) = self.waker.get() {
                waker.wake_by_ref();
            }
        }
        asked
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

    use super::ConnState;

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
        assert!(state.ask_to_leave());
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert!(!state.ask_to_leave(), "asked once");
        assert!(state.should_leave());
        assert!(state.left());
    }

    #[test]
    fn a_connection_with_a_request_in_progress_is_never_asked() {
        let state = ConnState::new();
        state.awaiting_head();
        state.head_arrived();
        assert!(!state.ask_to_leave(), "HTTP/1 request in progress");
        state.awaiting_head();
        assert!(state.ask_to_leave(), "between requests");

        let h2 = ConnState::new();
        h2.request_started();
        h2.request_started();
        h2.request_ended();
        assert!(!h2.ask_to_leave(), "one stream still in progress");
        h2.request_ended();
        assert!(h2.ask_to_leave(), "no stream in progress");
    }

    #[test]
    fn a_waiting_write_keeps_the_connection_busy() {
        let state = ConnState::new();
        state.head_arrived();
        state.write_waits();
        state.awaiting_head();
        assert!(!state.ask_to_leave(), "its answer is still being written");
        state.write_resumed();
        assert!(state.ask_to_leave());
    }

    #[test]
    fn a_head_that_arrives_after_the_request_declines_it() {
        let state = ConnState::new();
        assert!(state.ask_to_leave());
        state.head_arrived();
        assert!(!state.should_leave(), "the request it started is served");
        assert!(!state.left());
        assert_eq!(state.requests(), 1);

        let h2 = ConnState::new();
        assert!(h2.ask_to_leave());
        h2.request_started();
        assert!(!h2.should_leave(), "a stream started: declined");
        h2.request_ended();
        assert!(h2.ask_to_leave(), "idle again, it can be asked again");
        assert!(h2.should_leave());
    }
}
