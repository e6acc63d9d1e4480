//! The concurrency limit: how many requests are served at once.
//!
//! Rules enforced here:
//! - a request takes a place when hyper hands it to the app and gives it back when its response
//!   body has been handed to the connection, or dropped (the [`Pass`] travels inside the response
//!   body, `served.rs`): a client that reads its responses slowly keeps counting, so slow readers
//!   cannot hold more responses than the limit (plus one per HTTP/1 connection in hyper's write
//!   buffer), each for `write_timeout` at most;
//! - a request whose body is still on its way gives its place back while it waits for bytes and
//!   takes it again when they arrive (`body_deadline.rs`): the limit counts requests at work, so
//!   clients that declare a body and stall (observed: 1,030 such connections made every other
//!   client get 503) hold connections, bounded by `max_connections` and the body deadline, but
//!   not the app. A request once admitted is never refused midway, so bodies that resume
//!   together can take the count past the limit for as long as they are read;
//! - beyond the limit a request is refused at once (503, `admit.rs`), never queued;
//! - a plain atomic counter: a semaphore's permit costs several hundred instructions per request
//!   (measured with callgrind), and nothing ever waits here.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::refusals::Refusals;
use crate::budget::MemoryBudget;

/// Counts requests in flight, and reaches the server's refusal counts and memory budget (so a
/// request carries one reference, its [`Pass`], for all three).
pub(crate) struct Gate {
    /// Requests admitted and not yet answered (their `Pass` alive).
    in_flight: AtomicUsize,
    /// Of those, the ones waiting for body bytes. Kept apart (rather than taken off `in_flight`)
    /// so that neither count can wrap whichever of a request's body and `Pass` is dropped first.
    waiting: AtomicUsize,
    /// `usize::MAX`: unlimited.
    limit: usize,
    refusals: Arc<Refusals>,
    /// The app's memory budget, which a response body is charged against (`served.rs`).
    budget: Option<Arc<MemoryBudget>>,
}

/// One request's place under the limit, given back when dropped.
pub(crate) struct Pass(Arc<Gate>);

impl Pass {
    /// The server's refusal counts.
    pub(crate) fn refusals(&self) -> &Refusals {
        &self.0.refusals
    }

    /// The app's memory budget, when it has one.
    #[inline]
    pub(crate) fn budget(&self) -> Option<&Arc<MemoryBudget>> {
        self.0.budget.as_ref()
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Release);
    }
}

impl Gate {
    /// A gate letting `limit` requests through at once (`None`: any number), whose requests'
    /// responses are charged against `budget`.
    pub(crate) fn new(
        limit: Option<usize>,
        refusals: Arc<Refusals>,
        budget: Option<Arc<MemoryBudget>>,
    ) -> Arc<Self> {
        Arc::new(Gate {
            in_flight: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            limit: limit.unwrap_or(usize::MAX),
            refusals,
            budget,
        })
    }

    /// A place, or `None` when all are taken.
    #[inline]
    pub(crate) fn enter(self: &Arc<Self>) -> Option<Pass> {
        let before = self.in_flight.fetch_add(1, Ordering::Acquire);
        if before.saturating_sub(self.waiting.load(Ordering::Relaxed)) >= self.limit {
            self.in_flight.fetch_sub(1, Ordering::Release);
            return None;
        }
        Some(Pass(self.clone()))
    }

    /// A request gives its place back while its body is stalled (each `leave` is followed by
    /// one `rejoin`).
    pub(crate) fn leave(&self) {
        self.waiting.fetch_add(1, Ordering::Release);
    }

    /// A request whose body moves again (or is dropped) takes its place back (never refused: it
    /// was admitted).
    pub(crate) fn rejoin(&self) {
        self.waiting.fetch_sub(1, Ordering::Acquire);
    }

    /// The server's refusal counts.
    pub(crate) fn refusals(&self) -> &Arc<Refusals> {
        &self.refusals
    }
}

#[cfg(test)]
mod tests {
    use super::Gate;
    use crate::server::refusals::Refusals;

    #[test]
    fn places_are_given_back_when_passes_drop() {
        let service = crate::App::new().build().unwrap_or_else(|e| panic!("{e}"));
        let gate = Gate::new(Some(2), Refusals::new(service, None), None);
        let first = gate.enter();
        let second = gate.enter();
        assert!(first.is_some() && second.is_some());
        assert!(gate.enter().is_none(), "a third place at a limit of two");
        drop(first);
        assert!(gate.enter().is_some(), "the place given back was not reusable");
    }

    #[test]
    fn a_request_waiting_for_its_body_does_not_count() {
        let service = crate::App::new().build().unwrap_or_else(|e| panic!("{e}"));
        let gate = Gate::new(Some(1), Refusals::new(service, None), None);
        let waiting = gate.enter();
        assert!(gate.enter().is_none());
        gate.leave();
        let working = gate.enter();
        assert!(working.is_some(), "a stalled body kept its place");
        gate.rejoin();
        assert!(
            gate.enter().is_none(),
            "over the limit after the body moved again"
        );
        drop((waiting, working));
        assert!(gate.enter().is_some(), "places were not all given back");
    }

    #[test]
    fn a_pass_dropped_before_its_waiting_body_wraps_nothing() {
        let service = crate::App::new().build().unwrap_or_else(|e| panic!("{e}"));
        let gate = Gate::new(Some(1), Refusals::new(service, None), None);
        let pass = gate.enter();
        gate.leave();
        // The answer is sent (the pass goes) while the body is still held somewhere.
        drop(pass);
        assert!(gate.enter().is_some(), "a place was lost (or the count wrapped)");
        gate.rejoin();
    }
}
