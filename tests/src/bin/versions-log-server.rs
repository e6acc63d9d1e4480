//! Two apps with ferrapi's own log installed, in a process of their own, for the tests of the
//! access line's version part (tests/tests/framework/version_edges.rs): a log is one per process,
//! and the framework's test binary installs none.
//!
//! `versions-log-server FORMAT` (`text` or `json`) serves, on 127.0.0.1 with request ids on, an
//! app with versions (the header or a path prefix) and the same routes without versions, logs at
//! `info` to stderr, prints `listening on VERSIONED PLAIN` to stdout, and stops when its standard
//! input closes.

use ferrapi::logging::{LogFormat, Logging};
use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::log_process::{run, stdin_closed};

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

async fn serve(format: LogFormat) -> Result<(), String> {
    let _log = Logging::new().format(format).filter("info").init();
    let versioned = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]).path_prefix())
        .routes(ferrapi::routes![read_item])
        .request_ids(true);
    let plain = App::new().routes(ferrapi::routes![read_item]).request_ids(true);
    let versioned = versioned.bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    let plain = plain.bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
    println!("listening on {} {}", versioned.local_addr(), plain.local_addr());
    let stop = tokio::sync::watch::channel(false);
    let (tx, mut rx_a) = stop;
    let mut rx_b = tx.subscribe();
    let a = tokio::spawn(versioned.run_until(async move {
        let _ = rx_a.changed().await;
    }));
    let b = tokio::spawn(plain.run_until(async move {
        let _ = rx_b.changed().await;
    }));
    stdin_closed().await;
    let _ = tx.send(true);
    let _ = a.await;
    let _ = b.await;
    Ok(())
}

fn main() -> Result<(), String> {
    run(serve)
}
