//! The places of handshakes past their `ClientHello` (`TlsConfig::max_handshakes`), and who
//! gives one back when they are all taken.
//!
//! Rules enforced here:
//! - at most `max` places are held at once; a handshake with no free place waits;
//! - the fair-share rule: a place is not first come, first kept. A handshake past its
//!   `ClientHello` needs one round trip of its client (the client's key share came in the hello;
//!   what is left is its `Finished`), so one that has held its place for [`STALLED_AFTER`] is
//!   stalled, not slow: when every place is taken, a waiting handshake takes the place of the one
//!   that has held its place the longest, once that one is stalled, and that one is ended
//!   (its [`Place::evicted`] completes). Without this, `max` clients that send a whole
//!   `ClientHello` and then nothing held every place until their handshake deadline;
//! - a handshake that is not stalled is never evicted: under a flood of handshakes that do
//!   finish, a newcomer waits for a place as before (their CPU is what the cap bounds);
//! - a place is given back when its [`Place`] is dropped (the handshake done, failed, late or
//!   evicted), and the longest waiter is woken.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// How long a handshake past its `ClientHello` holds its place before it counts as stalled (its
/// client's round trip, with room for a slow network).
pub(crate) const STALLED_AFTER: Duration = Duration::from_secs(1);

/// The places (see the module rules).
#[derive(Debug)]
pub(crate) struct Places {
    max: usize,
    held: Mutex<Held>,
    /// Woken when a place is given back.
    freed: Notify,
}

/// The places held, oldest first.
#[derive(Debug, Default)]
struct Held {
    next: u64,
    /// By the order they were taken: the first is the one held the longest.
    holders: BTreeMap<u64, Holder>,
}

#[derive(Debug)]
struct Holder {
    since: Instant,
    evict: Arc<Notify>,
}

/// One handshake's place; given back when dropped.
#[derive(Debug)]
pub(crate) struct Place {
    places: Arc<Places>,
    id: u64,
    evict: Arc<Notify>,
}

impl Places {
    /// `max` places (at least one).
    pub(crate) fn new(max: usize) -> Arc<Self> {
        Arc::new(Places {
            max: max.max(1),
            held: Mutex::new(Held::default()),
            freed: Notify::new(),
        })
    }

    /// The places free now.
    pub(crate) fn available(&self) -> usize {
        self.max.saturating_sub(self.lock().holders.len())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        // The map is whole between two statements: a panic cannot leave it half-changed.
        self.held.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A place: a free one, or a stalled holder's (which is told to leave), or, failing both,
    /// the first one given back or stalled (the caller bounds the wait by its deadline).
    pub(crate) async fn take(self: &Arc<Self>) -> Place {
        loop {
            let freed = self.freed.notified();
            let mut freed = std::pin::pin!(freed);
            // Registered before looking, so a place given back meanwhile is not missed.
            freed.as_mut().enable();
            let stalls_at = {
                let mut held = self.lock();
                if held.holders.len() >= self.max {
                    if let Some(entry) = held.holders.first_entry() {
                        if entry.get().since.elapsed() >= STALLED_AFTER {
                            let stalled = entry.remove();
                            stalled.evict.notify_one();
                        }
                    }
                }
                if held.holders.len() < self.max {
                    let id = held.next;
                    held.next += 1;
                    let evict = Arc::new(Notify::new());
                    held.holders.insert(
                        id,
                        Holder {
                            since: Instant::now(),
                            evict: evict.clone(),
                        },
                    );
                    return Place {
                        places: self.clone(),
                        id,
                        evict,
                    };
                }
                held.holders
                    .first_key_value()
                    .map(|(_, oldest)| oldest.since + STALLED_AFTER)
            };
            match stalls_at {
                Some(at) => {
                    tokio::select! {
                        () = freed => {}
                        () = tokio::time::sleep_until(at) => {}
                    }
                }
                None => freed.await,
            }
        }
    }
}

impl Place {
    /// Completes when the place was given to a waiting handshake: this one stalled.
    pub(crate) async fn evicted(&self) {
        self.evict.notified().await;
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        // An evicted place is no longer in the map: nothing to give back.
        if self.places.lock().holders.remove(&self.id).is_some() {
            self.places.freed.notify_one();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_waiter_takes_a_stalled_place_but_not_a_young_one() {
        let places = Places::new(1);
        let first = places.take().await;
        let started = Instant::now();
        let second = places.take().await;
        // It waited until the first had held its place for STALLED_AFTER, then took it.
        assert_eq!(started.elapsed(), STALLED_AFTER);
        tokio::time::timeout(Duration::from_millis(1), first.evicted())
            .await
            .unwrap_or_else(|_| panic!("the stalled holder was not told"));
        drop(first);
        assert_eq!(places.available(), 0, "the evicted place is the second's now");
        drop(second);
        assert_eq!(places.available(), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn a_place_given_back_wakes_a_waiter_at_once() {
        let places = Places::new(1);
        let first = places.take().await;
        let waiter = tokio::spawn({
            let places = places.clone();
            async move {
                let started = Instant::now();
                let _place = places.take().await;
                started.elapsed()
            }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        drop(first);
        let waited = waiter.await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(waited, Duration::from_millis(100));
    }
}
