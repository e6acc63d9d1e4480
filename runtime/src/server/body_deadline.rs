//! The deadline of a request body, on both protocols: every request body the server hands to the
//! app is a [`TimedBody`].
//!
//! Rules enforced here:
//! - a body that is whole (or ends) without making its reader wait costs one branch per frame:
//!   the clock is made at the first wait outside the dispatcher's look, which says when it looks
//!   (`body/handed.rs`, [`Look`]): no task would hear a timer armed in the look, and the look
//!   comes before hyper has handed over the bytes it already read;
//! - from that first wait, a body must keep a minimum rate (`Config::body_min_rate`), Kestrel's
//!   `MinRequestBodyDataRate` over a sliding window: after a grace of one window (the length of
//!   `body_timeout`: 10 s by default), every window must have brought `body_min_rate` × its
//!   length in bytes (80 KiB in 10 s by default), counted in fifths of a window. A steady upload
//!   is never cut, a trickle is, within a fifth of a window of falling below the rate. Before,
//!   each byte lengthened the deadline by `1 / rate` seconds in advance, so a client that sent
//!   1 MiB fast and then one byte every 3 s kept its body (and what it held of the memory
//!   budget) for 138 s; now 12 s;
//! - and no body goes `body_timeout` without a byte (nginx's `client_body_timeout`); without a
//!   minimum rate, `body_timeout` is the time for the whole body. `Expect: 100-continue` is
//!   answered by hyper at the first read, so a client that never sends its announced body meets
//!   the same deadline;
//! - a missed deadline ends the body with [`BodyTimedOut`]: the route's reader answers it 408
//!   (`body::body_timed_out`, with `Connection: close`), and the request's place under the
//!   concurrency limit is given back with that answer; the body tells the server itself
//!   ([`Heard`]), which counts it and closes an HTTP/1 connection after the answer, whatever a
//!   layer made of it;
//! - HTTP/1: from its clock on, the body tells its connection's state when it waits and when it
//!   progresses (brings another `body_min_rate`'s worth of bytes), so a connection that trickles
//!   may be closed to make room at the connection limit (`conn_state.rs`); asked to, the body
//!   ends where it waits, as a missed deadline;
//! - while the body waits for bytes, its request's place under the concurrency limit is given
//!   back (`gate.rs`), and taken again when bytes arrive or the body is dropped, so the count is
//!   whole when the request's `Pass` is given back;
//! - the timer is re-armed only when it fires before the deadline, not per frame (bytes only ever
//!   push the deadline later).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use tokio::time::{Instant, Sleep};

use super::conn_state::ConnState;
use super::gate::Gate;
use crate::body::{BodyTimedOut, Heard, Look, News};
use crate::response::BoxError;
use std::sync::Arc;

/// A rate window is counted in this many slots.
const SLOTS: usize = 5;

/// Slots kept: a window's, and the current one.
const KEPT: usize = SLOTS + 1;

/// How long a body may take: copied into each request (8 bytes), so no reference is counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyRules {
    timeout_ms: u32,
    /// The slowest accepted rate, in bytes per second; 0: none.
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

    fn timeout(self) -> Duration {
        Duration::from_millis(u64::from(self.timeout_ms))
    }

    /// One slot of the rate window (the window is the timeout, in [`SLOTS`] slots; at least a
    /// millisecond).
    fn slot(self) -> Duration {
        Duration::from_millis((u64::from(self.timeout_ms) / SLOTS as u64).max(1))
    }

    /// The bytes a whole window must bring.
    fn per_window(self) -> u64 {
        let window = self.slot() * SLOTS as u32;
        u64::from(self.min_rate) * window.as_millis() as u64 / 1000
    }
}

/// An instant no deadline reaches (tokio's own "far future": about 30 years).
fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(86_400 * 365 * 30)
}

/// When a body that waited is cut, and what it received since (see the module rules).
struct Clock {
    first_wait: Instant,
    /// When bytes last arrived after the first wait (`first_wait` until then).
    last_bytes: Instant,
    timer: Pin<Box<Sleep>>,
    /// Bytes received in each of the last [`KEPT`] slots, slot `k` (counted from the first
    /// wait) at `k % KEPT`.
    slots: [u64; KEPT],
    /// The slot of the newest bytes.
    newest: u64,
    /// HTTP/1: bytes since the body last progressed.
    since_progress: u64,
}

impl Clock {
    fn new(now: Instant, rules: BodyRules) -> Box<Self> {
        let mut clock = Box::new(Clock {
            first_wait: now,
            last_bytes: now,
            timer: Box::pin(tokio::time::sleep_until(now)),
            slots: [0; KEPT],
            newest: 0,
            since_progress: 0,
        });
        let deadline = clock.deadline(rules, now);
        clock.timer.as_mut().reset(deadline);
        clock
    }

    /// The slot of `at`.
    fn slot_of(&self, at: Instant, rules: BodyRules) -> u64 {
        let slot = rules.slot().as_nanos().max(1);
        (at.saturating_duration_since(self.first_wait).as_nanos() / slot) as u64
    }

    /// `n` bytes arrived at `at`.
    fn received(&mut self, n: usize, at: Instant, rules: BodyRules) {
        self.last_bytes = at;
        let k = self.slot_of(at, rules);
        if k > self.newest {
            for skipped in (self.newest + 1..=k).rev().take(KEPT) {
                self.slots[(skipped % KEPT as u64) as usize] = 0;
            }
            self.newest = k;
        }
        self.slots[(k % KEPT as u64) as usize] += n as u64;
    }

    /// Bytes received in slot `k` (0 for a slot not kept).
    fn bytes_in(&self, k: u64) -> u64 {
        if k <= self.newest && k + KEPT as u64 > self.newest {
            self.slots[(k % KEPT as u64) as usize]
        } else {
            0
        }
    }

    /// When the body is cut if nothing more arrives, seen at `now`.
    fn deadline(&self, rules: BodyRules, now: Instant) -> Instant {
        let by_silence = self
            .last_bytes
            .checked_add(rules.timeout())
            .unwrap_or_else(far_future);
        if rules.min_rate == 0 {
            // No rate: the timeout is the whole body's.
            let whole = self
                .first_wait
                .checked_add(rules.timeout())
                .unwrap_or_else(far_future);
            return whole.min(by_silence);
        }
        let needed = rules.per_window();
        let current = self.newest.max(self.slot_of(now, rules));
        let first = current.max(SLOTS as u64);
        // The window ending at the start of slot `end` holds slots `end - SLOTS .. end` (the
        // first one checked ended at the start of the current slot); with nothing more
        // arriving, the one ending `SLOTS` slots later holds nothing.
        let end = (first..=first + SLOTS as u64)
            .find(|&end| (end - SLOTS as u64..end).map(|k| self.bytes_in(k)).sum::<u64>() < needed)
            .unwrap_or(first + SLOTS as u64);
        let slot = rules.slot();
        let by_rate = u32::try_from(end)
            .ok()
            .and_then(|end| slot.checked_mul(end))
            .and_then(|after| self.first_wait.checked_add(after))
            .unwrap_or_else(far_future);
        by_rate.min(by_silence)
    }
}

/// A request body with a deadline (see the module rules).
pub(crate) struct TimedBody {
    inner: Incoming,
    rules: BodyRules,
    /// While the dispatcher looks at it: a wait then starts no clock.
    looking: bool,
    /// Made at the first wait outside the look.
    clock: Option<Box<Clock>>,
    timed_out: bool,
    /// The concurrency limit, for a body that may wait (one with bytes to come).
    gate: Option<Arc<Gate>>,
    /// True while the request's place is given back.
    left: bool,
    /// HTTP/1: the connection's state, told when the body waits and progresses.
    conn: Option<Arc<ConnState>>,
    /// True while the connection's state says the body waits.
    told_waiting: bool,
    /// Where the server hears of a missed deadline, for a body that may wait.
    heard: Option<Arc<Heard>>,
}

impl TimedBody {
    /// `inner` under `rules`; a body with bytes to come leaves `gate` while it waits, tells
    /// `conn` (HTTP/1) when it waits and progresses, and `heard` when it misses its deadline.
    #[inline]
    pub(crate) fn new(
        inner: Incoming,
        rules: BodyRules,
        gate: &Arc<Gate>,
        (conn, heard): (Option<&Arc<ConnState>>, &Arc<Heard>),
    ) -> Self {
        let comes = !inner.is_end_stream();
        TimedBody {
            inner,
            rules,
            looking: false,
            clock: None,
            timed_out: false,
            gate: comes.then(|| gate.clone()),
            left: false,
            conn: if comes { conn.cloned() } else { None },
            told_waiting: false,
            heard: comes.then(|| heard.clone()),
        }
    }

    /// The body moves again (or ended): take the request's place back, and (HTTP/1) tell the
    /// connection it no longer waits.
    #[inline]
    fn moving(&mut self) {
        if self.left {
            self.left = false;
            if let Some(gate) = &self.gate {
                gate.rejoin();
            }
            if self.told_waiting {
                self.stopped_waiting();
            }
        }
    }

    /// HTTP/1: tell the connection the body no longer waits.
    #[cold]
    #[inline(never)]
    fn stopped_waiting(&mut self) {
        self.told_waiting = false;
        if let Some(conn) = &self.conn {
            conn.body_moves();
        }
    }

    /// Bytes arrived after the clock was made: count them, and tell the connection.
    #[cold]
    fn arrived(&mut self, n: usize) {
        let rules = self.rules;
        let Some(clock) = &mut self.clock else {
            return;
        };
        let now = Instant::now();
        clock.received(n, now, rules);
        if let Some(conn) = &self.conn {
            clock.since_progress += n as u64;
            if clock.since_progress >= u64::from(rules.min_rate.max(1)) {
                clock.since_progress = 0;
                conn.body_progressed(now);
            }
        }
    }

    /// End the body as a missed deadline.
    #[cold]
    fn cut(&mut self) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        self.timed_out = true;
        if let Some(heard) = &self.heard {
            heard.tell(News::DeadlineMissed);
        }
        self.moving();
        Poll::Ready(Some(Err(Box::new(BodyTimedOut))))
    }

    /// The body would wait: start the clock unless the dispatcher is looking, and end the body
    /// if the deadline has passed (or its connection was asked to leave while it trickles).
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
        // A timer armed in the dispatcher's look could wake no one; it polls again from its
        // task before it waits.
        if self.looking {
            return Poll::Pending;
        }
        let rules = self.rules;
        if self.clock.is_none() {
            let now = Instant::now();
            self.clock = Some(Clock::new(now, rules));
            if let Some(conn) = &self.conn {
                // The body's wait is the connection's use: it trickles a second from now at the
                // earliest.
                conn.body_progressed(now);
            }
        }
        if let Some(conn) = &self.conn {
            if conn.body_should_leave() {
                tracing::debug!("a trickling body's connection asked to make room for a new one");
                return self.cut();
            }
            if !self.told_waiting {
                self.told_waiting = true;
                conn.body_waits();
            }
        }
        let Some(clock) = &mut self.clock else {
            return Poll::Pending;
        };
        loop {
            if clock.timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            // The timer was aimed before the bytes received since pushed the deadline later.
            let now = Instant::now();
            let deadline = clock.deadline(rules, now);
            if now >= deadline {
                return self.cut();
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

impl Look for TimedBody {
    #[inline(always)]
    fn looking(&mut self, on: bool) {
        self.looking = on;
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
                // Only a body that has waited has a clock to keep: most never do.
                if this.clock.is_some() {
                    if let Some(data) = frame.data_ref() {
                        this.arrived(data.len());
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

    const KIB: usize = 1024;

    /// When a body is cut that, from its first wait at `start`, receives `arrivals` (seconds
    /// after the start, bytes), checked every 10 ms until the deadline passes (`None`: not
    /// within `horizon` seconds).
    fn cut_at(rules: BodyRules, arrivals: &[(f64, usize)], horizon: f64) -> Option<f64> {
        let start = Instant::now();
        let at = |secs: f64| start + Duration::from_secs_f64(secs);
        let mut clock = Clock::new(start, rules);
        let mut next = arrivals.iter().peekable();
        for ms in 0..=(horizon * 1000.0) as u64 {
            let t = ms as f64 / 1000.0;
            while let Some(&&(when, n)) = next.peek() {
                if when > t {
                    break;
                }
                clock.received(n, at(when), rules);
                next.next();
            }
            if at(t) >= clock.deadline(rules, at(t)) {
                return Some(t);
            }
        }
        None
    }

    fn defaults() -> BodyRules {
        BodyRules::new(Duration::from_secs(10), Some(8 * 1024))
    }

    #[tokio::test]
    async fn a_steady_upload_at_the_minimum_rate_or_above_is_never_cut() {
        let steady: Vec<(f64, usize)> = (0..600).map(|i| (i as f64 * 0.1, 820)).collect();
        assert_eq!(cut_at(defaults(), &steady, 59.0), None);
        // Bursts: 40 KiB every 4 s is 10 KiB/s.
        let bursts: Vec<(f64, usize)> = (0..15).map(|i| (i as f64 * 4.0, 40 * KIB)).collect();
        assert_eq!(cut_at(defaults(), &bursts, 59.0), None);
    }

    #[tokio::test]
    async fn a_body_that_sent_much_fast_and_then_trickles_is_cut_soon_after_the_grace() {
        // 1 MiB in the first second, then a byte every 3 s: before, 138 s.
        let mut arrivals = vec![(0.5, 1 << 20)];
        arrivals.extend((1..60).map(|i| (0.5 + 3.0 * i as f64, 1)));
        let cut = cut_at(defaults(), &arrivals, 200.0).unwrap_or(f64::MAX);
        assert!((10.0..=12.01).contains(&cut), "cut at {cut} s");
    }

    #[tokio::test]
    async fn a_stalled_body_is_cut_at_the_timeout_and_silence_after_bytes_too() {
        let cut = cut_at(defaults(), &[], 30.0).unwrap_or(f64::MAX);
        assert!((10.0..=10.02).contains(&cut), "cut at {cut} s");
        // Plenty at first (the rate is kept for a while), then silence: the silence cut.
        let cut = cut_at(defaults(), &[(1.0, 400 * KIB)], 30.0).unwrap_or(f64::MAX);
        assert!((10.0..=11.02).contains(&cut), "cut at {cut} s");
    }

    #[tokio::test]
    async fn a_trickle_below_the_rate_is_cut_at_the_end_of_the_grace() {
        // 5 B/s against 1,000 B/s, timeout 1 s (as the hostile tests run it).
        let rules = BodyRules::new(Duration::from_secs(1), Some(1000));
        let trickle: Vec<(f64, usize)> = (0..40).map(|i| (i as f64 * 0.2, 1)).collect();
        let cut = cut_at(rules, &trickle, 10.0).unwrap_or(f64::MAX);
        assert!((1.0..=1.02).contains(&cut), "cut at {cut} s");
        // 2,000 B/s for 1.5 s is never cut.
        let fast: Vec<(f64, usize)> = (0..75).map(|i| (i as f64 * 0.02, 40)).collect();
        assert_eq!(cut_at(rules, &fast, 1.5), None);
    }

    #[tokio::test]
    async fn without_a_rate_the_timeout_is_the_whole_body_s() {
        let rules = BodyRules::new(Duration::from_secs(3), None);
        let steady: Vec<(f64, usize)> = (0..100).map(|i| (i as f64 * 0.1, 1 << 20)).collect();
        let cut = cut_at(rules, &steady, 10.0).unwrap_or(f64::MAX);
        assert!((3.0..=3.02).contains(&cut), "cut at {cut} s");
    }

    #[tokio::test]
    async fn huge_values_saturate_instead_of_overflowing() {
        let start = Instant::now();
        let rules = BodyRules::new(Duration::MAX, Some(1));
        let mut clock = Clock::new(start, rules);
        clock.received(usize::MAX / 2, start, rules);
        // The timeout is capped at 49 days.
        assert!(clock.deadline(rules, start) > start + Duration::from_secs(86_400 * 40));
        let rules = BodyRules::new(Duration::MAX, Some(u32::MAX));
        let clock = Clock::new(start, rules);
        assert!(clock.deadline(rules, start) > start);
    }
}
