//! The memory budget as a route argument ([`Memory`]): a route about to hold a large value the
//! request did not bring (a stored document it will answer, a file it loads) asks the budget
//! first, so a request the budget has no room for is refused before the value is loaded, not
//! after (when only its answer could be refused, and every refused read had loaded it anyway).
//!
//! Rules enforced here:
//! - [`Memory::reserve`] charges the budget and holds the charge until the returned
//!   [`Reserved`] is dropped (at the latest when the route's future ends, before its answer is
//!   charged in turn); when the budget has no room now, bodies that do not progress are reset to
//!   make some (`budget/receiving.rs`) and the reservation waits for their bytes, at most
//!   200 ms (while what all waiting requests ask stays within a sixteenth of the budget: past
//!   it, refused at once); a reservation that still does not fit is [`NoRoom`], answered as the budget answers
//!   (503 with `Retry-After: 1`, or 413 when it is more than the whole budget) and counted with
//!   the budget's refusals. [`Memory::try_reserve`] does not wait;
//! - in an app without a budget every reservation succeeds and holds nothing;
//! - it is injected: it documents nothing, and a route that does not take it pays nothing.

use std::sync::Arc;

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use crate::budget::{Charge, MemoryBudget, OverBudget, RoomWait, Waiting};
use crate::response::{over_budget, IntoResponse, Response};
use crate::validate::ValidationErrors;

/// The server's memory budget ([`App::memory_budget`](crate::App::memory_budget)), as a route
/// sees it: ask it for room before loading something large.
///
/// ```
/// use ferrapi::memory::Memory;
/// use ferrapi::prelude::*;
///
/// /// A report of up to 1 MiB, loaded only when the server has room for it.
/// #[get("/report")]
/// async fn report(memory: Memory) -> Response {
///     let _room = match memory.reserve(1 << 20).await {
///         Ok(room) => room,
///         Err(refused) => return refused.into_response(),
///     };
///     "x".repeat(1 << 20).into_response()
/// }
///
/// let app = App::new().routes(routes![report]).memory_budget(Some(512 * 1024));
/// let client = ferrapi::testing::TestClient::new(app);
/// // More than the whole budget: never served.
/// assert_eq!(client.get("/report").send_blocking().status(), 413);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Memory {
    budget: Option<Arc<MemoryBudget>>,
}

/// Room held in the memory budget, given back when dropped.
#[derive(Debug)]
#[must_use = "the room is given back as soon as this is dropped"]
pub struct Reserved {
    _charge: Option<Charge>,
}

/// A reservation the memory budget has no room for: answered 503 with `Retry-After: 1` (or 413
/// when it is more than the whole budget), like the budget's other refusals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoRoom(OverBudget);

impl NoRoom {
    /// True when no retry can help: more was asked than the whole budget.
    pub fn is_too_large(&self) -> bool {
        self.0 == OverBudget::TooLarge
    }
}

impl std::fmt::Display for NoRoom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            OverBudget::TooLarge => f.write_str("more memory asked than the whole budget"),
            OverBudget::Busy => f.write_str("the memory budget has no room now"),
        }
    }
}

impl std::error::Error for NoRoom {}

impl IntoResponse for NoRoom {
    fn into_response(self) -> Response {
        over_budget(self.0)
    }
}

impl Memory {
    /// The budget of the app serving `cx` (an argument that reserves on its route's behalf: an
    /// idempotency key reserves room for the answer it may replay or keep).
    pub(crate) fn of(cx: &RequestCx<'_>) -> Self {
        Memory {
            budget: cx.budget.cloned(),
        }
    }

    /// Hold `bytes` of the budget until the returned [`Reserved`] is dropped. When the budget
    /// has no room now, room is made by resetting bodies that do not progress, and this waits
    /// for it (at most 200 ms) before [`NoRoom`].
    pub async fn reserve(&self, bytes: usize) -> Result<Reserved, NoRoom> {
        let Some(budget) = &self.budget else {
            return Ok(Reserved { _charge: None });
        };
        let mut wait: Option<(RoomWait, Waiting)> = None;
        loop {
            match Charge::of(budget, bytes) {
                Ok(charge) => {
                    return Ok(Reserved {
                        _charge: Some(charge),
                    })
                }
                Err(OverBudget::Busy) => {
                    if wait.is_none() {
                        // Too many already wait: refused at once.
                        let waiting =
                            MemoryBudget::wait_for(budget, bytes).ok_or(NoRoom(OverBudget::Busy))?;
                        wait = Some((RoomWait::new(), waiting));
                    }
                    let Some((room, _)) = &mut wait else {
                        return Err(NoRoom(OverBudget::Busy));
                    };
                    if !std::future::poll_fn(|cx| room.poll_retry(cx)).await {
                        return Err(NoRoom(OverBudget::Busy));
                    }
                }
                Err(refused) => return Err(NoRoom(refused)),
            }
        }
    }

    /// Hold `bytes` of the budget until the returned [`Reserved`] is dropped, or [`NoRoom`] at
    /// once (no wait: see [`reserve`](Self::reserve)).
    pub fn try_reserve(&self, bytes: usize) -> Result<Reserved, NoRoom> {
        match &self.budget {
            None => Ok(Reserved { _charge: None }),
            Some(budget) => Charge::of(budget, bytes)
                .map(|charge| Reserved {
                    _charge: Some(charge),
                })
                .map_err(NoRoom),
        }
    }
}

impl Extract for Memory {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(Memory::of(cx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reservation_holds_its_room_until_dropped() {
        let budget = MemoryBudget::new(1000);
        let memory = Memory {
            budget: Some(budget.clone()),
        };
        let room = memory.try_reserve(600).unwrap();
        assert_eq!(budget.used(), 600);
        let refused = memory.try_reserve(600).unwrap_err();
        assert!(!refused.is_too_large());
        assert_eq!(refused.into_response().status(), 503);
        assert!(memory.try_reserve(1001).unwrap_err().is_too_large());
        drop(room);
        assert_eq!(budget.used(), 0);
        assert!(
            Memory::default().try_reserve(usize::MAX).is_ok(),
            "no budget: always room"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_reservation_waits_a_bounded_time_for_room_given_back() {
        // A headroom of 1,000 bytes: what waiting reservations ask together.
        let budget = MemoryBudget::new(16_000);
        let memory = Memory {
            budget: Some(budget.clone()),
        };
        let held = memory.try_reserve(15_500).unwrap();
        let start = tokio::time::Instant::now();
        let refused = memory.reserve(1_001).await.unwrap_err();
        assert!(!refused.is_too_large());
        assert_eq!(
            start.elapsed(),
            std::time::Duration::ZERO,
            "more than may wait: refused at once"
        );
        let refused = memory.reserve(1_000).await.unwrap_err();
        assert!(!refused.is_too_large());
        assert_eq!(
            start.elapsed(),
            crate::budget::WAIT_FOR_ROOM,
            "waited, then refused"
        );
        // Room given back while a reservation waits: it gets it.
        let waiting = tokio::spawn({
            let memory = memory.clone();
            async move { memory.reserve(1_000).await.map(|_| ()) }
        });
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        drop(held);
        assert_eq!(waiting.await.ok(), Some(Ok(())));
        assert!(
            memory.reserve(16_001).await.unwrap_err().is_too_large(),
            "never waits"
        );
    }
}
