//! Group B of the Resource API over real HTTP on 127.0.0.1: every route, its content type, its
//! 404 bodies, the HTML escaping, bird storage (once with the embedded store, once with MongoDB),
//! the `--group` modes, and 503 answers while the database is unavailable (and recovery after).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::testing::TestClient;
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, send_json, Reply};
use resource_api::config::Group;
use resource_api::store::{ListOptions, Store, StoreLocation};
use resource_api::{app, group_b, Db};
use serde_json::{json, Value};

use crate::support::{mongo_store, relayed_mongo_store, sqlite_store};

/// Serve `group` on `store` (prepared as the service prepares it) on a free port.
pub(crate) async fn serve(group: Group, store: Store, conn: &StoreLocation) -> SocketAddr {
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    spawn(app(group, Some(db))).await
}

fn content_type(reply: &Reply) -> &str {
    reply.header("content-type").unwrap_or("")
}

/// How many birds `store` holds (a plain `list`).
pub(crate) async fn bird_count(store: &Store) -> usize {
    store
        .list(group_b::BIRDS, &ListOptions::new())
        .await
        .expect("list birds")
        .len()
}

/// Every group B route, served with `--group b` on `store`.
async fn every_route(store: Store, conn: StoreLocation) {
    let addr = serve(Group::B, store.clone(), &conn).await;

    let reply = get(addr, "/api/hello").await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    assert_eq!(reply.json()["ok"], json!(true));
    assert!(reply.json()["message"].is_string());

    // employee/:id — a zero-based index.
    let reply = get(addr, "/employee/0").await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    assert_eq!(reply.json(), json!({"name": group_b::EMPLOYEES[0]}));
    assert_eq!(
        get(addr, "/employee/3").await.json(),
        json!({"name": group_b::EMPLOYEES[3]})
    );
    for missing in ["/employee/4", "/employee/-1", "/employee/99999999999"] {
        let reply = get(addr, missing).await;
        assert_eq!(
            (reply.status, content_type(&reply)),
            (404, "application/json"),
            "{missing}"
        );
        assert_eq!(reply.text(), r#""Empleat no trobat""#, "{missing}");
    }
    for bad in ["/employee/abc", "/employee/1.5"] {
        let reply = get(addr, bad).await;
        assert_eq!(reply.status, 422, "{bad}");
        assert_eq!(reply.json()["detail"][0]["type"], json!("int_parsing"));
        assert_eq!(reply.json()["detail"][0]["loc"], json!(["path", "id"]));
    }

    // /student/:username — the JSON form is served (the HTML form is shadowed).
    let reply = get(addr, "/student/alice").await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    assert_eq!(reply.json(), json!({"student": "alice"}));
    let reply = get(addr, "/student/%3Cscript%3E%20%26%20%22q%22").await;
    assert_eq!(reply.json(), json!({"student": "<script> & \"q\""}));

    let reply = get(addr, "/page").await;
    assert_eq!(
        (reply.status, content_type(&reply)),
        (200, "text/html; charset=utf-8")
    );
    assert!(reply.text().contains("<h1>") && reply.text().starts_with("<!DOCTYPE html>"));

    // /post/:id
    let reply = get(addr, "/post/42?page=3").await;
    assert_eq!(
        (reply.status, content_type(&reply)),
        (200, "text/plain; charset=utf-8")
    );
    assert_eq!(reply.text(), "You want to see 3 of 42");
    assert_eq!(reply.header("x-message"), Some(group_b::X_MESSAGE));
    let reply = get(addr, "/post/42").await;
    assert_eq!(
        reply.text(),
        format!("You want to see {} of 42", group_b::DEFAULT_PAGE)
    );
    assert_eq!(reply.header("x-message"), Some(group_b::X_MESSAGE));
    assert_eq!(
        get(addr, "/post/a%20b?page=x%26y").await.text(),
        "You want to see x&y of a b"
    );
    for path in ["/post/", "/post"] {
        let reply = send(addr, "POST", path, &[], None).await;
        assert_eq!(
            (reply.status, content_type(&reply)),
            (201, "text/plain; charset=utf-8"),
            "{path}"
        );
        assert_eq!(reply.text(), "Post created");
    }
    let reply = send(addr, "DELETE", "/post/7", &[], None).await;
    assert_eq!(
        (reply.status, content_type(&reply)),
        (200, "text/plain; charset=utf-8")
    );
    assert_eq!(reply.text(), "7 is deleted!");

    // /api/env reports the effective connection string.
    let reply = get(addr, "/api/env").await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    assert_eq!(reply.json(), json!({"DB_CONN_STRING": conn.effective()}));

    birds(addr, &store).await;
}

async fn birds(addr: SocketAddr, store: &Store) {
    let body = json!({
        "name": "Robin", "colour": "red", "wingspan_cm": 21.5, "count": 3, "seen": true,
        "tags": ["garden", "winter"], "where": {"lat": 41.39, "lon": 2.17, "notes": null}
    });
    let reply = send_json(addr, "POST", "/api/bird/", &body.to_string()).await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    let id = reply.json()["id"].as_str().expect("an id string").to_owned();
    assert_eq!(reply.json(), json!({"id": id}));

    let reply = get(addr, "/api/bird/Robin").await;
    assert_eq!((reply.status, content_type(&reply)), (200, "application/json"));
    let mut expected = serde_json::Map::new();
    expected.insert("_id".into(), json!(id));
    expected.extend(body.as_object().cloned().unwrap_or_default());
    assert_eq!(reply.text(), Value::Object(expected).to_string());

    // Not found: the status text, as text.
    let reply = get(addr, "/api/bird/Nobody").await;
    assert_eq!(
        (reply.status, content_type(&reply)),
        (404, "text/plain; charset=utf-8")
    );
    assert_eq!(reply.text(), "Not Found");
    assert_eq!(
        get(addr, "/api/bird/robin").await.status,
        404,
        "names are case-sensitive"
    );

    // Two birds of one name: the first inserted is served.
    let first = send_json(addr, "POST", "/api/bird/", r#"{"name":"Twin","n":1}"#)
        .await
        .json();
    send_json(addr, "POST", "/api/bird/", r#"{"name":"Twin","n":2}"#).await;
    let reply = get(addr, "/api/bird/Twin").await.json();
    assert_eq!(
        (reply["_id"].clone(), reply["n"].clone()),
        (first["id"].clone(), json!(1))
    );

    // Unicode and reserved characters in names travel percent-encoded.
    send_json(addr, "POST", "/api/bird", r#"{"name":"Ocell 🐦 a/b?c"}"#).await;
    let reply = get(addr, "/api/bird/Ocell%20%F0%9F%90%A6%20a%2Fb%3Fc").await;
    assert_eq!(reply.json()["name"], json!("Ocell 🐦 a/b?c"));

    // Names are values: operators and their text find nothing they should not.
    send_json(
        addr,
        "POST",
        "/api/bird/",
        r#"{"name":{"$ne":null},"kind":"object"}"#,
    )
    .await;
    send_json(addr, "POST", "/api/bird/", r#"{"name":"$ne","kind":"dollar"}"#).await;
    assert_eq!(get(addr, "/api/bird/%7B%22%24ne%22%3Anull%7D").await.status, 404);
    assert_eq!(get(addr, "/api/bird/%24ne").await.json()["kind"], json!("dollar"));
    assert_eq!(get(addr, "/api/bird/%24gt").await.status, 404);

    // A bird without a name is stored, but cannot be found by name.
    let reply = send_json(addr, "POST", "/api/bird/", r#"{"colour":"blue"}"#).await;
    assert_eq!(reply.status, 200);

    // Bodies that are not one JSON object: a 4xx naming the problem, and nothing stored.
    let before = bird_count(store).await;
    for bad in ["[1,2]", "\"Robin\"", "42", "null", "{", "{\"name\": }", ""] {
        let reply = send_json(addr, "POST", "/api/bird/", bad).await;
        assert_eq!(reply.status, 422, "{bad:?}: {}", reply.text());
        let detail = &reply.json()["detail"][0];
        assert!(
            ["dict_type", "json_invalid", "missing"].contains(&detail["type"].as_str().unwrap_or("")),
            "{bad:?}: {detail}"
        );
    }
    let reply = send(addr, "POST", "/api/bird/", &[], Some(br#"{"name":"NoType"}"#)).await;
    assert_eq!(
        reply.status, 422,
        "a body without a JSON content type is not an object"
    );
    let huge = format!(r#"{{"name":"Huge","blob":"{}"}}"#, "x".repeat(1024 * 1024));
    assert_eq!(send_json(addr, "POST", "/api/bird/", &huge).await.status, 413);
    assert_eq!(bird_count(store).await, before, "a refused body stores nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_group_b_route_with_the_embedded_store() {
    let (store, conn, _dir) = sqlite_store("group_b_routes").await;
    every_route(store, conn).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_group_b_route_with_mongodb() {
    let Some((store, conn)) = mongo_store("group_b_routes").await else {
        return;
    };
    every_route(store, conn).await;
}

#[tokio::test]
async fn html_escapes_the_username() {
    // The HTML form of /student/:username is shadowed in the service, so serve it alone here
    // (in-process: the route's answer is the point, not the wire).
    let client = TestClient::new(App::new().routes(ferrapi::routes![group_b::read_student_html]));
    let reply = client
        .get("/student/%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E%20%26%20'y'")
        .send()
        .await;
    assert_eq!(
        (
            reply.status().as_u16(),
            reply.header("content-type").unwrap_or("")
        ),
        (200, "text/html; charset=utf-8")
    );
    let html = reply.text();
    assert!(
        html.contains(
            "<h1>Hello, &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;y&#x27;!</h1>"
        ),
        "{html}"
    );
    assert!(!html.contains("<script>"));
}

#[tokio::test]
async fn all_mode_serves_group_a_first_and_shadows_group_b() {
    let (store, conn, _dir) = sqlite_store("all_mode").await;
    let addr = serve(Group::All, store.clone(), &conn).await;
    // Group A's /employee/{id} wins over group B's employee/:id.
    assert_eq!(
        get(addr, "/employee/1").await.json(),
        json!({"name": "Ada Lovelace", "job": "analyst"})
    );
    assert_eq!(
        get(addr, "/employee/0").await.json(),
        json!({"detail": "Employee not found"})
    );
    // Both groups answer on one listener.
    assert_eq!(get(addr, "/").await.status, 200);
    assert_eq!(get(addr, "/api/hello").await.status, 200);
    assert_eq!(get(addr, "/api/bird/none").await.status, 404);

    let db = Db::prepare(store, conn.effective()).await.expect("prepare");
    let table = app(Group::All, Some(db)).route_table().expect("route table");
    let shadowed: Vec<_> = table
        .iter()
        .filter_map(|r| r.shadowed_by.as_ref().map(|(by, _)| (r.name, *by)))
        .collect();
    assert!(
        shadowed.contains(&("read_employee_by_index", "read_employee")),
        "{shadowed:?}"
    );
    assert!(
        shadowed.contains(&("read_student_html", "read_student")),
        "{shadowed:?}"
    );
}

#[tokio::test]
async fn group_modes_choose_the_routes() {
    let (store, conn, _dir) = sqlite_store("group_modes").await;
    let db = Db::prepare(store, conn.effective()).await.expect("prepare");
    let table = app(Group::B, Some(db.clone()))
        .route_table()
        .expect("route table");
    let served = |name: &str| table.iter().any(|r| r.name == name && r.shadowed_by.is_none());
    assert!(served("read_employee_by_index"));
    assert!(served("create_bird") && !served("read_employee") && !served("root"));
    assert!(!served("read_student_html"));

    // Group A alone has no group B route; it needs the store too (for the clinic).
    let addr = spawn(app(Group::A, Some(db.clone()))).await;
    assert_eq!(get(addr, "/api/hello").await.status, 404);
    assert_eq!(get(addr, "/employee/1").await.json()["job"], json!("analyst"));
    assert_eq!(get(addr, "/doctors").await.json(), json!([]));
    let err = app(Group::A, None).build().unwrap_err();
    assert!(err.to_string().contains("Clinic"), "{err}");

    // Group B without its store is refused when the app is built, not at the first request.
    let err = app(Group::B, None).build().unwrap_err();
    assert!(
        err.to_string().contains("read_env") || err.to_string().contains("bird"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_locked_embedded_database_is_a_503_then_recovers() {
    let (store, conn, dir) = sqlite_store("locked").await;
    let addr = serve(Group::B, store, &conn).await;
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"before"}"#)
            .await
            .status,
        200
    );

    // Another process-like writer holds the write lock past the store's busy time-out.
    let locker = rusqlite::Connection::open(dir.path().join("birds.db")).expect("open");
    locker
        .execute_batch("BEGIN EXCLUSIVE")
        .expect("take the write lock");
    let reply = send_json(addr, "POST", "/api/bird/", r#"{"name":"during"}"#).await;
    assert_eq!((reply.status, content_type(&reply)), (503, "application/json"));
    let detail = reply.json()["detail"].as_str().unwrap_or_default().to_owned();
    assert!(detail.contains("unavailable"), "{detail}");
    assert!(
        !detail.contains(".db") && !detail.to_lowercase().contains("sql"),
        "no internals: {detail}"
    );
    // Reads go on meanwhile (WAL readers never wait for the writer).
    assert_eq!(get(addr, "/api/bird/before").await.status, 200);

    locker.execute_batch("COMMIT").expect("release the lock");
    drop(locker);
    let reply = send_json(addr, "POST", "/api/bird/", r#"{"name":"after"}"#).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(get(addr, "/api/bird/after").await.status, 200);
    assert_eq!(
        get(addr, "/api/bird/during").await.status,
        404,
        "the refused write was not stored"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mongodb_outage_is_a_bounded_503_then_recovers() {
    let Some((relay, store, conn)) = relayed_mongo_store("outage", Duration::from_millis(1500)).await else {
        return;
    };
    let addr = serve(Group::B, store, &conn).await;
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"before"}"#)
            .await
            .status,
        200
    );

    relay.set_up(false);
    let started = Instant::now();
    let reply = get(addr, "/api/bird/before").await;
    assert_eq!(
        (reply.status, content_type(&reply)),
        (503, "application/json"),
        "{}",
        reply.text()
    );
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "bounded: {:?}",
        started.elapsed()
    );
    assert!(
        !reply.text().contains("127.0.0.1"),
        "no internals: {}",
        reply.text()
    );
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"during"}"#)
            .await
            .status,
        503
    );
    // Routes that need no database are unaffected.
    assert_eq!(get(addr, "/api/hello").await.status, 200);

    relay.set_up(true);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reply = get(addr, "/api/bird/before").await;
        if reply.status == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no recovery within 20 s: {}",
            reply.text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(
        send_json(addr, "POST", "/api/bird/", r#"{"name":"after"}"#)
            .await
            .status,
        200
    );
}
