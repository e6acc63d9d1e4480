//! The header-read deadline of one HTTP/1 connection, kept by its socket (`io.rs`) with one tokio
//! timer per connection, re-armed only when it fires, instead of hyper's header-read timeout.
//!
//! Why not hyper's: given a timer, hyper asks it for a new boxed sleep every time a connection
//! starts waiting for a head, and, to start that sleep, runs the connection's loop once more after
//! every response (it sets `notify_read`): a second head read per request, which finds nothing.
//! Measured with callgrind (`GET /item/42`, the bare dispatch served by `ferrapi::Server`, release):
//! 11,521 instructions per request with hyper's timeout, 10,507 without it.
//!
//! Rules enforced here:
//! - a connection waits for a head while it is idle (`conn_state.rs`: no request in progress, no
//!   write waiting for its client). A request is in progress from its parsed head (`admit.rs`)
//!   until its response body is handed to the connection (`served.rs`); hyper flushes that
//!   response before it reads the next head;
//! - a wait's deadline is its start plus the header-read timeout. The start is read once per wait
//!   (one clock read per request), when the socket first finds the connection idle: at the flush
//!   that ends a response, or at a read that waits (a new connection, after its first bytes);
//! - when the socket's read waits past the deadline, the read fails with [`HeadTimedOut`] (an
//!   `io::ErrorKind::TimedOut` error) and hyper closes the connection without an answer, as it
//!   did at its own header-read timeout; a connection asked to leave (to make room for a new one,
//!   `connections.rs`) while idle reads an end of stream instead, and hyper closes it too;
//! - one tokio `Sleep` per connection (made at the first wait), armed for a deadline at or before
//!   the current one: firing early it is re-armed for the current deadline (at most once per
//!   timeout period), firing at or after it the wait is over; polled again by the same task while
//!   armed and unfired it is not registered again. A wait never ends before its deadline;
//! - after an upgrade (101) the connection never becomes idle again (`admit.rs`): the route's
//!   protocol has no head deadline.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Waker};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

use super::conn_state::ConnState;

/// The error a connection that sent no head in time ends with.
#[derive(Debug)]
pub(crate) struct HeadTimedOut;

impl std::fmt::Display for HeadTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client sent no request head within the header-read timeout")
    }
}

impl std::error::Error for HeadTimedOut {}

/// One HTTP/1 connection's head deadline (see the module rules).
pub(crate) struct HeadClock {
    timeout: Duration,
    state: Arc<ConnState>,
    /// The current wait: the connection's count of heads when it began, and when it began.
    wait: Option<(u32, Instant)>,
    timer: Option<Pin<Box<Sleep>>>,
    /// The waker the timer's last registration will wake.
    waker: Option<Waker>,
}

impl HeadClock {
    /// The head deadline (`timeout` after each wait starts) of the connection whose state is
    /// `state`.
    pub(crate) fn new(timeout: Duration, state: Arc<ConnState>) -> Self {
        HeadClock {
            timeout,
            state,
            wait: None,
            timer: None,
            waker: None,
        }
    }

    /// The deadline of the current wait for a head; `None` while the connection is busy.
    #[inline(always)]
    fn deadline(&mut self) -> Option<Instant> {
        let heads = self.state.idle_heads()?;
        let start = match self.wait {
            Some((seen, start)) if seen == heads => start,
            _ => self.start_wait(heads),
        };
        Some(start + self.timeout)
    }

    /// A new wait begins now (after `heads` heads).
    #[inline(never)]
    fn start_wait(&mut self, heads: u32) -> Instant {
        let start = Instant::now();
        self.wait = Some((heads, start));
        start
    }

    /// The socket flushed: when the connection is idle, its timer will wake it by the deadline.
    #[inline]
    pub(crate) fn flushed(&mut self, cx: &mut Context<'_>) {
        if let Some(deadline) = self.deadline() {
            // A deadline already past is reported by the read that waits next.
            let _ = self.poll_timer(cx, deadline);
        }
    }

    /// A read of the socket waits: `Some` ends it (an end of stream when the connection is asked
    /// to leave, [`HeadTimedOut`] past the deadline).
    #[inline]
    pub(crate) fn read_waits(&mut self, cx: &mut Context<'_>) -> Option<io::Result<()>> {
        let deadline = self.deadline()?;
        if self.state.should_leave() {
            return Some(Ok(()));
        }
        self.poll_timer(cx, deadline)
            .then(|| Err(io::Error::new(io::ErrorKind::TimedOut, HeadTimedOut)))
    }

    /// Register the timer to wake this task by `deadline`; true when `deadline` has passed.
    fn poll_timer(&mut self, cx: &mut Context<'_>, deadline: Instant) -> bool {
        let timer = self
            .timer
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        // Armed no later than this deadline, unfired, and registered with this task's waker: it
        // will wake this task, so there is nothing to register again.
        if timer.deadline() <= deadline
            && !timer.is_elapsed()
            && self.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker()))
        {
            return false;
        }
        if timer.deadline() > deadline {
            timer.as_mut().reset(deadline);
        }
        loop {
            if timer.as_mut().poll(cx).is_pending() {
                self.waker = Some(cx.waker().clone());
                return false;
            }
            if timer.deadline() >= deadline {
                return true;
            }
            // It fired for an earlier wait: aim it at this one (registering the waker again).
            timer.as_mut().reset(deadline);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::task::{Context, Poll, Waker};
    use std::time::Duration;

    use super::{ConnState, HeadClock};

    /// A read that waits, as the socket tells the clock (`None`: it keeps waiting).
    fn read_waits(clock: &mut HeadClock) -> Option<bool> {
        clock
            .read_waits(&mut Context::from_waker(Waker::noop()))
            .map(|ended| ended.is_err())
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_connection_times_out_at_its_deadline_not_before() {
        let state = ConnState::new();
        let mut clock = HeadClock::new(Duration::from_secs(1), state.clone());
        assert_eq!(read_waits(&mut clock), None, "the wait starts");
        tokio::time::advance(Duration::from_millis(900)).await;
        assert_eq!(read_waits(&mut clock), None, "ended before its deadline");
        tokio::time::advance(Duration::from_millis(200)).await;
        assert_eq!(read_waits(&mut clock), Some(true), "not ended at its deadline");
    }

    #[tokio::test(start_paused = true)]
    async fn each_wait_has_its_own_deadline_and_a_busy_connection_none() {
        let state = ConnState::new();
        let mut clock = HeadClock::new(Duration::from_secs(1), state.clone());
        assert_eq!(read_waits(&mut clock), None);
        tokio::time::advance(Duration::from_millis(800)).await;
        // A head arrives: busy, no deadline however long the request takes.
        state.head_arrived();
        tokio::time::advance(Duration::from_secs(5)).await;
        assert_eq!(read_waits(&mut clock), None, "a busy connection timed out");
        // Its answer is handed over: a new wait, from now.
        state.awaiting_head();
        clock.flushed(&mut Context::from_waker(Waker::noop()));
        tokio::time::advance(Duration::from_millis(900)).await;
        assert_eq!(
            read_waits(&mut clock),
            None,
            "the new wait ended at the old deadline"
        );
        tokio::time::advance(Duration::from_millis(200)).await;
        assert_eq!(read_waits(&mut clock), Some(true));
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_read_is_woken_at_the_deadline() {
        let state = ConnState::new();
        let mut clock = HeadClock::new(Duration::from_secs(1), state);
        let started = tokio::time::Instant::now();
        let ended = std::future::poll_fn(|cx| match clock.read_waits(cx) {
            Some(ended) => Poll::Ready(ended),
            None => Poll::Pending,
        })
        .await;
        assert!(ended.is_err());
        assert_eq!(started.elapsed(), Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_connection_asked_to_leave_reads_an_end_of_stream() {
        let state = ConnState::new();
        let mut clock = HeadClock::new(Duration::from_secs(10), state.clone());
        assert_eq!(read_waits(&mut clock), None);
        assert_eq!(state.ask_to_leave(0), super::super::conn_state::Asked::Yes);
        assert_eq!(
            read_waits(&mut clock),
            Some(false),
            "asked to leave: an end of stream"
        );
        assert!(state.left());
    }
}
