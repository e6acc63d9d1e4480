//! A deprecated route (issue 44, item 4), over real HTTP on 127.0.0.1: the route option
//! `deprecated(since = "..", sunset = "..")` puts `Deprecation` (RFC 9745) and `Sunset` (RFC 8594)
//! on every answer of that route (its 422s and the answers its group's layers make included),
//! none on the other routes', and marks its operation `deprecated: true`; with or without API
//! versions. `deprecated = true` marks the document alone, as before.

use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};

use crate::support::versions::Refuse;

#[get("/old/{id}", deprecated(since = "2026-03-01", sunset = "2026-12-31"))]
async fn old(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[get("/soon", deprecated(since = "2026-03-01"))]
async fn soon() -> &'static str {
    "soon"
}

#[get("/marked", deprecated = true)]
async fn marked() -> &'static str {
    "marked"
}

#[get("/new/{id}")]
async fn new(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

/// The headers of a route deprecated on 2026-03-01 until 2026-12-31.
fn noticed(reply: &Reply) -> (Option<&str>, Option<&str>) {
    (reply.header("deprecation"), reply.header("sunset"))
}

const NOTICE: (Option<&str>, Option<&str>) = (Some("@1772323200"), Some("Thu, 31 Dec 2026 00:00:00 GMT"));

#[tokio::test]
async fn a_deprecated_routes_answers_say_so_and_only_its() {
    let addr = spawn(App::new().routes(routes![old, soon, marked, new])).await;
    let reply = get(addr, "/old/1").await;
    assert_eq!(reply.status, 200);
    assert_eq!(noticed(&reply), NOTICE);
    // Its refusals too.
    let refused = get(addr, "/old/x").await;
    assert_eq!(refused.status, 422);
    assert_eq!(noticed(&refused), NOTICE);
    // Without a sunset: `Deprecation` alone.
    assert_eq!(noticed(&get(addr, "/soon").await), (Some("@1772323200"), None));
    // The other routes, `deprecated = true` included (the document alone), say nothing.
    for path in ["/new/1", "/marked", "/nowhere"] {
        assert_eq!(noticed(&get(addr, path).await), (None, None), "{path}");
    }
    let document = get(addr, "/openapi.json").await.json();
    let deprecated = |path: &str| document["paths"][path]["get"]["deprecated"].clone();
    assert_eq!(deprecated("/old/{id}"), json!(true));
    assert_eq!(deprecated("/soon"), json!(true));
    assert_eq!(deprecated("/marked"), json!(true));
    assert_eq!(deprecated("/new/{id}"), Value::Null);
}

#[tokio::test]
async fn in_a_group_with_layers_and_in_an_app_with_versions() {
    let app = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .group(group!("/v").layer(Refuse).routes(routes![old]))
        .routes(routes![new]);
    let addr = spawn(app).await;
    let reply = send(addr, "GET", "/v/old/1", &[("API-Version", "2026-01-15")], None).await;
    assert_eq!(reply.status, 401);
    assert_eq!(noticed(&reply), NOTICE);
    assert_eq!(reply.header("api-version"), Some("2026-01-15"));
    assert_eq!(noticed(&get(addr, "/new/1").await), (None, None));
    let document = get(addr, "/openapi/2026-01-15.json").await.json();
    assert_eq!(document["paths"]["/v/old/{id}"]["get"]["deprecated"], true);
}
