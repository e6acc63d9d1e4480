//! The bodies still being received ([`Receiving`]): a registry of the request bodies that had to
//! wait for their bytes while holding some of the memory budget, so that under pressure the
//! budget goes back from whoever does not progress (DESIGN.md's fair-share rule). Before it, 40
//! connections that sent all but 100 bytes of a 1 MiB body and held kept 96–98 % of small
//! requests and every bird read out for as long as they held.
//!
//! Rules enforced here:
//! - a body is registered only once it had to wait for bytes from a task (its reader's second
//!   wait: the first may be the dispatcher's look, `body/deadline.rs`), so a body that arrives
//!   whole is never registered and pays nothing; its entry is removed when it is whole, answered
//!   or dropped ([`Registration`] is a guard);
//! - an entry holds what its body holds (the bytes charged for it), when it last progressed (it
//!   brought another `Config::body_min_rate`'s worth of bytes), and a handle to reset it (a flag
//!   and its reader's waker);
//! - registered bodies together hold at most [`RECEIVING_SHARE`] of the budget: the rest is for
//!   work that does not wait (bodies that arrive whole, parses, answers, a route's reservations),
//!   which clients holding bodies can therefore not refuse, however they pace them;
//! - the registered bodies of one connection hold at most its share ([`Share`]: HTTP/2 streams
//!   of one connection; `Config::connection_body_share`);
//! - when a charge does not fit, the bodies that made no progress for [`STALE_AFTER`] or more are
//!   reset, largest first, until what is free and what resets are freeing covers the charge and
//!   some headroom ([`MemoryBudget::reclaim`](super::MemoryBudget)). As envoy's overload manager
//!   (`reset_high_memory_stream`) does, candidates are bucketed by the power of two of what they
//!   hold and taken from the top bucket down: two passes over the entries, no sort, no
//!   allocation; a body that progresses is never reset;
//! - a reset body's reader answers 503 with `Retry-After` and closes (HTTP/1) or resets the
//!   stream (HTTP/2), dropping what it held (`body/reader.rs`);
//! - a scan that found nothing to reset is not repeated within [`RESCAN_AFTER`], so a flood of
//!   refused charges scans the registry at most 100 times a second.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Waker;
use std::time::{Duration, Instant};

/// A body that brought nothing (less than `Config::body_min_rate` a second) for this long may be
/// reset when the budget is needed.
pub(crate) const STALE_AFTER: Duration = Duration::from_secs(1);

/// How long a scan that found nothing to reset is trusted.
pub(crate) const RESCAN_AFTER: Duration = Duration::from_millis(10);

/// Registered bodies hold at most this share of the budget (numerator, denominator).
pub(crate) const RECEIVING_SHARE: (usize, usize) = (3, 4);

/// The registry of one budget (see the module rules).
#[derive(Debug)]
pub(crate) struct Receiving {
    /// Progress stamps are milliseconds after this.
    epoch: Instant,
    /// Bytes held by registered bodies.
    held: AtomicUsize,
    /// The most they may hold.
    cap: usize,
    /// When a scan last found nothing to reset (milliseconds after `epoch`; `u64::MAX`: never).
    fruitless: AtomicU64,
    registry: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    entries: Vec<Option<Arc<Entry>>>,
    /// Slots of `entries` free for the next registration.
    free: Vec<usize>,
    /// Bytes held by entries reset and not yet dropped: already on their way back.
    resetting: usize,
}

/// One registered body.
#[derive(Debug)]
struct Entry {
    held: AtomicUsize,
    /// When it last progressed, in milliseconds after the registry's epoch.
    progressed: AtomicU64,
    reset: AtomicBool,
    waker: Mutex<Option<Waker>>,
    share: Option<Arc<Share>>,
}

/// What the registered bodies of one connection may hold, and hold (HTTP/2: a proxy may
/// multiplex many clients on one connection, and `Config::connection_body_share` sets this).
#[derive(Debug)]
pub(crate) struct Share {
    held: AtomicUsize,
    limit: usize,
}

impl Share {
    /// A connection's share of `limit` bytes.
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(Share {
            held: AtomicUsize::new(0),
            limit,
        })
    }

    /// Bytes its bodies hold.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }
}

/// Why a registered body may not hold more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// Registered bodies hold their whole part of the budget.
    Receiving,
    /// The bodies of its connection hold the connection's share.
    Share,
}

/// The lock, whatever a panic elsewhere left it (the registry holds no invariant a panic can
/// break: its counts are corrected when the entries' guards drop).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Receiving {
    /// The registry of a budget of `limit` bytes.
    pub(crate) fn new(limit: usize) -> Self {
        Receiving {
            // An hour back, so that "long ago" has a stamp (0) from the start.
            epoch: Instant::now()
                .checked_sub(Duration::from_secs(3600))
                .unwrap_or_else(Instant::now),
            held: AtomicUsize::new(0),
            cap: limit / RECEIVING_SHARE.1 * RECEIVING_SHARE.0,
            fruitless: AtomicU64::new(u64::MAX),
            registry: Mutex::default(),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Register a body of `budget` that holds `held` bytes (of its connection's `share`, when it
    /// has one).
    pub(crate) fn register(
        budget: &Arc<super::MemoryBudget>,
        held: usize,
        share: Option<Arc<Share>>,
    ) -> Registration {
        let this = &budget.receiving;
        this.held.fetch_add(held, Ordering::Relaxed);
        if let Some(share) = &share {
            share.held.fetch_add(held, Ordering::Relaxed);
        }
        let entry = Arc::new(Entry {
            held: AtomicUsize::new(held),
            progressed: AtomicU64::new(this.now_ms()),
            reset: AtomicBool::new(false),
            waker: Mutex::new(None),
            share,
        });
        let mut registry = lock(&this.registry);
        let slot = match registry.free.pop() {
            Some(slot) => {
                if let Some(free) = registry.entries.get_mut(slot) {
                    *free = Some(entry.clone());
                }
                slot
            }
            None => {
                registry.entries.push(Some(entry.clone()));
                registry.entries.len() - 1
            }
        };
        Registration {
            budget: budget.clone(),
            slot,
            entry,
        }
    }

    /// Remove the entry in `slot`, and what it held from the counts.
    fn deregister(&self, slot: usize, entry: &Entry) {
        let held = entry.held.load(Ordering::Relaxed);
        self.held.fetch_sub(held, Ordering::Relaxed);
        if let Some(share) = &entry.share {
            share.held.fetch_sub(held, Ordering::Relaxed);
        }
        let mut registry = lock(&self.registry);
        if entry.reset.load(Ordering::Relaxed) {
            registry.resetting = registry.resetting.saturating_sub(held);
        }
        if let Some(taken) = registry.entries.get_mut(slot) {
            *taken = None;
            registry.free.push(slot);
        }
    }

    /// Count `bytes` more for a registered body, if its connection's share and the registered
    /// bodies' part of the budget have room for them.
    fn grow(&self, entry: &Entry, bytes: usize) -> Result<(), Full> {
        if let Some(share) = &entry.share {
            let before = share.held.fetch_add(bytes, Ordering::Relaxed);
            if before.saturating_add(bytes) > share.limit {
                share.held.fetch_sub(bytes, Ordering::Relaxed);
                return Err(Full::Share);
            }
        }
        let before = self.held.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.cap {
            self.held.fetch_sub(bytes, Ordering::Relaxed);
            if let Some(share) = &entry.share {
                share.held.fetch_sub(bytes, Ordering::Relaxed);
            }
            return Err(Full::Receiving);
        }
        entry.held.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// Give back `bytes` counted by [`grow`](Self::grow) (the budget refused them after all).
    fn shrink(&self, entry: &Entry, bytes: usize) {
        entry.held.fetch_sub(bytes, Ordering::Relaxed);
        self.held.fetch_sub(bytes, Ordering::Relaxed);
        if let Some(share) = &entry.share {
            share.held.fetch_sub(bytes, Ordering::Relaxed);
        }
    }

    /// Bytes the registered bodies may still take, and bytes already on their way back.
    pub(crate) fn room(&self) -> (usize, usize) {
        let room = self.cap.saturating_sub(self.held.load(Ordering::Relaxed));
        (room, lock(&self.registry).resetting)
    }

    /// Bytes of resets not yet freed.
    pub(crate) fn resetting(&self) -> usize {
        lock(&self.registry).resetting
    }

    /// Reset stale bodies (of `only`'s connection, when given), largest first, until they hold
    /// `to_free` bytes; the bytes reset.
    pub(crate) fn reset_stale(&self, to_free: usize, only: Option<&Arc<Share>>) -> usize {
        let now = self.now_ms();
        let last = self.fruitless.load(Ordering::Relaxed);
        if only.is_none() && last != u64::MAX && now.saturating_sub(last) < RESCAN_AFTER.as_millis() as u64 {
            return 0;
        }
        let stale_ms = STALE_AFTER.as_millis() as u64;
        let candidate = |entry: &Entry| -> Option<usize> {
            let progressed = entry.progressed.load(Ordering::Relaxed);
            if entry.reset.load(Ordering::Relaxed) || progressed.saturating_add(stale_ms) > now {
                return None;
            }
            if let Some(only) = only {
                if !entry.share.as_ref().is_some_and(|share| Arc::ptr_eq(share, only)) {
                    return None;
                }
            }
            let held = entry.held.load(Ordering::Relaxed);
            (held > 0).then_some(held)
        };
        let mut registry = lock(&self.registry);
        // First pass: the bytes of the candidates in each power-of-two bucket.
        let mut buckets = [0usize; usize::BITS as usize];
        for entry in registry.entries.iter().flatten() {
            if let Some(held) = candidate(entry) {
                buckets[bucket(held)] += held;
            }
        }
        // The lowest bucket needed, taking them from the top down.
        let mut gathered = 0;
        let mut lowest = None;
        for (b, bytes) in buckets.iter().enumerate().rev() {
            if *bytes == 0 {
                continue;
            }
            lowest = Some(b);
            gathered += bytes;
            if gathered >= to_free {
                break;
            }
        }
        let mut freed = 0;
        if let Some(lowest) = lowest {
            // Second pass: every candidate above the lowest bucket, and from it as many as needed.
            let above: usize = buckets[lowest + 1..].iter().sum();
            let mut from_lowest = to_free.saturating_sub(above);
            for entry in registry.entries.iter().flatten() {
                let Some(held) = candidate(entry) else {
                    continue;
                };
                match bucket(held).cmp(&lowest) {
                    std::cmp::Ordering::Less => continue,
                    std::cmp::Ordering::Equal if from_lowest == 0 => continue,
                    std::cmp::Ordering::Equal => from_lowest = from_lowest.saturating_sub(held),
                    std::cmp::Ordering::Greater => {}
                }
                entry.reset.store(true, Ordering::Relaxed);
                if let Some(waker) = lock(&entry.waker).take() {
                    waker.wake();
                }
                freed += held;
            }
        }
        registry.resetting += freed;
        drop(registry);
        if only.is_none() {
            self.fruitless
                .store(if freed == 0 { now } else { u64::MAX }, Ordering::Relaxed);
        }
        freed
    }
}

/// The power-of-two bucket of `held` bytes (1 → 0, 2–3 → 1, 4–7 → 2, …).
fn bucket(held: usize) -> usize {
    (usize::BITS - 1 - held.max(1).leading_zeros()) as usize
}

/// A body's place in the registry (see the module rules): removed when dropped.
#[derive(Debug)]
pub(crate) struct Registration {
    budget: Arc<super::MemoryBudget>,
    slot: usize,
    entry: Arc<Entry>,
}

impl Registration {
    fn entry(&self) -> &Entry {
        &self.entry
    }

    /// True once the body was reset: its reader answers 503 and drops what it held.
    #[inline]
    pub(crate) fn is_reset(&self) -> bool {
        self.entry().reset.load(Ordering::Relaxed)
    }

    /// The waker to wake when the body is reset.
    pub(crate) fn set_waker(&self, waker: &Waker) {
        let mut slot = lock(&self.entry().waker);
        match &*slot {
            Some(known) if known.will_wake(waker) => {}
            _ => *slot = Some(waker.clone()),
        }
    }

    /// The body progressed (brought another step of bytes) now.
    pub(crate) fn progressed(&self) {
        let now = self.budget.receiving.now_ms();
        self.entry().progressed.store(now, Ordering::Relaxed);
    }

    /// Count `bytes` more held by the body (see [`Receiving`]'s rules).
    pub(crate) fn grow(&self, bytes: usize) -> Result<(), Full> {
        self.budget.receiving.grow(self.entry(), bytes)
    }

    /// Take back `bytes` counted by [`grow`](Self::grow).
    pub(crate) fn shrink(&self, bytes: usize) {
        self.budget.receiving.shrink(self.entry(), bytes);
    }

    /// The connection's share the body counts against, if any.
    pub(crate) fn share(&self) -> Option<&Arc<Share>> {
        self.entry().share.as_ref()
    }

    /// The budget it is registered with.
    pub(crate) fn budget(&self) -> &Arc<super::MemoryBudget> {
        &self.budget
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.budget.receiving.deregister(self.slot, &self.entry);
    }
}

#[cfg(test)]
mod tests {
    use super::super::MemoryBudget;
    use super::*;

    /// Mark `registration` as having last progressed an hour ago.
    fn stale(registration: &Registration) {
        registration.entry.progressed.store(0, Ordering::Relaxed);
    }

    fn held(budget: &MemoryBudget) -> usize {
        budget.receiving.held.load(Ordering::Relaxed)
    }

    #[test]
    fn buckets_are_powers_of_two() {
        assert_eq!(bucket(0), 0);
        assert_eq!(bucket(1), 0);
        assert_eq!(bucket(2), 1);
        assert_eq!(bucket(3), 1);
        assert_eq!(bucket(4), 2);
        assert_eq!(bucket(1 << 20), 20);
        assert_eq!(bucket((1 << 20) - 1), 19);
    }

    #[test]
    fn stale_bodies_are_reset_largest_first_and_only_as_many_as_needed() {
        let budget = MemoryBudget::new(1 << 30);
        let receiving = &budget.receiving;
        let big = Receiving::register(&budget, 1 << 20, None);
        let middle = Receiving::register(&budget, 1 << 16, None);
        let small = Receiving::register(&budget, 1 << 10, None);
        for registration in [&big, &middle, &small] {
            stale(registration);
        }
        let fresh = Receiving::register(&budget, 1 << 21, None);
        assert_eq!(
            receiving.reset_stale(1000, None),
            1 << 20,
            "the largest stale one"
        );
        assert!(big.is_reset());
        assert!(!middle.is_reset());
        assert!(!fresh.is_reset(), "a fresh body is never reset");
        assert_eq!(receiving.resetting(), 1 << 20);
        // More than the big one held: the next ones down.
        assert_eq!(receiving.reset_stale(1 << 16, None), 1 << 16);
        assert!(middle.is_reset());
        assert!(!small.is_reset());
        drop(big);
        assert_eq!(receiving.resetting(), 1 << 16, "freed once dropped");
        drop((middle, small, fresh));
        assert_eq!(held(&budget), 0);
        assert_eq!(receiving.resetting(), 0);
    }

    #[test]
    fn a_reset_wakes_the_reader() {
        use std::sync::atomic::AtomicUsize;
        use std::task::Wake;
        struct Count(AtomicUsize);
        impl Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let budget = MemoryBudget::new(1 << 30);
        let registration = Receiving::register(&budget, 10, None);
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        registration.set_waker(&Waker::from(woken.clone()));
        stale(&registration);
        assert_eq!(budget.receiving.reset_stale(1, None), 10);
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert!(registration.is_reset());
    }

    #[test]
    fn a_fruitless_scan_is_not_repeated_at_once() {
        let budget = MemoryBudget::new(1 << 30);
        let receiving = &budget.receiving;
        let registration = Receiving::register(&budget, 100, None);
        assert_eq!(receiving.reset_stale(10, None), 0, "fresh");
        stale(&registration);
        assert_eq!(
            receiving.reset_stale(10, None),
            0,
            "within RESCAN_AFTER of a fruitless scan"
        );
        std::thread::sleep(RESCAN_AFTER + Duration::from_millis(5));
        assert_eq!(receiving.reset_stale(10, None), 100);
    }

    #[test]
    fn a_share_and_the_receiving_part_bound_what_bodies_hold() {
        let budget = MemoryBudget::new(400);
        assert_eq!(budget.receiving.cap, 300);
        let share = Share::new(150);
        let a = Receiving::register(&budget, 100, Some(share.clone()));
        assert_eq!(a.grow(60), Err(Full::Share));
        assert_eq!(a.grow(50), Ok(()));
        assert_eq!(share.held(), 150);
        let b = Receiving::register(&budget, 100, None);
        assert_eq!(b.grow(51), Err(Full::Receiving));
        assert_eq!(b.grow(50), Ok(()));
        b.shrink(50);
        drop((a, b));
        assert_eq!(share.held(), 0);
        assert_eq!(held(&budget), 0);
    }

    #[test]
    fn only_the_stale_bodies_of_one_share_when_asked() {
        let budget = MemoryBudget::new(1 << 30);
        let share = Share::new(1 << 20);
        let mine = Receiving::register(&budget, 500, Some(share.clone()));
        let other = Receiving::register(&budget, 5000, None);
        stale(&mine);
        stale(&other);
        assert_eq!(budget.receiving.reset_stale(10_000, Some(&share)), 500);
        assert!(!other.is_reset());
        assert!(mine.is_reset());
    }
}
