//! Graceful shutdown of the real `resource-api` binary: on SIGTERM the listener closes at once, a
//! request already in flight (here: a bird insert whose body is still arriving) completes and
//! is stored, and the process exits 0; a rolling restart of two processes sharing one embedded
//! store loses no acknowledged write. Also: the start-up warning about `GET /api/env`.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrapi_tests::client::{read_to_close, try_send_json};
use serde_json::Value;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

use crate::support::process::Service;
use crate::support::TempDir;

/// The service binary on a free port serving group B with the embedded store `birds.db` in `dir`.
fn start(dir: &TempDir, extra: &[&str]) -> Service {
    Service::start_with(&dir.sqlite("birds.db"), "b", "info", extra)
}

/// One exchange: status and JSON body (`Null` when empty or not JSON); `None` when cut.
async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Option<(u16, Value)> {
    let reply = try_send_json(addr, method, path, body).await.ok()?;
    Some((reply.status, reply.maybe_json().unwrap_or(Value::Null)))
}

/// Read a reply from `stream`: status and JSON body.
async fn read_reply(stream: &mut TcpStream) -> Option<(u16, Value)> {
    let reply = read_to_close(stream).await.ok()?;
    Some((reply.status, reply.maybe_json().unwrap_or(Value::Null)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_completes_the_request_in_flight_then_exits() {
    let dir = TempDir::new("sigterm");
    let mut service = start(&dir, &[]);
    assert!(
        service.logged("GET /api/env discloses DB_CONN_STRING"),
        "the start-up warning is logged while /api/env is served"
    );

    // A bird insert whose body is half sent when SIGTERM arrives.
    let body = r#"{"name":"in-flight","note":"sent across a SIGTERM"}"#;
    let mut stream = TcpStream::connect(service.addr).await.expect("connect");
    let head = format!(
        "POST /api/bird/ HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.expect("send head");
    stream
        .write_all(&body.as_bytes()[..10])
        .await
        .expect("send part of the body");
    tokio::time::sleep(Duration::from_millis(200)).await;
    service.sigterm();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        TcpStream::connect(service.addr).await.is_err(),
        "new connections are refused once SIGTERM arrived"
    );
    stream
        .write_all(&body.as_bytes()[10..])
        .await
        .expect("send the rest");
    let (status, reply) = read_reply(&mut stream).await.expect("a reply");
    assert_eq!(status, 200, "{reply}");
    let id = reply["id"].as_str().expect("an id").to_owned();
    assert_eq!(service.wait_exit(Duration::from_secs(10)), Some(0));
    assert!(service.logged("shutting down"));

    // The acknowledged insert is there after a restart; and the switch removes /api/env.
    let service = start(&dir, &["--expose-env=false"]);
    assert!(!service.logged("GET /api/env discloses"));
    let (status, bird) = request(service.addr, "GET", "/api/bird/in-flight", None)
        .await
        .expect("reply");
    assert_eq!((status, bird["_id"].as_str()), (200, Some(id.as_str())));
    let (status, _) = request(service.addr, "GET", "/api/env", None)
        .await
        .expect("reply");
    assert_eq!(status, 404);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_two_processes_loses_no_acknowledged_write() {
    let dir = TempDir::new("rolling");
    // The two processes, and the address table the writers read (as a load balancer would).
    let mut running = [start(&dir, &[]), start(&dir, &[])];
    let slots = Arc::new(Mutex::new([running[0].addr, running[1].addr]));
    let stop = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    for w in 0..8 {
        let (slots, stop) = (slots.clone(), stop.clone());
        writers.push(tokio::spawn(async move {
            let mut acked = Vec::new();
            let mut refused = 0usize;
            let mut i = 0usize;
            while !stop.load(Ordering::SeqCst) {
                let name = format!("roll-{w}-{i}");
                let body = format!(r#"{{"name":"{name}","w":{w},"i":{i}}}"#);
                // Like a load balancer: try one process, then the other.
                let table = *slots.lock().unwrap();
                let mut done = false;
                for attempt in 0..2 {
                    let addr = table[(i + attempt + w) % 2];
                    match request(addr, "POST", "/api/bird/", Some(&body)).await {
                        Some((200, reply)) => {
                            acked.push((name.clone(), reply["id"].as_str().unwrap_or("").to_owned()));
                            done = true;
                            break;
                        }
                        Some((status, reply)) => panic!("insert answered {status}: {reply}"),
                        None => refused += 1,
                    }
                }
                if !done {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                i += 1;
            }
            (acked, refused)
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    for (slot, service) in running.iter_mut().enumerate() {
        service.sigterm();
        assert_eq!(service.wait_exit(Duration::from_secs(15)), Some(0));
        let fresh = start(&dir, &[]);
        slots.lock().unwrap()[slot] = fresh.addr;
        *service = fresh;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    stop.store(true, Ordering::SeqCst);
    let (mut acked, mut refused) = (Vec::new(), 0);
    for writer in writers {
        let (a, r) = writer.await.expect("writer");
        acked.extend(a);
        refused += r;
    }
    let reader = running[0].addr;
    let mut lost = Vec::new();
    for (name, id) in &acked {
        match request(reader, "GET", &format!("/api/bird/{name}"), None).await {
            Some((200, bird)) if bird["_id"].as_str() == Some(id.as_str()) => {}
            other => lost.push((name.clone(), other)),
        }
    }
    eprintln!(
        "rolling restart: {} acknowledged writes, {} attempts refused by a stopping process, {} lost",
        acked.len(),
        refused,
        lost.len()
    );
    assert!(acked.len() > 100, "the writers kept writing: {}", acked.len());
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
}
