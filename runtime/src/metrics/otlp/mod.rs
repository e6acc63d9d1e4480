//! The request metrics exported over OTLP/HTTP with protobuf ([`MetricsExporter`], the `otlp`
//! feature): `http.server.request.duration` and `http.server.active_requests`, read from the
//! framework's own metrics (the ones `/metrics` serves) by one background task and posted to a
//! collector's `/v1/metrics`.
//!
//! Rules enforced here:
//! - the request path does nothing for it: the task reads the atomic counts every
//!   `OTEL_METRIC_EXPORT_INTERVAL` (default 60 s, [`OtlpConfig::export_interval`]), so a
//!   collector that is down or slow never slows or fails a request;
//! - the counts are cumulative, so an export that fails (any answer but 2xx, a refused
//!   connection, no answer within the timeout) is counted and not retried: the next one carries
//!   everything it held;
//! - the resource is the one the traces name (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`),
//!   so a collector joins the two;
//! - [`MetricsExporter::shutdown`] sends one last export, within a deadline.

use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use opentelemetry_proto::tonic::resource::v1::Resource as ProtoResource;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::registry::Registry;
use prost::Message;
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;

use super::{Metrics, Shared};
use crate::trace::otlp::{export_client, post, resource_of, stop_task, ExportClient, OtlpConfig};
use crate::trace::Resource;

mod encode;

/// Sends an app's request metrics to an OpenTelemetry collector over OTLP/HTTP (protobuf),
/// periodically, from a task of its own (see the module rules). Start it with the [`Metrics`]
/// given to `App::metrics`; cheap to clone.
///
/// ```no_run
/// # async fn run() -> Result<(), String> {
/// use ferrapi::metrics::{otlp::MetricsExporter, Metrics};
/// use ferrapi::trace::{otlp::OtlpConfig, Resource};
///
/// let metrics = Metrics::new();
/// let exporter = MetricsExporter::start(&metrics, OtlpConfig::metrics_from_env(), Resource::from_env())?;
/// let app = ferrapi::App::new().metrics(metrics);
/// // … serve the app; once it has stopped:
/// exporter.shutdown(std::time::Duration::from_secs(5)).await;
/// # let _ = app;
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct MetricsExporter {
    inner: Arc<Inner>,
}

/// What the clones share.
struct Inner {
    counters: Counters,
    stop: CancellationToken,
    task: Mutex<Option<JoinHandle<()>>>,
}

/// The exporter's outcomes.
#[derive(Clone, Default)]
struct Counters {
    exported: Counter,
    failed: Counter,
}

/// What the task needs to make and send an export.
struct Sender {
    shared: Shared,
    resource: ProtoResource,
    config: OtlpConfig,
    client: ExportClient,
    counters: Counters,
}

impl MetricsExporter {
    /// An exporter reading `metrics`' request metrics and sending them as `config` says (its
    /// endpoint, headers, timeout and export interval: [`OtlpConfig::metrics_from_env`]),
    /// under `resource`; its task started on the current tokio runtime (an error outside one,
    /// or when its TLS files cannot be used).
    pub fn start(metrics: &Metrics, config: OtlpConfig, resource: Resource) -> Result<Self, String> {
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "the OTLP metrics exporter needs a tokio runtime to run its task in".to_owned())?;
        let counters = Counters::default();
        let stop = CancellationToken::new();
        let sender = Sender {
            shared: metrics.shared.clone(),
            resource: resource_of(&resource),
            client: export_client(&config)?,
            config,
            counters: counters.clone(),
        };
        let task = runtime.spawn(run(sender, stop.clone()));
        Ok(MetricsExporter {
            inner: Arc::new(Inner {
                counters,
                stop,
                task: Mutex::new(Some(task)),
            }),
        })
    }

    /// Register its counters in `registry` (`App::metrics`' `Metrics::registry`):
    /// `otlp_metric_exports_total` and `otlp_metric_exports_failed_total`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "otlp_metric_exports",
            "Metric exports a collector accepted over OTLP",
            self.inner.counters.exported.clone(),
        );
        registry.register(
            "otlp_metric_exports_failed",
            "Metric exports over OTLP that failed or timed out (the next one carries their counts)",
            self.inner.counters.failed.clone(),
        );
    }

    /// Exports a collector accepted so far.
    pub fn exported(&self) -> u64 {
        self.inner.counters.exported.get()
    }

    /// Exports that failed so far.
    pub fn failed(&self) -> u64 {
        self.inner.counters.failed.get()
    }

    /// Send the metrics one last time and stop the task, waiting at most `deadline`. Call it
    /// once the server has stopped.
    pub async fn shutdown(&self, deadline: Duration) {
        self.inner.stop.cancel();
        if !stop_task(&self.inner.task, deadline).await {
            tracing::warn!("OTLP metrics exporter: the last export did not finish within {deadline:?}");
        }
    }
}

/// Export every interval until `stop`, then once more.
async fn run(sender: Sender, stop: CancellationToken) {
    let interval = sender.config.export_interval;
    let mut ticks = tokio::time::interval_at(Instant::now() + interval, interval);
    // A slow collector delays the next export; it does not make a burst of them.
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            () = stop.cancelled() => break,
            _ = ticks.tick() => sender.export().await,
        }
    }
    sender.export().await;
}

impl Sender {
    /// Read the metrics and post them; count the outcome.
    async fn export(&self) {
        let request = encode::request(&self.shared, &self.resource, SystemTime::now());
        let empty = request
            .resource_metrics
            .iter()
            .all(|group| group.scope_metrics.iter().all(|scope| scope.metrics.is_empty()));
        if empty {
            return;
        }
        let body = Bytes::from(request.encode_to_vec());
        match post(&self.client, &self.config, body).await {
            Ok(()) => {
                self.counters.exported.inc();
            }
            Err(refused) => {
                self.counters.failed.inc();
                tracing::debug!("OTLP metrics export failed: {}", refused.why);
            }
        }
    }
}
