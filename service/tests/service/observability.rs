//! Observability of the real `resource-api` binary, read from its captured log and its metrics:
//! request ids are kept, made and replaced on the access lines (on by default); `--log-format
//! json` writes lines that each parse as a JSON object; no access line is lost on SIGTERM under
//! load; `--metrics` serves series that Python's `prometheus_client` parser reads back with the
//! expected values after known traffic; and during a database outage (the embedded store locked
//! by another process's exclusive transaction) the store's error and latency series move, and the
//! error line logged in the request carries its id; a MongoDB outage (the relay of `faults` cut)
//! moves them too.
//!
//! The parser runs as `$PROMETHEUS_PARSER_PYTHON support/parse_metrics.py` (scripts/test.sh
//! installs `prometheus-client` into its virtualenv and sets it); without it the parse is skipped
//! with a notice, except in CI (`CI` set), where that is a failure.

use std::collections::HashSet;
use std::io::Write;
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrapi::metrics::Metrics;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, send_json, try_send};
use resource_api::config::Group;
use resource_api::store::{MeteredStore, Store};
use resource_api::{app, Db};
use serde_json::Value;

use crate::support::process::Service;
use crate::support::{relayed_mongo_store, TempDir};

/// The binary serving group B on `dir`'s `birds.db`, with `RUST_LOG` unset-equivalent (`info`).
fn start(dir: &TempDir, extra: &[&str]) -> Service {
    Service::start_with(&dir.sqlite("birds.db"), "b", "info", extra)
}

fn is_made_id(id: &str) -> bool {
    id.len() == 32
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Wait (at most 5 s: the log writes in batches every 50 ms) for a line containing `needle`.
fn line_with(service: &Service, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(line) = service.lines().into_iter().find(|line| line.contains(needle)) {
            return line;
        }
        assert!(
            Instant::now() < deadline,
            "no log line contains {needle:?}; the log:\n{}",
            service.lines().join("\n")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_ids_are_kept_made_and_replaced_on_the_access_lines() {
    let dir = TempDir::new("obs-ids");
    let service = start(&dir, &[]);
    let addr = service.addr;

    let given = send(addr, "GET", "/api/hello", &[("X-Request-Id", "given-id-1")], None).await;
    assert_eq!(given.status, 200);
    assert_eq!(given.header("x-request-id"), Some("given-id-1"));
    let line = line_with(&service, "request_id=given-id-1");
    assert!(line.contains(" INFO GET /api/hello 200 "), "{line}");

    let made = get(addr, "/api/bird/nobody").await;
    assert_eq!(made.status, 404);
    let made_id = made.header("x-request-id").expect("an id is made").to_owned();
    assert!(is_made_id(&made_id), "{made_id}");
    let line = line_with(&service, &format!("request_id={made_id}"));
    assert!(line.contains("GET /api/bird/nobody 404 "), "{line}");

    let replaced = send(
        addr,
        "GET",
        "/api/hello",
        &[("X-Request-Id", "bad id \"x\"")],
        None,
    )
    .await;
    let new_id = replaced.header("x-request-id").expect("an id").to_owned();
    assert!(is_made_id(&new_id), "a malformed id is replaced: {new_id}");
    line_with(&service, &format!("request_id={new_id}"));
    assert!(
        !service.lines().iter().any(|line| line.contains("bad id")),
        "a malformed id never reaches the log"
    );

    let off = Service::start_with(&dir.sqlite("off.db"), "b", "info", &["--request-ids=false"]);
    let reply = get(off.addr, "/api/hello").await;
    assert_eq!(
        reply.header("x-request-id"),
        None,
        "--request-ids=false turns them off"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_log_lines_parse() {
    let dir = TempDir::new("obs-json");
    let mut service = start(&dir, &["--log-format", "json"]);
    let addr = service.addr;
    let reply = send(
        addr,
        "GET",
        "/api/hello?x=%22quoted%22",
        &[("X-Request-Id", "json-1")],
        None,
    )
    .await;
    assert_eq!(reply.status, 200);
    let bird = send_json(addr, "POST", "/api/bird/", r#"{"name":"jay"}"#).await;
    assert_eq!(bird.status, 200);
    service.sigterm();
    assert_eq!(service.wait_exit(Duration::from_secs(15)), Some(0));
    let lines = service.all_lines(Duration::from_secs(5));
    assert!(lines.len() >= 4, "{lines:?}");
    let mut access = None;
    for line in &lines {
        let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
        for key in ["timestamp", "level", "target"] {
            assert!(value[key].is_string(), "{key} in {line}");
        }
        if value["request_id"] == "json-1" {
            access = Some(value);
        }
    }
    let access = access.expect("the access line of json-1");
    assert_eq!(access["target"], "ferrapi::access");
    assert_eq!(access["level"], "INFO");
    assert_eq!(access["method"], "GET");
    assert_eq!(access["path"], "/api/hello?x=%22quoted%22");
    assert_eq!(access["route"], "/api/hello");
    assert_eq!(access["status"], 200);
    assert!(
        access["latency_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{access}"
    );
    assert!(
        lines.iter().any(|line| line.contains("listening on http://")),
        "the server's own lines are JSON too"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_access_line_is_lost_on_sigterm_under_load() {
    let dir = TempDir::new("obs-sigterm");
    let mut service = start(&dir, &[]);
    let addr = service.addr;
    let answered = Arc::new(Mutex::new(Vec::<String>::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for worker in 0..6 {
        let (answered, stop) = (answered.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut i = 0u64;
            while !stop.load(Ordering::SeqCst) {
                let id = format!("load-{worker}-{i}");
                let path = if i.is_multiple_of(2) {
                    "/api/hello"
                } else {
                    "/api/bird/nobody"
                };
                match try_send(addr, "GET", path, &[("X-Request-Id", &id)], None).await {
                    Ok(reply) if reply.status == 200 || reply.status == 404 => {
                        answered.lock().unwrap().push(id);
                    }
                    // Refused or cut once the listener closed: not answered, not expected.
                    _ => {}
                }
                i += 1;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    service.sigterm();
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.store(true, Ordering::SeqCst);
    for task in tasks {
        task.await.expect("join");
    }
    assert_eq!(service.wait_exit(Duration::from_secs(15)), Some(0));
    let lines = service.all_lines(Duration::from_secs(5));
    let logged: HashSet<&str> = lines
        .iter()
        .filter_map(|line| line.split("request_id=").nth(1))
        .map(|id| id.split_whitespace().next().unwrap_or_default())
        .collect();
    let answered = answered.lock().unwrap();
    assert!(
        answered.len() > 100,
        "too little load to prove anything: {}",
        answered.len()
    );
    let missing: Vec<&String> = answered
        .iter()
        .filter(|id| !logged.contains(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} answered requests have no access line, e.g. {:?}",
        missing.len(),
        answered.len(),
        missing.iter().take(5).collect::<Vec<_>>()
    );
    assert!(
        !lines.iter().any(|line| line.contains("dropped")),
        "no line was dropped"
    );
}

/// One sample of a scrape, as `support/parse_metrics.py` prints it.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: serde_json::Map<String, Value>,
    value: f64,
}

/// Parse `text` with Python's `prometheus_client` (see the module documentation); `None` when it
/// is not installed here (and this is not CI).
fn parse_with_prometheus_client(text: &str) -> Option<Vec<Sample>> {
    let Ok(python) = std::env::var("PROMETHEUS_PARSER_PYTHON") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "PROMETHEUS_PARSER_PYTHON is not set (scripts/test.sh sets it)"
        );
        eprintln!("skipped: the prometheus_client parse (PROMETHEUS_PARSER_PYTHON is not set)");
        return None;
    };
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/service/support/parse_metrics.py"
    );
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the parser");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("feed the parser");
    let out = child.wait_with_output().expect("the parser ends");
    assert!(
        out.status.success(),
        "prometheus_client refused the scrape: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let samples = String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a JSON sample");
            Sample {
                name: value["name"].as_str().expect("name").to_owned(),
                labels: value["labels"].as_object().cloned().unwrap_or_default(),
                value: value["value"].as_f64().expect("value"),
            }
        })
        .collect();
    Some(samples)
}

/// The value of the sample `name` with (at least) these labels.
fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    samples
        .iter()
        .find(|s| {
            s.name == name
                && labels
                    .iter()
                    .all(|(k, v)| s.labels.get(*k).and_then(Value::as_str) == Some(*v))
        })
        .map(|s| s.value)
}

async fn scrape(addr: SocketAddr) -> String {
    let reply = get(addr, "/metrics").await;
    assert_eq!(reply.status, 200);
    reply.text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_scraped_and_parsed_with_the_expected_series() {
    let dir = TempDir::new("obs-metrics");
    let service = start(&dir, &["--metrics"]);
    let addr = service.addr;
    for _ in 0..2 {
        assert_eq!(get(addr, "/api/hello").await.status, 200);
    }
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"wren"}"#)
            .await
            .status,
        200
    );
    assert_eq!(get(addr, "/api/bird/wren").await.status, 200);
    assert_eq!(get(addr, "/api/bird/nobody").await.status, 404);
    assert_eq!(get(addr, "/no/such/path").await.status, 404);
    let text = scrape(addr).await;
    assert!(text.contains("# TYPE http_requests_total counter"), "{text}");
    let Some(samples) = parse_with_prometheus_client(&text) else {
        return;
    };
    let requests = |method, route, status| {
        value(
            &samples,
            "http_requests_total",
            &[("method", method), ("route", route), ("status", status)],
        )
    };
    assert_eq!(requests("GET", "/api/hello", "200"), Some(2.0), "{text}");
    assert_eq!(requests("POST", "/api/bird", "200"), Some(1.0), "{text}");
    assert_eq!(requests("GET", "/api/bird/{name}", "200"), Some(1.0), "{text}");
    assert_eq!(requests("GET", "/api/bird/{name}", "404"), Some(1.0), "{text}");
    assert_eq!(requests("GET", "unmatched", "404"), Some(1.0), "{text}");
    let hello = [("method", "GET"), ("route", "/api/hello"), ("status", "200")];
    assert_eq!(
        value(&samples, "http_request_duration_seconds_count", &hello),
        Some(2.0)
    );
    let inf = [("le", "+Inf"), ("method", "GET"), ("route", "/api/hello")];
    assert_eq!(
        value(&samples, "http_request_duration_seconds_bucket", &inf),
        Some(2.0)
    );
    assert!(value(&samples, "http_request_duration_seconds_sum", &hello).is_some_and(|s| s > 0.0));
    assert_eq!(
        value(&samples, "http_requests_in_flight", &[]),
        Some(1.0),
        "the scrape itself"
    );
    assert_eq!(value(&samples, "http_requests_rejected_total", &[]), Some(0.0));
    assert_eq!(value(&samples, "log_lines_dropped_total", &[]), Some(0.0));
    let insert = [("operation", "insert"), ("store", "sqlite")];
    assert_eq!(
        value(&samples, "store_operation_duration_seconds_count", &insert),
        Some(1.0)
    );
    let find = [("operation", "find_one"), ("store", "sqlite")];
    assert_eq!(
        value(&samples, "store_operation_duration_seconds_count", &find),
        Some(2.0)
    );
    let insert_errors = [
        ("operation", "insert"),
        ("store", "sqlite"),
        ("kind", "unavailable"),
    ];
    assert_eq!(
        value(&samples, "store_errors_total", &insert_errors),
        Some(0.0),
        "every series exists from the start"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_outage_moves_the_store_metrics_and_its_error_line_carries_the_request_id() {
    let dir = TempDir::new("obs-outage");
    let service = start(&dir, &["--metrics"]);
    let addr = service.addr;
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"before"}"#)
            .await
            .status,
        200
    );

    // The outage: another process holds the database's write lock, so the service's writer waits
    // its busy timeout (5 s) and gives up: 503.
    let db = dir.path().join("birds.db");
    let locker = rusqlite::Connection::open(&db).expect("open the store's file");
    locker
        .execute_batch("BEGIN EXCLUSIVE")
        .expect("take the write lock");
    let started = Instant::now();
    let refused = send(
        addr,
        "POST",
        "/api/bird/",
        &[("Content-Type", "application/json"), ("X-Request-Id", "outage-1")],
        Some(br#"{"name":"during"}"#),
    )
    .await;
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.header("x-request-id"), Some("outage-1"));
    locker.execute_batch("ROLLBACK").expect("release the lock");
    drop(locker);
    assert!(
        started.elapsed() >= Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );

    let line = line_with(&service, "store operation failed");
    assert!(
        line.contains("request_id=outage-1"),
        "the error line is in the request's span: {line}"
    );
    line_with(&service, "POST /api/bird/ 503 ");

    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"after"}"#)
            .await
            .status,
        200
    );
    let text = scrape(addr).await;
    let errors = r#"store_errors_total{operation="insert",store="sqlite",kind="unavailable"} 1"#;
    assert!(text.lines().any(|l| l == errors), "{text}");
    let timed = r#"store_operation_duration_seconds_count{operation="insert",store="sqlite"} 3"#;
    assert!(
        text.lines().any(|l| l == timed),
        "failed operations are timed too: {text}"
    );
    let refused = r#"http_requests_total{method="POST",route="/api/bird",status="503"} 1"#;
    assert!(text.lines().any(|l| l == refused), "{text}");
    if let Some(samples) = parse_with_prometheus_client(&text) {
        // Two fast inserts within a second; the failed one waited 5 s.
        let within_a_second = samples.iter().find(|s| {
            s.name == "store_operation_duration_seconds_bucket"
                && s.labels.get("operation").and_then(Value::as_str) == Some("insert")
                && s.labels
                    .get("le")
                    .and_then(Value::as_str)
                    .and_then(|le| le.parse::<f64>().ok())
                    == Some(1.0)
        });
        assert_eq!(within_a_second.map(|s| s.value), Some(2.0), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mongodb_outage_moves_the_store_metrics() {
    let Some((relay, store, conn)) = relayed_mongo_store("obs_outage", Duration::from_millis(1500)).await
    else {
        return;
    };
    // As `main` does with --metrics.
    let mut metrics = Metrics::new();
    let store = Store(Arc::new(MeteredStore::new(store.0, metrics.registry())));
    let db = Db::prepare(store, conn.effective()).await.expect("prepare");
    let addr = spawn(app(Group::B, Some(db)).request_ids(true).metrics(metrics)).await;
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"before"}"#)
            .await
            .status,
        200
    );

    relay.set_up(false);
    let refused = send_json(addr, "POST", "/api/bird/", r#"{"name":"during"}"#).await;
    assert_eq!(refused.status, 503, "{}", refused.text());
    relay.set_up(true);
    let restored = Instant::now();
    while send_json(addr, "POST", "/api/bird/", r#"{"name":"after"}"#)
        .await
        .status
        != 200
    {
        assert!(restored.elapsed() < Duration::from_secs(20), "no recovery");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let text = scrape(addr).await;
    let errors = r#"store_errors_total{operation="insert",store="mongodb",kind="unavailable"} "#;
    let count: f64 = text
        .lines()
        .find_map(|line| line.strip_prefix(errors)?.parse().ok())
        .unwrap_or_else(|| panic!("no {errors}in {text}"));
    assert!(count >= 1.0, "{text}");
    if let Some(samples) = parse_with_prometheus_client(&text) {
        let insert = [("operation", "insert"), ("store", "mongodb")];
        let timed = value(&samples, "store_operation_duration_seconds_count", &insert).unwrap_or(0.0);
        assert!(timed >= 3.0, "every insert is timed, failed ones too: {text}");
        let refused = [("method", "POST"), ("route", "/api/bird"), ("status", "503")];
        assert!(
            value(&samples, "http_requests_total", &refused).is_some_and(|n| n >= 1.0),
            "{text}"
        );
    }
}
