//! API versions (issue 44, items 1 and 2) over real HTTP: the version a request names in `API-Version`
//! (or another header the app names) is served and echoed; a request naming none gets the newest
//! released version, or the pinned default; the unreleased version is served only when named; an
//! unknown or retired version is a 400 in the app's error format listing the served ones; every
//! answer says `Vary: API-Version`; a route sees its version as an argument. A declaration the app
//! cannot serve does not build, every problem reported; an app without versions answers as before.
//! Routes declare the versions they exist in: each version routes its own, with its own 404 and 405.

use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;
use ferrapi::versions::{ApiVersion, VersionSource, Versions};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};

use crate::support::versions::route_version_mistakes;

/// What the route sees of its version.
#[get("/item/{id}")]
async fn read_item(id: i64, version: ApiVersion) -> Json<Value> {
    let source = match version.source() {
        VersionSource::Header => "header",
        VersionSource::Path => "path",
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

// Item 2: routes that come and go.

/// The widget as the oldest version has it.
#[get("/widget/{id}", versions = .."2026-03-01")]
async fn read_widget_v1(id: i64) -> Json<Value> {
    Json(json!({"id": id, "title": "Foo"}))
}

/// The widget from 2026-03-01 on.
#[get("/widget/{id}", versions = "2026-03-01"..)]
async fn read_widget(id: i64) -> Json<Value> {
    Json(json!({"id": id, "name": "Foo"}))
}

#[put("/widget/{id}", versions = "2026-03-01"..)]
async fn replace_widget(id: i64) -> Json<Value> {
    Json(json!({"replaced": id}))
}

/// Only in the unreleased version.
#[get("/gadget", versions = "2026-06-01"..)]
async fn gadget() -> &'static str {
    "gadget"
}

fn ranged() -> App {
    App::new()
        .versions(versions())
        .routes(routes![read_widget_v1, read_widget, replace_widget, gadget])
}

#[tokio::test]
async fn each_version_routes_its_own_routes() {
    let addr = spawn(ranged()).await;
    let reply = named(addr, "/widget/3", "2026-01-15").await;
    assert_eq!(reply.json(), json!({"id": 3, "title": "Foo"}));
    let reply = named(addr, "/widget/3", "2026-03-01").await;
    assert_eq!(reply.json(), json!({"id": 3, "name": "Foo"}));
    assert_eq!(
        get(addr, "/widget/3").await.json(),
        json!({"id": 3, "name": "Foo"})
    );
    let reply = named(addr, "/gadget", "2026-06-01").await;
    assert_eq!((reply.status, reply.text().as_str()), (200, "gadget"));
}

#[tokio::test]
async fn not_found_and_method_not_allowed_are_each_versions() {
    let addr = spawn(ranged()).await;
    // Not there yet: 404 at the older versions, echoed.
    for version in ["2026-01-15", "2026-03-01"] {
        let reply = named(addr, "/gadget", version).await;
        assert_eq!(
            (reply.status, reply.json()),
            (404, json!({"detail": "Not Found"})),
            "{version}"
        );
        assert_eq!(reply.header("vary"), Some("API-Version"));
        // Answered at the version it named, which the answer says.
        assert_eq!(reply.header("api-version"), Some(version));
    }
    // A request naming none: the 404 is the default version's.
    let reply = get(addr, "/gadget").await;
    assert_eq!(
        (reply.status, reply.header("api-version")),
        (404, Some("2026-03-01"))
    );
    // PUT exists from 2026-03-01 on: before, the path is served for GET only.
    let old = send(addr, "PUT", "/widget/3", &[("API-Version", "2026-01-15")], None).await;
    assert_eq!(old.status, 405);
    assert_eq!(old.header("allow"), Some("GET, HEAD"));
    assert_eq!(old.header("api-version"), Some("2026-01-15"));
    let new = send(addr, "PUT", "/widget/3", &[("API-Version", "2026-03-01")], None).await;
    assert_eq!(new.json(), json!({"replaced": 3}));
    let new = send(
        addr,
        "DELETE",
        "/widget/3",
        &[("API-Version", "2026-03-01")],
        None,
    )
    .await;
    assert_eq!((new.status, new.header("allow")), (405, Some("GET, PUT, HEAD")));
    assert_eq!(new.header("api-version"), Some("2026-03-01"));
}

#[test]
fn a_route_in_other_versions_is_not_shadowed() {
    let service = ranged().build().expect("builds");
    let shadowed: Vec<(&str, Option<&str>)> = service
        .route_table()
        .iter()
        .map(|row| (row.name, row.shadowed_by.as_ref().map(|(name, _)| *name)))
        .collect();
    assert_eq!(
        shadowed,
        [
            ("read_widget_v1", None),
            ("read_widget", None),
            ("replace_widget", None),
            ("gadget", None)
        ]
    );
    // The document is the default version's: the widget of 2026-03-01, no gadget.
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let get_widget = &doc["paths"]["/widget/{id}"]["get"];
    assert_eq!(get_widget["operationId"], "read_widget_widget__id__get");
    assert!(doc["paths"].get("/gadget").is_none(), "{doc}");
}

#[test]
fn a_range_naming_an_undeclared_version_or_in_an_app_without_versions_does_not_build() {
    #[get("/odd", versions = "2026-02-01"..)]
    async fn odd() -> &'static str {
        "odd"
    }
    let app = App::new().versions(versions()).routes(routes![read_widget, odd]);
    assert_eq!(
        route_version_mistakes(app),
        [(
            "`2026-02-01` is not a version of the app; its versions are 2026-01-15, 2026-03-01 (default), 2026-06-01 (unreleased)".to_owned(),
            "odd"
        )]
    );
    let error = App::new()
        .routes(routes![read_widget])
        .build()
        .map(drop)
        .expect_err("no versions");
    assert!(
        matches!(
            error
                .errors()
                .map(|mistake| mistake.kind())
                .collect::<Vec<_>>()
                .as_slice(),
            [MistakeKind::RouteVersions { .. }]
        ),
        "{error}"
    );
}

/// The document a generator reads names its version (issue 44, item 4's part for the clients).
#[tokio::test]
async fn the_document_names_its_version_and_header_for_generators() {
    let addr = spawn(versioned()).await;
    let document = get(addr, "/openapi.json").await.json();
    assert_eq!(document["info"]["version"], "2026-03-01");
    assert_eq!(
        document["info"]["x-api-version"],
        json!({"header": "API-Version", "version": "2026-03-01", "released": true})
    );

    // The app's own header, and a pinned default.
    let app = App::new()
        .versions(versions().header("Stripe-Version").default_version("2026-01-15"))
        .routes(routes![read_item]);
    let addr = spawn(app).await;
    let document = get(addr, "/openapi.json").await.json();
    assert_eq!(document["info"]["version"], "2026-01-15");
    assert_eq!(
        document["info"]["x-api-version"],
        json!({"header": "Stripe-Version", "version": "2026-01-15", "released": true})
    );
    let info: Vec<&String> = document["info"]
        .as_object()
        .map(|info| info.keys().collect())
        .unwrap_or_default();
    assert_eq!(info, ["title", "version", "x-api-version"]);
}

#[tokio::test]
async fn a_document_without_versions_names_none() {
    let addr = spawn(App::new().routes(routes![plain])).await;
    let document = get(addr, "/openapi.json").await.json();
    assert_eq!(document["info"], json!({"title": "API", "version": "0.1.0"}));
}
