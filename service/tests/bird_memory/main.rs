//! What one 1 MiB bird costs in memory, in and out, on each store (issue 34): the bird is never
//! a tree of values, so storing it and reading it back each take a small multiple of its size.
//! Before, a 1 MiB bird of arrays nested 120 deep took ~160 MiB to accept and ~150 MiB to read
//! back on the embedded store (~390 and ~230 MiB on MongoDB): a heap node per value, on the way
//! in and again on the way out.
//!
//! Rules enforced here: a binary of its own, and each figure taken in a fresh process that does
//! nothing else: a test runs this binary again with only itself selected, once to store the
//! bird and once (over the same store) to read it back, and each such run measures its own peak
//! resident set size (`VmHWM`, reset through `/proc/self/clear_refs`) above its resident size
//! just before the request, after a small bird has warmed the path. A fresh process, because an
//! allocator keeps what was freed: a second request in one process reuses the first one's memory
//! and looks free. The figures include the test client's own copy of the request and the answer,
//! and what a store's first large write or read costs once (SQLite's page cache, the driver's
//! buffers). MongoDB runs with `MONGODB_TEST_URI` (see `service/tests/service/support`); its
//! server is another process. Run with `--nocapture` to see the figures.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

// The service tests' helpers, of which this binary uses the stores.
#[allow(dead_code, unused_macros, unused_imports)]
#[path = "../service/support/mod.rs"]
mod support;

use std::process::Command;

use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send_json};
use resource_api::config::Group;
use resource_api::store::{self, StoreLocation};
use resource_api::{app, Db};

const MIB: u64 = 1 << 20;

/// Set in a run that takes one figure: `in` or `out`.
const STEP: &str = "BIRD_MEMORY_STEP";
/// The store of that run (a `DB_CONN_STRING`).
const DB: &str = "BIRD_MEMORY_DB";
/// The bird's shape: `nested` or `flat`.
const SHAPE: &str = "BIRD_MEMORY_SHAPE";

/// A field of `/proc/self/status`, in bytes.
fn status(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// A JSON object of about 1 MiB: `name`, then arrays nested 120 deep, repeated (as
/// `bench/attacks.py` sends it).
fn nested_bird(name: &str) -> String {
    let unit = format!("{}{}", "[".repeat(120), "]".repeat(120));
    let head = format!(r#"{{"name":"{name}","d":["#);
    let count = (MIB as usize - head.len() - 2) / (unit.len() + 1);
    format!("{head}{}]}}", vec![unit; count].join(","))
}

/// A JSON object of about 1 MiB: `name`, then one flat array of zeros.
fn flat_bird(name: &str) -> String {
    let head = format!(r#"{{"name":"{name}","d":["#);
    let count = (MIB as usize - head.len() - 2) / 2;
    format!("{head}{}]}}", vec!["0"; count].join(","))
}

/// One run's figure: serve group B over the store `db`, warm it with a small bird, then store
/// the `shape` bird (`in`) or read it back (`out`); the peak above the resident size before.
async fn step(step: &str, db: &str, shape: &str) -> u64 {
    let conn = StoreLocation::parse(Some(db)).expect("a connection string");
    let store = store::open(&conn).await.expect("open the store");
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    let addr = spawn(app(Group::B, Some(db))).await;
    let bird = if shape == "nested" {
        nested_bird(shape)
    } else {
        flat_bird(shape)
    };
    assert!(bird.len() as u64 <= MIB, "within the default body limit");
    let warm = format!(r#"{{"name":"warm-{step}","n":[1,{{"a":"b"}}]}}"#);
    assert_eq!(send_json(addr, "POST", "/api/bird/", &warm).await.status, 200);
    assert_eq!(get(addr, &format!("/api/bird/warm-{step}")).await.status, 200);

    // Linux: "5" resets VmHWM to the current resident size.
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak resident size");
    let before = status("VmRSS:");
    if step == "in" {
        let reply = send_json(addr, "POST", "/api/bird/", &bird).await;
        assert_eq!(reply.status, 200, "{}", reply.text());
    } else {
        let reply = get(addr, &format!("/api/bird/{shape}")).await;
        assert_eq!(reply.status, 200);
        let id = r#""_id":"0123456789abcdef01234567","#;
        assert_eq!(reply.body.len(), bird.len() + id.len(), "the bird, whole");
    }
    status("VmHWM:").saturating_sub(before)
}

/// Run this binary's test `test` alone, in a fresh process, for one figure.
fn figure(test: &str, step: &str, db: &str, shape: &str) -> u64 {
    let output = Command::new(std::env::current_exe().expect("this test binary"))
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(STEP, step)
        .env(DB, db)
        .env(SHAPE, shape)
        .output()
        .expect("run the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{test} ({step}) failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
        .lines()
        .find_map(|line| line.strip_prefix("PEAK "))
        .and_then(|bytes| bytes.trim().parse().ok())
        .unwrap_or_else(|| panic!("{test} ({step}) printed no figure:\n{stdout}"))
}

/// The test `test`: in a run of its own, take that run's figure and print it; else store a
/// `shape` bird in `db` and read it back, each in a fresh process, and check each figure
/// against `most` MiB.
fn bird_costs(test: &str, db: Option<String>, shape: &str, most: u64) {
    if let Ok(which) = std::env::var(STEP) {
        let db = std::env::var(DB).expect("the store of the run");
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let peak = runtime.block_on(step(&which, &db, &std::env::var(SHAPE).unwrap_or_default()));
        // On a line of its own (libtest writes the test's name before its output).
        println!("\nPEAK {peak}");
        return;
    }
    let Some(db) = db else {
        return;
    };
    let peak_in = figure(test, "in", &db, shape);
    let peak_out = figure(test, "out", &db, shape);
    eprintln!(
        "{test}: {:.1} MiB to store a 1 MiB bird, {:.1} MiB to read it back",
        peak_in as f64 / MIB as f64,
        peak_out as f64 / MIB as f64
    );
    assert!(
        peak_in <= most * MIB,
        "{test}: storing took {} MiB",
        peak_in / MIB
    );
    assert!(
        peak_out <= most * MIB,
        "{test}: reading back took {} MiB",
        peak_out / MIB
    );
}

/// A fresh embedded store's connection string, and its directory (removed when dropped).
fn sqlite(tag: &str) -> (support::TempDir, Option<String>) {
    let dir = support::TempDir::new(tag);
    let db = dir.sqlite("birds.db");
    (dir, Some(db))
}

#[test]
fn a_nested_bird_costs_a_few_times_its_size_with_the_embedded_store() {
    let (_dir, db) = sqlite("memory_nested");
    bird_costs(
        "a_nested_bird_costs_a_few_times_its_size_with_the_embedded_store",
        db,
        "nested",
        24,
    );
}

#[test]
fn a_flat_bird_costs_a_few_times_its_size_with_the_embedded_store() {
    let (_dir, db) = sqlite("memory_flat");
    bird_costs(
        "a_flat_bird_costs_a_few_times_its_size_with_the_embedded_store",
        db,
        "flat",
        24,
    );
}

#[test]
fn a_nested_bird_costs_a_few_times_its_size_with_mongodb() {
    bird_costs(
        "a_nested_bird_costs_a_few_times_its_size_with_mongodb",
        support::mongo_uri("memory_nested"),
        "nested",
        24,
    );
}

#[test]
fn a_flat_bird_costs_a_few_times_its_size_with_mongodb() {
    // BSON spends 16 bytes on a `0,` (a type, its position as a key, an Int64), and the driver
    // holds the document and its command message.
    bird_costs(
        "a_flat_bird_costs_a_few_times_its_size_with_mongodb",
        support::mongo_uri("memory_flat"),
        "flat",
        48,
    );
}
