//! The clinic's records survive a restart of the real `resource-api` binary: doctors, patients and
//! a visit are created through HTTP, the process is killed (SIGKILL, so nothing is flushed on the
//! way out), a new process is started on the same database, and everything reads back the same,
//! by id and in lists. Once with the embedded store (`--group a`), once with MongoDB
//! (`MONGODB_TEST_URI`, as scripts/test.sh sets it; in CI a missing URI fails the test).

use std::io::Write;
use std::net::SocketAddr;

use ferrapi_tests::client::try_send_json;
use serde_json::{json, Value};

use crate::support::process::Service;

/// One HTTP/1.1 exchange: status, `Location` header, JSON body (`null` when empty).
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Option<String>, Value) {
    let body = body.map(|b| b.to_string());
    let reply = try_send_json(addr, method, path, body.as_deref())
        .await
        .expect("a reply within 10 s");
    let json = reply.maybe_json().expect("a JSON body");
    (reply.status, reply.header("location").map(str::to_owned), json)
}

async fn create(addr: SocketAddr, collection: &str, body: Value) -> Value {
    let (status, location, created) = request(addr, "POST", &format!("/{collection}"), Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id");
    assert_eq!(location.as_deref(), Some(format!("/{collection}/{id}").as_str()));
    created
}

async fn survives_a_restart(db: &str, group: &str) {
    let service = Service::start(db, group);
    let addr = service.addr;
    let doctor = create(addr, "doctors", json!({"name": "Ada", "specialty": "neurology"})).await;
    let gone = create(addr, "doctors", json!({"name": "Gone", "specialty": "surgery"})).await;
    let patient = create(
        addr,
        "patients",
        json!({"name": "Bo", "date_of_birth": "1990-01-31"}),
    )
    .await;
    let visit = create(
        addr,
        "visits",
        json!({"doctor_id": doctor["id"], "patient_id": patient["id"],
               "start_time": "2024-05-01T09:30:00+02:00", "reason": "Headache"}),
    )
    .await;
    let path = format!("/doctors/{}", gone["id"].as_str().unwrap());
    assert_eq!(request(addr, "DELETE", &path, None).await.0, 204);
    let replaced = json!({"name": "Ada King", "specialty": "neurology", "email": "ada@example.org"});
    let doctor_path = format!("/doctors/{}", doctor["id"].as_str().unwrap());
    let (status, _, doctor) = request(addr, "PUT", &doctor_path, Some(replaced)).await;
    assert_eq!(status, 200);
    service.kill();

    let service = Service::start(db, group);
    let addr = service.addr;
    for (collection, resource) in [("doctors", &doctor), ("patients", &patient), ("visits", &visit)] {
        let path = format!("/{collection}/{}", resource["id"].as_str().unwrap());
        let (status, _, read) = request(addr, "GET", &path, None).await;
        assert_eq!((status, &read), (200, resource), "{path} after a restart");
        let (_, _, listed) = request(addr, "GET", &format!("/{collection}"), None).await;
        assert_eq!(listed, json!([resource]), "{collection} after a restart");
    }
    assert_eq!(
        request(addr, "GET", &path, None).await.0,
        404,
        "a deleted doctor stays deleted"
    );
    // The references still hold after the restart.
    assert_eq!(request(addr, "DELETE", &doctor_path, None).await.0, 409);
    service.kill();
}

fn unique(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("{tag}_{}_{nanos:x}", std::process::id())
}

#[tokio::test]
async fn embedded_store_survives_a_restart() {
    let dir = std::env::temp_dir()
        .join("resource-api-tests")
        .join(unique("clinic_restart"));
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    let db = format!("sqlite://{}", dir.join("clinic.db").display());
    survives_a_restart(&db, "a").await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn mongodb_survives_a_restart() {
    let base = match std::env::var("MONGODB_TEST_URI") {
        Ok(uri) if !uri.trim().is_empty() => uri,
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "MONGODB_TEST_URI is not set: CI must run the MongoDB tests (scripts/test.sh starts a server)"
            );
            let _ = writeln!(
                std::io::stderr(),
                "MongoDB restart test skipped: MONGODB_TEST_URI is not set (scripts/test.sh sets it)"
            );
            return;
        }
    };
    // The same server, a fresh database.
    let (scheme, rest) = base.split_once("://").expect("a URI with a scheme");
    let (hosts, options) = match rest.split_once('?') {
        Some((left, options)) => (left.split('/').next().unwrap_or(left), Some(options)),
        None => (rest.split('/').next().unwrap_or(rest), None),
    };
    let database = unique("restart");
    let uri = match options {
        Some(options) => format!("{scheme}://{hosts}/{database}?{options}"),
        None => format!("{scheme}://{hosts}/{database}"),
    };
    survives_a_restart(&uri, "all").await;
}
