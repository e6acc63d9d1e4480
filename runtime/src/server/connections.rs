//! The connection limit: the server never holds more connections than it has descriptors for,
//! and a client that fills the limit with connections doing nothing cannot keep new ones out.
//!
//! Rules enforced here:
//! - at most `max_connections` connections are open at once (plus the one just accepted, waiting
//!   for a place); the limit in force is the configured one, lowered to three quarters of the
//!   process's descriptor limit when that is smaller (stores, files and uploads need descriptors
//!   too; `descriptors.rs` raises the soft limit to the hard one first); the start-up log says
//!   when it was lowered;
//! - a connection accepted at the limit gets the place of the *oldest idle* connection (in accept
//!   order; idle as `conn_state.rs` defines it: reading its first bytes or a head, or between
//!   requests), which is asked to close; a connection in the middle of a request is never asked.
//!   Only when every connection is busy does the new one wait for a place (its client's bytes
//!   wait in the socket); the oldest idle one is looked for again every [`RETRY`]. Before:
//!   accepting simply waited, and 800 connections trickling heads at a limit of 768 kept fresh
//!   clients in the listen backlog for up to the 10 s header timeout;
//! - a connection's place is given back, and it leaves the accept order, when its task ends,
//!   whatever way it ends;
//! - the cost is per connection (a map insertion and removal under a lock held for no await),
//!   never per request; the search for an idle connection runs only at the limit.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::conn_state::ConnState;

/// How long a connection accepted at the limit waits for the connection asked to leave (or, with
/// every connection busy, for one to end) before the oldest idle one is looked for again.
const RETRY: Duration = Duration::from_millis(50);

/// The places of open connections, and the open connections in accept order.
#[derive(Clone)]
pub(crate) struct ConnLimit {
    places: Arc<Semaphore>,
    open: Arc<Mutex<ByAge>>,
}

/// The open connections, oldest first.
#[derive(Default)]
struct ByAge {
    next: u64,
    states: BTreeMap<u64, Arc<ConnState>>,
}

/// One open connection's place (given back, and the connection forgotten, when dropped).
pub(crate) struct ConnPlace {
    _permit: OwnedSemaphorePermit,
    seq: u64,
    open: Arc<Mutex<ByAge>>,
}

impl Drop for ConnPlace {
    fn drop(&mut self) {
        lock(&self.open).states.remove(&self.seq);
    }
}

/// The map, whatever a panic elsewhere left it (it holds no invariant a panic can break).
fn lock(open: &Mutex<ByAge>) -> MutexGuard<'_, ByAge> {
    open.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ConnLimit {
    /// A limit of `limit` connections.
    pub(crate) fn new(limit: usize) -> Self {
        ConnLimit {
            places: Arc::new(Semaphore::new(limit.min(Semaphore::MAX_PERMITS))),
            open: Arc::default(),
        }
    }

    /// A place for the connection of `state` at once, if one is free.
    pub(crate) fn try_take(&self, state: &Arc<ConnState>) -> Option<ConnPlace> {
        let permit = self.places.clone().try_acquire_owned().ok()?;
        Some(self.place(permit, state))
    }

    /// A place for the connection of `state`, made by asking the oldest idle connection to leave
    /// (see the module rules); `None` only if the limit was closed.
    pub(crate) async fn make_room(&self, state: &Arc<ConnState>) -> Option<ConnPlace> {
        loop {
            self.ask_oldest_idle();
            if let Ok(permit) = tokio::time::timeout(RETRY, self.places.clone().acquire_owned()).await {
                return Some(self.place(permit.ok()?, state));
            }
        }
    }

    fn place(&self, permit: OwnedSemaphorePermit, state: &Arc<ConnState>) -> ConnPlace {
        let mut open = lock(&self.open);
        let seq = open.next;
        open.next += 1;
        open.states.insert(seq, state.clone());
        ConnPlace {
            _permit: permit,
            seq,
            open: self.open.clone(),
        }
    }

    /// Ask the oldest idle connection to leave; false when none is idle.
    fn ask_oldest_idle(&self) -> bool {
        lock(&self.open).states.values().any(|state| state.ask_to_leave())
    }
}

/// The limit in force for `configured` when the process may open `descriptors` files (see the
/// module rules), logged when lowered.
pub(crate) fn limit_in_force(configured: Option<usize>, descriptors: Option<u64>) -> Option<usize> {
    let configured = configured?;
    let Some(descriptors) = descriptors else {
        return Some(configured);
    };
    let allowed = usize::try_from(descriptors / 4 * 3).unwrap_or(usize::MAX).max(1);
    if allowed < configured {
        tracing::info!(
            "connection limit lowered from {configured} to {allowed}: the process may open {descriptors} file descriptors (raise the hard limit, e.g. `ulimit -Hn`)"
        );
        return Some(allowed);
    }
    Some(configured)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_in_force_never_exceeds_three_quarters_of_the_descriptors() {
        assert_eq!(limit_in_force(Some(10_000), Some(1024)), Some(768));
        assert_eq!(limit_in_force(Some(10), Some(1024)), Some(10));
        assert_eq!(limit_in_force(Some(10), None), Some(10));
        assert_eq!(limit_in_force(None, Some(1024)), None);
        assert_eq!(limit_in_force(Some(10), Some(1)), Some(1), "never 0");
    }

    #[tokio::test]
    async fn places_come_back_when_released() {
        let limit = ConnLimit::new(1);
        let place = limit.try_take(&ConnState::new());
        assert!(place.is_some());
        assert!(limit.try_take(&ConnState::new()).is_none());
        drop(place);
        assert!(limit.try_take(&ConnState::new()).is_some());
        assert!(
            lock(&limit.open).states.is_empty(),
            "a released place is forgotten"
        );
    }

    #[tokio::test]
    async fn room_is_made_by_asking_the_oldest_idle_connection() {
        let limit = ConnLimit::new(3);
        let states: Vec<Arc<ConnState>> = (0..3).map(|_| ConnState::new()).collect();
        let mut places: Vec<Option<ConnPlace>> = states.iter().map(|s| limit.try_take(s)).collect();
        // The oldest is busy (a request in progress): the next oldest is asked, once.
        states[0].head_arrived();
        assert!(limit.ask_oldest_idle());
        assert!(!states[0].should_leave());
        assert!(states[1].should_leave(), "the oldest idle one");
        assert!(!states[2].should_leave());
        // It leaves: its place goes to the newcomer.
        places[1] = None;
        let newcomer = ConnState::new();
        let place = tokio::time::timeout(Duration::from_secs(1), limit.make_room(&newcomer))
            .await
            .unwrap_or_else(|_| panic!("no room made"));
        assert!(place.is_some());
        // Every connection busy: nobody is asked.
        states[2].head_arrived();
        newcomer.head_arrived();
        assert!(!limit.ask_oldest_idle());
        drop(places);
    }
}
