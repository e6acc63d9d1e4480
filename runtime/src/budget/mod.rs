//! The memory budget: the bytes clients can make the process hold in request bodies (read, and
//! parsed) and in response bodies not yet written, counted against one limit
//! ([`Config::memory_budget`](crate::Config::memory_budget)).
//!
//! A limit on the *count* of requests is not a limit on their memory: 32 requests with 1 MiB
//! JSON bodies nested 120 deep held 2.6 GiB before this budget (each JSON value is a heap node).
//! So every such byte is charged here before it is taken, and given back when it is freed. Its
//! files: `receiving` (the bodies still being received, which give the budget back when they do
//! not progress) and `wait` (how long a request waits for room).
//!
//! Rules enforced here:
//! - a charge is taken *before* the memory it counts: each frame of a body before it is kept, a
//!   JSON body's parse (what its tree can cost, `validate/json_tree.rs`) before it is parsed, a
//!   response's bytes before they are handed to the connection;
//! - a charge that does not fit is refused ([`OverBudget`]): the caller answers 413 when the
//!   request alone needs more than the whole budget, else 503 with `Retry-After` (the memory is
//!   in use by others, and will be given back);
//! - a refused charge first takes the budget back from whoever does not progress: bodies still
//!   being received that brought nothing for a second are reset, largest first, until the charge
//!   and some headroom ([`MemoryBudget::headroom`]) fit once they are freed (`receiving.rs`);
//!   a caller that can wait (a body being read, [`Memory::reserve`](crate::memory::Memory))
//!   then waits for the freed bytes, a bounded time (`wait.rs`), before its 503;
//! - a charge is given back when what it counts is freed, whatever way that happens (it is a
//!   guard: dropping it gives its bytes back);
//! - counting is one atomic addition (and a subtraction when it does not fit): no lock, no
//!   allocation, and an app without a budget carries no charge at all; the registry of bodies
//!   is touched only by bodies that wait and by refused charges.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

mod receiving;
mod wait;

use receiving::{Full, Measure, Receiving, Victims};
pub(crate) use receiving::{Registration, Share, STALE_AFTER};
pub(crate) use wait::RoomWait;
#[cfg(test)]
pub(crate) use wait::WAIT_FOR_ROOM;

/// The process's budget of bytes held for clients (one per served app).
#[derive(Debug)]
pub(crate) struct MemoryBudget {
    limit: usize,
    used: AtomicUsize,
    /// Bytes held, uncharged, by requests waiting for room (at most [`MemoryBudget::headroom`]).
    waiting: AtomicUsize,
    /// The bodies still being received that hold some of it.
    receiving: Receiving,
}

/// Why a charge was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverBudget {
    /// The request alone needs more than the whole budget: it can never be served (413).
    TooLarge,
    /// The budget is in use by other requests and responses now (503, retry shortly).
    Busy,
}

impl MemoryBudget {
    /// A budget of `limit` bytes.
    pub(crate) fn new(limit: usize) -> Arc<Self> {
        Arc::new(MemoryBudget {
            limit,
            used: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            receiving: Receiving::new(limit),
        })
    }

    /// Bytes charged now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Take `bytes`, if they fit (or can be claimed from bodies being reset to make room).
    #[inline]
    fn take(&self, bytes: usize) -> Result<(), OverBudget> {
        if bytes > self.limit {
            return Err(OverBudget::TooLarge);
        }
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.give_back(bytes);
            return self.pressed(bytes);
        }
        Ok(())
    }

    /// Let a request wait for room for `bytes` (what it holds uncharged meanwhile, or will ask
    /// for), if what all waiting requests need stays within the headroom: a request that waits
    /// stays alive, with what it holds that no charge counts, so waiting is bounded too (with
    /// every refused reservation waiting, 96 clients took a 4 MiB budget's process 6.2 MiB above
    /// idle, against 2.2 refused at once); past it, the request is refused at once.
    pub(crate) fn wait_for(budget: &Arc<Self>, bytes: usize) -> Option<Waiting> {
        let before = budget.waiting.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > budget.headroom() {
            budget.waiting.fetch_sub(bytes, Ordering::Relaxed);
            return None;
        }
        Some(Waiting {
            budget: budget.clone(),
            bytes,
        })
    }

    /// What a charge that frees room asks beyond its own bytes: one sixteenth of the budget, so
    /// the charges that follow it (a body's parse after the body) fit too.
    pub(crate) fn headroom(&self) -> usize {
        self.limit / 16
    }

    /// A charge of `bytes` did not fit: reset stale bodies until it and the headroom will, and
    /// take it from what they free, if they free enough.
    #[cold]
    #[inline(never)]
    fn pressed(&self, bytes: usize) -> Result<(), OverBudget> {
        let free = self.limit.saturating_sub(self.used.load(Ordering::Relaxed));
        let coming = free.saturating_add(self.receiving.unclaimed(Measure::Held));
        let to_free = bytes.saturating_add(self.headroom()).saturating_sub(coming);
        if to_free > 0 {
            self.receiving
                .reset_stale(to_free, Measure::Held, Victims::default());
        }
        if self.receiving.claim(Measure::Held, bytes) {
            self.used.fetch_add(bytes, Ordering::Relaxed);
            return Ok(());
        }
        Err(OverBudget::Busy)
    }

    /// Whether `bytes` more can be had soon: free now, or on their way back from bodies being
    /// reset (stale ones are reset for them here, unclaimed: the charges as the bytes arrive
    /// claim them).
    #[cold]
    #[inline(never)]
    fn room_coming(&self, bytes: usize) -> bool {
        let coming = |this: &Self| {
            this.limit
                .saturating_sub(this.used.load(Ordering::Relaxed))
                .saturating_add(this.receiving.unclaimed(Measure::Held))
        };
        if coming(self) >= bytes {
            return true;
        }
        let to_free = bytes.saturating_add(self.headroom()).saturating_sub(coming(self));
        self.receiving
            .reset_stale(to_free, Measure::Held, Victims::default());
        coming(self) >= bytes
    }

    /// A body holding `holds` bytes could not reserve `bytes` because `full`: reset stale bodies
    /// holding more than it (of its connection, when its share is full) so that it will; true
    /// when it may take them now, claimed from what the resets free (the registered bodies' part
    /// only: a connection's share is waited for).
    #[cold]
    #[inline(never)]
    fn reservation_full(
        &self,
        full: Full,
        (bytes, holds): (usize, usize),
        share: Option<&Arc<Share>>,
    ) -> bool {
        match (full, share) {
            (Full::Share, Some(share)) => {
                let victims = Victims {
                    of: Some(share),
                    holding_more_than: holds,
                };
                self.receiving.reset_stale(bytes, Measure::Reserved, victims);
                false
            }
            _ => {
                let coming = self
                    .receiving
                    .room()
                    .saturating_add(self.receiving.unclaimed(Measure::Reserved));
                let to_free = bytes.saturating_add(self.headroom()).saturating_sub(coming);
                if to_free > 0 {
                    let victims = Victims {
                        of: None,
                        holding_more_than: holds,
                    };
                    self.receiving.reset_stale(to_free, Measure::Reserved, victims);
                }
                self.receiving.claim(Measure::Reserved, bytes)
            }
        }
    }

    #[inline]
    fn give_back(&self, bytes: usize) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// Bytes held against a [`MemoryBudget`] for one request or response: given back when dropped.
/// It can grow (a body's next frame, then its parse) through a shared reference, so a request's
/// extraction can charge its parse while the dispatcher owns the charge.
#[derive(Debug)]
pub(crate) struct Charge {
    budget: Arc<MemoryBudget>,
    held: AtomicUsize,
}

impl Charge {
    /// A charge of nothing yet, against `budget`.
    #[inline]
    pub(crate) fn new(budget: &Arc<MemoryBudget>) -> Self {
        Charge {
            budget: budget.clone(),
            held: AtomicUsize::new(0),
        }
    }

    /// A charge of `bytes` against `budget`, if they fit.
    #[inline]
    pub(crate) fn of(budget: &Arc<MemoryBudget>, bytes: usize) -> Result<Self, OverBudget> {
        let charge = Charge::new(budget);
        charge.grow(bytes)?;
        Ok(charge)
    }

    /// Whether `bytes` more can be had soon (free, or freed by stale bodies reset for them),
    /// taking nothing: a large body is refused before it is read when they cannot.
    pub(crate) fn room_coming(&self, bytes: usize) -> bool {
        self.budget.room_coming(bytes)
    }

    /// Whether `bytes` more would fit now, taking nothing (a request refused before it is read).
    #[inline]
    pub(crate) fn fits(&self, bytes: usize) -> Result<(), OverBudget> {
        let held = self.held.load(Ordering::Relaxed);
        if held.saturating_add(bytes) > self.budget.limit {
            return Err(OverBudget::TooLarge);
        }
        let used = self.budget.used.load(Ordering::Relaxed);
        if used.saturating_add(bytes) > self.budget.limit {
            return Err(OverBudget::Busy);
        }
        Ok(())
    }

    /// Hold `bytes` more, if they fit (the whole request's charge counts toward "too large").
    #[inline]
    pub(crate) fn grow(&self, bytes: usize) -> Result<(), OverBudget> {
        let held = self.held.load(Ordering::Relaxed);
        if held.saturating_add(bytes) > self.budget.limit {
            return Err(OverBudget::TooLarge);
        }
        self.budget.take(bytes)?;
        self.held.store(held + bytes, Ordering::Relaxed);
        Ok(())
    }

    /// Bytes held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// Wait for room for `bytes` (holding them uncharged meanwhile, or about to ask for them),
    /// if the budget lets one more wait ([`MemoryBudget::wait_for`]).
    pub(crate) fn wait_holding(&self, bytes: usize) -> Option<Waiting> {
        MemoryBudget::wait_for(&self.budget, bytes)
    }

    /// Register the body this charge holds `held` bytes of as still being received (of a
    /// connection with `share`, when it has one): see `receiving.rs`. It is read on once
    /// [`admit`](Self::admit)ted.
    pub(crate) fn register(&self, held: usize, share: Option<Arc<Share>>) -> Registration {
        Receiving::register(&self.budget, held, share)
    }

    /// Admit the registered body of `registration`, declared `declared` bytes long: it reserves
    /// that length (or what it holds, when larger or undeclared). Refused while bodies that
    /// asked before it wait, or while the part of the budget for bodies being received (or the
    /// connection's share) has no room even after stale bodies were reset (503: wait and try
    /// again), or when it never could have (413).
    pub(crate) fn admit(
        &self,
        registration: &Registration,
        declared: Option<usize>,
    ) -> Result<(), OverBudget> {
        let held = registration.held();
        let reserve = held.max(declared.unwrap_or(0));
        let full = match registration.admit(reserve, false) {
            Ok(()) => return Ok(()),
            Err(Full::Alone) => return Err(OverBudget::TooLarge),
            Err(Full::Behind) => return Err(OverBudget::Busy),
            Err(full) => full,
        };
        if !self
            .budget
            .reservation_full(full, (reserve, held), registration.share())
        {
            return Err(OverBudget::Busy);
        }
        registration.admit(reserve, true).map_err(|_| OverBudget::Busy)
    }

    /// Hold `bytes` more for the registered body of `registration`: what goes beyond its
    /// reservation is reserved first, and refused as [`register`](Self::register) is.
    pub(crate) fn grow_received(&self, registration: &Registration, bytes: usize) -> Result<(), OverBudget> {
        let held = self.held.load(Ordering::Relaxed);
        if held.saturating_add(bytes) > self.budget.limit {
            return Err(OverBudget::TooLarge);
        }
        let beyond = registration.beyond_reservation(bytes);
        if beyond > 0 {
            match registration.reserve_more(beyond, false) {
                Ok(()) => {}
                Err(Full::Alone) => return Err(OverBudget::TooLarge),
                Err(full) => {
                    // A body already admitted (growing past its declared length, or without
                    // one) may take the place of any stale body.
                    if !self
                        .budget
                        .reservation_full(full, (beyond, 0), registration.share())
                    {
                        return Err(OverBudget::Busy);
                    }
                    registration
                        .reserve_more(beyond, true)
                        .map_err(|_| OverBudget::TooLarge)?;
                }
            }
        }
        match self.grow(bytes) {
            Ok(()) => {
                registration.holds_more(bytes);
                Ok(())
            }
            Err(refused) => {
                registration.unreserve(beyond);
                Err(refused)
            }
        }
    }
}

/// Bytes a request holds, uncharged, while it waits for room: given back to the bound of what
/// waits when dropped.
#[derive(Debug)]
pub(crate) struct Waiting {
    budget: Arc<MemoryBudget>,
    bytes: usize,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        self.budget.waiting.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}

impl Drop for Charge {
    #[inline]
    fn drop(&mut self) {
        let held = *self.held.get_mut();
        if held > 0 {
            self.budget.give_back(held);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_fit_until_the_budget_is_used_and_come_back_when_dropped() {
        let budget = MemoryBudget::new(100);
        let first = Charge::of(&budget, 60).unwrap();
        assert_eq!(budget.used(), 60);
        assert_eq!(Charge::of(&budget, 50).err(), Some(OverBudget::Busy));
        assert_eq!(budget.used(), 60, "a refused charge takes nothing");
        let second = Charge::of(&budget, 40).unwrap();
        assert_eq!(budget.used(), 100);
        drop(first);
        assert_eq!(budget.used(), 40);
        drop(second);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn fits_takes_nothing() {
        let budget = MemoryBudget::new(100);
        let held = Charge::of(&budget, 60).unwrap();
        let probe = Charge::new(&budget);
        assert_eq!(probe.fits(40), Ok(()));
        assert_eq!(probe.fits(41), Err(OverBudget::Busy));
        assert_eq!(probe.fits(101), Err(OverBudget::TooLarge));
        assert_eq!(budget.used(), 60);
        drop(held);
    }

    #[test]
    fn more_than_the_whole_budget_is_too_large_whatever_else_is_held() {
        let budget = MemoryBudget::new(100);
        assert_eq!(Charge::of(&budget, 101).err(), Some(OverBudget::TooLarge));
        let charge = Charge::of(&budget, 70).unwrap();
        // The same request growing past the whole budget: too large, not busy.
        assert_eq!(charge.grow(31), Err(OverBudget::TooLarge));
        assert_eq!(charge.grow(30), Ok(()));
        assert_eq!((charge.held(), budget.used()), (100, 100));
        drop(charge);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn a_charge_that_does_not_fit_takes_what_the_stale_bodies_it_resets_are_freeing() {
        let budget = MemoryBudget::new(1000);
        // A body that waited holds 600 (registered), and brought nothing for an hour.
        let victim = Charge::of(&budget, 600).unwrap();
        let registration = victim.register(600, None);
        registration.mark_stale();
        // 600 more do not fit: the stale body is reset, and its bytes are claimed at once.
        let newcomer = Charge::of(&budget, 600).expect("claimed from the reset body");
        assert!(registration.is_reset());
        assert_eq!(budget.used(), 1200, "over the limit until the victim drops");
        // Nothing more is on its way: the next charge is refused.
        assert_eq!(Charge::of(&budget, 300).err(), Some(OverBudget::Busy));
        drop((registration, victim));
        assert_eq!(budget.used(), 600);
        drop(newcomer);
        assert_eq!(budget.used(), 0);
    }

    #[test]
    fn a_body_reserves_its_declared_length_once_and_grows_within_it() {
        let budget = MemoryBudget::new(1000);
        let (stale, steady) = (Charge::new(&budget), Charge::new(&budget));
        // 500 of the registered bodies' 750 reserved by a body that will stall.
        let stale_reg = stale.register(0, None);
        assert_eq!(stale.admit(&stale_reg, Some(500)), Ok(()));
        assert_eq!(stale.grow_received(&stale_reg, 400), Ok(()));
        let steady_reg = steady.register(0, None);
        assert_eq!(
            steady.admit(&steady_reg, Some(300)),
            Err(OverBudget::Busy),
            "past 750: refused while the other progresses"
        );
        let too_large = steady.register(0, None);
        assert_eq!(
            steady.admit(&too_large, Some(800)),
            Err(OverBudget::TooLarge),
            "alone past 750"
        );
        stale_reg.mark_stale();
        // (A scan that found nothing is trusted for a moment.)
        std::thread::sleep(receiving::RESCAN_AFTER + std::time::Duration::from_millis(5));
        assert_eq!(
            steady.admit(&steady_reg, Some(300)),
            Ok(()),
            "claimed from the stale one"
        );
        assert!(stale_reg.is_reset());
        // Admitted, it grows to its declared length without meeting the others again.
        for _ in 0..3 {
            assert_eq!(steady.grow_received(&steady_reg, 100), Ok(()));
        }
        assert_eq!(steady.held(), 300);
        drop((stale_reg, stale));
        assert_eq!(budget.used(), 300);
    }

    #[test]
    fn concurrent_charges_never_pass_the_limit() {
        let budget = MemoryBudget::new(1000);
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let budget = budget.clone();
                std::thread::spawn(move || {
                    for _ in 0..10_000 {
                        if let Ok(charge) = Charge::of(&budget, 300) {
                            assert!(
                                budget.used() <= 1000 + 3 * 300,
                                "transiently over by refused charges only"
                            );
                            drop(charge);
                        }
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(budget.used(), 0);
    }
}
