//! `resource-api`: serve the Resource API on `--host`/`--port` until SIGINT or SIGTERM.
//!
//! Rules enforced here: configuration is checked before anything is served, and every start-up
//! failure (a bad flag or connection string, an unreachable database, a port in use) is one line
//! on stderr and a non-zero exit: 2 for a value that cannot be parsed, 1 for anything else;
//! glibc's allocator returns large blocks to the system when they are freed
//! ([`malloc_settings`]), so what clients made the process hold goes back after they leave.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use ferrapi::logging::Logging;
use ferrapi::metrics::otlp::MetricsExporter;
use ferrapi::metrics::Metrics;
use ferrapi::serve::Scheme;
use ferrapi::trace::otlp::{OtlpConfig, OtlpExporter};
use ferrapi::trace::{Resource, Tracing};
use resource_api::config::Config;
use resource_api::store::{MeteredStore, Store};
use resource_api::Db;

/// Blocks of this size or more are mapped for themselves and unmapped when freed (glibc's
/// `M_MMAP_THRESHOLD`, 128 KiB, its default starting value, here fixed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MMAP_THRESHOLD: libc::c_int = 128 * 1024;

/// Make glibc's malloc give back to the system what clients made the process hold (request
/// bodies, their parses, answers: what the memory budget counts) once it is freed.
///
/// By default glibc raises its mmap threshold to the size of each mapped block freed (up to
/// 32 MiB): after the first 1 MiB body, every later one comes from the heap's arenas (one per
/// thread that allocates, up to 8 per core), and what a load of them leaves there stays resident.
/// So blocks of 128 KiB or more are always mapped, and unmapped when freed (fixing the threshold
/// also fixes the trim threshold, glibc ties them), and every [`TRIM_EVERY`] a thread returns the
/// arenas' free pages (`malloc_trim`), which the smaller blocks of a load leave scattered.
/// Measured with 48 clients posting the largest visits the model accepts (1 MiB each, release
/// binary, embedded store, 64 MiB budget; idle 18 MiB): glibc's defaults, peak +99 MiB and
/// 70 MiB resident 10 s after; the threshold fixed, +40..48 MiB and 24..29 MiB (1.3..1.6 x idle;
/// `M_ARENA_MAX` 1 or 2 changed neither by more than the runs' spread); with the trim too,
/// +43 MiB and 18 MiB, idle again within 2 s. 1 MiB `doctor_id`s (refused by the model): +102
/// and 95 MiB, then +56 and 30 MiB with the threshold alone. The cost is a `mmap`/`munmap` pair
/// and page faults per block of 128 KiB or more, small beside reading or parsing that much
/// (requests with small bodies never allocate one), and a trim every 2 s, microseconds on an
/// idle heap.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn malloc_settings() {
    // SAFETY: `mallopt` only sets a parameter of the allocator, under its own lock; it reads
    // and writes no memory of ours. Its answer (1: set, 0: refused) leaves the defaults when 0.
    let set = unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) };
    if set == 0 {
        eprintln!("resource-api: glibc refused M_MMAP_THRESHOLD; large blocks stay in its arenas");
    }
    let trim = std::thread::Builder::new()
        .name("malloc-trim".to_owned())
        .spawn(|| loop {
            std::thread::sleep(TRIM_EVERY);
            // SAFETY: `malloc_trim` returns the allocator's free pages to the system under its
            // own locks; it touches no memory in use.
            unsafe { libc::malloc_trim(0) };
        });
    if let Err(err) = trim {
        eprintln!("resource-api: cannot start the malloc-trim thread: {err}");
    }
}

/// How often the allocator's free pages are given back to the system (`malloc_trim`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Not glibc: its allocator's defaults.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn malloc_settings() {}

/// How long the spans still queued at shutdown may take to reach the collector.
const OTLP_DRAIN: Duration = Duration::from_secs(5);

/// The OTLP exporter for `--otlp-endpoint` `base`: the standard variables read, the traces URL
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` when set (the specification's precedence), else `base`
/// with `/v1/traces`.
fn otlp_exporter(base: &str) -> Result<OtlpExporter, String> {
    let mut otlp = OtlpConfig::from_env();
    if std::env::var_os("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_none() {
        otlp = otlp.endpoint(&format!("{}/v1/traces", base.trim_end_matches('/')))?;
    }
    OtlpExporter::start(otlp)
}

/// The OTLP metrics exporter of `metrics` for `--otlp-endpoint` `base` with `--metrics`: the
/// standard variables read (`OTEL_METRIC_EXPORT_INTERVAL`, the `METRICS_` ones first), the URL
/// `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` when set, else `base` with `/v1/metrics`; the resource
/// the spans name (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`).
fn otlp_metrics_exporter(metrics: &Metrics, base: &str) -> Result<MetricsExporter, String> {
    let mut otlp = OtlpConfig::metrics_from_env();
    if std::env::var_os("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT").is_none() {
        otlp = otlp.endpoint(&format!("{}/v1/metrics", base.trim_end_matches('/')))?;
    }
    MetricsExporter::start(metrics, otlp, Resource::from_env())
}

fn main() -> ExitCode {
    // Before the runtime's threads start allocating.
    malloc_settings();
    match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime.block_on(serve()),
        Err(err) => {
            eprintln!("resource-api: cannot start the runtime: {err}");
            ExitCode::FAILURE
        }
    }
}

async fn serve() -> ExitCode {
    let config = Config::parse();
    // Kept to the end: dropping it writes out the lines still buffered.
    let _log = Logging::new().format(config.log_format).init();
    let location = match config.store_location() {
        Ok(location) => location,
        Err(err) => {
            eprintln!("resource-api: DB_CONN_STRING: {err}");
            return ExitCode::from(2);
        }
    };
    // Every group keeps records: group A the clinic's, group B the birds.
    let mut metrics = config.metrics.then(Metrics::new);
    let db = match Db::open(&location).await {
        Ok(mut db) => {
            if let Some(metrics) = &mut metrics {
                db.store = Store(Arc::new(MeteredStore::new(db.store.0, metrics.registry())));
            }
            tracing::info!("store: {} at {}", db.store.kind(), location.redacted());
            db
        }
        Err(err) => {
            eprintln!("resource-api: cannot open the database: {}", err.cause());
            return ExitCode::FAILURE;
        }
    };
    if config.group.serves_b() && config.expose_env {
        tracing::warn!(
            "GET /api/env discloses DB_CONN_STRING (credentials included) to every client; \
             start with --expose-env=false (or EXPOSE_ENV=false) to remove it"
        );
    }
    let lease = Duration::from_millis(config.idempotency_lease_ms);
    let keys = resource_api::idempotency::keys(&db.store, lease);
    let mut app = resource_api::app_with_env(config.group, Some(db), config.expose_env)
        .state(keys)
        .max_concurrency((config.max_concurrency > 0).then_some(config.max_concurrency))
        .memory_budget((config.memory_budget > 0).then_some(config.memory_budget))
        .connection_body_share((config.connection_body_share > 0).then_some(config.connection_body_share))
        .request_ids(config.request_ids)
        .strict_http1(config.strict_http1);
    let exporter = match config.otlp_endpoint.as_deref().map(otlp_exporter).transpose() {
        Ok(exporter) => exporter,
        Err(err) => {
            ferrapi::logging::flush();
            eprintln!("resource-api: --otlp-endpoint: {err}");
            return ExitCode::from(2);
        }
    };
    if let (Some(metrics), Some(exporter)) = (&mut metrics, &exporter) {
        exporter.register(metrics.registry());
    }
    let metrics_exporter = match (&mut metrics, config.otlp_endpoint.as_deref()) {
        (Some(metrics), Some(base)) => match otlp_metrics_exporter(metrics, base) {
            Ok(exporter) => {
                exporter.register(metrics.registry());
                Some(exporter)
            }
            Err(err) => {
                ferrapi::logging::flush();
                eprintln!("resource-api: --otlp-endpoint (metrics): {err}");
                return ExitCode::from(2);
            }
        },
        _ => None,
    };
    if let Some(metrics) = metrics {
        app = app.metrics(metrics);
    }
    if config.tracing || exporter.is_some() {
        let mut tracing = Tracing::from_env()
            .trust_parent(config.trust_trace_parent)
            .response_header(config.trace_response)
            .trace_request_ids(config.trace_request_ids);
        if let Some(exporter) = &exporter {
            tracing = tracing.exporter(exporter.clone());
        }
        app = app.tracing(tracing);
    }
    if let Some(tls) = config.tls() {
        app = app.tls(tls);
    }
    let mut server = match app.bind((config.host.as_str(), config.port)).await {
        Ok(server) => server,
        Err(err) => {
            // The lines logged so far come first.
            ferrapi::logging::flush();
            eprintln!("resource-api: {err} ({}:{})", config.host, config.port);
            return ExitCode::FAILURE;
        }
    };
    let plain = match config.plain_port {
        Some(port) => server
            .also_bind(
                (config.host.as_str(), port),
                if config.tls_redirect {
                    Scheme::HttpRedirect
                } else {
                    Scheme::Http
                },
            )
            .await
            .map(|_| ())
            .map_err(|err| (err, port)),
        None => Ok(()),
    };
    match plain {
        Ok(()) => {
            server.run().await;
            if let Some(exporter) = exporter {
                exporter.shutdown(OTLP_DRAIN).await;
            }
            if let Some(exporter) = metrics_exporter {
                exporter.shutdown(OTLP_DRAIN).await;
            }
            ExitCode::SUCCESS
        }
        Err((err, port)) => {
            ferrapi::logging::flush();
            eprintln!("resource-api: {err} ({}:{port})", config.host);
            ExitCode::FAILURE
        }
    }
}
