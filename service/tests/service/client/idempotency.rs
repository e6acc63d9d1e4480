//! A visit booked exactly once across a crash, by the generated client alone: two real
//! `resource-api` processes over one store behind a relay (a load balancer that sends each new
//! connection to the first process that accepts it). The first process books the visit and is
//! SIGKILLed before it answers (a test-only fault point stops it there); the client, which sent
//! the booking with an `Idempotency-Key` of its own making, sees the connection break and retries
//! with the same key: the relay now reaches the second process, which answers 409 while the
//! dead process's lease on the key lasts, then finds the visit the first booked and answers it.
//! One visit, and the client got it. On both stores.
//!
//! Everything at its defaults (issue 43, item 3): the service's lease (6 s, renewed every 2 s
//! while the booking runs) and the client's `RetryPolicy` (4 attempts, 30 s). While the doomed
//! process hangs alive, its key stays held past a whole lease (it renews it): another request
//! with the key gets 409 with `Retry-After`; once it is killed, its key frees a lease later.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi_client::{Call as _, Client as Runtime, Nullable, RetryPolicy};
use resource_api_client::types::{DoctorIn, PatientIn, Specialty, VisitIn};
use resource_api_client::Client;
use tokio::net::{TcpListener, TcpStream};

use crate::support::process::Service;
use crate::support::{mongo_uri, TempDir};

const RUST_LOG: &str = "warn,ferrapi::server=info";
/// The service's default lease, which a live holder renews and a dead one's key outlives by.
const LEASE: Duration = resource_api::idempotency::LEASE;
/// The booking's key: the client's, chosen here so that the test can send it too.
const KEY: &str = "crash-visit-1";

/// A relay on a free port to the first of `backends` that accepts each connection.
async fn relay(backends: Vec<SocketAddr>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the relay");
    let addr = listener.local_addr().expect("the relay's address");
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            let backends = backends.clone();
            tokio::spawn(async move {
                for backend in backends {
                    if let Ok(mut outbound) = TcpStream::connect(backend).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                        return;
                    }
                }
            });
        }
    });
    addr
}

async fn booked_once_across_a_kill(db: &str) {
    let doomed = Service::start_env(
        db,
        "a",
        RUST_LOG,
        &[],
        &[("RESOURCE_API_TEST_FAULT", "hang-after-booking")],
    );
    let survivor = Service::start_with(db, "a", RUST_LOG, &[]);
    let direct = super::client(survivor.addr);
    let doctor = direct
        .create_doctor(&DoctorIn {
            name: "Ada".into(),
            specialty: Specialty::Cardiology,
            email: Nullable::Absent,
        })
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    let patient = direct
        .create_patient(&PatientIn {
            name: "Bob".into(),
            date_of_birth: "1990-01-01".parse().unwrap(),
            phone: Nullable::Absent,
        })
        .await
        .unwrap()
        .into_ok()
        .unwrap();

    // The client of the deployment, with the default settings.
    let balanced = relay(vec![doomed.addr, survivor.addr]).await;
    let runtime = Runtime::builder(&format!("http://{balanced}")).build().unwrap();
    let api = Client::from_client(runtime);
    let booking = VisitIn {
        doctor_id: doctor.id.clone(),
        patient_id: patient.id.clone(),
        start_time: "2031-02-03T09:30:00Z".parse().unwrap(),
        duration_minutes: Some(20),
        reason: "crash".into(),
        notes: Nullable::Absent,
    };
    let probe = booking.clone();
    let call = tokio::spawn(async move { api.create_visit(&booking).idempotency_key(KEY).await });

    // The first attempt reaches the doomed process, which books and stops before answering.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !doomed.logged("test fault: a visit is booked") {
        assert!(Instant::now() < deadline, "the first attempt booked within 30 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Past a whole lease, the live (hung) holder still holds its key, renewed: the same request
    // at the other process is told 409, and when its lease ends.
    tokio::time::sleep(LEASE + Duration::from_secs(1)).await;
    let held = direct
        .create_visit(&probe)
        .idempotency_key(KEY)
        .with_retry(RetryPolicy::none())
        .await
        .unwrap();
    let retry_after = held.headers().get("retry-after").and_then(|v| v.to_str().ok());
    let wait: u64 = retry_after.and_then(|v| v.parse().ok()).unwrap_or(0);
    assert_eq!(held.status(), 409, "{held:?}");
    assert!(
        (1..=LEASE.as_secs()).contains(&wait),
        "Retry-After {retry_after:?}"
    );

    doomed.kill();
    let killed = Instant::now();
    let answer = call
        .await
        .expect("the call's task")
        .expect("an answer after the retries");
    let took = killed.elapsed();
    assert_eq!(answer.status(), 201, "{answer:?}");
    println!("killed-process booking: Created {took:?} after the kill");
    let visit = answer.into_ok().unwrap();
    let visits = direct
        .list_visits()
        .doctor_id(doctor.id.clone())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    assert_eq!(
        visits,
        [visit],
        "one visit: the one the killed process booked, answered by the retry"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_booking_survives_a_killed_process() {
    let dir = TempDir::new("client_crash");
    booked_once_across_a_kill(&dir.sqlite("clinic.db")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mongodb_booking_survives_a_killed_process() {
    let Some(uri) = mongo_uri("client_crash") else {
        return;
    };
    booked_once_across_a_kill(&uri).await;
}
