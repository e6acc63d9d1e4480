//! Security properties of the service over real HTTP on 127.0.0.1: HTML answers carry `nosniff`
//! and a restrictive Content-Security-Policy (and escape what they echo), `GET /api/env` can be
//! switched off, and user input never acts as a MongoDB operator (both stores). (That error
//! answers never carry server internals is a property of the framework, checked in the
//! framework's tests, `tests/tests/framework/security.rs`.)

use std::net::SocketAddr;

use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send_json, Reply};
use resource_api::config::Group;
use resource_api::store::{Store, StoreLocation};
use resource_api::{app_with_env, group_b, Db};
use serde_json::json;

use crate::support::{mongo_store, sqlite_store};

async fn serve(group: Group, store: Store, conn: &StoreLocation, expose_env: bool) -> SocketAddr {
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    spawn(app_with_env(group, Some(db), expose_env)).await
}

fn assert_html_headers(reply: &Reply) {
    assert_eq!(reply.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    let csp = reply.header("content-security-policy").unwrap_or_default();
    assert!(csp.starts_with("default-src 'none'"), "{csp}");
    assert!(!csp.contains("script-src"), "no script may run: {csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
}

#[tokio::test]
async fn html_answers_are_escaped_and_carry_nosniff_and_a_csp() {
    let (store, conn, _dir) = sqlite_store("security_html").await;
    let addr = serve(Group::All, store, &conn, true).await;
    assert_html_headers(&get(addr, "/page").await);

    let addr = spawn(App::new().routes(ferrapi::routes![group_b::read_student_html])).await;
    let reply = get(
        addr,
        "/student/%3Cscript%3Ealert(1)%3C%2Fscript%3E%22%27%26amp%3B",
    )
    .await;
    assert_html_headers(&reply);
    let html = reply.text();
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#x27;&amp;amp;"),
        "{html}"
    );
    assert!(!html.contains("<script"), "{html}");

    // The docs pages keep their own policy, which lets their bundled scripts run.
    let reply = get(addr, "/docs").await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.header("content-security-policy"),
        Some(ferrapi::docs::CONTENT_SECURITY_POLICY)
    );
    assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
}

#[tokio::test]
async fn the_env_route_can_be_switched_off() {
    let (store, conn, _dir) = sqlite_store("security_env_on").await;
    let addr = serve(Group::B, store, &conn, true).await;
    assert_eq!(
        get(addr, "/api/env").await.json(),
        json!({"DB_CONN_STRING": conn.effective()})
    );
    assert!(get(addr, "/openapi.json").await.json()["paths"]["/api/env"].is_object());

    let (store, conn, _dir) = sqlite_store("security_env_off").await;
    let addr = serve(Group::B, store, &conn, false).await;
    let reply = get(addr, "/api/env").await;
    assert_eq!(
        (reply.status, reply.json()),
        (404, json!({"detail": "Not Found"}))
    );
    assert!(get(addr, "/openapi.json").await.json()["paths"]["/api/env"].is_null());
    assert_eq!(get(addr, "/api/hello").await.status, 200, "the rest is served");
}

/// Operators and `$`-names are plain values: stored as sent, found only by equal values.
async fn operators_are_values(addr: SocketAddr) {
    for (body, status) in [
        (r#"{"name":"$where","kind":"dollar"}"#, 200),
        (r#"{"name":{"$gt":""},"kind":"gt-object"}"#, 200),
        (r#"{"name":{"$regex":".*"},"kind":"regex-object"}"#, 200),
        (r#"{"name":"plain","kind":"plain"}"#, 200),
    ] {
        let reply = send_json(addr, "POST", "/api/bird/", body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.text());
    }
    assert_eq!(
        get(addr, "/api/bird/%24where").await.json()["kind"],
        json!("dollar")
    );
    for name in [
        "%24gt",
        "%7B%22%24gt%22%3A%22%22%7D",
        "%24regex",
        ".*",
        "%24exists",
    ] {
        assert_eq!(
            get(addr, &format!("/api/bird/{name}")).await.status,
            404,
            "{name}"
        );
    }
    assert_eq!(get(addr, "/api/bird/plain").await.json()["kind"], json!("plain"));
    // Field names starting with `$` or holding dots: stored, or refused with a 4xx; never a 5xx.
    for body in [
        r#"{"name":"field-ops","$set":{"name":"x"}}"#,
        r#"{"name":"dotted","a.b":1}"#,
        r#"{"name":"nested-op","x":{"$where":"sleep(5000)"}}"#,
    ] {
        let reply = send_json(addr, "POST", "/api/bird/", body).await;
        assert!(
            reply.status == 200 || (400..500).contains(&reply.status),
            "{body}: {} {}",
            reply.status,
            reply.text()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_are_values_with_the_embedded_store() {
    let (store, conn, _dir) = sqlite_store("security_ops").await;
    operators_are_values(serve(Group::B, store, &conn, true).await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_are_values_with_mongodb() {
    let Some((store, conn)) = mongo_store("security_ops").await else {
        return;
    };
    operators_are_values(serve(Group::B, store, &conn, true).await).await;
}
