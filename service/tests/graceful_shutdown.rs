//! Graceful shutdown of the real `resource-api` binary: on SIGTERM the listener closes at once, a
//! request already in flight (here: a bird insert whose body is still arriving) completes and
//! is stored, and the process exits 0; a rolling restart of two processes sharing one embedded
//! store loses no acknowledged write. Also: the start-up warning about `GET /api/env`.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The service binary on a free port with the embedded store at `db`; its stderr lines are kept.
struct Service {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl Service {
    fn start(db: &Path, extra: &[&str]) -> Service {
        let mut child = Command::new(env!("CARGO_BIN_EXE_resource-api"))
            .args(["--host", "127.0.0.1", "--port", "0", "--group", "b"])
            .args(extra)
            .env("DB_CONN_STRING", format!("sqlite://{}", db.display()))
            .env("RUST_LOG", "info")
            .env_remove("EXPOSE_ENV")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start resource-api");
        let stderr = child.stderr.take().expect("stderr is piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (found, port) = mpsc::channel();
        let lines = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                        .collect();
                    let _ = found.send(addr);
                }
                lines.lock().unwrap().push(line);
            }
        });
        let addr = port
            .recv_timeout(Duration::from_secs(30))
            .expect("the service logs its address within 30 s")
            .parse()
            .expect("a socket address");
        Service { child, addr, log }
    }

    fn logged(&self, needle: &str) -> bool {
        self.log.lock().unwrap().iter().any(|line| line.contains(needle))
    }

    fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Wait (at most `within`) for the process to exit; its exit code.
    fn wait_exit(&mut self, within: Duration) -> Option<i32> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the service did not exit within {within:?}");
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One exchange; `None` when the connection fails or is cut.
async fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(body) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(body.unwrap_or(""));
    stream.write_all(head.as_bytes()).await.ok()?;
    read_reply(&mut stream).await
}

async fn read_reply(stream: &mut TcpStream) -> Option<(u16, Value)> {
    let mut reply = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut reply))
        .await
        .ok()?
        .ok()?;
    let split = reply.windows(4).position(|w| w == b"\r\n\r\n")?;
    let status = std::str::from_utf8(&reply[..split])
        .ok()?
        .split(' ')
        .nth(1)?
        .parse()
        .ok()?;
    let body = serde_json::from_slice(&reply[split + 4..]).unwrap_or(Value::Null);
    Some((status, body))
}

fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir()
        .join("resource-api-tests")
        .join(format!("{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_completes_the_request_in_flight_then_exits() {
    let dir = temp_dir("sigterm");
    let db = dir.join("birds.db");
    let mut service = Service::start(&db, &[]);
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
    let service = Service::start(&db, &["--expose-env=false"]);
    assert!(!service.logged("GET /api/env discloses"));
    let (status, bird) = request(service.addr, "GET", "/api/bird/in-flight", None)
        .await
        .expect("reply");
    assert_eq!((status, bird["_id"].as_str()), (200, Some(id.as_str())));
    let (status, _) = request(service.addr, "GET", "/api/env", None)
        .await
        .expect("reply");
    assert_eq!(status, 404);
    drop(service);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_two_processes_loses_no_acknowledged_write() {
    let dir = temp_dir("rolling");
    let db = dir.join("birds.db");
    // The two processes, and the address table the writers read (as a load balancer would).
    let mut running = vec![Service::start(&db, &[]), Service::start(&db, &[])];
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
        let fresh = Service::start(&db, &[]);
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
    drop(running);
    let _ = std::fs::remove_dir_all(&dir);
}
