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
//! - an entry holds what its body holds (the bytes charged for it), what it reserves, when it
//!   last progressed (it brought another `Config::body_min_rate`'s worth of bytes), and a handle
//!   to reset it (a flag and its reader's waker);
//! - a registered body is read on only once it is *admitted*: it reserves its declared length
//!   (or what it holds, when it has none or holds more) in the registered bodies' part of the
//!   budget, [`RECEIVING_SHARE`] of it. So a body admitted goes on growing without meeting the
//!   others again (a steady upload among 60 held bodies was refused at each growth, the bodies
//!   refilling their places taking the room first), and what registered bodies hold is at most
//!   that part: the rest is for work that does not wait (bodies that arrive whole, parses,
//!   answers, a route's reservations), which clients holding bodies can therefore not refuse,
//!   however they pace them. A body that alone would reserve more is too large (413);
//! - bodies are admitted in the order they asked (a ticket each): while others wait, a newcomer
//!   waits behind them, whatever room there is, and the first in line is the one that resets
//!   stale bodies for room. Without the order, a steady upload among 60 bodies held and
//!   refilled as soon as they were reset lost every draw: the refilling clients, asking the
//!   most often, took each place as it came free. A body waiting in line is not stale (it is
//!   not read: its client is not the one that stopped), and the line holds at most an eighth of
//!   the budget ([`LINE_SHARE`]; one body at least): past it, a newcomer does not get a ticket;
//! - the registered bodies of one connection reserve at most its share ([`Share`]: HTTP/2 streams
//!   of one connection; `Config::connection_body_share`);
//! - when a charge or a reservation does not fit, the bodies that made no progress for
//!   [`STALE_AFTER`] or more are reset, largest first, until what is free and what resets are
//!   freeing covers it and some headroom (`MemoryBudget::pressed`). As envoy's overload manager
//!   (`reset_high_memory_stream`) does, candidates are bucketed by the power of two of what they
//!   hold and taken from the top bucket down: two passes over the entries, and a sort of the
//!   last bucket's only; a body that progresses is never reset;
//! - the charge (or reservation) that had bodies reset claims what they are freeing
//!   ([`Receiving::claim`]) and takes it at once, before it is back: the budget is over its limit
//!   by at most those bytes for the moment their readers take to drop them, and no other charge
//!   takes them first;
//! - a reset body's reader answers 503 with `Retry-After` and closes (HTTP/1) or resets the
//!   stream (HTTP/2), dropping what it held (`body/reader.rs`);
//! - a scan that found nothing to reset is not repeated within [`RESCAN_AFTER`], so a flood of
//!   refused charges scans the registry at most 100 times a second.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Waker;
use std::time::{Duration, Instant};

use super::MemoryBudget;

/// A body that brought nothing (less than `Config::body_min_rate` a second) for this long may be
/// reset when the budget is needed.
pub(crate) const STALE_AFTER: Duration = Duration::from_secs(1);

/// How long a scan that found nothing to reset is trusted.
pub(crate) const RESCAN_AFTER: Duration = Duration::from_millis(10);

/// Registered bodies reserve at most this share of the budget (numerator, denominator).
pub(crate) const RECEIVING_SHARE: (usize, usize) = (3, 4);

/// Bodies waiting in line to be admitted hold at most this share of the budget together.
pub(crate) const LINE_SHARE: usize = 8;

/// What a reset frees, and what a claim takes: bytes held (of the budget) or reserved (of the
/// registered bodies' part).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Measure {
    Held,
    Reserved,
}

/// Bytes of both measures.
#[derive(Debug, Default, Clone, Copy)]
struct Both {
    held: usize,
    reserved: usize,
}

impl Both {
    fn of(self, measure: Measure) -> usize {
        match measure {
            Measure::Held => self.held,
            Measure::Reserved => self.reserved,
        }
    }

    fn of_mut(&mut self, measure: Measure) -> &mut usize {
        match measure {
            Measure::Held => &mut self.held,
            Measure::Reserved => &mut self.reserved,
        }
    }
}

/// The registry of one budget (see the module rules).
#[derive(Debug)]
pub(crate) struct Receiving {
    /// Progress stamps are milliseconds after this.
    epoch: Instant,
    /// Bytes reserved by registered bodies.
    reserved: AtomicUsize,
    /// The most they may reserve.
    cap: usize,
    /// The most the bodies waiting in line may hold.
    line_cap: usize,
    /// When a scan last found nothing to reset (milliseconds after `epoch`; `u64::MAX`: never).
    fruitless: AtomicU64,
    registry: Mutex<Registry>,
}

#[derive(Debug, Default)]
struct Registry {
    entries: Vec<Option<Arc<Entry>>>,
    /// Slots of `entries` free for the next registration.
    free: Vec<usize>,
    /// What entries reset and not yet dropped hold and reserve: already on its way back.
    resetting: Both,
    /// Of that, what no charge or reservation has claimed yet.
    unclaimed: Both,
    /// The tickets of the bodies waiting to be admitted, first in line first, and what they hold.
    line: std::collections::BTreeMap<u64, usize>,
    line_held: usize,
    next_ticket: u64,
}

impl Registry {
    /// `entry` takes a place in line, if the line's bodies hold less than `cap` with it (the
    /// first in line, whatever it holds).
    fn take_ticket(&mut self, entry: &Entry, cap: usize) -> bool {
        let held = entry.measure(Measure::Held);
        if !self.line.is_empty() && self.line_held.saturating_add(held) > cap {
            return false;
        }
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.line.insert(ticket, held);
        self.line_held += held;
        entry.ticket.store(ticket, Ordering::Relaxed);
        true
    }

    /// `entry` leaves the line, if it is in it.
    fn leave_line(&mut self, entry: &Entry) {
        let ticket = entry.ticket.swap(NO_TICKET, Ordering::Relaxed);
        if let Some(held) = self.line.remove(&ticket) {
            self.line_held = self.line_held.saturating_sub(held);
        }
    }
}

/// One registered body.
#[derive(Debug)]
struct Entry {
    held: AtomicUsize,
    reserved: AtomicUsize,
    /// When it last progressed, in milliseconds after the registry's epoch.
    progressed: AtomicU64,
    reset: AtomicBool,
    /// Its place in the line of bodies waiting to be admitted (`NO_TICKET`: none).
    ticket: AtomicU64,
    waker: Mutex<Option<Waker>>,
    share: Option<Arc<Share>>,
}

/// An entry not in the line.
const NO_TICKET: u64 = u64::MAX;

impl Entry {
    fn measure(&self, measure: Measure) -> usize {
        match measure {
            Measure::Held => self.held.load(Ordering::Relaxed),
            Measure::Reserved => self.reserved.load(Ordering::Relaxed),
        }
    }
}

/// What the registered bodies of one connection may reserve, and reserve (HTTP/2: a proxy may
/// multiplex many clients on one connection, and `Config::connection_body_share` sets this).
#[derive(Debug)]
pub(crate) struct Share {
    reserved: AtomicUsize,
    limit: usize,
}

impl Share {
    /// A connection's share of `limit` bytes.
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(Share {
            reserved: AtomicUsize::new(0),
            limit,
        })
    }

    /// Bytes its bodies reserve.
    #[cfg(test)]
    pub(crate) fn reserved(&self) -> usize {
        self.reserved.load(Ordering::Relaxed)
    }
}

/// Which stale bodies a reset may take.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Victims<'a> {
    /// Only those of this connection.
    pub(crate) of: Option<&'a Arc<Share>>,
    /// Only those holding more than this (a body asking to be admitted may not take the place
    /// of one smaller than itself: a client refilling the place of its reset body does not
    /// reset the next one).
    pub(crate) holding_more_than: usize,
}

impl Victims<'_> {
    fn any(&self) -> bool {
        self.of.is_none() && self.holding_more_than == 0
    }
}

/// Why a body may not reserve (more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Full {
    /// It alone would reserve more than the registered bodies' whole part of the budget.
    Alone,
    /// Registered bodies reserve their whole part of the budget.
    Receiving,
    /// The bodies of its connection reserve the connection's share.
    Share,
    /// Others asked to be admitted before it.
    Behind,
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
            reserved: AtomicUsize::new(0),
            cap: limit / RECEIVING_SHARE.1 * RECEIVING_SHARE.0,
            line_cap: limit / LINE_SHARE,
            fruitless: AtomicU64::new(u64::MAX),
            registry: Mutex::default(),
        }
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Reserve `bytes` in the registered bodies' part (and `share`), if they fit.
    fn reserve(&self, share: Option<&Arc<Share>>, bytes: usize) -> Result<(), Full> {
        if let Some(share) = share {
            let before = share.reserved.fetch_add(bytes, Ordering::Relaxed);
            if before.saturating_add(bytes) > share.limit {
                share.reserved.fetch_sub(bytes, Ordering::Relaxed);
                return Err(Full::Share);
            }
        }
        let before = self.reserved.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.cap {
            self.reserved.fetch_sub(bytes, Ordering::Relaxed);
            if let Some(share) = share {
                share.reserved.fetch_sub(bytes, Ordering::Relaxed);
            }
            return Err(Full::Receiving);
        }
        Ok(())
    }

    /// Reserve `bytes` whatever the limits hold (bytes claimed from bodies being reset).
    fn force_reserve(&self, share: Option<&Arc<Share>>, bytes: usize) {
        if let Some(share) = share {
            share.reserved.fetch_add(bytes, Ordering::Relaxed);
        }
        self.reserved.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Give back `bytes` reserved.
    fn unreserve(&self, share: Option<&Arc<Share>>, bytes: usize) {
        if let Some(share) = share {
            share.reserved.fetch_sub(bytes, Ordering::Relaxed);
        }
        self.reserved.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Register a body of `budget` that holds `held` bytes (of a connection with `share`): not
    /// admitted yet, it reserves nothing ([`admit`](Self::admit)).
    pub(crate) fn register(
        budget: &Arc<MemoryBudget>,
        held: usize,
        share: Option<Arc<Share>>,
    ) -> Registration {
        let this = &budget.receiving;
        let entry = Arc::new(Entry {
            held: AtomicUsize::new(held),
            reserved: AtomicUsize::new(0),
            progressed: AtomicU64::new(this.now_ms()),
            reset: AtomicBool::new(false),
            ticket: AtomicU64::new(NO_TICKET),
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

    /// Admit `entry`, reserving `reserve` bytes, if its connection's share and the registered
    /// bodies' part have room and no body asked before it (it takes a place in line, kept until
    /// it is admitted or dropped); `claimed` from bodies being reset, whatever the part holds.
    fn admit(&self, entry: &Entry, reserve: usize, claimed: bool) -> Result<(), Full> {
        if reserve > self.cap {
            return Err(Full::Alone);
        }
        let share = entry.share.as_ref();
        if let Some(share) = share {
            let before = share.reserved.fetch_add(reserve, Ordering::Relaxed);
            if !claimed && before.saturating_add(reserve) > share.limit {
                share.reserved.fetch_sub(reserve, Ordering::Relaxed);
                return Err(Full::Share);
            }
        }
        let mut registry = lock(&self.registry);
        let ticket = entry.ticket.load(Ordering::Relaxed);
        let behind = match registry.line.keys().next() {
            None => false,
            Some(first) => ticket != *first,
        };
        let refused = if behind {
            Some(Full::Behind)
        } else if claimed {
            self.reserved.fetch_add(reserve, Ordering::Relaxed);
            None
        } else {
            let before = self.reserved.fetch_add(reserve, Ordering::Relaxed);
            (before.saturating_add(reserve) > self.cap).then(|| {
                self.reserved.fetch_sub(reserve, Ordering::Relaxed);
                Full::Receiving
            })
        };
        if let Some(full) = refused {
            if let Some(share) = share {
                share.reserved.fetch_sub(reserve, Ordering::Relaxed);
            }
            if ticket == NO_TICKET && !registry.take_ticket(entry, self.line_cap) {
                // Not even in line: the line is full.
                return Err(Full::Behind);
            }
            // Waiting in line is not stalling.
            entry.progressed.store(self.now_ms(), Ordering::Relaxed);
            return Err(full);
        }
        registry.leave_line(entry);
        entry.reserved.fetch_add(reserve, Ordering::Relaxed);
        Ok(())
    }

    /// Remove the entry in `slot`, and what it reserved from the counts.
    fn deregister(&self, slot: usize, entry: &Entry) {
        let (held, reserved) = (entry.measure(Measure::Held), entry.measure(Measure::Reserved));
        self.unreserve(entry.share.as_ref(), reserved);
        let mut registry = lock(&self.registry);
        registry.leave_line(entry);
        if entry.reset.load(Ordering::Relaxed) {
            let registry = &mut *registry;
            for (measure, bytes) in [(Measure::Held, held), (Measure::Reserved, reserved)] {
                let resetting = registry.resetting.of_mut(measure);
                *resetting = resetting.saturating_sub(bytes);
                let left = *resetting;
                let unclaimed = registry.unclaimed.of_mut(measure);
                *unclaimed = (*unclaimed).min(left);
            }
        }
        if let Some(taken) = registry.entries.get_mut(slot) {
            *taken = None;
            registry.free.push(slot);
        }
    }

    /// Bytes the registered bodies may still reserve.
    pub(crate) fn room(&self) -> usize {
        self.cap.saturating_sub(self.reserved.load(Ordering::Relaxed))
    }

    /// What resets are freeing that nobody claimed yet, in `measure`.
    pub(crate) fn unclaimed(&self, measure: Measure) -> usize {
        lock(&self.registry).unclaimed.of(measure)
    }

    /// What resets are freeing, in `measure`.
    #[cfg(test)]
    pub(crate) fn resetting(&self, measure: Measure) -> usize {
        lock(&self.registry).resetting.of(measure)
    }

    /// Claim `bytes` of what resets are freeing, in `measure`, for the charge (or reservation)
    /// that had them reset (see the module rules); false when not that many are unclaimed.
    pub(crate) fn claim(&self, measure: Measure, bytes: usize) -> bool {
        let mut registry = lock(&self.registry);
        let unclaimed = registry.unclaimed.of_mut(measure);
        if *unclaimed < bytes {
            return false;
        }
        *unclaimed -= bytes;
        true
    }

    /// Reset stale bodies among `victims`, largest first, until they free `to_free` bytes in
    /// `measure`; the bytes reset.
    pub(crate) fn reset_stale(&self, to_free: usize, measure: Measure, victims: Victims<'_>) -> usize {
        let now = self.now_ms();
        let last = self.fruitless.load(Ordering::Relaxed);
        if last != u64::MAX && now.saturating_sub(last) < RESCAN_AFTER.as_millis() as u64 {
            return 0;
        }
        let stale_ms = STALE_AFTER.as_millis() as u64;
        let candidate = |entry: &Entry| -> Option<usize> {
            let progressed = entry.progressed.load(Ordering::Relaxed);
            if entry.reset.load(Ordering::Relaxed) || progressed.saturating_add(stale_ms) > now {
                return None;
            }
            if let Some(only) = victims.of {
                if !entry.share.as_ref().is_some_and(|share| Arc::ptr_eq(share, only)) {
                    return None;
                }
            }
            // Largest first by what it holds: that is what comes back.
            let held = entry.measure(Measure::Held);
            (entry.measure(measure) > 0 && held > victims.holding_more_than).then_some(held)
        };
        let mut registry = lock(&self.registry);
        // First pass: what the candidates in each power-of-two bucket (of what they hold) free.
        let mut buckets = [0usize; usize::BITS as usize];
        for entry in registry.entries.iter().flatten() {
            if let Some(held) = candidate(entry) {
                buckets[bucket(held)] += entry.measure(measure);
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
        let mut freed = Both::default();
        let mut reset = |entry: &Entry, held: usize| {
            entry.reset.store(true, Ordering::Relaxed);
            if let Some(waker) = lock(&entry.waker).take() {
                waker.wake();
            }
            freed.held += held;
            freed.reserved += entry.measure(Measure::Reserved);
        };
        if let Some(lowest) = lowest {
            // Second pass: every candidate above the lowest bucket; of the lowest, the largest
            // first, as many as needed (a bucket spans a factor of two: 16 and 30 KiB share one).
            let above: usize = buckets[lowest + 1..].iter().sum();
            let mut from_lowest = to_free.saturating_sub(above);
            let mut in_lowest = Vec::new();
            for entry in registry.entries.iter().flatten() {
                let Some(held) = candidate(entry) else {
                    continue;
                };
                match bucket(held).cmp(&lowest) {
                    std::cmp::Ordering::Less => {}
                    std::cmp::Ordering::Equal => in_lowest.push((held, entry.clone())),
                    std::cmp::Ordering::Greater => reset(entry, held),
                }
            }
            in_lowest.sort_unstable_by_key(|(held, _)| std::cmp::Reverse(*held));
            for (held, entry) in in_lowest {
                if from_lowest == 0 {
                    break;
                }
                from_lowest = from_lowest.saturating_sub(entry.measure(measure));
                reset(&entry, held);
            }
        }
        for measure in [Measure::Held, Measure::Reserved] {
            *registry.resetting.of_mut(measure) += freed.of(measure);
            *registry.unclaimed.of_mut(measure) += freed.of(measure);
        }
        drop(registry);
        // A fruitless scan is trusted only when any body could have been taken.
        if freed.of(measure) > 0 {
            self.fruitless.store(u64::MAX, Ordering::Relaxed);
        } else if victims.any() {
            self.fruitless.store(now, Ordering::Relaxed);
        }
        freed.of(measure)
    }
}

/// The power-of-two bucket of `held` bytes (1 → 0, 2–3 → 1, 4–7 → 2, …).
fn bucket(held: usize) -> usize {
    (usize::BITS - 1 - held.max(1).leading_zeros()) as usize
}

/// A body's place in the registry (see the module rules): removed when dropped.
#[derive(Debug)]
pub(crate) struct Registration {
    budget: Arc<MemoryBudget>,
    slot: usize,
    entry: Arc<Entry>,
}

impl Registration {
    fn receiving(&self) -> &Receiving {
        &self.budget.receiving
    }

    /// True once the body was reset: its reader answers 503 and drops what it held.
    #[inline]
    pub(crate) fn is_reset(&self) -> bool {
        self.entry.reset.load(Ordering::Relaxed)
    }

    /// The waker to wake when the body is reset.
    pub(crate) fn set_waker(&self, waker: &Waker) {
        let mut slot = lock(&self.entry.waker);
        match &*slot {
            Some(known) if known.will_wake(waker) => {}
            _ => *slot = Some(waker.clone()),
        }
    }

    /// The body progressed (brought another step of bytes) now.
    pub(crate) fn progressed(&self) {
        let now = self.receiving().now_ms();
        self.entry.progressed.store(now, Ordering::Relaxed);
    }

    /// Mark the body as having last progressed an hour ago.
    #[cfg(test)]
    pub(crate) fn mark_stale(&self) {
        self.entry.progressed.store(0, Ordering::Relaxed);
    }

    /// Admit the body, reserving `reserve` bytes (see [`Receiving`]'s rules); `claimed` from
    /// bodies being reset, whatever the registered bodies' part holds.
    pub(crate) fn admit(&self, reserve: usize, claimed: bool) -> Result<(), Full> {
        self.receiving().admit(&self.entry, reserve, claimed)
    }

    /// What it holds.
    pub(crate) fn held(&self) -> usize {
        self.entry.measure(Measure::Held)
    }

    /// Of `bytes` more the body would hold, those beyond its reservation.
    pub(crate) fn beyond_reservation(&self, bytes: usize) -> usize {
        let (held, reserved) = (
            self.entry.measure(Measure::Held),
            self.entry.measure(Measure::Reserved),
        );
        held.saturating_add(bytes).saturating_sub(reserved)
    }

    /// Reserve `bytes` more (see [`Receiving`]'s rules); `claimed` from bodies being reset,
    /// whatever the limits hold.
    pub(crate) fn reserve_more(&self, bytes: usize, claimed: bool) -> Result<(), Full> {
        let receiving = self.receiving();
        if self.entry.measure(Measure::Reserved).saturating_add(bytes) > receiving.cap {
            return Err(Full::Alone);
        }
        if claimed {
            receiving.force_reserve(self.entry.share.as_ref(), bytes);
        } else {
            receiving.reserve(self.entry.share.as_ref(), bytes)?;
        }
        self.entry.reserved.fetch_add(bytes, Ordering::Relaxed);
        Ok(())
    }

    /// Give back `bytes` reserved by [`reserve_more`](Self::reserve_more).
    pub(crate) fn unreserve(&self, bytes: usize) {
        self.receiving().unreserve(self.entry.share.as_ref(), bytes);
        self.entry.reserved.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// The body holds `bytes` more (charged).
    pub(crate) fn holds_more(&self, bytes: usize) {
        self.entry.held.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The connection's share the body counts against, if any.
    pub(crate) fn share(&self) -> Option<&Arc<Share>> {
        self.entry.share.as_ref()
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.budget.receiving.deregister(self.slot, &self.entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body holding `held` bytes, admitted.
    fn register(budget: &Arc<MemoryBudget>, held: usize, share: Option<Arc<Share>>) -> Registration {
        let registration = Receiving::register(budget, held, share);
        registration
            .admit(held, false)
            .unwrap_or_else(|full| panic!("{full:?}"));
        registration
    }

    fn reserved(budget: &MemoryBudget) -> usize {
        budget.receiving.reserved.load(Ordering::Relaxed)
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
        let big = register(&budget, 1 << 20, None);
        let middle = register(&budget, 1 << 16, None);
        let small = register(&budget, 1 << 10, None);
        for registration in [&big, &middle, &small] {
            registration.mark_stale();
        }
        let fresh = register(&budget, 1 << 21, None);
        assert_eq!(
            receiving.reset_stale(1000, Measure::Held, Victims::default()),
            1 << 20,
            "the largest stale one"
        );
        assert!(big.is_reset());
        assert!(!middle.is_reset());
        assert!(!fresh.is_reset(), "a fresh body is never reset");
        assert_eq!(receiving.resetting(Measure::Held), 1 << 20);
        // More than the big one held: the next ones down.
        assert_eq!(
            receiving.reset_stale(1 << 16, Measure::Held, Victims::default()),
            1 << 16
        );
        assert!(middle.is_reset());
        assert!(!small.is_reset());
        drop(big);
        assert_eq!(receiving.resetting(Measure::Held), 1 << 16, "freed once dropped");
        drop((middle, small, fresh));
        assert_eq!(reserved(&budget), 0);
        assert_eq!(receiving.resetting(Measure::Held), 0);
    }

    #[test]
    fn within_a_bucket_the_largest_goes_first() {
        let budget = MemoryBudget::new(1 << 30);
        // Both in the bucket of 16–32 KiB; the smaller registered first.
        let smaller = register(&budget, 16 << 10, None);
        let larger = register(&budget, 30 << 10, None);
        smaller.mark_stale();
        larger.mark_stale();
        assert_eq!(
            budget
                .receiving
                .reset_stale(1000, Measure::Held, Victims::default()),
            30 << 10
        );
        assert!(larger.is_reset() && !smaller.is_reset());
    }

    #[test]
    fn what_resets_free_is_claimed_once() {
        let budget = MemoryBudget::new(1 << 30);
        let receiving = &budget.receiving;
        let victim = register(&budget, 1000, None);
        victim.mark_stale();
        assert_eq!(
            receiving.reset_stale(600, Measure::Held, Victims::default()),
            1000
        );
        assert!(receiving.claim(Measure::Held, 600));
        assert!(!receiving.claim(Measure::Held, 600), "only 400 left");
        assert!(receiving.claim(Measure::Reserved, 1000));
        drop(victim);
        assert_eq!(receiving.unclaimed(Measure::Held), 0, "nothing left once freed");
    }

    #[test]
    fn a_reset_wakes_the_reader() {
        use std::task::Wake;
        struct Count(AtomicUsize);
        impl Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let budget = MemoryBudget::new(1 << 30);
        let registration = register(&budget, 10, None);
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        registration.set_waker(&Waker::from(woken.clone()));
        registration.mark_stale();
        assert_eq!(
            budget.receiving.reset_stale(1, Measure::Held, Victims::default()),
            10
        );
        assert_eq!(woken.0.load(Ordering::SeqCst), 1);
        assert!(registration.is_reset());
    }

    #[test]
    fn a_fruitless_scan_is_not_repeated_at_once() {
        let budget = MemoryBudget::new(1 << 30);
        let receiving = &budget.receiving;
        let registration = register(&budget, 100, None);
        assert_eq!(
            receiving.reset_stale(10, Measure::Held, Victims::default()),
            0,
            "fresh"
        );
        registration.mark_stale();
        assert_eq!(
            receiving.reset_stale(10, Measure::Held, Victims::default()),
            0,
            "within RESCAN_AFTER of a fruitless scan"
        );
        std::thread::sleep(RESCAN_AFTER + Duration::from_millis(5));
        assert_eq!(receiving.reset_stale(10, Measure::Held, Victims::default()), 100);
    }

    #[test]
    fn declared_lengths_are_reserved_and_bound_what_bodies_reserve() {
        let budget = MemoryBudget::new(400);
        assert_eq!(budget.receiving.cap, 300);
        let share = Share::new(150);
        // 10 held of 120 declared: 120 reserved, of the share too.
        let a = Receiving::register(&budget, 10, Some(share.clone()));
        assert_eq!(a.admit(120, false), Ok(()));
        assert_eq!((reserved(&budget), share.reserved()), (120, 120));
        assert_eq!(a.beyond_reservation(100), 0, "within what it reserved");
        assert_eq!(a.beyond_reservation(150), 40);
        assert_eq!(a.reserve_more(40, false), Err(Full::Share));
        let too_large = Receiving::register(&budget, 0, None);
        assert_eq!(too_large.admit(301, false), Err(Full::Alone));
        let b = Receiving::register(&budget, 0, None);
        assert_eq!(b.admit(180, false), Ok(()));
        assert_eq!(b.reserve_more(1, false), Err(Full::Receiving));
        assert_eq!(b.reserve_more(121, false), Err(Full::Alone));
        b.reserve_more(1, true).unwrap_or_else(|full| panic!("{full:?}"));
        assert_eq!(reserved(&budget), 301, "claimed: over the part for a moment");
        b.unreserve(1);
        drop((a, b, too_large));
        assert_eq!(share.reserved(), 0);
        assert_eq!(reserved(&budget), 0);
    }

    #[test]
    fn bodies_are_admitted_in_the_order_they_asked() {
        let budget = MemoryBudget::new(400);
        let holder = register(&budget, 250, None);
        let first = Receiving::register(&budget, 0, None);
        let second = Receiving::register(&budget, 0, None);
        assert_eq!(
            first.admit(100, false),
            Err(Full::Receiving),
            "no room: first in line"
        );
        assert_eq!(
            second.admit(10, false),
            Err(Full::Behind),
            "room for it, but behind"
        );
        drop(holder);
        assert_eq!(second.admit(10, false), Err(Full::Behind));
        assert_eq!(first.admit(100, false), Ok(()));
        assert_eq!(second.admit(10, false), Ok(()));
        // A body that leaves the line lets the next one through.
        let holder = register(&budget, 180, None);
        let leaving = Receiving::register(&budget, 0, None);
        let next = Receiving::register(&budget, 0, None);
        assert_eq!(leaving.admit(100, false), Err(Full::Receiving));
        assert_eq!(next.admit(1, false), Err(Full::Behind));
        drop(leaving);
        assert_eq!(next.admit(1, false), Ok(()));
        drop((holder, first, second, next));
        assert_eq!(reserved(&budget), 0);
    }

    #[test]
    fn the_line_holds_at_most_its_share_and_its_bodies_are_not_stale() {
        let budget = MemoryBudget::new(800);
        assert_eq!((budget.receiving.cap, budget.receiving.line_cap), (600, 100));
        let holder = register(&budget, 600, None);
        let first = Receiving::register(&budget, 60, None);
        let second = Receiving::register(&budget, 50, None);
        assert_eq!(first.admit(60, false), Err(Full::Receiving), "in line, first");
        assert_eq!(second.admit(50, false), Err(Full::Behind), "the line is full");
        assert!(second.entry.ticket.load(Ordering::Relaxed) == NO_TICKET);
        first.mark_stale();
        holder.mark_stale();
        assert_eq!(first.admit(60, false), Err(Full::Receiving));
        assert_eq!(
            budget
                .receiving
                .reset_stale(10_000, Measure::Held, Victims::default()),
            600,
            "the stale holder, not the body waiting in line"
        );
        assert!(!first.is_reset());
        drop(first);
        assert_eq!(second.admit(50, false), Err(Full::Receiving), "room in line now");
        drop((holder, second));
        assert_eq!(lock(&budget.receiving.registry).line_held, 0);
    }

    #[test]
    fn only_the_stale_bodies_of_one_share_when_asked() {
        let budget = MemoryBudget::new(1 << 30);
        let share = Share::new(1 << 20);
        let mine = register(&budget, 500, Some(share.clone()));
        let other = register(&budget, 5000, None);
        mine.mark_stale();
        other.mark_stale();
        assert_eq!(
            budget.receiving.reset_stale(
                10_000,
                Measure::Reserved,
                Victims {
                    of: Some(&share),
                    holding_more_than: 0
                }
            ),
            500
        );
        assert!(!other.is_reset());
        assert!(mine.is_reset());
    }

    #[test]
    fn a_body_asking_to_be_admitted_takes_only_the_places_of_larger_ones() {
        let budget = MemoryBudget::new(1 << 30);
        let smaller = register(&budget, 500, None);
        let larger = register(&budget, 5000, None);
        smaller.mark_stale();
        larger.mark_stale();
        let newcomer = Victims {
            of: None,
            holding_more_than: 1000,
        };
        assert_eq!(
            budget.receiving.reset_stale(100_000, Measure::Held, newcomer),
            5000
        );
        assert!(larger.is_reset() && !smaller.is_reset());
        assert_eq!(
            budget.receiving.reset_stale(100_000, Measure::Held, newcomer),
            0,
            "none larger left"
        );
        assert_eq!(
            budget
                .receiving
                .reset_stale(100_000, Measure::Held, Victims::default()),
            500,
            "a filtered scan that found nothing is not taken as fruitless"
        );
    }
}
