//! The deadline of a request body, on both protocols: every request body the server hands to the
//! app is a [`TimedBody`].
//!
//! Rules enforced here:
//! - a body that is whole (or ends) without making its reader wait costs one branch per frame:
//!   the clock is made at the second time a read would wait, never the first (`body/deadline.rs`,
//!   [`FirstWait`]: the first can be the dispatcher's look, which no task would hear a timer of,
//!   and which comes before hyper has handed over the bytes it already read);
//! - from that first wait, the body has `body_timeout`, lengthened by `1 / body_min_rate` seconds
//!   for every byte received (Apache's `mod_reqtimeout` rule): a steady upload is never cut, a
//!   trickle or a stall is. `Expect: 100-continue` is answered by hyper at the first read, so a
//!   client that never sends its announced body meets the same deadline;
//! - and no body goes `body_timeout` without a byte (nginx's `client_body_timeout`): a client
//!   that sends most of a large body fast and then stalls would otherwise earn a long deadline
//!   (1 MiB at 8 KiB/s: 138 s) and hold what it sent against the memory budget all that time;
//! - a missed deadline ends the body with [`BodyTimedOut`]: the route's reader answers it 408
//!   (`body::body_timed_out`, with `Connection: close`), and the request's place under the
//!   concurrency limit is given back with that answer;
//! - while the body waits for bytes, its request's place under the concurrency limit is given
//!   back (`gate.rs`), and taken again when bytes arrive or the body is dropped, so the count is
//!   whole when the request's `Pass` is given back;
//! - the timer is re-armed only when it fires before the (lengthened) deadline, not per frame.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

use super::gate::Gate;
use crate::body::{BodyTimedOut, FirstWait};
use crate::response::BoxError;
use std::sync::Arc;

/// How long a body may take: copied into each request (8 bytes), so no reference is counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyRules {
    timeout_ms: u32,
    /// Bytes per second that lengthen the deadline by one second; 0: none do.
    min_rate: u32,
}

impl BodyRules {
    /// The rules of `config` (a timeout beyond 49 days is taken as 49 days).
    pub(crate) fn new(timeout: Duration, min_rate: Option<u32>) -> Self {
        BodyRules {
            timeout_ms: u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX),
            min_rate: min_rate.unwrap_or(0),
        }
    }

    /// The deadline of a body that first waited at `first_wait`, has received `received` bytes,
    /// the last of them at `last_bytes` (or none since `first_wait`).
    fn deadline(self, first_wait: Instant, received: u64, last_bytes: Instant) -> Instant {
        let timeout = Duration::from_millis(u64::from(self.timeout_ms));
        let mut allowed = timeout;
        if self.min_rate > 0 {
            let extra_ms = received.saturating_mul(1000) / u64::from(self.min_rate);
            allowed = allowed.saturating_add(Duration::from_millis(extra_ms));
        }
        let by_rate = first_wait.checked_add(allowed).unwrap_or_else(far_future);
        let by_silence = last_bytes.checked_add(timeout).unwrap_or_else(far_future);
        by_rate.min(by_silence)
    }
}

/// An instant no deadline reaches (tokio's own "far future": about 30 years).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365 * 30)
}

/// A request body with a deadline (see the module rules).
pub(crate) struct TimedBody {
    inner: Incoming,
    rules: BodyRules,
    received: u64,
    /// Whether the body has waited yet (its first wait starts no clock).
    first_wait: FirstWait,
    /// Made at the second wait: when it was, and the timer.
    clock: Option<Box<Clock>>,
    timed_out: bool,
    /// The concurrency limit, for a body that may wait (one with bytes to come).
    gate: Option<Arc<Gate>>,
    /// True while the request's place is given back.
    left: bool,
}

struct Clock {
    first_wait: Instant,
    /// When bytes last arrived after the first wait (`first_wait` until then).
    last_bytes: Instant,
    timer: Pin<Box<Sleep>>,
}

impl TimedBody {
    /// `inner` under `rules`; a body with bytes to come leaves `gate` while it waits.
    #[inline]
    pub(crate) fn new(inner: Incoming, rules: BodyRules, gate: &Arc<Gate>) -> Self {
        let gate = (!inner.is_end_stream()).then(|| gate.clone());
        TimedBody {
            inner,
            rules,
            received: 0,
            first_wait: FirstWait::default(),
            clock: None,
            timed_out: false,
            gate,
            left: false,
        }
    }

    /// The body moves again (or ended): take the request's place back.
    #[inline]
    fn moving(&mut self) {
        if self.left {
            self.left = false;
            if let Some(gate) = &self.gate {
                gate.rejoin();
            }
        }
    }

    /// The body would wait: start the clock if this is the second wait, and end the body if the
    /// deadline has passed.
    #[inline(never)]
    fn wait(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        // Given back at the first look, which the dispatcher takes inside hyper's call of the
        // service: an HTTP/2 connection calls it for every stream of a read before any stream's
        // task runs, so a burst of stalled bodies would otherwise hold the places meanwhile.
        if !self.left {
            if let Some(gate) = &self.gate {
                gate.leave();
                self.left = true;
            }
        }
        // The first wait may be the dispatcher's look, where a timer could wake no one; its
        // reader polls again before it waits (the contract of `body/deadline.rs`).
        if self.first_wait.first(cx) {
            return Poll::Pending;
        }
        let rules = self.rules;
        let received = self.received;
        let clock = self.clock.get_or_insert_with(|| {
            let first_wait = Instant::now();
            Box::new(Clock {
                first_wait,
                last_bytes: first_wait,
                timer: Box::pin(tokio::time::sleep_until(
                    rules.deadline(first_wait, received, first_wait),
                )),
            })
        });
        loop {
            if clock.timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            // The timer was aimed before the bytes received since lengthened the deadline.
            let deadline = rules.deadline(clock.first_wait, received, clock.last_bytes);
            if Instant::now() >= deadline {
                self.timed_out = true;
                self.moving();
                return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
            }
            clock.timer.as_mut().reset(deadline);
        }
    }
}

impl Drop for TimedBody {
    fn drop(&mut self) {
        self.moving();
    }
}

impl Body for TimedBody {
    type Data = Bytes;
    type Error = BoxError;

    #[inline]
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        if this.timed_out {
            return Poll::Ready(Some(Err(Box::new(BodyTimedOut))));
        }
        let polled = match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Pending => return this.wait(cx),
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    // Only a body that has waited has a clock to keep: most never do.
                    if let Some(clock) = &mut this.clock {
                        clock.last_bytes = Instant::now();
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into()))),
            Poll::Ready(None) => Poll::Ready(None),
        };
        this.moving();
        polled
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_grows_with_the_bytes_received() {
        let start = Instant::now();
        let rules = BodyRules::new(Duration::from_secs(10), Some(1000));
        assert_eq!(rules.deadline(start, 0, start), start + Duration::from_secs(10));
        let later = start + Duration::from_secs(6);
        assert_eq!(
            rules.deadline(start, 500, later),
            start + Duration::from_millis(10_500)
        );
        assert_eq!(
            rules.deadline(start, 5000, later),
            start + Duration::from_secs(15)
        );
    }

    #[test]
    fn a_body_that_sent_much_fast_still_gets_no_more_than_the_timeout_of_silence() {
        let start = Instant::now();
        let rules = BodyRules::new(Duration::from_secs(10), Some(8 * 1024));
        // 1 MiB in the first second earns 128 s by rate; silence after it ends the body at 11 s.
        let last = start + Duration::from_secs(1);
        assert_eq!(
            rules.deadline(start, 1 << 20, last),
            start + Duration::from_secs(11)
        );
    }

    #[test]
    fn without_a_rate_the_timeout_is_the_whole_body_s() {
        let start = Instant::now();
        let rules = BodyRules::new(Duration::from_secs(3), None);
        assert_eq!(
            rules.deadline(start, 1 << 40, start),
            start + Duration::from_secs(3)
        );
    }

    #[test]
    fn huge_values_saturate_instead_of_overflowing() {
        let start = Instant::now();
        let rules = BodyRules::new(Duration::MAX, Some(1));
        assert!(
            rules.deadline(start, u64::MAX, start + Duration::MAX / 4)
                > start + Duration::from_secs(86_400 * 365)
        );
    }
}
