//! API versions, item 4 (issue 44) over real HTTP: each served version has its own document at
//! `/openapi/{version}.json`, holding only the routes live at that version and the models as they
//! were then (old field names, types and constraints, under the model's own name, nested models
//! too), its `info` naming it; `/openapi.json` is the default version's, byte for byte; `/docs`
//! and `/redoc` list every version. A deprecated version's answers carry `Deprecation` and
//! `Sunset`, its document marks every operation deprecated. An app without versions serves one
//! document and no list.

use ferrapi::build::MistakeKind;
use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send};

/// An item, as the newest version (2026-06-01) has it.
#[derive(Model, Debug, Clone)]
#[model(removed("2026-03-01", legacy_code: String, backward = legacy_code_of))]
pub struct Item {
    /// Its name (`title` before 2026-03-01).
    #[since("2026-03-01", renamed_from = "title")]
    pub name: String,
    /// Its price in units (a whole number of cents before 2026-03-01).
    #[since("2026-03-01", was = i64, forward = cents_to_price, backward = price_to_cents)]
    pub price: f64,
    /// Its tags (none before 2026-06-01).
    #[since("2026-06-01", default = Vec::new())]
    pub tags: Vec<String>,
    /// Up to 10 characters since 2026-06-01, up to 20 before.
    #[since("2026-06-01", was_constraints(max_length = 20))]
    #[max_length(10)]
    pub note: String,
}

fn legacy_code_of(item: &Item) -> String {
    format!("L-{}", item.name)
}

fn cents_to_price(cents: i64) -> Result<f64, String> {
    Ok(cents as f64 / 100.0)
}

fn price_to_cents(price: &f64) -> i64 {
    (price * 100.0).round() as i64
}

/// An unversioned model holding versioned ones: its `$ref` reaches the version's `Item`.
#[derive(Model, Debug, serde::Serialize)]
pub struct Order {
    pub items: Vec<Item>,
}

#[post("/items")]
async fn create_item(item: Item) -> Json<Item> {
    Json(item)
}

#[post("/orders")]
async fn create_order(order: Order) -> Json<Order> {
    Json(order)
}

/// Gone at 2026-03-01.
#[get("/legacy", versions = .."2026-03-01")]
async fn legacy() -> &'static str {
    "legacy"
}

/// New at 2026-03-01.
#[get("/fresh", versions = "2026-03-01"..)]
async fn fresh() -> &'static str {
    "fresh"
}

fn app() -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01"))
        .routes(routes![create_item, create_order, legacy, fresh])
}

/// `GET path` as JSON, after checking it is a 200.
async fn document(addr: std::net::SocketAddr, path: &str) -> Value {
    let reply = get(addr, path).await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    reply.json()
}

fn paths(doc: &Value) -> Vec<&str> {
    let paths = doc["paths"]
        .as_object()
        .map(|paths| paths.keys().map(String::as_str));
    paths.into_iter().flatten().collect()
}

#[tokio::test]
async fn each_version_has_its_routes_and_its_models() {
    let addr = spawn(app()).await;

    let old = document(addr, "/openapi/2026-01-15.json").await;
    assert_eq!(old["info"]["version"], "2026-01-15");
    assert_eq!(
        old["info"]["x-api-version"],
        json!({"header": "API-Version", "version": "2026-01-15", "released": true})
    );
    assert_eq!(paths(&old), ["/items", "/orders", "/legacy"]);
    let item = &old["components"]["schemas"]["Item"];
    assert_eq!(item["title"], "Item");
    assert_eq!(
        item["description"],
        "An item, as the newest version (2026-06-01) has it."
    );
    let properties = &item["properties"];
    assert_eq!(properties["title"]["type"], "string", "{item}");
    assert_eq!(properties["price"]["type"], "integer", "{item}");
    assert_eq!(properties["legacy_code"]["type"], "string", "{item}");
    assert_eq!(properties["note"]["maxLength"], 20, "{item}");
    assert!(
        properties.get("name").is_none() && properties.get("tags").is_none(),
        "{item}"
    );
    // The nested model's reference reaches the same (old) `Item`; no hidden name leaks.
    let order = &old["components"]["schemas"]["Order"]["properties"]["items"]["items"];
    assert_eq!(order["$ref"], "#/components/schemas/Item");
    assert!(!old.to_string().contains("__Item"), "{old}");

    let middle = document(addr, "/openapi/2026-03-01.json").await;
    assert_eq!(middle["info"]["version"], "2026-03-01");
    assert_eq!(paths(&middle), ["/items", "/orders", "/fresh"]);
    let properties = &middle["components"]["schemas"]["Item"]["properties"];
    assert_eq!(properties["name"]["type"], "string", "{properties}");
    assert_eq!(properties["price"]["type"], "number", "{properties}");
    assert!(properties.get("title").is_none() && properties.get("legacy_code").is_none());
    assert!(properties.get("tags").is_none(), "{properties}");
    assert_eq!(properties["note"]["maxLength"], 20, "{properties}");

    let newest = document(addr, "/openapi/2026-06-01.json").await;
    assert_eq!(newest["info"]["x-api-version"]["released"], false);
    let properties = &newest["components"]["schemas"]["Item"]["properties"];
    assert_eq!(properties["tags"]["type"], "array", "{properties}");
    assert_eq!(properties["note"]["maxLength"], 10, "{properties}");

    // `/openapi.json` is the default version's (the newest released), byte for byte.
    let default = get(addr, "/openapi.json").await;
    let middle = get(addr, "/openapi/2026-03-01.json").await;
    assert_eq!(default.body, middle.body);
    // A version the app does not serve has no document.
    assert_eq!(get(addr, "/openapi/2025-01-01.json").await.status, 404);

    // The same bytes from the service, for a test comparing them with a committed copy.
    let service = app().build().expect("builds");
    let served = get(addr, "/openapi/2026-01-15.json").await;
    assert_eq!(
        service.version_document("2026-01-15").map(|b| b.to_vec()),
        Some(served.body)
    );
    assert_eq!(service.version_document("2025-01-01"), None);
}

#[tokio::test]
async fn a_pinned_default_is_the_served_document() {
    // Item's changes name 2026-06-01: the app must serve it.
    let versions = Versions::released(["2026-01-15", "2026-03-01"])
        .unreleased("2026-06-01")
        .default_version("2026-01-15");
    let addr = spawn(
        App::new()
            .versions(versions)
            .routes(routes![create_item, legacy, fresh]),
    )
    .await;
    let default = get(addr, "/openapi.json").await;
    assert_eq!(default.body, get(addr, "/openapi/2026-01-15.json").await.body);
    assert_eq!(
        default.json()["components"]["schemas"]["Item"]["properties"]["price"]["type"],
        "integer"
    );
}

#[tokio::test]
async fn the_docs_pages_switch_between_versions() {
    let addr = spawn(app()).await;
    for page in ["/docs", "/redoc"] {
        let html = get(addr, page).await.text();
        assert!(html.contains(r#"<select id="api-version">"#), "{page}: {html}");
        for option in [
            r#"<option value="/openapi/2026-01-15.json">2026-01-15</option>"#,
            r#"<option value="/openapi/2026-03-01.json" selected>2026-03-01 (default)</option>"#,
            r#"<option value="/openapi/2026-06-01.json">2026-06-01 (unreleased)</option>"#,
        ] {
            assert!(html.contains(option), "{page}: {option} in {html}");
        }
        // The page's own script (no inline one) listens to the list.
        let script = html
            .split("<script src=\"")
            .filter_map(|part| part.split('"').next())
            .find(|src| src.ends_with("-init.js"))
            .unwrap_or_else(|| panic!("{page}: no init script in {html}"));
        let init = get(addr, script).await;
        assert_eq!(init.status, 200);
        assert!(
            init.text().contains(r#"getElementById("api-version")"#),
            "{}",
            init.text()
        );
    }
}

#[tokio::test]
async fn an_app_without_versions_has_one_document_and_no_list() {
    let addr = spawn(App::new().routes(routes![create_order])).await;
    let doc = get(addr, "/openapi.json").await.json();
    assert!(doc["info"].get("x-api-version").is_none(), "{doc}");
    assert_eq!(
        doc["components"]["schemas"]["Item"]["properties"]["price"]["type"],
        "number"
    );
    for page in ["/docs", "/redoc"] {
        assert!(!get(addr, page).await.text().contains("api-version"), "{page}");
    }
    assert_eq!(get(addr, "/openapi/2026-01-15.json").await.status, 404);
    let service = App::new().routes(routes![create_order]).build().expect("builds");
    assert_eq!(service.version_document("2026-01-15"), None);
}

fn deprecating() -> App {
    let versions = Versions::released(["2026-01-15", "2026-03-01"])
        .unreleased("2026-06-01")
        .deprecated("2026-01-15", "2026-03-01", Some("2026-12-31"));
    App::new()
        .versions(versions)
        .routes(routes![create_item, legacy, fresh])
}

#[tokio::test]
async fn a_deprecated_version_says_so_in_its_answers_and_its_document() {
    let addr = spawn(deprecating()).await;
    // Every answer at the deprecated version, a 404 included, carries the two headers.
    for path in ["/legacy", "/nowhere"] {
        let reply = send(addr, "GET", path, &[("API-Version", "2026-01-15")], None).await;
        assert_eq!(reply.header("deprecation"), Some("@1772323200"), "{path}");
        assert_eq!(
            reply.header("sunset"),
            Some("Thu, 31 Dec 2026 00:00:00 GMT"),
            "{path}"
        );
    }
    // The other versions' answers do not.
    let reply = get(addr, "/fresh").await;
    assert_eq!((reply.status, reply.header("deprecation")), (200, None));
    assert_eq!(reply.header("sunset"), None);

    let old = document(addr, "/openapi/2026-01-15.json").await;
    for (path, item) in old["paths"].as_object().into_iter().flatten() {
        for (method, operation) in item.as_object().into_iter().flatten() {
            assert_eq!(operation["deprecated"], true, "{method} {path}");
        }
    }
    // Its `x-api-version` says so, for generators; the others' do not.
    assert_eq!(old["info"]["x-api-version"]["deprecated"], true);
    let newer = document(addr, "/openapi/2026-03-01.json").await;
    assert!(!newer.to_string().contains("\"deprecated\""), "{newer}");
    let html = get(addr, "/docs").await.text();
    let option = r#"<option value="/openapi/2026-01-15.json">2026-01-15 (deprecated)</option>"#;
    assert!(html.contains(option), "{html}");
}

#[test]
fn a_deprecation_the_app_cannot_serve_does_not_build() {
    let versions = Versions::released(["2026-01-15", "2026-03-01"])
        .unreleased("2026-06-01")
        .deprecated("2026-06-01", "2026-03-01", None)
        .deprecated("2026-01-15", "2026-03-01", Some("2026-02-01"))
        .deprecated("2026-01-15", "2026-03-01", None);
    let app = App::new().versions(versions).routes(routes![legacy]);
    let error = app.build().map(drop).expect_err("mistakes");
    let problems: Vec<String> = error
        .errors()
        .filter_map(|mistake| match mistake.kind() {
            MistakeKind::Versions { problem } => Some(problem.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        problems,
        [
            "the deprecated version `2026-06-01` is not one of the released versions",
            "the sunset `2026-02-01` of `2026-01-15` is before its deprecation `2026-03-01`",
            "version `2026-01-15` is declared deprecated twice",
        ]
    );
}
