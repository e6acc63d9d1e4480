//! Safe writes across processes: three real `resource-api` processes over one store (one SQLite
//! file; one MongoDB database). Writers read a doctor through one process, change it, and `PUT`
//! it with `If-Match` through another, all at once: afterwards no update was lost (each doctor's
//! counter equals the number of 2xx writes it got, and its version one more), and every write
//! that met a newer version got 412. Bookings with `Idempotency-Key` sent to one process and
//! retried through the others, at once: each key booked exactly one visit, and every retry got
//! the first answer.
//!
//! Bookings sent to a process that is SIGKILLed after writing the visit and before keeping its
//! key's answer (a test-only fault point stops it there, every time), then retried through the
//! other two once the key's lease (short here) is over: each key still booked exactly one visit,
//! and every retry got the same visit.
//!
//! Rules enforced here: every status is one the route may answer (200/412 for the writes,
//! 201/409 for the bookings), never a 5xx; the figures (writes, conflicts, replays) are printed.

use std::net::SocketAddr;
use std::time::Duration;

use ferrapi_tests::client::{send, try_send, try_send_json, Reply};
use serde_json::{json, Value};

use crate::support::process::Service;
use crate::support::{mongo_uri, TempDir};

const PROCESSES: usize = 3;
const DOCTORS: usize = 3;
const WRITERS: usize = 6;
const WRITES_PER_WRITER: usize = 6;
const KEYS: usize = 8;
const RUST_LOG: &str = "warn,ferrapi::server=info";

async fn create(addr: SocketAddr, collection: &str, body: Value) -> String {
    let reply = try_send_json(addr, "POST", &format!("/{collection}"), Some(&body.to_string()))
        .await
        .expect("a reply");
    assert_eq!(reply.status, 201, "{}", reply.text());
    reply.json()["id"].as_str().expect("an id").to_owned()
}

/// The counter a doctor's name holds (`"n<count>"`).
fn count(doctor: &Value) -> usize {
    doctor["name"]
        .as_str()
        .and_then(|name| name.strip_prefix('n'))
        .and_then(|n| n.parse().ok())
        .expect("a counter name")
}

/// One writer: `WRITES_PER_WRITER` successful increments of doctors, reading through one process
/// and writing through the next, re-reading after each 412. Its successes and conflicts per doctor.
async fn writer(addrs: Vec<SocketAddr>, doctors: Vec<String>, seed: usize) -> (Vec<usize>, usize) {
    let mut done = vec![0; doctors.len()];
    let mut conflicts = 0;
    for n in 0..WRITES_PER_WRITER {
        let which = (seed + n) % doctors.len();
        let path = format!("/doctors/{}", doctors[which]);
        loop {
            let read_at = addrs[(seed + n) % addrs.len()];
            let write_at = addrs[(seed + n + 1) % addrs.len()];
            let read = send(read_at, "GET", &path, &[], None).await;
            assert_eq!(read.status, 200, "{}", read.text());
            let etag = read.header("etag").expect("an ETag").to_owned();
            let next = count(&read.json()) + 1;
            let body = json!({"name": format!("n{next}"), "specialty": "cardiology"}).to_string();
            let headers = [("Content-Type", "application/json"), ("If-Match", etag.as_str())];
            let reply = send(write_at, "PUT", &path, &headers, Some(body.as_bytes())).await;
            match reply.status {
                200 => {
                    done[which] += 1;
                    break;
                }
                412 => conflicts += 1,
                other => panic!("PUT {path}: {other} {}", reply.text()),
            }
        }
    }
    (done, conflicts)
}

async fn no_update_is_lost(db: &str) {
    let services: Vec<Service> = (0..PROCESSES)
        .map(|_| Service::start_logging(db, "a", RUST_LOG))
        .collect();
    let addrs: Vec<SocketAddr> = services.iter().map(|s| s.addr).collect();
    let mut doctors = Vec::new();
    for _ in 0..DOCTORS {
        doctors.push(
            create(
                addrs[0],
                "doctors",
                json!({"name": "n0", "specialty": "cardiology"}),
            )
            .await,
        );
    }
    let writers: Vec<_> = (0..WRITERS)
        .map(|seed| tokio::spawn(writer(addrs.clone(), doctors.clone(), seed)))
        .collect();
    let mut succeeded = vec![0; DOCTORS];
    let mut conflicts = 0;
    for writer in writers {
        let (done, conflicted) = writer.await.expect("a writer");
        for (total, n) in succeeded.iter_mut().zip(done) {
            *total += n;
        }
        conflicts += conflicted;
    }
    for (doctor, writes) in doctors.iter().zip(&succeeded) {
        let read = send(addrs[2], "GET", &format!("/doctors/{doctor}"), &[], None).await;
        assert_eq!(
            count(&read.json()),
            *writes,
            "every 2xx write of {doctor} is reflected"
        );
        assert_eq!(read.header("etag"), Some(format!("\"{}\"", writes + 1).as_str()));
    }
    println!(
        "safe writes: {} writes through {PROCESSES} processes, {conflicts} answered 412 and retried",
        succeeded.iter().sum::<usize>()
    );
}

/// A doctor and a patient to book visits of, created through `addr`: their ids.
async fn doctor_and_patient(addr: SocketAddr) -> (String, String) {
    let doctor = create(addr, "doctors", json!({"name": "Ada", "specialty": "cardiology"})).await;
    let patient = create(
        addr,
        "patients",
        json!({"name": "Bob", "date_of_birth": "1990-01-01"}),
    )
    .await;
    (doctor, patient)
}

/// The visits of `doctor`, listed through `addr`.
async fn visits_of(addr: SocketAddr, doctor: &str) -> Vec<Value> {
    let path = format!("/visits?doctor_id={doctor}&limit=100");
    let reply = send(addr, "GET", &path, &[], None).await;
    reply.json().as_array().cloned().expect("a list")
}

/// The replies of `attempts` (each tagged with its key's number), grouped by key.
async fn by_key(attempts: Vec<tokio::task::JoinHandle<(usize, Reply)>>, keys: usize) -> Vec<Vec<Reply>> {
    let mut answers: Vec<Vec<Reply>> = vec![Vec::new(); keys];
    for attempt in attempts {
        let (k, reply) = attempt.await.expect("an attempt");
        answers[k].push(reply);
    }
    answers
}

/// Book with `key` through `addr` until the answer is not 409 (the first attempt still running).
async fn book(addr: SocketAddr, key: &str, body: &str) -> Reply {
    for _ in 0..400 {
        let headers = [("Content-Type", "application/json"), ("Idempotency-Key", key)];
        let reply = send(addr, "POST", "/visits", &headers, Some(body.as_bytes())).await;
        match reply.status {
            201 => return reply,
            409 => tokio::time::sleep(Duration::from_millis(20)).await,
            other => panic!("POST /visits with {key}: {other} {}", reply.text()),
        }
    }
    panic!("{key} stayed 409")
}

async fn each_key_books_once(db: &str) {
    let services: Vec<Service> = (0..PROCESSES)
        .map(|_| Service::start_logging(db, "a", RUST_LOG))
        .collect();
    let addrs: Vec<SocketAddr> = services.iter().map(|s| s.addr).collect();
    let (doctor, patient) = doctor_and_patient(addrs[0]).await;
    let attempts: Vec<_> = (0..KEYS)
        .flat_map(|k| (0..PROCESSES).map(move |p| (k, p)))
        .map(|(k, p)| {
            let addr = addrs[(k + p) % PROCESSES];
            let body = json!({
                "doctor_id": doctor, "patient_id": patient,
                "start_time": format!("2030-01-{:02}T10:00:00Z", k + 1),
                "duration_minutes": 30, "reason": "check"
            })
            .to_string();
            tokio::spawn(async move { (k, book(addr, &format!("key-{k}"), &body).await) })
        })
        .collect();
    let answers = by_key(attempts, KEYS).await;
    let mut replays = 0;
    for (k, replies) in answers.iter().enumerate() {
        let fresh = replies
            .iter()
            .filter(|r| r.header("idempotent-replayed").is_none())
            .count();
        assert_eq!(fresh, 1, "key-{k} ran once");
        replays += replies.len() - fresh;
        let first = replies[0].text();
        assert!(
            replies.iter().all(|r| r.text() == first),
            "key-{k}: every attempt got the first answer"
        );
    }
    let visits = visits_of(addrs[1], &doctor).await;
    assert_eq!(Some(visits.len()), Some(KEYS), "one visit per key");
    println!(
        "idempotency: {KEYS} keys, {} attempts, {replays} replayed",
        KEYS * PROCESSES
    );
}

/// The lease of a key in the crash test, in milliseconds: short, so retries run soon after it.
const LEASE_MS: &str = "1500";
/// How many keys the crash test books.
const CRASH_KEYS: usize = 4;

fn booking(doctor: &str, patient: &str, day: usize) -> String {
    json!({
        "doctor_id": doctor, "patient_id": patient,
        "start_time": format!("2031-02-{day:02}T09:30:00Z"),
        "duration_minutes": 20, "reason": "crash"
    })
    .to_string()
}

async fn each_key_books_once_after_a_sigkill(db: &str) {
    let lease = ["--idempotency-lease-ms", LEASE_MS];
    let fault = [("RESOURCE_API_TEST_FAULT", "hang-after-booking")];
    let doomed = Service::start_env(db, "a", RUST_LOG, &lease, &fault);
    let others: Vec<Service> = (0..PROCESSES - 1)
        .map(|_| Service::start_with(db, "a", RUST_LOG, &lease))
        .collect();
    let addrs: Vec<SocketAddr> = others.iter().map(|s| s.addr).collect();
    let (doctor, patient) = doctor_and_patient(addrs[0]).await;

    // Every first attempt reaches the doomed process, which books the visit and stops there.
    let first_attempts: Vec<_> = (0..CRASH_KEYS)
        .map(|k| {
            let (addr, body) = (doomed.addr, booking(&doctor, &patient, k + 1));
            tokio::spawn(async move {
                let key = format!("crash-{k}");
                let headers = [
                    ("Content-Type", "application/json"),
                    ("Idempotency-Key", key.as_str()),
                ];
                try_send(addr, "POST", "/visits", &headers, Some(body.as_bytes())).await
            })
        })
        .collect();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while doomed
        .lines()
        .iter()
        .filter(|line| line.contains("test fault: a visit is booked"))
        .count()
        < CRASH_KEYS
    {
        assert!(
            std::time::Instant::now() < deadline,
            "every first attempt booked within 30 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let booked = visits_of(addrs[0], &doctor).await;
    assert_eq!(Some(booked.len()), Some(CRASH_KEYS), "booked before the kill");
    doomed.kill();
    for attempt in first_attempts {
        let reply = attempt.await.expect("a first attempt");
        assert!(
            reply.is_err(),
            "the killed process never answered: {:?}",
            reply.map(|r| r.status)
        );
    }

    // The retries, through both other processes at once: 409 until the lease ends, then 201.
    let retries: Vec<_> = (0..CRASH_KEYS)
        .flat_map(|k| addrs.iter().map(move |addr| (k, *addr)))
        .map(|(k, addr)| {
            let body = booking(&doctor, &patient, k + 1);
            tokio::spawn(async move { (k, book(addr, &format!("crash-{k}"), &body).await) })
        })
        .collect();
    let answers = by_key(retries, CRASH_KEYS).await;
    let visits = visits_of(addrs[1], &doctor).await;
    let listed: Vec<&str> = visits.iter().filter_map(|visit| visit["id"].as_str()).collect();
    assert_eq!(
        listed.len(),
        CRASH_KEYS,
        "one visit per key, the retries booked none"
    );
    for (k, replies) in answers.iter().enumerate() {
        let first = replies[0].text();
        assert!(replies.iter().all(|r| r.text() == first), "crash-{k}: one answer");
        let id = replies[0].json()["id"].as_str().expect("an id").to_owned();
        assert!(
            listed.contains(&id.as_str()),
            "crash-{k} answered the visit it booked"
        );
        assert_eq!(
            replies[0].header("location"),
            Some(format!("/visits/{id}").as_str())
        );
    }
    println!("idempotency after SIGKILL: {CRASH_KEYS} keys, each one visit");
}

mod embedded {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_update_is_lost_across_three_processes() {
        let dir = TempDir::new("safe_writes");
        no_update_is_lost(&dir.sqlite("clinic.db")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_key_books_once_across_three_processes() {
        let dir = TempDir::new("safe_keys");
        each_key_books_once(&dir.sqlite("clinic.db")).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_key_books_once_after_a_sigkill() {
        let dir = TempDir::new("safe_crash");
        super::each_key_books_once_after_a_sigkill(&dir.sqlite("clinic.db")).await;
    }
}

mod mongodb {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_update_is_lost_across_three_processes() {
        let Some(uri) = mongo_uri("safe_writes") else {
            return;
        };
        no_update_is_lost(&uri).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_key_books_once_across_three_processes() {
        let Some(uri) = mongo_uri("safe_keys") else {
            return;
        };
        each_key_books_once(&uri).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_key_books_once_after_a_sigkill() {
        let Some(uri) = mongo_uri("safe_crash") else {
            return;
        };
        super::each_key_books_once_after_a_sigkill(&uri).await;
    }
}
