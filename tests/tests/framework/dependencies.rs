//! Dependencies, in-process through the test client, of the example program
//! `examples/dependencies.rs` (compiled into this binary as a module, so the tests exercise
//! exactly what a reader runs): an async lookup behind a bearer token, 401 with
//! `WWW-Authenticate`, 403 from a sub-dependency, a reused `Pagination` whose parameter errors join
//! the route's own, the per-request cache, the order of answers against FastAPI's (also with the
//! app's own validation error), and what the OpenAPI document shows.

use ferrapi::prelude::*;
use ferrapi::testing::{TestClient, TestResponse};

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../../examples/dependencies.rs"]
mod example;

use example::{app, CurrentUser, Store};

async fn get_as(client: &TestClient, token: &str, path: &str) -> TestResponse {
    let bearer = format!("Bearer {token}");
    client.get(path).header("Authorization", bearer).send().await
}

#[tokio::test]
async fn a_bearer_token_is_looked_up_asynchronously() {
    let client = TestClient::new(app(Store::sample()));
    let reply = get_as(&client, "alice-token", "/users/me").await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (200, r#"{"name":"alice","admin":true}"#.into())
    );
    let reply = get_as(&client, "bob-token", "/users/me/items").await;
    assert_eq!(
        reply.json::<Value>(),
        json!([{"name": "Saw", "owner": "bob"}, {"name": "Level", "owner": "bob"}])
    );
}

#[tokio::test]
async fn a_missing_or_unknown_token_is_401_with_www_authenticate() {
    let client = TestClient::new(app(Store::sample()));
    let reply = client.get("/users/me").send().await;
    assert_eq!(reply.status(), 401);
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    assert_eq!(reply.text(), r#"{"detail":"Not authenticated"}"#);
    let reply = client
        .get("/users/me")
        .header("Authorization", "Basic YTpi")
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.header("www-authenticate")),
        (401, Some("Bearer"))
    );
    let reply = get_as(&client, "mallory-token", "/users/me").await;
    assert_eq!(reply.status(), 401);
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
    assert_eq!(reply.text(), r#"{"detail":"Invalid authentication credentials"}"#);
}

#[tokio::test]
async fn a_sub_dependency_can_answer_403() {
    let client = TestClient::new(app(Store::sample()));
    let reply = get_as(&client, "bob-token", "/admin/lookups").await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (403, r#"{"detail":"Not an administrator"}"#.into())
    );
    // Without a token, `Admin`'s own dependency answers first.
    assert_eq!(client.get("/admin/lookups").send().await.status(), 401);
}

#[tokio::test]
async fn pagination_is_reused_and_its_errors_join_the_routes_own() {
    let client = TestClient::new(app(Store::sample()));
    let names = |reply: TestResponse| -> Vec<String> {
        let list = reply.json::<Value>();
        let items = list.as_array().cloned().unwrap_or_default();
        items
            .iter()
            .map(|i| i["name"].as_str().unwrap_or("?").to_owned())
            .collect()
    };
    assert_eq!(
        names(client.get("/items?skip=1&limit=2").send().await),
        ["Saw", "Drill"]
    );
    assert_eq!(names(client.get("/items?q=l").send().await), ["Drill", "Level"]);
    assert_eq!(
        names(get_as(&client, "alice-token", "/users/me/items?skip=1").await),
        ["Drill"]
    );
    // The route's own `q` and the dependency's `skip` and `limit`, in declaration order, in one 422.
    let reply = client.get("/items?limit=500&q=&skip=x").send().await;
    assert_eq!(reply.status(), 422);
    let locs: Vec<Value> = reply.json::<Value>()["detail"]
        .as_array()
        .map(|items| items.iter().map(|i| i["loc"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(
        locs,
        [
            json!(["query", "q"]),
            json!(["query", "skip"]),
            json!(["query", "limit"])
        ]
    );
    assert_eq!(
        reply.json::<Value>()["detail"][2],
        json!({"type": "less_than_equal", "loc": ["query", "limit"], "msg": "Input should be less than or equal to 100",
               "input": "500", "ctx": {"le": 100}})
    );
}

#[tokio::test]
async fn a_failing_dependency_answers_before_validation_errors_as_in_fastapi() {
    let client = TestClient::new(app(Store::sample()));
    // FastAPI resolves dependencies before validating the rest: no credential is 401 even though
    // `limit` is invalid too.
    let reply = client.get("/users/me/items?limit=0").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.header("www-authenticate")),
        (401, Some("Bearer"))
    );
    // With a valid credential, the invalid parameter is the answer.
    let reply = get_as(&client, "alice-token", "/users/me/items?limit=0").await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.json::<Value>()["detail"][0]["loc"],
        json!(["query", "limit"])
    );
}

#[tokio::test]
async fn a_dependency_used_twice_in_a_request_runs_once() {
    let client = TestClient::new(app(Store::sample()));
    // `read_lookups` takes `CurrentUser` and `Admin`, which takes `CurrentUser` again: each
    // request looks the token up once.
    let first = get_as(&client, "alice-token", "/admin/lookups")
        .await
        .json::<Value>()["lookups"]
        .clone();
    let second = get_as(&client, "alice-token", "/admin/lookups")
        .await
        .json::<Value>()["lookups"]
        .clone();
    assert_eq!(first, json!(1));
    assert_eq!(second, json!(2));
}

/// A note, the body of `create_note`.
#[derive(Model)]
struct Note {
    text: String,
}

/// A route with a dependency and a body.
#[post("/notes")]
async fn create_note(user: CurrentUser, note: Note) -> Json<Value> {
    Json(json!({ "user": format!("{user:?}").contains("alice"), "text": note.text }))
}

#[tokio::test]
async fn a_body_that_is_not_json_is_answered_before_dependencies_run() {
    let client = TestClient::new(app(Store::sample()).routes(routes![create_note]));
    let json = |body: &'static str| client.post("/notes").content_type("application/json").body(body);
    // FastAPI parses the body before resolving dependencies: a malformed body is its 422 even
    // without a credential.
    let reply = json("{").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(reply.json::<Value>()["detail"][0]["type"], "json_invalid");
    // A well-formed body that does not validate waits for the dependencies: 401 first.
    let reply = json("{}").send().await;
    assert_eq!(reply.status(), 401);
    let with_token = |body: &'static str| json(body).header("Authorization", "Bearer alice-token");
    let reply = with_token("{}").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(reply.json::<Value>()["detail"][0]["loc"], json!(["body", "text"]));
    let reply = with_token(r#"{"text":"hi"}"#).send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (200, json!({"user": true, "text": "hi"}))
    );
}

#[tokio::test]
async fn the_document_shows_what_dependencies_read_and_answer() {
    let service = app(Store::sample()).build().expect("the app builds");
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let items = &doc["paths"]["/items"]["get"];
    let names: Vec<&str> = items["parameters"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["q", "skip", "limit"]);
    assert_eq!(
        items["parameters"][2],
        json!({"name": "limit", "in": "query", "required": false, "schema":
            {"type": "integer", "format": "int64", "minimum": 1, "maximum": 100, "default": 10, "title": "Limit"}})
    );
    // A dependency reading no parameter adds no parameter, and no 422.
    let me = &doc["paths"]["/users/me"]["get"];
    assert!(me.get("parameters").is_none());
    assert_eq!(
        me["responses"]["401"],
        json!({"description": "Not authenticated"})
    );
    assert!(me["responses"].get("422").is_none());
    // Sub-dependencies document their answers too, each status once.
    let admin = &doc["paths"]["/admin/lookups"]["get"]["responses"];
    let statuses: Vec<&String> = admin.as_object().map(|m| m.keys().collect()).unwrap_or_default();
    assert_eq!(statuses, ["200", "401", "403"]);
    let mine = &doc["paths"]["/users/me/items"]["get"];
    assert_eq!(mine["parameters"].as_array().map(Vec::len), Some(2));
    assert!(mine["responses"].get("401").is_some() && mine["responses"].get("422").is_some());
}

#[tokio::test]
async fn the_apps_validation_error_waits_for_dependencies_as_fastapis_does() {
    use ferrapi::arg::Parts;
    use ferrapi::validation::ValidationErrors;
    let answer = |errors: &ValidationErrors, head: &Parts| {
        Json(json!({ "path": head.uri.path(), "invalid": errors.items().len() }))
    };
    let app = app(Store::sample())
        .routes(routes![create_note])
        .on_validation_error(StatusCode::BAD_REQUEST, answer);
    let client = TestClient::new(app);
    // A failing dependency still answers first.
    let reply = client.get("/users/me/items?limit=0").send().await;
    assert_eq!(reply.status(), 401);
    // Then the app's answer, with the request it was about.
    let reply = get_as(&client, "alice-token", "/users/me/items?limit=0&skip=-1").await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (400, json!({"path": "/users/me/items", "invalid": 2}))
    );
    // A body that is not JSON is answered before the dependencies, by the app's answer too.
    let reply = client
        .post("/notes")
        .content_type("application/json")
        .body("{")
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (400, json!({"path": "/notes", "invalid": 1}))
    );
    let reply = get_as(&client, "alice-token", "/users/me/items?limit=1").await;
    assert_eq!(reply.status(), 200);
}

/// A route taking one dependency twice: both arguments get its value, resolved once.
#[get("/twice")]
async fn twice(first: CurrentUser, second: CurrentUser) -> Json<Value> {
    Json(json!({ "same": format!("{first:?}") == format!("{second:?}") }))
}

#[tokio::test]
async fn a_dependency_a_route_takes_twice_is_resolved_once_and_given_to_both() {
    let client = TestClient::new(app(Store::sample()).routes(routes![twice]));
    let reply = get_as(&client, "alice-token", "/twice").await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (200, json!({ "same": true }))
    );
    // `/admin/lookups` counts its own lookup too: one for `/twice`, one for itself.
    let lookups = get_as(&client, "alice-token", "/admin/lookups")
        .await
        .json::<Value>()["lookups"]
        .clone();
    assert_eq!(lookups, json!(2));
    assert_eq!(get_as(&client, "nobody", "/twice").await.status(), 401);
}
