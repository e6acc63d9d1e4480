//! Durability of the stores, end to end: the real `resource-api` binary is killed with SIGKILL in
//! the middle of a burst of bird inserts, restarted on the same data, and every insert that was
//! answered 200 must be readable, whole, with the id it was given — on the embedded store, and on
//! MongoDB (`MONGODB_TEST_URI`, as scripts/test.sh sets it; in CI a missing URI fails the test).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ferrapi_tests::client::try_send_json;
use serde_json::Value;

use crate::support::process::Service;
use crate::support::{mongo_uri, TempDir};

/// One exchange: status and body; `None` when the connection fails or is cut.
async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Option<(u16, Vec<u8>)> {
    try_send_json(addr, method, path, body)
        .await
        .ok()
        .map(|reply| (reply.status, reply.body))
}

/// Insert birds from `TASKS` tasks until the service dies; kill it once `kill_after` inserts
/// were acknowledged. Returns every acknowledged `(name, id)`.
async fn burst_then_kill(service: Service, round: usize, kill_after: usize) -> Vec<(String, String)> {
    const TASKS: usize = 48;
    let addr = service.addr;
    let stop = Arc::new(AtomicBool::new(false));
    let acked_count = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for t in 0..TASKS {
        let (stop, acked_count) = (stop.clone(), acked_count.clone());
        tasks.push(tokio::spawn(async move {
            let mut acked = Vec::new();
            let mut i = 0;
            while !stop.load(Ordering::SeqCst) && i < 10_000 {
                let name = format!("burst-{round}-{t}-{i}");
                let body = format!(
                    r#"{{"name":"{name}","task":{t},"i":{i},"padding":"{}"}}"#,
                    "p".repeat(200)
                );
                match request(addr, "POST", "/api/bird/", Some(&body)).await {
                    Some((200, reply)) => {
                        let id = serde_json::from_slice::<Value>(&reply)
                            .ok()
                            .and_then(|v| v["id"].as_str().map(str::to_owned));
                        acked.push((name, id.expect("a 200 carries an id")));
                        acked_count.fetch_add(1, Ordering::SeqCst);
                    }
                    Some((status, reply)) => {
                        panic!("insert answered {status}: {}", String::from_utf8_lossy(&reply))
                    }
                    None => break, // the service is gone
                }
                i += 1;
            }
            acked
        }));
    }
    // Kill mid-burst: once enough inserts were acknowledged, while every task has one in flight.
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        while acked_count.load(Ordering::SeqCst) < kill_after {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    })
    .await;
    assert!(
        waited.is_ok(),
        "the burst reached {kill_after} inserts within 60 s"
    );
    service.kill();
    stop.store(true, Ordering::SeqCst);
    let mut acked = Vec::new();
    for task in tasks {
        acked.extend(task.await.expect("insert task"));
    }
    assert!(acked.len() >= kill_after);
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_insert_survives_sigkill() {
    let dir = TempDir::new("durability");
    kill_rounds(&dir.sqlite("birds.db")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_insert_survives_sigkill_on_mongodb() {
    // The same server, a fresh database.
    let Some(uri) = mongo_uri("durability") else {
        return;
    };
    kill_rounds(&uri).await;
}

/// Three rounds of burst, SIGKILL, restart and check, on the store `db` names.
async fn kill_rounds(db: &str) {
    const ROUNDS: usize = 3;
    let mut acked = Vec::new();
    for round in 0..ROUNDS {
        acked.extend(burst_then_kill(Service::start(db, "b"), round, 300).await);
        // Restart on the same file: everything acknowledged so far, in every round, is there.
        let service = Service::start(db, "b");
        let mut lost = Vec::new();
        for (name, id) in &acked {
            match request(service.addr, "GET", &format!("/api/bird/{name}"), None).await {
                Some((200, body)) => {
                    let bird: Value = serde_json::from_slice(&body).expect("a stored bird is JSON");
                    assert_eq!(bird["_id"].as_str(), Some(id.as_str()), "{name}");
                    assert_eq!(bird["name"].as_str(), Some(name.as_str()));
                    assert_eq!(
                        bird["padding"].as_str().map(str::len),
                        Some(200),
                        "{name} is whole"
                    );
                }
                other => lost.push((name.clone(), other.map(|(status, _)| status))),
            }
        }
        eprintln!(
            "round {round}: {} acknowledged inserts so far, killed with SIGKILL mid-burst; {} lost",
            acked.len(),
            lost.len()
        );
        assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    }
}
