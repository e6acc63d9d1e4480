//! The example program `examples/versions.rs` (compiled into this binary as a module, so the tests
//! exercise exactly what a reader runs) over real HTTP: each of its three versions' answers, 422s,
//! statuses, routes and documents; then the same requests sent to the same app under FastAPI +
//! Cadwyn (`tests/fastapi/versions_cadwyn_app.py`, which `scripts/client-checks.sh` serves under
//! uvicorn and names in `CADWYN_VERSIONS_URL`), each answer compared with ours.
//!
//! The differences that remain are listed in [`CORPUS`] with their reasons (the manual's
//! *API versions* chapter says the same):
//! - the order of the items of an old version's 422: ferrapi lists a version's errors in its
//!   shape's field order (`title`, `price`, `legacy_code`), Cadwyn in the order its generated old
//!   model has them (a renamed field and a field that existed before come last);
//! - a version the app does not serve: ferrapi answers 400 naming the served versions, Cadwyn
//!   routes the request nowhere (404 `Not Found`);
//! - ferrapi's answers carry `Vary: API-Version`, Cadwyn's none; both echo the version served;
//! - an old answer's keys are in the old model's order in ferrapi's, in the order Cadwyn's
//!   migrations put them (`pop` and re-insert) in Cadwyn's: bodies are compared as JSON values.

use std::net::SocketAddr;

use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};
use serde_json::{json, Value};

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../../examples/versions.rs"]
mod example;

const OLD: &str = "2026-01-15";
const MIDDLE: &str = "2026-03-01";
const NEW: &str = "2026-06-01";

/// `method path` at `version` (none: no header), with a JSON body when given.
async fn at(addr: SocketAddr, version: Option<&str>, method: &str, path: &str, body: Option<&str>) -> Reply {
    let mut headers = vec![("Content-Type", "application/json")];
    headers.extend(version.map(|version| ("API-Version", version)));
    send(addr, method, path, &headers, body.map(str::as_bytes)).await
}

/// `(status, body as JSON)`.
fn answer(reply: &Reply) -> (u16, Value) {
    (reply.status, reply.json())
}

#[tokio::test]
async fn each_version_answers_in_its_shape() {
    let addr = spawn(example::app()).await;
    let read = |version| async move { at(addr, version, "GET", "/products/1", None).await.text() };
    assert_eq!(
        read(Some(OLD)).await,
        r#"{"title":"Hammer","price":1250,"legacy_code":"L-Hammer"}"#
    );
    assert_eq!(
        read(Some(MIDDLE)).await,
        r#"{"name":"Hammer","price":12.5,"legacy_code":"L-Hammer"}"#
    );
    let newest = r#"{"name":"Hammer","price":12.5,"tags":["tools"]}"#;
    assert_eq!(read(Some(NEW)).await, newest);
    // No header: the newest released version, echoed.
    let reply = at(addr, None, "GET", "/products/1", None).await;
    assert_eq!(
        (reply.text().as_str(), reply.header("api-version")),
        (newest, Some(NEW))
    );
    assert_eq!(reply.header("vary"), Some("API-Version"));
}

#[tokio::test]
async fn an_old_request_is_moved_forward_and_its_status_is_its_versions() {
    let addr = spawn(example::app()).await;
    let old = r#"{"title":"Saw","price":2000,"legacy_code":"S"}"#;
    let reply = at(addr, Some(OLD), "POST", "/products", Some(old)).await;
    // 200 before 2026-03-01; the removed field comes back from the newest model.
    assert_eq!(
        answer(&reply),
        (
            200,
            json!({"title": "Saw", "price": 2000, "legacy_code": "L-Saw"})
        )
    );
    let middle = r#"{"name":"Saw","price":20,"legacy_code":"S"}"#;
    let reply = at(addr, Some(MIDDLE), "POST", "/products", Some(middle)).await;
    assert_eq!(
        answer(&reply),
        (201, json!({"name": "Saw", "price": 20.0, "legacy_code": "L-Saw"}))
    );
    let new = r#"{"name":"Saw","price":20,"tags":["wood"]}"#;
    let reply = at(addr, Some(NEW), "POST", "/products", Some(new)).await;
    assert_eq!(
        answer(&reply),
        (201, json!({"name": "Saw", "price": 20.0, "tags": ["wood"]}))
    );
}

#[tokio::test]
async fn each_versions_422s_are_its_own() {
    let addr = spawn(example::app()).await;
    let newest_body = r#"{"name":"Saw","price":-1}"#;
    // At the oldest version the newest names are unknown: `title` and `legacy_code` are missing,
    // and the price (in cents then) must not be negative.
    let reply = at(addr, Some(OLD), "POST", "/products", Some(newest_body)).await;
    let input = json!({"name": "Saw", "price": -1});
    assert_eq!(
        answer(&reply),
        (
            422,
            json!({"detail": [
                {"type": "missing", "loc": ["body", "title"], "msg": "Field required", "input": input},
                {"type": "greater_than_equal", "loc": ["body", "price"], "msg": "Input should be greater than or equal to 0", "input": -1, "ctx": {"ge": 0}},
                {"type": "missing", "loc": ["body", "legacy_code"], "msg": "Field required", "input": input},
            ]})
        )
    );
    // A price with cents is no whole number of cents.
    let reply = at(
        addr,
        Some(OLD),
        "POST",
        "/products",
        Some(r#"{"title":"Saw","price":12.5,"legacy_code":"S"}"#),
    )
    .await;
    assert_eq!(reply.json()["detail"][0]["type"], "int_from_float");
    // The newest: `tags` is required, a negative price is refused in euros.
    let reply = at(addr, Some(NEW), "POST", "/products", Some(newest_body)).await;
    let kinds: Vec<Value> = reply.json()["detail"]
        .as_array()
        .map(|items| items.iter().map(|item| item["loc"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(kinds, [json!(["body", "price"]), json!(["body", "tags"])]);
    // A name of 21 characters: too long before 2026-06-01 (20), fine since (100).
    let long = "A name of 21 letters.";
    let middle = json!({"name": long, "price": 1, "legacy_code": "x"}).to_string();
    let reply = at(addr, Some(MIDDLE), "POST", "/products", Some(&middle)).await;
    assert_eq!(
        answer(&reply),
        (
            422,
            json!({"detail": [{"type": "string_too_long", "loc": ["body", "name"], "msg": "String should have at most 20 characters", "input": long, "ctx": {"max_length": 20}}]})
        )
    );
    let new = json!({"name": long, "price": 1, "tags": []}).to_string();
    assert_eq!(
        at(addr, Some(NEW), "POST", "/products", Some(&new)).await.status,
        201
    );
}

#[tokio::test]
async fn a_route_comes_and_another_goes() {
    let addr = spawn(example::app()).await;
    let by_title = |version| async move {
        answer(&at(addr, Some(version), "GET", "/products/by-title/Saw", None).await)
    };
    assert_eq!(
        by_title(OLD).await,
        (
            200,
            json!({"title": "Saw", "price": 2000, "legacy_code": "L-Saw"})
        )
    );
    assert_eq!(by_title(MIDDLE).await, (404, json!({"detail": "Not Found"})));
    let list = |version| async move { answer(&at(addr, Some(version), "GET", "/products", None).await) };
    // Before 2026-06-01 only `POST /products` exists: a 405.
    assert_eq!(list(MIDDLE).await, (405, json!({"detail": "Method Not Allowed"})));
    let (status, products) = list(NEW).await;
    assert_eq!(
        (status, products[1].clone()),
        (200, json!({"name": "Saw", "price": 20.0, "tags": []}))
    );
}

#[tokio::test]
async fn each_version_has_its_document() {
    let addr = spawn(example::app()).await;
    let document = |version: &'static str| async move {
        send(addr, "GET", &format!("/openapi/{version}.json"), &[], None)
            .await
            .json()
    };
    let old = document(OLD).await;
    let product = &old["components"]["schemas"]["Product"];
    assert_eq!(product["required"], json!(["title", "price", "legacy_code"]));
    assert_eq!(product["properties"]["price"]["type"], "integer");
    assert_eq!(product["properties"]["title"]["maxLength"], 20);
    let paths: Vec<&String> = old["paths"]
        .as_object()
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    assert_eq!(
        paths,
        [
            "/products/{id}",
            "/products",
            "/products/by-title/{title}",
            "/products.jsonl"
        ]
    );
    assert!(old["paths"]["/products"]["post"]["responses"]["200"].is_object());
    let middle = document(MIDDLE).await;
    assert!(middle["paths"]["/products"]["post"]["responses"]["201"].is_object());
    assert!(middle["paths"]["/products/by-title/{title}"].is_null());
    let new = document(NEW).await;
    assert_eq!(new["info"]["version"], NEW);
    assert_eq!(
        new["components"]["schemas"]["Product"]["required"],
        json!(["name", "price", "tags"])
    );
    assert!(new["paths"]["/products"]["get"].is_object());
    // `/openapi.json` is the default version's, byte for byte.
    let default = send(addr, "GET", "/openapi.json", &[], None).await.json();
    assert_eq!(default, new);
}

/// The feed of JSON lines: each line in the shape of the request's version, at the oldest and
/// the newest; each version's document gives its items as that version's `Product` (the same
/// `$ref`, to a component of the version's shape).
#[tokio::test]
async fn the_feed_streams_each_versions_shape_and_documents_it() {
    let addr = spawn(example::app()).await;
    let feed = |version| async move {
        let reply = at(addr, version, "GET", "/products.jsonl", None).await;
        assert_eq!(reply.header("content-type"), Some("application/jsonl"));
        String::from_utf8(reply.dechunked()).unwrap_or_else(|error| panic!("{error}"))
    };
    assert_eq!(
        feed(Some(OLD)).await,
        "{\"title\":\"Hammer\",\"price\":1250,\"legacy_code\":\"L-Hammer\"}\n\
         {\"title\":\"Saw\",\"price\":2000,\"legacy_code\":\"L-Saw\"}\n"
    );
    assert_eq!(
        feed(Some(MIDDLE)).await,
        "{\"name\":\"Hammer\",\"price\":12.5,\"legacy_code\":\"L-Hammer\"}\n\
         {\"name\":\"Saw\",\"price\":20.0,\"legacy_code\":\"L-Saw\"}\n"
    );
    let newest = "{\"name\":\"Hammer\",\"price\":12.5,\"tags\":[\"tools\"]}\n\
                  {\"name\":\"Saw\",\"price\":20.0,\"tags\":[]}\n";
    assert_eq!(feed(Some(NEW)).await, newest);
    assert_eq!(feed(None).await, newest);

    for (version, required) in [
        (OLD, json!(["title", "price", "legacy_code"])),
        (MIDDLE, json!(["name", "price", "legacy_code"])),
        (NEW, json!(["name", "price", "tags"])),
    ] {
        let document = send(addr, "GET", &format!("/openapi/{version}.json"), &[], None)
            .await
            .json();
        let ok = &document["paths"]["/products.jsonl"]["get"]["responses"]["200"];
        assert_eq!(
            ok["content"],
            json!({"application/jsonl": {"x-itemSchema": {"$ref": "#/components/schemas/Product"}}}),
            "{version}"
        );
        let product = &document["components"]["schemas"]["Product"];
        assert_eq!(product["required"], required, "{version}");
    }
}

#[tokio::test]
async fn each_versions_document_says_what_changed_at_it() {
    let addr = spawn(example::app()).await;
    let description = |version: &'static str| async move {
        let document = send(addr, "GET", &format!("/openapi/{version}.json"), &[], None).await;
        document.json()["info"]["description"].clone()
    };
    // The first version: nothing changed at it, the app has no description of its own.
    assert_eq!(description(OLD).await, Value::Null);
    assert_eq!(
        description(MIDDLE).await,
        "Changes in 2026-03-01:\n\
         \n- `title` renamed `name` in Product\
         \n- `price` of Product retyped (was `i64`)\
         \n- `price` of Product: constraints changed (were ge = 0)\
         \n- POST /products answers 201 (was 200)\
         \n- GET /products/by-title/{title} removed"
    );
    assert_eq!(
        description(NEW).await,
        "Changes in 2026-06-01:\n\
         \n- `name` of Product: constraints changed (were max_length = 20)\
         \n- `tags` added to Product\
         \n- `legacy_code` removed from Product (was `String`)\
         \n- GET /products added"
    );
}

#[tokio::test]
async fn the_changelog_is_served_as_json() {
    let addr = spawn(example::app()).await;
    let reply = send(
        addr,
        "GET",
        "/openapi/changes.json",
        &[("API-Version", OLD)],
        None,
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let field = |kind: &str, field: &str, was: Option<&str>, summary: &str| {
        let mut change = json!({"kind": kind, "model": "Product", "field": field});
        if let Some(was) = was {
            change["was"] = json!(was);
        }
        change["summary"] = json!(summary);
        change
    };
    assert_eq!(
        reply.json(),
        json!({
            "header": "API-Version",
            "versions": [
                {"version": OLD, "released": true, "changes": []},
                {"version": MIDDLE, "released": true, "changes": [
                    field("field_renamed", "name", Some("title"), "`title` renamed `name` in Product"),
                    field("field_retyped", "price", Some("i64"), "`price` of Product retyped (was `i64`)"),
                    field("constraints_changed", "price", Some("ge = 0"), "`price` of Product: constraints changed (were ge = 0)"),
                    {"kind": "status_changed", "route": "POST /products", "was": 200, "now": 201,
                     "summary": "POST /products answers 201 (was 200)"},
                    {"kind": "route_removed", "route": "GET /products/by-title/{title}",
                     "summary": "GET /products/by-title/{title} removed"},
                ]},
                {"version": NEW, "released": true, "changes": [
                    field("constraints_changed", "name", Some("max_length = 20"), "`name` of Product: constraints changed (were max_length = 20)"),
                    field("field_added", "tags", None, "`tags` added to Product"),
                    field("field_removed", "legacy_code", Some("String"), "`legacy_code` removed from Product (was `String`)"),
                    {"kind": "route_added", "route": "GET /products", "summary": "GET /products added"},
                ]},
            ]
        })
    );
}

/// How one request's answers from ferrapi and Cadwyn compare.
#[derive(Clone, Copy)]
enum Expect {
    /// The same status and JSON body.
    Same,
    /// The same status and 422 items, in another order (the reason).
    ItemsInAnotherOrder(&'static str),
    /// Different answers: ferrapi's status, Cadwyn's, and the reason.
    Differs(u16, u16, &'static str),
}

/// One request of the comparison: the version (none: no header), method, path, body.
struct Case(
    Option<&'static str>,
    &'static str,
    &'static str,
    Option<&'static str>,
    Expect,
);

/// Why an old version's 422 items come in another order.
const ITEM_ORDER: &str = "Cadwyn's generated old model puts a renamed field and a field that existed before last; ferrapi keeps the declared order";

/// The requests both apps answer, with how their answers compare.
const CORPUS: &[Case] = &[
    Case(Some(OLD), "GET", "/products/1", None, Expect::Same),
    Case(Some(MIDDLE), "GET", "/products/1", None, Expect::Same),
    Case(Some(NEW), "GET", "/products/1", None, Expect::Same),
    Case(None, "GET", "/products/1", None, Expect::Same),
    Case(Some(OLD), "GET", "/products/9", None, Expect::Same),
    Case(Some(OLD), "GET", "/products/abc", None, Expect::Same),
    Case(
        Some(OLD),
        "POST",
        "/products",
        Some(r#"{"title":"Saw","price":2000,"legacy_code":"S"}"#),
        Expect::Same,
    ),
    Case(
        Some(MIDDLE),
        "POST",
        "/products",
        Some(r#"{"name":"Saw","price":20,"legacy_code":"S"}"#),
        Expect::Same,
    ),
    Case(
        Some(NEW),
        "POST",
        "/products",
        Some(r#"{"name":"Saw","price":1.5,"tags":["a"]}"#),
        Expect::Same,
    ),
    Case(
        Some(OLD),
        "POST",
        "/products",
        Some(r#"{"name":"Saw","price":-1}"#),
        Expect::ItemsInAnotherOrder(ITEM_ORDER),
    ),
    Case(
        Some(OLD),
        "POST",
        "/products",
        Some(r#"{"title":"Saw","price":12.5,"legacy_code":"S"}"#),
        Expect::Same,
    ),
    Case(
        Some(MIDDLE),
        "POST",
        "/products",
        Some(r#"{"name":"Saw","price":"abc","legacy_code":"S"}"#),
        Expect::Same,
    ),
    Case(
        Some(MIDDLE),
        "POST",
        "/products",
        Some(r#"{"name":"A name of 21 letters.","price":1,"legacy_code":"S"}"#),
        Expect::Same,
    ),
    Case(
        Some(NEW),
        "POST",
        "/products",
        Some(r#"{"name":"A name of 21 letters.","price":1,"tags":[]}"#),
        Expect::Same,
    ),
    Case(
        Some(NEW),
        "POST",
        "/products",
        Some(r#"{"name":"Saw","price":-1}"#),
        Expect::Same,
    ),
    Case(Some(NEW), "POST", "/products", Some("not json"), Expect::Same),
    Case(Some(OLD), "GET", "/products/by-title/Saw", None, Expect::Same),
    Case(Some(OLD), "GET", "/products/by-title/Nope", None, Expect::Same),
    Case(Some(MIDDLE), "GET", "/products/by-title/Saw", None, Expect::Same),
    Case(Some(MIDDLE), "GET", "/products", None, Expect::Same),
    Case(Some(NEW), "GET", "/products", None, Expect::Same),
    Case(
        Some("2025-01-01"),
        "GET",
        "/products/1",
        None,
        Expect::Differs(
            400,
            404,
            "a version not served: ferrapi answers 400 naming the served versions, Cadwyn routes it nowhere",
        ),
    ),
];

/// The 422 items of `body`, sorted by their JSON text.
fn sorted_items(body: &Value) -> Vec<String> {
    let mut items: Vec<String> = body["detail"]
        .as_array()
        .map(|items| items.iter().map(Value::to_string).collect())
        .unwrap_or_default();
    items.sort();
    items
}

/// Cadwyn's app's address from `CADWYN_VERSIONS_URL`, or `None` (said once) without it; with
/// `FASTAPI_REQUIRED` set (the script sets it), a missing URL fails the test instead.
fn cadwyn() -> Option<SocketAddr> {
    match std::env::var("CADWYN_VERSIONS_URL") {
        Ok(url) if !url.is_empty() => {
            let host = url.trim_start_matches("http://").trim_end_matches('/');
            Some(
                host.parse()
                    .unwrap_or_else(|e| panic!("CADWYN_VERSIONS_URL={url}: {e}")),
            )
        }
        _ if std::env::var_os("FASTAPI_REQUIRED").is_some() => panic!("CADWYN_VERSIONS_URL is not set"),
        _ => {
            eprintln!("CADWYN_VERSIONS_URL is not set: skipped (scripts/client-checks.sh serves the Cadwyn app and sets it)");
            None
        }
    }
}

#[tokio::test]
async fn the_same_requests_answered_as_fastapi_and_cadwyn_answer_them() {
    let Some(theirs) = cadwyn() else { return };
    let ours = spawn(example::app()).await;
    for Case(version, method, path, body, expect) in CORPUS {
        let what = format!("{method} {path} at {version:?} with {body:?}");
        let (mine, cadwyns) = (
            at(ours, *version, method, path, *body).await,
            at(theirs, *version, method, path, *body).await,
        );
        match expect {
            Expect::Same => assert_eq!(answer(&mine), answer(&cadwyns), "{what}"),
            Expect::ItemsInAnotherOrder(reason) => {
                assert_eq!((mine.status, cadwyns.status), (422, 422), "{what}");
                let (mine, cadwyns) = (mine.json(), cadwyns.json());
                assert_ne!(
                    mine, cadwyns,
                    "{what}: the same order now; drop the difference ({reason})"
                );
                assert_eq!(sorted_items(&mine), sorted_items(&cadwyns), "{what}");
            }
            Expect::Differs(status, theirs, reason) => {
                assert_eq!(
                    (mine.status, cadwyns.status),
                    (*status, *theirs),
                    "{what}: {reason}"
                );
            }
        }
        if version.is_some() && mine.status < 400 {
            // Both echo the version served; only ferrapi's answers say they vary by it.
            assert_eq!(
                mine.header("api-version"),
                cadwyns.header("api-version"),
                "{what}"
            );
            assert_eq!(
                (mine.header("vary"), cadwyns.header("vary")),
                (Some("API-Version"), None),
                "{what}"
            );
        }
    }
}
