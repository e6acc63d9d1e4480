//! The connection limit: the server never holds more connections than it has descriptors for,
//! and a client that fills the limit with connections doing nothing cannot keep new ones out.
//!
//! Rules enforced here:
//! - at most `max_connections` connections are open at once (plus the one just accepted, waiting
//!   for a place); the limit in force is the configured one, lowered to three quarters of the
//!   process's descriptor limit when that is smaller (stores, files and uploads need descriptors
//!   too; `descriptors.rs` raises the soft limit to the hard one first); the start-up log says
//!   when it was lowered;
//! - a connection accepted at the limit gets the place of the *least recently used* connection
//!   that may leave (`conn_state.rs`: idle for [`RECENTLY_USED`] or more — reading its first
//!   bytes or a head, or between requests —, or trickling a body), which is asked to close; a
//!   connection used within [`RECENTLY_USED`], or in the middle of a request that progresses,
//!   is never asked. Before, the oldest in accept order was asked: always the long-lived pooled
//!   client, whose next request was then written to a closing connection. Only when no
//!   connection may leave does the new one wait for a place (its client's bytes wait in the
//!   socket); the search is made again every [`RETRY`];
//! - the least recently used is found without a scan, and without a clock read per request: the
//!   open connections are kept in a heap by when they were last *seen*, with what was seen then
//!   (their count of requests, `ConnState::heads`, and whether they were idle). The one on top is
//!   checked: it had a request since, or was busy then, it goes back as seen now; seen idle,
//!   still idle with no request since, it has been idle at least since then, and leaves if that
//!   is [`RECENTLY_USED`] ago or more (if not, neither is any other, and the search stops); busy
//!   now, it goes back behind every other, unless it trickles a body (it leaves). So the order is
//!   that of the last use seen, never later than the real one. At most [`LOOKS`] a search; a
//!   closed connection's entry is dropped when it comes up, and the heap is rebuilt when such
//!   entries outnumber the open connections;
//! - a connection's place is given back, and it leaves the map, when its task ends, whatever way
//!   it ends;
//! - the cost is per connection (a map and a heap insertion under a lock held for no await),
//!   never per request; the search runs only at the limit.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::conn_state::{stamp, Asked, ConnState, RECENTLY_USED};

/// How long a connection accepted at the limit waits for the connection asked to leave (or, with
/// none that may leave, for one to end) before the least recently used one is looked for again.
const RETRY: Duration = Duration::from_millis(50);

/// The most connections one search looks at.
const LOOKS: usize = 64;

/// The places of open connections, and the open connections by when they were last used.
#[derive(Clone)]
pub(crate) struct ConnLimit {
    places: Arc<Semaphore>,
    open: Arc<Mutex<Open>>,
}

/// The open connections (see the module rules).
#[derive(Default)]
struct Open {
    next: u64,
    states: HashMap<u64, Arc<ConnState>>,
    /// What was seen of each connection, least recently seen used on top.
    by_use: BinaryHeap<Reverse<Seen>>,
}

/// A connection as it was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    /// When ([`stamp`]).
    at: u64,
    /// Its number.
    seq: u64,
    /// Its count of requests then.
    heads: u32,
    /// Whether it was idle then.
    idle: bool,
}

impl Seen {
    fn now(at: u64, seq: u64, state: &ConnState) -> Reverse<Seen> {
        Reverse(Seen {
            at,
            seq,
            heads: state.heads(),
            idle: state.is_idle(),
        })
    }
}

impl Open {
    /// Rebuild the heap from the open connections when closed ones' entries outnumber them.
    fn tidy(&mut self, now: u64) {
        if self.by_use.len() > 2 * self.states.len() + LOOKS {
            self.by_use = self
                .states
                .iter()
                .map(|(seq, state)| Seen::now(now, *seq, state))
                .collect();
        }
    }
}

/// One open connection's place (given back, and the connection forgotten, when dropped).
pub(crate) struct ConnPlace {
    _permit: OwnedSemaphorePermit,
    seq: u64,
    open: Arc<Mutex<Open>>,
}

impl Drop for ConnPlace {
    fn drop(&mut self) {
        lock(&self.open).states.remove(&self.seq);
    }
}

/// The map, whatever a panic elsewhere left it (it holds no invariant a panic can break).
fn lock(open: &Mutex<Open>) -> MutexGuard<'_, Open> {
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

    /// A place for the connection of `state`, made by asking the least recently used connection
    /// that may leave to leave (see the module rules); `None` only if the limit was closed.
    pub(crate) async fn make_room(&self, state: &Arc<ConnState>) -> Option<ConnPlace> {
        loop {
            self.ask_least_recently_used(stamp(Instant::now()));
            if let Ok(permit) = tokio::time::timeout(RETRY, self.places.clone().acquire_owned()).await {
                return Some(self.place(permit.ok()?, state));
            }
        }
    }

    fn place(&self, permit: OwnedSemaphorePermit, state: &Arc<ConnState>) -> ConnPlace {
        let now = stamp(Instant::now());
        let mut open = lock(&self.open);
        let seq = open.next;
        open.next += 1;
        open.states.insert(seq, state.clone());
        open.by_use.push(Seen::now(now, seq, state));
        open.tidy(now);
        ConnPlace {
            _permit: permit,
            seq,
            open: self.open.clone(),
        }
    }

    /// Ask the least recently used connection that may leave to leave, at `now` ([`stamp`]);
    /// false when none may.
    fn ask_least_recently_used(&self, now: u64) -> bool {
        let mut open = lock(&self.open);
        let recently = RECENTLY_USED.as_millis() as u64;
        for _ in 0..LOOKS {
            let Some(Reverse(seen)) = open.by_use.pop() else {
                return false;
            };
            let Some(state) = open.states.get(&seen.seq).cloned() else {
                // Closed since.
                continue;
            };
            if state.is_idle() {
                if state.heads() != seen.heads || !seen.idle {
                    // Used since, or busy then: seen idle now.
                    open.by_use.push(Seen::now(now, seen.seq, &state));
                    continue;
                }
                if now.saturating_sub(seen.at) < recently {
                    // Every other was seen later.
                    open.by_use.push(Reverse(seen));
                    return false;
                }
            }
            // Idle long enough, or busy (a trickling body may leave): behind every other, asked
            // (if it declines, a head having arrived meanwhile, it is seen again; if it leaves,
            // its entry goes when it comes up).
            let mut behind = Seen::now(now + 1, seen.seq, &state);
            behind.0.idle = false;
            open.by_use.push(behind);
            if state.ask_to_leave(now) == Asked::Yes {
                return true;
            }
        }
        false
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
    async fn room_is_made_by_asking_the_least_recently_used_idle_connection() {
        let limit = ConnLimit::new(4);
        let states: Vec<Arc<ConnState>> = (0..4).map(|_| ConnState::new()).collect();
        let mut places: Vec<Option<ConnPlace>> = states.iter().map(|s| limit.try_take(s)).collect();
        let start = stamp(Instant::now());
        let later = |ms: u64| start + ms;
        // All idle since they were placed: the first in use order is the oldest, but it is used
        // again (a request, its answer) before the search, as is the third; the second is busy.
        for i in [0, 2] {
            states[i].head_arrived();
            states[i].awaiting_head();
        }
        states[1].head_arrived();
        assert!(limit.ask_least_recently_used(later(200)));
        assert!(
            states[3].should_leave(),
            "the only one idle and unused since it was seen"
        );
        assert!(!states[0].should_leave() && !states[1].should_leave() && !states[2].should_leave());
        places[3] = None;
        // The ones used since were seen again at 200 ms: too recent at 250, not at 300.
        assert!(!limit.ask_least_recently_used(later(250)));
        assert!(limit.ask_least_recently_used(later(300)));
        assert!(states[0].should_leave(), "seen first, at 200 ms");
        places[0] = None;
        let newcomer = ConnState::new();
        let place = tokio::time::timeout(Duration::from_secs(1), limit.make_room(&newcomer))
            .await
            .unwrap_or_else(|_| panic!("no room made"));
        assert!(place.is_some());
        assert!(!states[1].should_leave(), "busy all along");
        drop((places, place));
    }

    #[tokio::test]
    async fn a_connection_seen_idle_less_than_100_ms_ago_is_never_asked() {
        let limit = ConnLimit::new(2);
        let states: Vec<Arc<ConnState>> = (0..2).map(|_| ConnState::new()).collect();
        let places: Vec<Option<ConnPlace>> = states.iter().map(|s| limit.try_take(s)).collect();
        let start = stamp(Instant::now());
        assert!(!limit.ask_least_recently_used(start + 50));
        assert!(!states[0].should_leave() && !states[1].should_leave());
        // Busy ones neither; a trickling body's connection is asked once it trickled for a second.
        states[0].head_arrived();
        states[0].body_waits();
        states[1].head_arrived();
        let waiting = Instant::now();
        states[0].body_progressed(waiting);
        assert!(!limit.ask_least_recently_used(stamp(waiting) + 999));
        assert!(limit.ask_least_recently_used(stamp(waiting) + 1_000));
        assert!(states[0].body_should_leave());
        drop(places);
    }

    #[test]
    fn a_search_looks_at_a_bounded_number_of_connections() {
        let limit = ConnLimit::new(1000);
        let states: Vec<Arc<ConnState>> = (0..1000).map(|_| ConnState::new()).collect();
        let places: Vec<Option<ConnPlace>> = states.iter().map(|s| limit.try_take(s)).collect();
        for state in &states[..999] {
            state.head_arrived();
        }
        let now = stamp(Instant::now()) + 10_000;
        // The only idle one is beyond the first search's looks, not beyond the later ones'.
        let searches = (0..1000 / LOOKS + 2)
            .take_while(|_| !limit.ask_least_recently_used(now))
            .count();
        assert!(searches > 0 && searches <= 1000 / LOOKS + 1, "{searches}");
        assert!(states[999].should_leave());
        // Closed connections' entries do not pile up.
        drop(places);
        let state = ConnState::new();
        let place = limit.try_take(&state);
        assert!(lock(&limit.open).by_use.len() <= 1 + LOOKS + 2);
        drop(place);
    }
}
