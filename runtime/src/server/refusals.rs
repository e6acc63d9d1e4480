//! What the server refuses or cuts, counted and reported: one warning a second per reason, with
//! the count, and the app's metrics (`http_refusals{reason}`).
//!
//! Rules enforced here:
//! - counting is one atomic addition (a flood of 367,000 refusals a second must not become a
//!   flood of log lines, nor contend on a lock);
//! - a reporter task wakes once a second and writes one `WARN` line for each reason counted since
//!   its last line, so a refusal is in the log within a second and the log's volume is bounded
//!   (eight lines a second at most), however hard the server is attacked;
//! - the line says what was refused and which limit to raise.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::config::Config;
use crate::dispatch::Service;
use crate::metrics::Refusal;

/// The refusals of one server since its last report.
pub(crate) struct Refusals {
    counts: [AtomicU64; Refusal::ALL.len()],
    service: Service,
    /// The connection limit in force (the configured one may have been lowered at start).
    max_connections: Option<usize>,
}

impl Refusals {
    /// The refusals of the server of `service`, which allows `max_connections`.
    pub(crate) fn new(service: Service, max_connections: Option<usize>) -> Arc<Self> {
        Arc::new(Refusals {
            counts: Default::default(),
            service,
            max_connections,
        })
    }

    /// Count one refusal.
    #[cold]
    pub(crate) fn count(&self, reason: Refusal) {
        if let Some(count) = self.counts.get(reason as usize) {
            count.fetch_add(1, Ordering::Relaxed);
        }
        self.service.count_refusal(reason);
    }

    /// Write one line per reason counted since the last call; returns how many were written.
    pub(crate) fn report(&self) -> usize {
        let config = self.service.config();
        let mut lines = 0;
        for reason in Refusal::ALL {
            let Some(count) = self.counts.get(reason as usize) else {
                continue;
            };
            let n = count.swap(0, Ordering::Relaxed);
            if n > 0 {
                let line = describe(reason, n, config, self.max_connections);
                tracing::warn!(reason = reason.label(), count = n, "{line}");
                lines += 1;
            }
        }
        lines
    }

    /// Report once a second until the returned guard is dropped (also when the server's future
    /// is dropped rather than run to its end).
    pub(crate) fn spawn_reporter(self: &Arc<Self>) -> Reporter {
        let refusals = self.clone();
        Reporter(tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(1));
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                refusals.report();
            }
        }))
    }
}

/// The reporter task of a server; dropping it stops the task.
pub(crate) struct Reporter(tokio::task::JoinHandle<()>);

impl Drop for Reporter {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The warning for `n` refusals of `reason`.
fn describe(reason: Refusal, n: u64, config: &Config, max_connections: Option<usize>) -> String {
    match reason {
        Refusal::Overload => format!(
            "{n} requests answered 503 in the last second: {} requests were in progress (max_concurrency)",
            config.max_concurrency.unwrap_or(usize::MAX)
        ),
        Refusal::BodyTimeout => format!(
            "{n} requests answered 408 in the last second: their body did not arrive in time (body_timeout {:?}, body_min_rate {} bytes/s)",
            config.body_timeout,
            config.body_min_rate.unwrap_or(0)
        ),
        Refusal::WriteTimeout => format!(
            "{n} responses cut in the last second: their client read nothing for {:?} (write_timeout)",
            config.write_timeout
        ),
        Refusal::ConnectionLimit => format!(
            "{n} connections accepted at the limit in the last second: {} connections were open (max_connections); the oldest idle ones make room, or a new one waits while all are busy",
            max_connections.unwrap_or(usize::MAX)
        ),
        Refusal::Evicted => format!(
            "{n} idle connections closed in the last second to make room for new ones at the limit of {} (max_connections)",
            max_connections.unwrap_or(usize::MAX)
        ),
        Refusal::MemoryBudget => format!(
            "{n} requests answered 503 or 413 in the last second: the bodies being read, parsed and written held the memory budget ({} bytes, memory_budget)",
            config.memory_budget.unwrap_or(usize::MAX)
        ),
        Refusal::MemoryReset => format!(
            "{n} request bodies reset in the last second (503, closed): they brought nothing for {:?} while the memory budget ({} bytes, memory_budget) was needed by others",
            crate::budget::STALE_AFTER,
            config.memory_budget.unwrap_or(usize::MAX)
        ),
        Refusal::TlsHandshake => format!(
            "{n} TLS handshakes failed or missed their deadline in the last second (not TLS, nothing in common, or slower than handshake_timeout); their connections were closed"
        ),
        Refusal::Malformed => format!(
            "{n} requests refused with 400 or 501 in the last second: framing or Host headers that HTTP/1.1 does not allow"
        ),
    }
}
