//! Spans exported over OTLP/HTTP with protobuf ([`OtlpExporter`], the `otlp` feature): queued on
//! the request path, batched and posted by one background task to a collector.
//!
//! Its files: `config` ([`OtlpConfig`], the `OTEL_EXPORTER_OTLP_*` and `OTEL_BSP_*` variables),
//! `encode` (spans as OTLP's `ExportTraceServiceRequest`), `worker` (the task that batches and
//! posts).
//!
//! Rules enforced here:
//! - the request path only offers the span to a bounded queue (`try_send`, no lock held, no
//!   wait): when the queue is full the span is dropped and counted
//!   (`otlp_spans_dropped_total{reason="queue_full"}`), so a collector that is down or slow
//!   never slows or fails a request;
//! - one task per exporter sends a batch when it has `max_export_batch_size` spans or when
//!   `schedule_delay` has passed since its first; a batch the collector asks to send again
//!   (429, 502, 503, 504) is sent again after a wait, a few times at most
//!   (`OtlpConfig::retries`; the next batches wait in the queue meanwhile); a batch that fails
//!   otherwise, times out or runs out of retries is dropped and counted
//!   (`reason="export_failed"`);
//! - [`OtlpExporter::shutdown`] sends what is queued, within a deadline; what is left then is
//!   counted (`reason="shutdown"`);
//! - only sampled requests reach it: an unsampled one never builds a span (see `SpanRecord`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

mod config;
mod encode;
#[cfg(feature = "otlp-tls")]
mod tls;
mod worker;

pub use config::OtlpConfig;
// What the metrics exporter (`metrics::otlp`) shares with the spans': the resource's and the
// scope's form, and the post.
pub(crate) use encode::{key_value, resource_of, scope, unix_nanos};
pub(crate) use worker::{export_client, post, stop_task, ExportClient};

use super::{SpanExporter, SpanRecord};

/// The labels of the drop counter: why spans were dropped.
type Reason = [(&'static str, &'static str); 1];

/// The exporter's counters, shared by the request path and its task.
#[derive(Clone, Default)]
pub(super) struct Counters {
    dropped: Family<Reason, Counter>,
    exported: Counter,
    /// Batches sent again because the collector asked (`OtlpConfig::retries`).
    retries: Counter,
}

impl Counters {
    /// The drop counter of `reason`.
    fn dropped(&self, reason: &'static str) -> Counter {
        self.dropped.get_or_create_owned(&[("reason", reason)])
    }
}

/// A [`SpanExporter`] that sends spans to an OpenTelemetry collector over OTLP/HTTP (protobuf),
/// batched off the request path (see the module rules). Cheap to clone: clones share the queue
/// and the task. Give one to `Tracing::exporter`, keep one to [`shutdown`](Self::shutdown).
#[derive(Clone)]
pub struct OtlpExporter {
    inner: Arc<Inner>,
}

/// What the clones share.
struct Inner {
    queue: mpsc::Sender<SpanRecord>,
    /// Taken out once, when it is counted on the request path (no lookup in the family there).
    queue_full: Counter,
    closed: Counter,
    counters: Counters,
    stop: CancellationToken,
    task: Mutex<Option<JoinHandle<()>>>,
}

impl OtlpExporter {
    /// An exporter sending as `config` says, its task started on the current tokio runtime; an
    /// error when called outside one, or when its TLS files cannot be used.
    pub fn start(config: OtlpConfig) -> Result<Self, String> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "the OTLP exporter needs a tokio runtime to run its task in".to_owned())?;
        let client = worker::export_client(&config)?;
        let (queue, receiver) = mpsc::channel(config.max_queue_size);
        let counters = Counters::default();
        let stop = CancellationToken::new();
        let task = runtime.spawn(worker::run(
            (config, client),
            receiver,
            counters.clone(),
            stop.clone(),
        ));
        Ok(OtlpExporter {
            inner: Arc::new(Inner {
                queue,
                queue_full: counters.dropped("queue_full"),
                closed: counters.dropped("shutdown"),
                counters,
                stop,
                task: Mutex::new(Some(task)),
            }),
        })
    }

    /// Register its counters in `registry` (`App::metrics`' `Metrics::registry`):
    /// `otlp_spans_exported_total`, `otlp_export_retries_total` and
    /// `otlp_spans_dropped_total{reason}` (`queue_full`, `export_failed`, `shutdown`).
    pub fn register(&self, registry: &mut Registry) {
        let counters = &self.inner.counters;
        registry.register(
            "otlp_spans_exported",
            "Spans a collector accepted over OTLP",
            counters.exported.clone(),
        );
        registry.register(
            "otlp_export_retries",
            "OTLP exports sent again because the collector answered 429, 502, 503 or 504",
            counters.retries.clone(),
        );
        registry.register(
            "otlp_spans_dropped",
            "Spans not exported over OTLP, by reason: the queue full, an export failed or timed out, or left at shutdown",
            counters.dropped.clone(),
        );
    }

    /// Spans a collector accepted so far.
    pub fn exported(&self) -> u64 {
        self.inner.counters.exported.get()
    }

    /// Exports sent again so far because the collector asked (see [`OtlpConfig::retries`]).
    pub fn retries(&self) -> u64 {
        self.inner.counters.retries.get()
    }

    /// Spans dropped so far for `reason` (`queue_full`, `export_failed`, `shutdown`).
    pub fn dropped(&self, reason: &'static str) -> u64 {
        self.inner.counters.dropped(reason).get()
    }

    /// Send what is queued and stop the task, waiting at most `deadline`; spans still queued
    /// then, and any offered later, are counted as dropped (`reason="shutdown"`). Call it once
    /// the server has stopped.
    pub async fn shutdown(&self, deadline: Duration) {
        self.inner.stop.cancel();
        if !worker::stop_task(&self.inner.task, deadline).await {
            tracing::warn!("OTLP exporter: spans still queued after {deadline:?} were dropped");
        }
        // What the task left behind, and what arrives from now on, is counted as dropped.
        let left = self.inner.queue.max_capacity() - self.inner.queue.capacity();
        self.inner.closed.inc_by(left as u64);
    }
}

impl SpanExporter for OtlpExporter {
    #[inline]
    fn export(&self, span: SpanRecord) {
        if self.inner.stop.is_cancelled() {
            self.inner.closed.inc();
            return;
        }
        match self.inner.queue.try_send(span) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.inner.queue_full.inc();
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.inner.closed.inc();
            }
        }
    }
}
