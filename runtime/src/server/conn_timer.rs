//! The header-read timer of one HTTP/1 connection: one tokio timer per connection, re-armed only
//! when it fires, instead of one registered and cancelled per request.
//!
//! hyper asks its [`Timer`] for a new sleep every time a connection starts waiting for a request
//! head and drops it as soon as the head is parsed. With hyper-util's `TokioTimer` each of those
//! is a tokio `Sleep`: registered in the timer wheel when the read first waits, removed again a
//! moment later. Measured with callgrind on the service under load, that was ≈ 550 of the ≈ 2,000
//! instructions per request that `ferrapi::Server` added to the bare dispatch.
//!
//! Rules enforced here:
//! - each connection owns one tokio `Sleep` (created on first use); a sleep handed to hyper only
//!   carries its deadline and polls that shared timer, or not even that when the timer is armed,
//!   unfired, and registered with the waker of the task polling now;
//! - deadlines only move forward (each is "now + timeout"), so the shared timer is armed for a
//!   deadline at or before the current one: when it fires early it is re-armed for the current
//!   deadline (at most once per timeout period), when it fires at or after it, the sleep is over;
//! - a sleep never completes before its own deadline, so the header-read timeout means what it
//!   meant with `TokioTimer`. The only difference: the shared timer may wake the connection once
//!   after a head has already arrived (it fires, finds no waiting sleep, and stays idle);
//! - a sleep exists exactly while hyper reads a head, so it tells the connection's state
//!   (`conn_state.rs`): made, the connection is between requests; dropped, a head arrived. It
//!   also ends early, as a timeout, when the connection is asked to leave to make room for a new
//!   one while still idle: hyper then closes it, as at the header-read timeout.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use hyper::rt::{Sleep, Timer};

use super::conn_state::ConnState;

/// The timer of one connection (give each connection its own).
#[derive(Clone, Default)]
pub(crate) struct ConnTimer {
    shared: Arc<Shared>,
}

/// What a connection's sleeps share: one allocation per connection.
#[derive(Default)]
struct Shared {
    armed: Mutex<Armed>,
    state: Arc<ConnState>,
}

/// The connection's tokio timer, and the waker its last registration will wake.
#[derive(Default)]
struct Armed {
    timer: Option<Pin<Box<tokio::time::Sleep>>>,
    waker: Option<Waker>,
}

/// One wait for a request head, ending at `deadline`.
struct HeadSleep {
    deadline: tokio::time::Instant,
    shared: Arc<Shared>,
}

impl ConnTimer {
    /// The timer of the connection whose state is `state`.
    pub(crate) fn new(state: Arc<ConnState>) -> Self {
        ConnTimer {
            shared: Arc::new(Shared {
                armed: Mutex::default(),
                state,
            }),
        }
    }
}

impl Timer for ConnTimer {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn Sleep>> {
        self.shared.state.awaiting_head();
        Box::pin(HeadSleep {
            deadline: tokio::time::Instant::from_std(deadline),
            shared: self.shared.clone(),
        })
    }
}

impl Sleep for HeadSleep {}

impl Drop for HeadSleep {
    #[inline]
    fn drop(&mut self) {
        self.shared.state.head_arrived();
    }
}

impl Future for HeadSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.shared.state.should_leave() {
            return Poll::Ready(());
        }
        let deadline = self.deadline;
        // A poisoned lock only means a poll panicked midway; the timer inside is still usable.
        let mut armed = self.shared.armed.lock().unwrap_or_else(|p| p.into_inner());
        let Armed { timer, waker } = &mut *armed;
        let timer = timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        // Polled again by the same task while the timer is armed no later than this deadline and
        // has not fired: it will wake this task, so there is nothing to register again.
        if timer.deadline() <= deadline
            && !timer.is_elapsed()
            && waker.as_ref().is_some_and(|w| w.will_wake(cx.waker()))
        {
            return Poll::Pending;
        }
        if timer.deadline() > deadline {
            timer.as_mut().reset(deadline);
        }
        loop {
            if timer.as_mut().poll(cx).is_pending() {
                *waker = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if timer.deadline() >= deadline {
                return Poll::Ready(());
            }
            // It fired for an earlier wait: aim it at this one (registering the waker again).
            timer.as_mut().reset(deadline);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};
    use std::time::{Duration, Instant};

    use hyper::rt::{Sleep, Timer};

    use super::{ConnState, ConnTimer};

    /// Tokio's timer counts whole milliseconds, rounding up.
    fn assert_about(elapsed: Duration, expected: Duration) {
        assert!(
            elapsed >= expected && elapsed <= expected + Duration::from_millis(5),
            "elapsed {elapsed:?}, expected {expected:?}"
        );
    }

    fn poll(sleep: &mut Pin<Box<dyn Sleep>>) -> Poll<()> {
        sleep.as_mut().poll(&mut Context::from_waker(Waker::noop()))
    }

    #[tokio::test(start_paused = true)]
    async fn a_sleep_ends_at_its_own_deadline_not_an_earlier_one() {
        let timer = ConnTimer::default();
        let start = now();
        // The first wait arms the shared timer for 1 s and ends (a head arrived) at once.
        let mut first = timer.sleep_until(start + Duration::from_secs(1));
        assert!(poll(&mut first).is_pending());
        drop(first);
        // The next wait, 500 ms later, must last until its own deadline (1.5 s), even though the
        // shared timer fires at 1 s.
        tokio::time::advance(Duration::from_millis(500)).await;
        let mut second = timer.sleep_until(start + Duration::from_millis(1500));
        assert!(poll(&mut second).is_pending());
        tokio::time::advance(Duration::from_millis(600)).await;
        assert!(
            poll(&mut second).is_pending(),
            "ended at the first wait's deadline"
        );
        tokio::time::advance(Duration::from_millis(500)).await;
        assert!(poll(&mut second).is_ready(), "did not end at its deadline");
    }

    /// "Now" on tokio's clock (paused in these tests; hyper's `now()` is the real clock, which
    /// is the same thing outside tests).
    fn now() -> Instant {
        tokio::time::Instant::now().into_std()
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiting_sleep_is_woken_at_its_deadline() {
        let timer = ConnTimer::default();
        let started = tokio::time::Instant::now();
        // Awaiting (a real waker) must complete, after exactly the timeout, by the timer's wake-up.
        timer.sleep_until(now() + Duration::from_secs(1)).await;
        assert_about(started.elapsed(), Duration::from_secs(1));
        // Again on the same (now fired) shared timer.
        let again = tokio::time::Instant::now();
        timer.sleep_until(now() + Duration::from_secs(2)).await;
        assert_about(again.elapsed(), Duration::from_secs(2));
    }

    #[tokio::test(start_paused = true)]
    async fn polled_again_and_again_by_one_task_it_still_ends_at_its_deadline() {
        let timer = ConnTimer::default();
        let started = tokio::time::Instant::now();
        let mut sleep = timer.sleep_until(now() + Duration::from_secs(1));
        std::future::poll_fn(|cx| {
            for _ in 0..3 {
                assert!(sleep.as_mut().poll(cx).is_pending());
            }
            Poll::Ready(())
        })
        .await;
        sleep.await;
        assert_about(started.elapsed(), Duration::from_secs(1));
    }

    #[tokio::test(start_paused = true)]
    async fn a_sleep_marks_the_connection_idle_and_ends_when_it_is_asked_to_leave() {
        let state = ConnState::new();
        let timer = ConnTimer::new(state.clone());
        state.head_arrived();
        let mut sleep = timer.sleep_until(now() + Duration::from_secs(10));
        assert_eq!(state.requests(), 0, "waiting for a head: idle");
        assert!(poll(&mut sleep).is_pending());
        assert!(state.ask_to_leave());
        assert!(
            poll(&mut sleep).is_ready(),
            "asked to leave: the wait ends at once"
        );
        assert!(state.left());

        let state = ConnState::new();
        let timer = ConnTimer::new(state.clone());
        let sleep = timer.sleep_until(now() + Duration::from_secs(10));
        drop(sleep);
        assert_eq!(state.requests(), 1, "a head arrived: a request in progress");
        assert!(!state.ask_to_leave());
    }

    #[tokio::test(start_paused = true)]
    async fn an_earlier_deadline_than_the_armed_one_is_honoured() {
        let timer = ConnTimer::default();
        let start = now();
        let mut late = timer.sleep_until(start + Duration::from_secs(10));
        assert!(poll(&mut late).is_pending());
        drop(late);
        let started = tokio::time::Instant::now();
        timer.sleep_until(start + Duration::from_secs(1)).await;
        assert_about(started.elapsed(), Duration::from_secs(1));
    }
}
