//! Ranges of API versions on route groups (issue 44, item 2), over real HTTP on 127.0.0.1: a
//! group declares the versions its routes exist in (`group!("/p", versions = "a"..)`), nested
//! groups' ranges intersect, a route inside narrows its group's range; each version routes its
//! own routes with its own 404 and 405, the shadow report and the documents follow. A route whose
//! range reaches outside its group's, or a group's range in an app without versions, does not
//! build.

use ferrapi::build::MistakeKind;
use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};

use crate::support::versions::route_version_mistakes;

#[get("/orders/{id}")]
async fn read_order(id: i64) -> Json<Value> {
    Json(json!({ "id": id, "from": "group" }))
}

/// Inside the group, narrowed to the versions before 2026-06-01.
#[delete("/orders/{id}", versions = .."2026-06-01")]
async fn cancel_order(id: i64) -> Json<Value> {
    Json(json!({ "cancelled": id }))
}

/// In a nested group of its own range: from 2026-06-01 (the unreleased version) only.
#[get("/exports")]
async fn exports() -> &'static str {
    "exports"
}

/// The same path, outside the group, in every version: served where the group's is not.
#[get("/v/orders/{id}")]
async fn read_order_everywhere(id: i64) -> Json<Value> {
    Json(json!({ "id": id, "from": "everywhere" }))
}

fn versions() -> Versions {
    Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01")
}

fn app() -> App {
    App::new()
        .versions(versions())
        .group(
            group!("/v", versions = "2026-03-01"..)
                .routes(routes![read_order, cancel_order])
                .group(group!("/later", versions = "2026-06-01"..).routes(routes![exports])),
        )
        .routes(routes![read_order_everywhere])
}

async fn at(addr: std::net::SocketAddr, method: &str, path: &str, version: &str) -> Reply {
    send(addr, method, path, &[("API-Version", version)], None).await
}

#[tokio::test]
async fn a_groups_range_routes_its_routes_per_version() {
    let addr = spawn(app()).await;
    // Before the group's range: the route outside it answers.
    let old = at(addr, "GET", "/v/orders/1", "2026-01-15").await;
    assert_eq!(old.json(), json!({"id": 1, "from": "everywhere"}));
    // In it: the group's (declared first).
    let new = at(addr, "GET", "/v/orders/1", "2026-03-01").await;
    assert_eq!(new.json(), json!({"id": 1, "from": "group"}));
    // The route narrowing the range: DELETE at 2026-03-01, not before (405) nor after.
    let cancelled = at(addr, "DELETE", "/v/orders/1", "2026-03-01").await;
    assert_eq!(cancelled.json(), json!({"cancelled": 1}));
    for version in ["2026-01-15", "2026-06-01"] {
        let refused = at(addr, "DELETE", "/v/orders/1", version).await;
        assert_eq!(
            (refused.status, refused.header("allow")),
            (405, Some("GET, HEAD")),
            "{version}"
        );
        assert_eq!(refused.header("api-version"), Some(version));
    }
    // The nested group's range within the outer's: only the unreleased version.
    for (version, status) in [("2026-01-15", 404), ("2026-03-01", 404), ("2026-06-01", 200)] {
        let reply = at(addr, "GET", "/v/later/exports", version).await;
        assert_eq!(reply.status, status, "{version}");
    }
}

#[test]
fn the_shadow_report_and_the_documents_follow_the_groups_ranges() {
    let service = app().build().expect("builds");
    let shadowed: Vec<(&str, Option<&str>)> = service
        .route_table()
        .iter()
        .map(|row| (row.name, row.shadowed_by.as_ref().map(|(name, _)| *name)))
        .collect();
    // The route outside the group is shadowed at 2026-03-01 and after, but served before.
    assert_eq!(
        shadowed,
        [
            ("read_order", None),
            ("cancel_order", None),
            ("exports", None),
            ("read_order_everywhere", None)
        ]
    );
    let document = |date: &str| -> Value {
        serde_json::from_slice(service.version_document(date).expect("a version")).expect("JSON")
    };
    let old = document("2026-01-15");
    assert_eq!(
        old["paths"]["/v/orders/{id}"]["get"]["operationId"],
        "read_order_everywhere_v_orders__id__get"
    );
    assert!(old["paths"]["/v/orders/{id}"].get("delete").is_none(), "{old}");
    let new = document("2026-03-01");
    assert_eq!(
        new["paths"]["/v/orders/{id}"]["get"]["operationId"],
        "read_order_v_orders__id__get"
    );
    assert!(new["paths"]["/v/orders/{id}"].get("delete").is_some());
    assert!(new["paths"].get("/v/later/exports").is_none());
    let next = document("2026-06-01");
    assert!(next["paths"].get("/v/later/exports").is_some());
    assert!(next["paths"]["/v/orders/{id}"].get("delete").is_none());
}

#[test]
fn a_route_reaching_outside_its_groups_range_does_not_build() {
    #[get("/early", versions = "2026-01-15"..)]
    async fn early() -> &'static str {
        "early"
    }
    let app = App::new()
        .versions(versions())
        .group(group!("/v", versions = "2026-03-01"..).routes(routes![early]));
    assert_eq!(
        route_version_mistakes(app),
        [(
            "the route's versions `2026-01-15..` reach outside its group's `2026-03-01..`; a route in a group only narrows the group's range".to_owned(),
            "early"
        )]
    );
    // A group's range in an app without versions: each of its routes is a mistake.
    let error = App::new()
        .group(group!("/v", versions = "2026-03-01"..).routes(routes![read_order]))
        .build()
        .map(drop)
        .expect_err("no versions");
    assert!(
        matches!(
            error.errors().map(|m| m.kind()).collect::<Vec<_>>().as_slice(),
            [MistakeKind::RouteVersions { .. }]
        ),
        "{error}"
    );
}
