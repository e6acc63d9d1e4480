//! The clinic's records survive a restart of the real `resource-api` binary: doctors, patients and
//! a visit are created through HTTP, the process is killed (SIGKILL, so nothing is flushed on the
//! way out), a new process is started on the same database, and everything reads back the same,
//! by id and in lists. Once with the embedded store (`--group a`), once with MongoDB
//! (`MONGODB_TEST_URI`, as scripts/test.sh sets it; in CI a missing URI fails the test).

use std::net::SocketAddr;

use ferrapi_tests::client::try_send_json;
use serde_json::{json, Value};

use crate::support::process::Service;
use crate::support::{mongo_uri, TempDir};

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

#[tokio::test]
async fn embedded_store_survives_a_restart() {
    let dir = TempDir::new("clinic_restart");
    survives_a_restart(&dir.sqlite("clinic.db"), "a").await;
}

#[tokio::test]
async fn mongodb_survives_a_restart() {
    // The same server, a fresh database.
    let Some(uri) = mongo_uri("restart") else {
        return;
    };
    survives_a_restart(&uri, "all").await;
}
