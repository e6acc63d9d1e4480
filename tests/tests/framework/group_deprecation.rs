//! A deprecated route group, over real HTTP on 127.0.0.1: `group!("/p", deprecated = true)` marks
//! every route of the group (its nested groups' included) `deprecated: true` in each document, as
//! the route option does, and changes no answer; `group!("/p", deprecated(since = "..", sunset =
//! ".."))` also puts `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) on every answer of its
//! routes — its 422s and the answers its layers make included — with or without API versions. A
//! route's own dates win over its group's, an inner group's over an outer one's; routes outside
//! the group say nothing.

use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};

use crate::support::versions::{route_version_mistakes, Refuse};

#[get("/orders/{id}")]
async fn read_order(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

/// Deprecated on its own, later than its group: its dates are the ones sent.
#[get("/orders", deprecated(since = "2026-05-01"))]
async fn list_orders() -> &'static str {
    "orders"
}

/// In a nested group with dates of its own.
#[get("/exports")]
async fn exports() -> &'static str {
    "exports"
}

/// In a group deprecated for the document alone.
#[get("/reports")]
async fn reports() -> &'static str {
    "reports"
}

/// Outside every group.
#[get("/health")]
async fn health() -> &'static str {
    "ok"
}

/// The `Deprecation` and `Sunset` headers of an answer.
fn noticed(reply: &Reply) -> (Option<&str>, Option<&str>) {
    (reply.header("deprecation"), reply.header("sunset"))
}

/// The group's dates: deprecated on 2026-03-01, gone after 2026-12-31.
const GROUP: (Option<&str>, Option<&str>) = (Some("@1772323200"), Some("Thu, 31 Dec 2026 00:00:00 GMT"));

fn app() -> App {
    App::new()
        .group(
            group!("/v1", deprecated(since = "2026-03-01", sunset = "2026-12-31"))
                .routes(routes![read_order, list_orders])
                .group(group!("/later", deprecated(since = "2026-04-01")).routes(routes![exports])),
        )
        .group(group!("/internal", deprecated = true).routes(routes![reports]))
        .routes(routes![health])
}

#[tokio::test]
async fn a_deprecated_groups_routes_say_so_in_their_answers_and_the_document() {
    let addr = spawn(app()).await;
    let reply = get(addr, "/v1/orders/1").await;
    assert_eq!(reply.status, 200);
    assert_eq!(noticed(&reply), GROUP);
    // Its refusals too.
    let refused = get(addr, "/v1/orders/x").await;
    assert_eq!(refused.status, 422);
    assert_eq!(noticed(&refused), GROUP);
    // A route's own dates win over its group's; a nested group's over the outer one's.
    assert_eq!(
        noticed(&get(addr, "/v1/orders").await),
        (Some("@1777593600"), None)
    );
    assert_eq!(
        noticed(&get(addr, "/v1/later/exports").await),
        (Some("@1775001600"), None)
    );
    // `deprecated = true`: the document alone; outside the groups, nothing.
    for path in ["/internal/reports", "/health", "/v1/nowhere"] {
        let reply = get(addr, path).await;
        assert_eq!(noticed(&reply), (None, None), "{path}");
    }
    let document = get(addr, "/openapi.json").await.json();
    let deprecated = |path: &str| document["paths"][path]["get"]["deprecated"].clone();
    for path in [
        "/v1/orders/{id}",
        "/v1/orders",
        "/v1/later/exports",
        "/internal/reports",
    ] {
        assert_eq!(deprecated(path), json!(true), "{path}");
    }
    assert_eq!(deprecated("/health"), Value::Null);
}

#[tokio::test]
async fn with_layers_and_in_every_version_of_an_app_with_versions() {
    let app = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .group(
            group!("/v1", deprecated(since = "2026-03-01", sunset = "2026-12-31"))
                .layer(Refuse)
                .routes(routes![read_order]),
        )
        .routes(routes![health]);
    let addr = spawn(app).await;
    for version in ["2026-01-15", "2026-03-01"] {
        let reply = send(addr, "GET", "/v1/orders/1", &[("API-Version", version)], None).await;
        assert_eq!(reply.status, 401, "{version}");
        assert_eq!(noticed(&reply), GROUP, "{version}");
        assert_eq!(reply.header("api-version"), Some(version));
        let document = get(addr, &format!("/openapi/{version}.json")).await.json();
        assert_eq!(
            document["paths"]["/v1/orders/{id}"]["get"]["deprecated"], true,
            "{version}"
        );
        assert_eq!(
            document["paths"]["/health"]["get"]["deprecated"],
            Value::Null,
            "{version}"
        );
    }
    assert_eq!(noticed(&get(addr, "/health").await), (None, None));
}

/// A group built by hand (`Group::deprecated_at`) with a date that is not one: each of its routes
/// is a mistake, as a route's own would be (the group option refuses it when it compiles).
#[test]
fn a_hand_built_groups_bad_date_does_not_build() {
    let app = App::new().group(
        group!("/v1")
            .deprecated_at("2026-02-30", None)
            .routes(routes![read_order]),
    );
    assert_eq!(
        route_version_mistakes(app),
        [(
            "the route's deprecation date `2026-02-30` is not a date written `YYYY-MM-DD`".to_owned(),
            "read_order"
        )]
    );
}
