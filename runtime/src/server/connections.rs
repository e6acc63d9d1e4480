//! The connection limit: the server never accepts more connections than it can hold descriptors
//! for.
//!
//! Rules enforced here:
//! - at most `max_connections` connections are open at once; at the limit the accept loop waits
//!   for one to close (new clients wait in the kernel's listen backlog) instead of accepting and
//!   failing with "Too many open files" (observed: ~20,000 idle HTTP/2 connections exhausted the
//!   descriptors and fresh clients timed out for ~25 s);
//! - the limit in force is the configured one, lowered to three quarters of the process's
//!   descriptor limit when that is smaller (stores, files and uploads need descriptors too); the
//!   start-up log says when it was lowered;
//! - a connection's place is taken before `accept` and given back when its task ends, whatever
//!   way it ends.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The places of open connections.
#[derive(Clone)]
pub(crate) struct ConnLimit {
    places: Arc<Semaphore>,
}

/// One open connection's place.
pub(crate) type ConnPlace = OwnedSemaphorePermit;

impl ConnLimit {
    /// A limit of `limit` connections.
    pub(crate) fn new(limit: usize) -> Self {
        ConnLimit {
            places: Arc::new(Semaphore::new(limit.min(Semaphore::MAX_PERMITS))),
        }
    }

    /// A place at once, if one is free.
    pub(crate) fn try_take(&self) -> Option<ConnPlace> {
        self.places.clone().try_acquire_owned().ok()
    }

    /// A place, when one is free.
    pub(crate) async fn take(&self) -> Option<ConnPlace> {
        self.places.clone().acquire_owned().await.ok()
    }
}

/// The limit in force for `configured` (see the module rules), logged when lowered.
pub(crate) fn limit_in_force(configured: Option<usize>) -> Option<usize> {
    let configured = configured?;
    let Some(descriptors) = descriptor_limit() else {
        return Some(configured);
    };
    let allowed = usize::try_from(descriptors / 4 * 3).unwrap_or(usize::MAX).max(1);
    if allowed < configured {
        tracing::info!(
            "connection limit lowered from {configured} to {allowed}: the process may open {descriptors} file descriptors (raise it with `ulimit -n`)"
        );
        return Some(allowed);
    }
    Some(configured)
}

/// The process's soft limit of open files, where the system tells it (Linux).
fn descriptor_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    parse_open_files(&limits)
}

/// The soft "Max open files" of a `/proc/<pid>/limits` text; `None` when unlimited or absent.
fn parse_open_files(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|line| line.starts_with("Max open files"))?;
    let soft = line.strip_prefix("Max open files")?.split_whitespace().next()?;
    soft.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_limit_is_read_from_proc_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max cpu time              unlimited            unlimited            seconds   \n\
                    Max open files            1024                 524288               files     \n";
        assert_eq!(parse_open_files(text), Some(1024));
        let unlimited = "Max open files            unlimited            unlimited            files\n";
        assert_eq!(parse_open_files(unlimited), None);
        assert_eq!(parse_open_files("nothing here"), None);
    }

    #[test]
    fn the_limit_in_force_never_exceeds_three_quarters_of_the_descriptors() {
        let Some(descriptors) = descriptor_limit() else {
            return;
        };
        let limit = limit_in_force(Some(usize::MAX)).unwrap_or(usize::MAX) as u64;
        assert!(limit <= descriptors / 4 * 3 + 1, "{limit} of {descriptors}");
        assert_eq!(limit_in_force(Some(10)), Some(10));
        assert_eq!(limit_in_force(None), None);
    }

    #[tokio::test]
    async fn places_come_back_when_released() {
        let limit = ConnLimit::new(1);
        let place = limit.try_take();
        assert!(place.is_some());
        assert!(limit.try_take().is_none());
        drop(place);
        assert!(limit.take().await.is_some());
    }
}
