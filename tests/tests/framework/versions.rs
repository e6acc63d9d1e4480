//! API versions (issue 44, item 1) over real HTTP: the version a request names in `API-Version`
//! (or another header the app names) is served and echoed; a request naming none gets the newest
//! released version, or the pinned default; the unreleased version is served only when named; an
//! unknown or retired version is a 400 in the app's error format listing the served ones; every
//! answer says `Vary: API-Version`; a route sees its version as an argument. A declaration the app
//! cannot serve does not build, every problem reported; an app without versions answers as before.

use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;
use ferrapi::versions::{ApiVersion, VersionSource, Versions};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};

/// What the route sees of its version.
#[get("/item/{id}")]
async fn read_item(id: i64, version: ApiVersion) -> Json<Value> {
    let source = match version.source() {
        VersionSource::Header => "header",
        VersionSource::Default => "default",
    };
    // A route may still branch on its version where no declared change says it (item 3).
    let name = if version >= "2026-03-01" { "name" } else { "title" };
    Json(json!({
        "id": id,
        "version": version.date(),
        "source": source,
        "released": version.is_released(),
        name: "Foo",
    }))
}

#[get("/plain")]
async fn plain() -> &'static str {
    "plain"
}

/// Suspends before answering: its echo is added when the answer comes, not at once.
#[get("/later")]
async fn later(version: ApiVersion) -> String {
    tokio::task::yield_now().await;
    version.to_string()
}

#[post("/echo")]
async fn echo_body(body: Json<Value>, version: ApiVersion) -> Json<Value> {
    Json(json!({"body": body.0, "version": version.date()}))
}

fn versions() -> Versions {
    Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01")
}

fn versioned() -> App {
    App::new()
        .versions(versions())
        .routes(routes![read_item, plain, later, echo_body])
}

async fn named(addr: std::net::SocketAddr, path: &str, version: &str) -> Reply {
    send(addr, "GET", path, &[("API-Version", version)], None).await
}

fn echoed(reply: &Reply) -> (Option<&str>, Option<&str>) {
    (reply.header("api-version"), reply.header("vary"))
}

#[tokio::test]
async fn a_named_version_is_served_echoed_and_seen_by_the_route() {
    let addr = spawn(versioned()).await;
    let reply = named(addr, "/item/42", "2026-01-15").await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.json(),
        json!({"id": 42, "version": "2026-01-15", "source": "header", "released": true, "title": "Foo"})
    );
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
    let reply = named(addr, "/item/42", "2026-03-01").await;
    assert_eq!(reply.json()["name"], "Foo");
    assert_eq!(echoed(&reply), (Some("2026-03-01"), Some("API-Version")));
    // A route that does not take the argument is echoed all the same.
    let reply = named(addr, "/plain", "2026-01-15").await;
    assert_eq!((reply.status, reply.text().as_str()), (200, "plain"));
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
}

#[tokio::test]
async fn a_request_naming_none_gets_the_newest_released_version() {
    let addr = spawn(versioned()).await;
    let reply = get(addr, "/item/7").await;
    assert_eq!(
        reply.json(),
        json!({"id": 7, "version": "2026-03-01", "source": "default", "released": true, "name": "Foo"})
    );
    assert_eq!(echoed(&reply), (Some("2026-03-01"), Some("API-Version")));
}

#[tokio::test]
async fn the_default_can_be_pinned_to_an_older_released_version() {
    let app = App::new()
        .versions(versions().default_version("2026-01-15"))
        .routes(routes![read_item]);
    let addr = spawn(app).await;
    let reply = get(addr, "/item/7").await;
    assert_eq!(reply.json()["version"], "2026-01-15");
    assert_eq!(reply.json()["source"], "default");
    assert_eq!(reply.header("api-version"), Some("2026-01-15"));
}

#[tokio::test]
async fn the_unreleased_version_is_served_only_when_named() {
    let addr = spawn(versioned()).await;
    let reply = named(addr, "/item/1", "2026-06-01").await;
    assert_eq!(
        (reply.json()["version"].clone(), reply.json()["released"].clone()),
        (json!("2026-06-01"), json!(false))
    );
    assert_eq!(reply.header("api-version"), Some("2026-06-01"));
}

#[tokio::test]
async fn an_unknown_or_retired_version_is_a_400_listing_the_served_ones() {
    let addr = spawn(versioned()).await;
    let listed = "2026-01-15, 2026-03-01 (default), 2026-06-01 (unreleased)";
    for (version, path) in [
        ("2025-12-01", "/item/42"),
        ("2026-1-15", "/item/42"),
        ("latest", "/plain"),
        // Refused before routing: even a path no route has.
        ("2024-01-01", "/nowhere"),
    ] {
        let reply = named(addr, path, version).await;
        assert_eq!(reply.status, 400, "{version}: {}", reply.text());
        assert_eq!(
            reply.json(),
            json!({"detail": format!("API version '{version}' is not served; name one of these in the API-Version header: {listed}")}),
            "{version}"
        );
        assert_eq!(echoed(&reply), (None, Some("API-Version")), "{version}");
    }
}

#[tokio::test]
async fn the_400_is_a_problem_in_an_app_that_answers_with_them() {
    let addr = spawn(versioned().problem_details()).await;
    let reply = named(addr, "/item/42", "2020-01-01").await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.header("content-type"), Some("application/problem+json"));
    let body = reply.json();
    assert_eq!(
        (
            body["title"].clone(),
            body["status"].clone(),
            body["instance"].clone()
        ),
        (json!("Bad Request"), json!(400), json!("/item/42"))
    );
    assert!(
        body["detail"]
            .as_str()
            .is_some_and(|d| d.contains("2026-03-01 (default)")),
        "{body}"
    );
    // The served answers of such an app are echoed as in any other.
    let reply = named(addr, "/item/42", "2026-01-15").await;
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
}

#[tokio::test]
async fn answers_not_ready_at_once_and_with_bodies_are_echoed() {
    let addr = spawn(versioned()).await;
    let reply = named(addr, "/later", "2026-01-15").await;
    assert_eq!((reply.status, reply.text().as_str()), (200, "2026-01-15"));
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
    let headers = [
        ("API-Version", "2026-01-15"),
        ("Content-Type", "application/json"),
    ];
    let reply = send(addr, "POST", "/echo", &headers, Some(br#"{"a":1}"#)).await;
    assert_eq!(reply.json(), json!({"body": {"a": 1}, "version": "2026-01-15"}));
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
    // A 422 of a version is echoed too.
    let reply = named(addr, "/item/forty-two", "2026-01-15").await;
    assert_eq!(reply.status, 422);
    assert_eq!(echoed(&reply), (Some("2026-01-15"), Some("API-Version")));
}

#[tokio::test]
async fn the_app_can_name_its_own_header() {
    let app = App::new()
        .versions(versions().header("Stripe-Version"))
        .routes(routes![read_item]);
    let addr = spawn(app).await;
    let reply = send(addr, "GET", "/item/1", &[("Stripe-Version", "2026-01-15")], None).await;
    assert_eq!(reply.json()["version"], "2026-01-15");
    assert_eq!(reply.header("stripe-version"), Some("2026-01-15"));
    assert_eq!(reply.header("vary"), Some("Stripe-Version"));
    assert_eq!(reply.header("api-version"), None);
    // `API-Version` means nothing to this app: the default is served.
    let reply = named(addr, "/item/1", "2026-01-15").await;
    assert_eq!(reply.json()["version"], "2026-03-01");
}

#[tokio::test]
async fn an_app_without_versions_answers_as_before() {
    let addr = spawn(App::new().routes(routes![plain])).await;
    let reply = named(addr, "/plain", "1999-01-01").await;
    assert_eq!((reply.status, reply.text().as_str()), (200, "plain"));
    assert_eq!(echoed(&reply), (None, None));
}

#[test]
fn a_route_taking_its_version_needs_an_app_with_versions() {
    let error = App::new()
        .routes(routes![read_item])
        .build()
        .map(drop)
        .expect_err("no versions");
    let kinds: Vec<&MistakeKind> = error.errors().map(|mistake| mistake.kind()).collect();
    match kinds.as_slice() {
        [MistakeKind::MissingState { problem }] => assert!(
            problem.contains("takes `ApiVersion` but the app declares no versions"),
            "{problem}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_declaration_reports_every_problem() {
    let app = App::new()
        .versions(
            Versions::released(["2026-03-01", "2026-01-15", "2026-13-01"])
                .unreleased("2026-01-01")
                .default_version("2026-06-01"),
        )
        .routes(routes![read_item]);
    let error = app.build().map(drop).expect_err("mistakes");
    let found: Vec<String> = error
        .errors()
        .map(|mistake| {
            assert_eq!(mistake.declared(), &Declared::App { setting: "versions" });
            match mistake.kind() {
                MistakeKind::Versions { problem } => problem.clone(),
                other => panic!("{other:?}"),
            }
        })
        .collect();
    assert_eq!(
        found,
        [
            "version `2026-13-01` is not a date written `YYYY-MM-DD`",
            "released versions must be declared oldest first, each once: `2026-01-15` comes after `2026-03-01`",
            "the unreleased version `2026-01-01` must be newer than the newest released one, `2026-13-01`",
            "the default version `2026-06-01` is not one of the released versions",
        ]
    );
    // The route taking `ApiVersion` is not reported as well (its app declared versions).
}
