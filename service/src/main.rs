//! `resource-api`: serve the Resource API on `--host`/`--port` until SIGINT or SIGTERM.
//!
//! Rules enforced here: configuration is checked before anything is served, and every start-up
//! failure (a bad flag or connection string, an unreachable database, a port in use) is one line
//! on stderr and a non-zero exit: 2 for a value that cannot be parsed, 1 for anything else.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::Parser;
use ferrapi::logging::Logging;
use ferrapi::metrics::Metrics;
use resource_api::config::Config;
use resource_api::store::{MeteredStore, Store};
use resource_api::Db;

#[tokio::main]
async fn main() -> ExitCode {
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
        .request_ids(config.request_ids)
        .strict_http1(config.strict_http1);
    if let Some(metrics) = metrics {
        app = app.metrics(metrics);
    }
    match app.bind((config.host.as_str(), config.port)).await {
        Ok(server) => {
            server.run().await;
            ExitCode::SUCCESS
        }
        Err(err) => {
            // The lines logged so far come first.
            ferrapi::logging::flush();
            eprintln!("resource-api: {err} ({}:{})", config.host, config.port);
            ExitCode::FAILURE
        }
    }
}
