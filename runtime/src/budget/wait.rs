//! How long a request that needs memory waits for it ([`RoomWait`]): when a charge does not fit,
//! stale bodies are reset (`receiving.rs`), and their bytes come back once their tasks have run;
//! a caller that can wait tries again until then, rather than answering 503 at once.
//!
//! Rules enforced here:
//! - the wait is bounded: [`WAIT_FOR_ROOM`] after the first refusal the caller answers 503 with
//!   `Retry-After` (what it holds meanwhile is what it held before the refusal: nothing is taken
//!   while it waits); a body waiting to be admitted among the bodies being received waits in
//!   line, up to [`WAIT_FOR_ADMISSION`], trying every 5 ms at most (it holds one frame, and it
//!   is registered: reset like any stale body when the memory is needed);
//! - it tries again after 1 ms, then after twice as long each time (at most 25 ms apart): a
//!   freed body is usually back within a millisecond, and a hundred waiters poll ~1,000 times a
//!   second in all, not 100,000;
//! - nothing on the path of a charge that fits: no waiter list, no notification on give-back.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

/// How long a request waits for room in the memory budget before its 503.
pub(crate) const WAIT_FOR_ROOM: Duration = Duration::from_millis(200);

/// How long a body waits to be admitted among the bodies being received (in line: a place comes
/// free each time an admitted body is done or goes stale and is reset), reading nothing
/// meanwhile, before its 503.
pub(crate) const WAIT_FOR_ADMISSION: Duration = Duration::from_secs(3);

/// The longest pause between two tries to be admitted: the first in line takes the next place
/// that comes free.
const LONGEST_ADMISSION_PAUSE: Duration = Duration::from_millis(5);

/// The first pause between two tries, doubled after each.
const FIRST_PAUSE: Duration = Duration::from_millis(1);

/// The longest pause between two tries.
const LONGEST_PAUSE: Duration = Duration::from_millis(25);

/// A bounded wait for room (see the module rules).
#[derive(Debug)]
pub(crate) struct RoomWait {
    until: Instant,
    pause: Duration,
    longest: Duration,
    timer: Pin<Box<Sleep>>,
}

impl Default for RoomWait {
    fn default() -> Self {
        RoomWait::new()
    }
}

impl RoomWait {
    /// A wait that starts now (after a refused charge).
    pub(crate) fn new() -> Self {
        RoomWait::bounded(WAIT_FOR_ROOM, LONGEST_PAUSE)
    }

    /// A wait to be admitted among the bodies being received, starting now.
    pub(crate) fn admission() -> Self {
        RoomWait::bounded(WAIT_FOR_ADMISSION, LONGEST_ADMISSION_PAUSE)
    }

    fn bounded(bound: Duration, longest: Duration) -> Self {
        let now = Instant::now();
        RoomWait {
            until: now + bound,
            pause: FIRST_PAUSE,
            longest,
            timer: Box::pin(tokio::time::sleep_until(now + FIRST_PAUSE)),
        }
    }

    /// `Ready(true)`: try the charge again now; `Ready(false)`: the wait is over, answer 503;
    /// `Pending`: the task is woken at the next try.
    pub(crate) fn poll_retry(&mut self, cx: &mut Context<'_>) -> Poll<bool> {
        if self.timer.as_mut().poll(cx).is_pending() {
            return Poll::Pending;
        }
        let now = Instant::now();
        if now >= self.until {
            return Poll::Ready(false);
        }
        self.pause = (self.pause * 2).min(self.longest);
        self.timer.as_mut().reset((now + self.pause).min(self.until));
        Poll::Ready(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn tries_come_sooner_first_and_end_at_the_bound() {
        let start = Instant::now();
        let mut wait = RoomWait::new();
        let mut tries = Vec::new();
        loop {
            let again = std::future::poll_fn(|cx| wait.poll_retry(cx)).await;
            if !again {
                break;
            }
            tries.push(start.elapsed().as_millis());
        }
        assert_eq!(
            start.elapsed(),
            WAIT_FOR_ROOM,
            "ends at the bound, not before or after"
        );
        assert_eq!(tries.first(), Some(&1));
        assert!(tries.windows(2).all(|w| w[1] - w[0] <= 25), "{tries:?}");
        assert!(tries.len() < 20, "{} tries in 200 ms", tries.len());
    }
}
