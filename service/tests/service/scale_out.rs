//! Scale-out: three real `resource-api` processes over one store (one SQLite file; one MongoDB
//! database), driven through all three at once. The clinic's references must hold whatever the
//! interleaving: bookings, replacements and deletions of doctors, patients and visits race each
//! other through different processes for a few seconds, then every visit must name an existing
//! doctor and patient, no request may have answered 5xx, and nothing may be left stuck (a doctor
//! or patient without visits can be deleted, one with visits can be booked). The same with one
//! process SIGKILLed in the middle of the run and restarted. And birds of one name inserted
//! through different processes: every lookup, through any process, returns the one inserted first.
//!
//! Rules enforced here: each race round creates its own doctor and patient and books them through
//! every process while deleting them through one, the way the issue reproduced the orphans; the
//! run is bounded in time ([`RUN_FOR`], longer only until [`MIN_ROUNDS`] rounds ran, and never
//! beyond [`MAX_RUN`]: the MongoDB test server commits about a hundred writes a second, one at a
//! time, so a round there takes a second or more); the delays that stagger a round's requests
//! scale with how long the store takes to answer (a write, a booking), so bookings and deletions
//! really overlap on a slow store too; every status is checked against the ones the route may
//! answer, and a 5xx or an unexpected status fails the test with the request that got it; a
//! refused connection counts as a failure except to the process the test killed; the figures
//! (rounds, bookings, orphans) are printed so a run can be compared with another.

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use ferrapi_tests::client::try_send_json;
use serde_json::{json, Value};

use crate::support::process::Service;
use crate::support::{mongo_uri, unique, TempDir};

/// How many service processes share the store.
const PROCESSES: usize = 3;
/// How long the racing workload runs.
const RUN_FOR: Duration = Duration::from_secs(4);
/// Rounds the run goes on for, past [`RUN_FOR`] if the store is slow…
const MIN_ROUNDS: usize = 12;
/// …but never past this.
const MAX_RUN: Duration = Duration::from_secs(20);
/// Race rounds run at once (each a burst of concurrent requests).
const RUNNERS: usize = 3;
/// Bookings per race round, spread over the processes.
const BOOKINGS_PER_ROUND: usize = 6;
/// The services log only warnings, and the line with their address.
const RUST_LOG: &str = "warn,ferrapi::server=info";

/// A small xorshift generator (the tests have no `rand`); its seed is printed with the figures.
struct Rng(u64);

impl Rng {
    fn seeded(salt: u64) -> Rng {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        Rng((nanos ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> Option<T> {
        (!items.is_empty()).then(|| items[self.below(items.len())].clone())
    }
}

/// The processes over one store; one of them may be down (killed) for a while.
struct Fleet {
    db: String,
    services: Mutex<Vec<Option<Service>>>,
    addrs: RwLock<Vec<Option<SocketAddr>>>,
}

impl Fleet {
    fn start(db: &str) -> Arc<Fleet> {
        let services: Vec<Option<Service>> = (0..PROCESSES)
            .map(|_| Some(Service::start_logging(db, "all", RUST_LOG)))
            .collect();
        let addrs = services.iter().map(|s| s.as_ref().map(|s| s.addr)).collect();
        Arc::new(Fleet {
            db: db.to_owned(),
            services: Mutex::new(services),
            addrs: RwLock::new(addrs),
        })
    }

    fn addr(&self, process: usize) -> Option<SocketAddr> {
        self.addrs.read().unwrap()[process % PROCESSES]
    }

    /// SIGKILL process `i`: nothing it was doing is finished or undone.
    fn kill(&self, i: usize) {
        self.addrs.write().unwrap()[i] = None;
        let service = self.services.lock().unwrap()[i].take();
        if let Some(service) = service {
            service.kill();
        }
    }

    /// Start process `i` again on the same store (a new port).
    fn restart(&self, i: usize) {
        let service = Service::start_logging(&self.db, "all", RUST_LOG);
        self.addrs.write().unwrap()[i] = Some(service.addr);
        self.services.lock().unwrap()[i] = Some(service);
    }
}

/// What the workload saw: statuses per operation, and every failure worth reporting.
#[derive(Default)]
struct Tally {
    statuses: HashMap<(&'static str, u16), usize>,
    failures: Vec<String>,
    refused: usize,
}

/// Everything the workload created (deleted ones too: they are the ids races are about).
#[derive(Default)]
struct Pools {
    doctors: Vec<String>,
    patients: Vec<String>,
    visits: Vec<String>,
}

struct Workload {
    fleet: Arc<Fleet>,
    tally: Mutex<Tally>,
    pools: Mutex<Pools>,
    /// The process the test kills, whose refused connections are expected.
    killed: Option<usize>,
    rounds: std::sync::atomic::AtomicUsize,
    /// How long the latest booking took to answer (µs): the scale of the deletions' staggering.
    booking_micros: std::sync::atomic::AtomicU64,
}

impl Workload {
    /// One request through `process`; `expected` lists the statuses the route may answer. `None`
    /// when the process is down or the connection failed.
    async fn call(
        &self,
        process: usize,
        op: &'static str,
        method: &str,
        path: &str,
        body: Option<Value>,
        expected: &[u16],
    ) -> Option<(u16, Value)> {
        let process = process % PROCESSES;
        let addr = self.fleet.addr(process)?;
        let body = body.map(|b| b.to_string());
        match try_send_json(addr, method, path, body.as_deref()).await {
            Ok(reply) => {
                let json = reply.maybe_json().unwrap_or(Value::Null);
                let mut tally = self.tally.lock().unwrap();
                *tally.statuses.entry((op, reply.status)).or_default() += 1;
                if !expected.contains(&reply.status) {
                    tally.failures.push(format!(
                        "{method} {path} through process {process} answered {}: {}",
                        reply.status,
                        reply.text()
                    ));
                }
                Some((reply.status, json))
            }
            Err(err) => {
                let mut tally = self.tally.lock().unwrap();
                tally.refused += 1;
                if self.killed != Some(process) {
                    tally
                        .failures
                        .push(format!("{method} {path} through process {process}: {err}"));
                }
                None
            }
        }
    }

    async fn create(&self, process: usize, collection: &'static str, body: Value) -> Option<String> {
        let (status, created) = self
            .call(
                process,
                collection,
                "POST",
                &format!("/{collection}"),
                Some(body),
                &[201],
            )
            .await?;
        (status == 201).then(|| created["id"].as_str().map(str::to_owned))?
    }

    /// One race round: a fresh doctor and patient booked through every process while both are
    /// deleted through one; older visits moved onto them; an older doctor deleted; a visit
    /// cancelled.
    async fn round(self: &Arc<Self>, rng: &mut Rng, round: usize) {
        let p = rng.below(PROCESSES);
        let started = Instant::now();
        let specialty = ["cardiology", "neurology", "surgery"][round % 3];
        let doctor = self
            .create(
                p,
                "doctors",
                json!({"name": format!("D{round}"), "specialty": specialty}),
            )
            .await;
        let patient = self
            .create(
                p + 1,
                "patients",
                json!({"name": format!("P{round}"), "date_of_birth": "1990-01-01"}),
            )
            .await;
        let (Some(doctor), Some(patient)) = (doctor, patient) else {
            return;
        };
        // What one write costs now: the scale of this round's staggering.
        let latency = started.elapsed() / 2;
        let (older_visit, older_doctor, cancelled) = {
            let mut pools = self.pools.lock().unwrap();
            pools.doctors.push(doctor.clone());
            pools.patients.push(patient.clone());
            (
                rng.pick(&pools.visits),
                rng.pick(&pools.doctors),
                rng.pick(&pools.visits),
            )
        };
        let visit = |doctor: &str, patient: &str, reason: &str| {
            json!({"doctor_id": doctor, "patient_id": patient,
                   "start_time": "2024-05-01T09:30:00Z", "reason": reason})
        };
        let mut tasks = tokio::task::JoinSet::new();
        for k in 0..BOOKINGS_PER_ROUND {
            let (this, body) = (self.clone(), visit(&doctor, &patient, "race"));
            let delay = stagger(rng, latency / 2);
            tasks.spawn(async move {
                tokio::time::sleep(delay).await;
                let sent = Instant::now();
                let booked = this
                    .call(p + k, "book", "POST", "/visits", Some(body), &[201, 422])
                    .await;
                let took = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
                this.booking_micros
                    .store(took, std::sync::atomic::Ordering::Relaxed);
                if let Some((201, created)) = booked {
                    if let Some(id) = created["id"].as_str() {
                        this.pools.lock().unwrap().visits.push(id.to_owned());
                    }
                }
            });
        }
        // Deletions land anywhere from before the first booking is answered to after the last:
        // the window is about as long as a booking takes on this store, with this code.
        let booking = match self.booking_micros.load(std::sync::atomic::Ordering::Relaxed) {
            0 => latency * 2,
            micros => Duration::from_micros(micros),
        };
        for (collection, id) in [("doctors", doctor.clone()), ("patients", patient.clone())] {
            let this = self.clone();
            let process = rng.below(PROCESSES);
            let delay = stagger(rng, booking * 3 / 2);
            tasks.spawn(async move {
                tokio::time::sleep(delay).await;
                let path = format!("/{collection}/{id}");
                // 404 too: another round may have picked this doctor as its older one.
                this.call(process, collection, "DELETE", &path, None, &[204, 404, 409])
                    .await;
            });
        }
        if let Some(older) = older_visit {
            // Moved onto the doctor being deleted (and the patient), through another process.
            let (this, body) = (self.clone(), visit(&doctor, &patient, "moved"));
            let process = rng.below(PROCESSES);
            tasks.spawn(async move {
                let path = format!("/visits/{older}");
                this.call(process, "move", "PUT", &path, Some(body), &[200, 404, 422])
                    .await;
            });
        }
        if let Some(older) = older_doctor {
            let this = self.clone();
            let process = rng.below(PROCESSES);
            tasks.spawn(async move {
                let path = format!("/doctors/{older}");
                this.call(process, "doctors", "DELETE", &path, None, &[204, 404, 409])
                    .await;
            });
        }
        if let Some(cancelled) = cancelled.filter(|_| rng.below(3) == 0) {
            let this = self.clone();
            let process = rng.below(PROCESSES);
            tasks.spawn(async move {
                let path = format!("/visits/{cancelled}");
                this.call(process, "cancel", "DELETE", &path, None, &[204, 404])
                    .await;
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.expect("a request task");
        }
    }
}

/// A random delay of up to `most`.
fn stagger(rng: &mut Rng, most: Duration) -> Duration {
    let most = u64::try_from(most.as_micros()).unwrap_or(u64::MAX).max(1);
    Duration::from_micros(rng.next() % most)
}

/// Every page of a list, through `addr`.
async fn list_all(addr: SocketAddr, collection: &str) -> Vec<Value> {
    let mut all = Vec::new();
    loop {
        let path = format!("/{collection}?limit=100&skip={}", all.len());
        let reply = try_send_json(addr, "GET", &path, None)
            .await
            .expect("a list reply");
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        let page = reply.json().as_array().cloned().expect("a JSON array");
        let done = page.len() < 100;
        all.extend(page);
        if done {
            return all;
        }
    }
}

fn ids(resources: &[Value]) -> HashSet<String> {
    resources
        .iter()
        .filter_map(|r| r["id"].as_str().map(str::to_owned))
        .collect()
}

/// Run the race rounds for [`RUN_FOR`] (killing and restarting process 1 half-way when `kill`),
/// then check the references and that nothing is stuck.
async fn races_keep_the_references(db: &str, kill: bool) {
    let fleet = tokio::task::spawn_blocking({
        let db = db.to_owned();
        move || Fleet::start(&db)
    })
    .await
    .expect("start the processes");
    let workload = Arc::new(Workload {
        fleet: fleet.clone(),
        tally: Mutex::default(),
        pools: Mutex::default(),
        killed: kill.then_some(1),
        rounds: Default::default(),
        booking_micros: Default::default(),
    });
    let seed = Rng::seeded(0).next();
    let start = Instant::now();
    let mut runners = tokio::task::JoinSet::new();
    for runner in 0..RUNNERS {
        let workload = workload.clone();
        runners.spawn(async move {
            let mut rng = Rng(seed ^ (runner as u64 + 1).wrapping_mul(0xA24B_AED4_963E_E407) | 1);
            loop {
                let ran = start.elapsed();
                let rounds = workload.rounds.load(std::sync::atomic::Ordering::Relaxed);
                // A booking races its round's deletions, so a run can refuse every one by
                // chance (seen once in CI: 17 rounds, 0 of 22 booked): it goes on, up to
                // MAX_RUN, until one is booked; none by then fails below.
                let booked = workload
                    .tally
                    .lock()
                    .unwrap()
                    .statuses
                    .contains_key(&("book", 201));
                if ran >= MAX_RUN || (ran >= RUN_FOR && rounds >= MIN_ROUNDS && booked) {
                    break;
                }
                let round = workload.rounds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                workload.round(&mut rng, round).await;
            }
        });
    }
    if kill {
        tokio::time::sleep(RUN_FOR * 2 / 5).await;
        let fleet = fleet.clone();
        tokio::task::spawn_blocking(move || {
            fleet.kill(1);
            std::thread::sleep(Duration::from_millis(300));
            fleet.restart(1);
        })
        .await
        .expect("kill and restart process 1");
    }
    while let Some(done) = runners.join_next().await {
        done.expect("a race runner");
    }

    // Every visit names an existing doctor and patient.
    let addr = fleet.addr(0).expect("process 0 is up");
    let doctors = ids(&list_all(addr, "doctors").await);
    let patients = ids(&list_all(addr, "patients").await);
    let visits = list_all(addr, "visits").await;
    let orphans: Vec<&Value> = visits
        .iter()
        .filter(|v| {
            !doctors.contains(v["doctor_id"].as_str().unwrap_or_default())
                || !patients.contains(v["patient_id"].as_str().unwrap_or_default())
        })
        .collect();
    let tally = std::mem::take(&mut *workload.tally.lock().unwrap());
    let rounds = workload.rounds.load(std::sync::atomic::Ordering::Relaxed);
    let count = |op: &'static str, status: u16| tally.statuses.get(&(op, status)).copied().unwrap_or(0);
    eprintln!(
        "{db}: {rounds} rounds (seed {seed}): bookings {} booked / {} refused; moves {} / {} / {}; \
         doctor deletions {} / {}, patient deletions {} / {}; {} refused connections; \
         {} visits left, {} orphaned",
        count("book", 201),
        count("book", 422),
        count("move", 200),
        count("move", 404),
        count("move", 422),
        count("doctors", 204),
        count("doctors", 409),
        count("patients", 204),
        count("patients", 409),
        tally.refused,
        visits.len(),
        orphans.len(),
    );
    assert!(
        tally.failures.is_empty(),
        "{} unexpected answers, e.g. {:?}",
        tally.failures.len(),
        &tally.failures[..tally.failures.len().min(5)]
    );
    assert!(rounds >= 4, "only {rounds} rounds ran");
    assert!(count("book", 201) > 0, "no booking succeeded");
    assert!(
        orphans.is_empty(),
        "{} visits name a deleted doctor or patient, e.g. {}",
        orphans.len(),
        orphans[0]
    );

    // Nothing is stuck: whatever a killed process left half-done, a doctor (patient) with visits
    // can be booked and refuses deletion, and one without visits can be deleted.
    let mut with_visits: HashMap<&str, usize> = HashMap::new();
    for visit in &visits {
        for field in ["doctor_id", "patient_id"] {
            *with_visits
                .entry(visit[field].as_str().unwrap_or_default())
                .or_default() += 1;
        }
    }
    let some_patient = patients.iter().next().cloned();
    for (n, doctor) in doctors.iter().enumerate() {
        let process = n % PROCESSES;
        let addr = fleet.addr(process).expect("every process is up");
        if with_visits.contains_key(doctor.as_str()) {
            let deleted = try_send_json(addr, "DELETE", &format!("/doctors/{doctor}"), None)
                .await
                .expect("a reply");
            assert_eq!(deleted.status, 409, "doctor {doctor}: {}", deleted.text());
            if let Some(patient) = &some_patient {
                let body = json!({"doctor_id": doctor, "patient_id": patient,
                                  "start_time": "2024-06-01T10:00:00Z", "reason": "after"});
                let booked = try_send_json(addr, "POST", "/visits", Some(&body.to_string()))
                    .await
                    .expect("a reply");
                assert_eq!(booked.status, 201, "booking doctor {doctor}: {}", booked.text());
            }
        } else {
            let deleted = try_send_json(addr, "DELETE", &format!("/doctors/{doctor}"), None)
                .await
                .expect("a reply");
            assert_eq!(deleted.status, 204, "doctor {doctor}: {}", deleted.text());
        }
    }
    for (n, patient) in patients.iter().enumerate() {
        let addr = fleet.addr(n % PROCESSES).expect("every process is up");
        if !with_visits.contains_key(patient.as_str()) && Some(patient) != some_patient.as_ref() {
            let deleted = try_send_json(addr, "DELETE", &format!("/patients/{patient}"), None)
                .await
                .expect("a reply");
            assert_eq!(deleted.status, 204, "patient {patient}: {}", deleted.text());
        }
    }
}

/// Birds of one name inserted through the processes in turn (each answered before the next is
/// sent), then looked up through every process: the first inserted is the one found. Then bursts
/// of concurrent same-name inserts: once all are answered, every process finds the same one.
async fn first_inserted_bird_wins(db: &str) {
    let fleet = tokio::task::spawn_blocking({
        let db = db.to_owned();
        move || Fleet::start(&db)
    })
    .await
    .expect("start the processes");
    let insert = |process: usize, name: String, k: usize| {
        let addr = fleet.addr(process).expect("up");
        async move {
            let body = json!({"name": name, "k": k}).to_string();
            let reply = try_send_json(addr, "POST", "/api/bird/", Some(&body))
                .await
                .expect("a reply");
            assert_eq!(reply.status, 200, "{}", reply.text());
            reply.json()["id"].as_str().expect("an id").to_owned()
        }
    };
    let lookup = |process: usize, name: String| {
        let addr = fleet.addr(process).expect("up");
        async move {
            let reply = try_send_json(addr, "GET", &format!("/api/bird/{name}"), None)
                .await
                .expect("a reply");
            assert_eq!(reply.status, 200, "{}", reply.text());
            reply.json()["_id"].as_str().expect("an _id").to_owned()
        }
    };
    let tag = unique("bird");
    let mut wrong = Vec::new();
    const SEQUENTIAL: usize = 24;
    for round in 0..SEQUENTIAL {
        let name = format!("{tag}-seq-{round}");
        let mut inserted = Vec::new();
        for k in 0..PROCESSES {
            inserted.push(insert((round + k) % PROCESSES, name.clone(), k).await);
        }
        for process in 0..PROCESSES {
            let found = lookup(process, name.clone()).await;
            if found != inserted[0] {
                wrong.push(format!(
                    "{name} through process {process}: {found}, not the first inserted {}",
                    inserted[0]
                ));
            }
        }
    }
    const CONCURRENT: usize = 8;
    let mut disagreements = Vec::new();
    for round in 0..CONCURRENT {
        let name = format!("{tag}-burst-{round}");
        let inserted =
            futures_join_all((0..3 * PROCESSES).map(|k| insert(k % PROCESSES, name.clone(), k))).await;
        let found = futures_join_all((0..PROCESSES).map(|process| lookup(process, name.clone()))).await;
        let first = &found[0];
        if !inserted.contains(first) || found.iter().any(|f| f != first) {
            disagreements.push(format!("{name}: lookups found {found:?}"));
        }
    }
    eprintln!(
        "{db}: {SEQUENTIAL} names inserted through the processes in turn, {} lookups not the first \
         inserted; {CONCURRENT} concurrent bursts, {} with lookups that disagree",
        wrong.len(),
        disagreements.len()
    );
    assert!(
        wrong.is_empty(),
        "{} wrong lookups, e.g. {}",
        wrong.len(),
        wrong[0]
    );
    assert!(disagreements.is_empty(), "{disagreements:?}");
}

/// Await every future, in order (the tests have no `futures` crate).
async fn futures_join_all<F, T>(futures: impl IntoIterator<Item = F>) -> Vec<T>
where
    F: std::future::Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.expect("a task"));
    }
    out
}

mod embedded {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clinic_references_hold_across_three_processes() {
        let dir = TempDir::new("scale_out");
        races_keep_the_references(&dir.sqlite("clinic.db"), false).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clinic_references_hold_when_a_process_is_killed() {
        let dir = TempDir::new("scale_out_kill");
        races_keep_the_references(&dir.sqlite("clinic.db"), true).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn first_inserted_bird_is_exact_across_processes() {
        let dir = TempDir::new("scale_out_birds");
        first_inserted_bird_wins(&dir.sqlite("birds.db")).await;
    }
}

mod mongodb {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clinic_references_hold_across_three_processes() {
        let Some(uri) = mongo_uri("scale_out") else {
            return;
        };
        races_keep_the_references(&uri, false).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn clinic_references_hold_when_a_process_is_killed() {
        let Some(uri) = mongo_uri("scale_out_kill") else {
            return;
        };
        races_keep_the_references(&uri, true).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn first_inserted_bird_is_exact_across_processes() {
        let Some(uri) = mongo_uri("scale_out_birds") else {
            return;
        };
        first_inserted_bird_wins(&uri).await;
    }
}
