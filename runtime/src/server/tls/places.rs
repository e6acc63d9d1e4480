//! The cap on handshakes computing at once (`TlsConfig::max_handshakes`).
//!
//! Rules enforced here:
//! - a place is held only while the server computes: rustls does a handshake's costly step
//!   (the server's key share, its signature, its whole first flight) synchronously, when the
//!   configuration is applied to the `ClientHello` (`Accepted::into_connection`, inside
//!   tokio-rustls' `StartHandshake::into_stream`). Waiting for the client's answer holds no
//!   place: that wait is bounded by the handshake's deadline and costs only its connection's
//!   place under `max_connections`, which is closed for room like an idle one. So clients that
//!   send a whole `ClientHello` and then nothing cannot keep a fresh client waiting (an earlier
//!   design held the place until the client's `Finished` and gave a stalled holder's place to a
//!   waiter after a second: fresh clients then queued behind a crowd of such hellos, 23 of 28
//!   answered in `bench/tls_attacks.py --attack tls-stalled-full-hello`);
//! - a handshake with no free place waits for one, first come first served, inside its
//!   deadline. Because the work is synchronous, at most one handshake per worker thread computes
//!   anyway: a limit under the worker count keeps that many workers free for requests during a
//!   flood of handshakes.

use std::sync::Arc;

use tokio::sync::Semaphore;

/// The places (see the module rules).
#[derive(Debug)]
pub(crate) struct Places {
    places: Semaphore,
}

impl Places {
    /// `max` places (at least one).
    pub(crate) fn new(max: usize) -> Arc<Self> {
        Arc::new(Places {
            places: Semaphore::new(max.clamp(1, Semaphore::MAX_PERMITS)),
        })
    }

    /// The places free now.
    pub(crate) fn available(&self) -> usize {
        self.places.available_permits()
    }

    /// Run `work` (a handshake's synchronous costly step) once a place is free.
    pub(crate) async fn compute<T>(&self, work: impl FnOnce() -> T) -> T {
        // The semaphore is never closed, so `acquire` cannot fail; were it closed, computing
        // without the cap is better than refusing every handshake.
        let _place = self.places.acquire().await.ok();
        work()
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_place_lets_one_handshake_compute_at_a_time() {
        let places = Places::new(1);
        let work = |places: Arc<Places>| async move {
            places
                .compute(|| {
                    let started = Instant::now();
                    // Synchronous, as rustls's step is: it keeps its worker thread.
                    std::thread::sleep(Duration::from_millis(100));
                    (started, Instant::now())
                })
                .await
        };
        let first = tokio::spawn(work(places.clone()));
        let second = tokio::spawn(work(places.clone()));
        let (a, b) = (first.await, second.await);
        let (a, b) = match (a, b) {
            (Ok(a), Ok(b)) => (a, b),
            other => panic!("{other:?}"),
        };
        // Two workers could run both at once; the place keeps them apart.
        let apart = a.1 <= b.0 || b.1 <= a.0;
        assert!(apart, "computed at once: {a:?} and {b:?}");
        assert_eq!(places.available(), 1, "the place was not given back");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_places_let_two_compute_at_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let places = Places::new(2);
        let inside = Arc::new(AtomicUsize::new(0));
        let work = |places: Arc<Places>, inside: Arc<AtomicUsize>| async move {
            places
                .compute(|| {
                    inside.fetch_add(1, Ordering::SeqCst);
                    // Wait (bounded) to meet the other inside `compute`.
                    let until = Instant::now() + Duration::from_secs(2);
                    while inside.load(Ordering::SeqCst) < 2 && Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    inside.load(Ordering::SeqCst)
                })
                .await
        };
        let first = tokio::spawn(work(places.clone(), inside.clone()));
        let second = tokio::spawn(work(places.clone(), inside));
        let met = match (first.await, second.await) {
            (Ok(a), Ok(b)) => (a, b),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            met,
            (2, 2),
            "the second place was not given while the first computed"
        );
    }
}
