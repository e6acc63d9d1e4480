//! The monotonic clock of log timestamps and request latencies, read as nanoseconds.
//!
//! Rules enforced here:
//! - a reading is a `u64` of nanoseconds on the system's monotonic clock (`CLOCK_MONOTONIC`, the
//!   clock of std's `Instant` on Linux), so a latency, or the distance from a thread's timestamp
//!   anchor, is one integer subtraction: std's `Instant::duration_since` costs ≈ 55 instructions
//!   (its `Duration` is normalised and checked), and a request's access line took two (callgrind,
//!   `GET /item/42`);
//! - readings never go back, and are compared only with readings of this module (an `Instant`
//!   may count from another origin);
//! - on unix the clock is read through `rustix` (the workspace forbids `unsafe`) on its libc
//!   backend: glibc's `clock_gettime`, as std's `Instant::now` (rustix's own backend reads the
//!   auxiliary vector to find the vDSO, and crashes the process under valgrind); elsewhere
//!   through `Instant`, counted from the first reading.

/// Nanoseconds in a second.
pub(crate) const NANOS_PER_SEC: u64 = 1_000_000_000;

/// Now, in nanoseconds on the monotonic clock.
#[cfg(unix)]
#[inline]
pub(crate) fn now() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    // A monotonic reading counts from boot: never negative, and 64-bit nanoseconds last 584
    // years, so plain arithmetic is exact (the checked conversions and saturating operations it
    // replaces cost ≈ 12 instructions a reading, two per observed request, callgrind).
    (t.tv_sec as u64)
        .wrapping_mul(NANOS_PER_SEC)
        .wrapping_add(t.tv_nsec as u64)
}

/// Now, in nanoseconds on the monotonic clock.
#[cfg(not(unix))]
pub(crate) fn now() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    let origin = *ORIGIN.get_or_init(Instant::now);
    let since = Instant::now().saturating_duration_since(origin);
    since
        .as_secs()
        .saturating_mul(NANOS_PER_SEC)
        .saturating_add(u64::from(since.subsec_nanos()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn readings_go_forward_at_the_rate_of_instants() {
        let (first, started) = (now(), Instant::now());
        std::thread::sleep(Duration::from_millis(20));
        let (second, elapsed) = (now(), started.elapsed());
        assert!(second >= first);
        let measured = Duration::from_nanos(second - first);
        assert!(measured >= Duration::from_millis(20), "{measured:?}");
        // Both clocks measured the same sleep: they agree within what two reads apart can differ
        // on a loaded machine (a thread preempted between them), far below what a wrong unit
        // (micro- for nanoseconds: a thousand times off) would show.
        let apart = measured.abs_diff(elapsed);
        assert!(
            apart < Duration::from_millis(500),
            "{measured:?} against {elapsed:?}"
        );
    }
}
