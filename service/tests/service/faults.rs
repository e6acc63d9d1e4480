//! A MongoDB outage under load, over real HTTP on 127.0.0.1: eight clients keep reading and
//! writing birds and two keep calling `/api/hello` while the database connection is cut for 4 s
//! (a TCP relay in front of the MongoDB test server stops relaying, as a stopped server would).
//! Every bird request is answered 200 or 503 (with a client-safe detail) and none takes longer
//! than the server-selection timeout plus a margin; `/api/hello` is answered 200 throughout; the
//! service recovers by itself once the relay is back. Needs `MONGODB_TEST_URI` (see
//! `support`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send_json};
use resource_api::config::Group;
use resource_api::{app, Db};

use crate::support::relayed_mongo_store;

#[derive(Default)]
struct Tally {
    ok: AtomicU64,
    unavailable: AtomicU64,
    slowest_ms: AtomicU64,
    hello_slowest_ms: AtomicU64,
    unexpected: Mutex<Vec<String>>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mongodb_outage_under_load_is_bounded_503s_then_recovery() {
    let selection_timeout = Duration::from_millis(1500);
    let Some((relay, store, conn)) = relayed_mongo_store("outage_load", selection_timeout).await else {
        return;
    };
    let db = Db::prepare(store, conn.effective()).await.expect("prepare");
    let addr = spawn(app(Group::B, Some(db))).await;

    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for w in 0..8u64 {
        let (tally, stop) = (tally.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut i = 0u64;
            while !stop.load(Ordering::SeqCst) {
                let started = Instant::now();
                let reply = if i.is_multiple_of(2) {
                    send_json(
                        addr,
                        "POST",
                        "/api/bird/",
                        &format!(r#"{{"name":"load-{w}-{i}"}}"#),
                    )
                    .await
                } else {
                    get(addr, &format!("/api/bird/load-{w}-{}", i - 1)).await
                };
                let ms = started.elapsed().as_millis() as u64;
                tally.slowest_ms.fetch_max(ms, Ordering::SeqCst);
                match reply.status {
                    200 => tally.ok.fetch_add(1, Ordering::SeqCst),
                    // A read of a bird whose write was refused during the outage.
                    404 if !i.is_multiple_of(2) => tally.ok.fetch_add(1, Ordering::SeqCst),
                    503 if reply.text().contains("unavailable") && !reply.text().contains("127.0.0.1") => {
                        tally.unavailable.fetch_add(1, Ordering::SeqCst)
                    }
                    status => {
                        tally
                            .unexpected
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(format!("{status} {}", reply.text()));
                        0
                    }
                };
                i += 1;
            }
        }));
    }
    for _ in 0..2 {
        let (tally, stop) = (tally.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            while !stop.load(Ordering::SeqCst) {
                let started = Instant::now();
                let reply = get(addr, "/api/hello").await;
                tally
                    .hello_slowest_ms
                    .fetch_max(started.elapsed().as_millis() as u64, Ordering::SeqCst);
                if reply.status != 200 {
                    tally
                        .unexpected
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(format!("hello {}", reply.status));
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }));
    }

    tokio::time::sleep(Duration::from_secs(1)).await;
    let before_outage = tally.ok.load(Ordering::SeqCst);
    relay.set_up(false);
    tokio::time::sleep(Duration::from_secs(4)).await;
    let during_outage = tally.unavailable.load(Ordering::SeqCst);
    relay.set_up(true);
    let restored = Instant::now();
    // Recovery: new writes succeed again within 20 s, by themselves.
    loop {
        let reply = send_json(addr, "POST", "/api/bird/", r#"{"name":"after-outage"}"#).await;
        if reply.status == 200 {
            break;
        }
        assert!(
            restored.elapsed() < Duration::from_secs(20),
            "no recovery: {}",
            reply.text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let recovered_after = restored.elapsed();
    let ok_at_recovery = tally.ok.load(Ordering::SeqCst);
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.await.expect("client task");
    }

    let unexpected = tally.unexpected.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let slowest = tally.slowest_ms.load(Ordering::SeqCst);
    eprintln!(
        "outage under load: {before_outage} ok before, {during_outage} answered 503 during the 4 s outage, \
         recovered {recovered_after:?} after the relay returned, {} ok in total; slowest bird request \
         {slowest} ms, slowest /api/hello {} ms",
        tally.ok.load(Ordering::SeqCst),
        tally.hello_slowest_ms.load(Ordering::SeqCst)
    );
    assert!(unexpected.is_empty(), "unexpected answers: {unexpected:?}");
    assert!(before_outage > 0 && during_outage > 0);
    assert!(
        tally.ok.load(Ordering::SeqCst) > ok_at_recovery,
        "served again after recovery"
    );
    // Bounded: no request waits much longer than the server-selection timeout.
    assert!(
        slowest < selection_timeout.as_millis() as u64 + 3000,
        "{slowest} ms"
    );
    assert!(tally.hello_slowest_ms.load(Ordering::SeqCst) < 1000);
}
