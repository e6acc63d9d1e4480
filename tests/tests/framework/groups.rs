//! Route groups (`group!`, `Group`, `App::group`), in-process through the test client (one test
//! over real HTTP on 127.0.0.1, for the server's body type through two layer stacks): prefixes and
//! nesting, tags and default responses in the OpenAPI document, the first-match rule and the
//! shadow report across groups, a group's layers (its routes only, inside the app's, one stack
//! per route, seeing the full path, reaching the route from a request a layer rebuilt), and a
//! group's dependencies (run for each route, once per
//! request with the route's own use, answering 401, their parameters' errors joining the route's).
//! The example program `examples/groups.rs` is compiled in as a module and its document kept as
//! a snapshot (`tests/snapshots/openapi_groups_example.json`, which `scripts/docs-checks.sh`
//! validates with openapi-spec-validator; update it with `UPDATE_SNAPSHOTS=1`).

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use ferrapi::http::header::{HeaderValue, WWW_AUTHENTICATE};
use ferrapi::layer::MatchedRoute;
use ferrapi::prelude::*;
use ferrapi::route::RouteInfo;
use ferrapi::testing::{TestClient, TestResponse};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send_json, Reply};
use ferrapi_tests::snapshot::assert_document_snapshot;
use tower::{Layer, Service};

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../../examples/groups.rs"]
mod example;

#[get("/ping")]
async fn ping() -> &'static str {
    "pong"
}

/// One thing.
#[get("/{thing_id}", tags("things"), responses(404 = "Thing not found"))]
async fn read_thing(thing_id: i64, #[min_length(1)] q: Option<String>) -> Json<Value> {
    Json(json!({ "thing_id": thing_id, "q": q }))
}

#[get("")]
async fn list_things() -> Json<Value> {
    Json(json!(["a", "b"]))
}

#[get("/")]
async fn things_index() -> &'static str {
    "index"
}

#[get("/{id}")]
async fn read_user(id: String) -> String {
    format!("user {id}")
}

#[get("/me")]
async fn read_me() -> &'static str {
    "me"
}

#[derive(Model)]
struct Note {
    text: String,
}

#[post("/notes", status = 201, responses(503 = "The route's own words"))]
async fn create_note(note: Note) -> (StatusCode, Json<Value>) {
    (StatusCode::CREATED, Json(json!({ "text": note.text })))
}

#[get("/slow")]
async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_millis(500)).await;
    "late"
}

fn table_paths(table: &[RouteInfo]) -> Vec<(&'static str, String)> {
    table.iter().map(|row| (row.name, row.path.clone())).collect()
}

#[tokio::test]
async fn prefixes_join_and_nested_groups_concatenate() {
    let api = group!("/api")
        .group(group!("/things").routes(routes![list_things, things_index]))
        .routes(routes![read_thing])
        .group(group!("/v2").routes(routes![read_thing]));
    let app = App::new().routes(routes![ping]).group(api);
    let table = app.route_table().expect("a route table");
    assert_eq!(
        table_paths(&table),
        [
            ("ping", "/ping".to_owned()),
            ("list_things", "/api/things".to_owned()),
            // Declared `/` under `/api/things`: the same route, so shadowed.
            ("things_index", "/api/things".to_owned()),
            // Declared after `/api/things`, which it would otherwise take.
            ("read_thing", "/api/{thing_id}".to_owned()),
            ("read_thing", "/api/v2/{thing_id}".to_owned()),
        ]
    );
    assert_eq!(
        table[2].shadowed_by,
        Some(("list_things", "/api/things".to_owned()))
    );
    assert!(table[3].shadowed_by.is_none());
    let client = TestClient::new(app);
    assert_eq!(
        client.get("/api/7").send().await.json::<Value>(),
        json!({"thing_id": 7, "q": null})
    );
    assert_eq!(
        client.get("/api/v2/8?q=x").send().await.json::<Value>(),
        json!({"thing_id": 8, "q": "x"})
    );
    assert_eq!(
        client.get("/api/things").send().await.json::<Value>(),
        json!(["a", "b"])
    );
    assert_eq!(
        client.get("/api/things/").send().await.json::<Value>(),
        json!(["a", "b"])
    );
    assert_eq!(client.get("/ping").send().await.text(), "pong");
    // Only the full path reaches a group's route.
    assert_eq!(client.get("/7").send().await.status(), 404);
    assert_eq!(client.get("/v2/7").send().await.status(), 404);
}

fn document(app: App) -> Value {
    let service = app.build().expect("the app builds");
    serde_json::from_slice(service.openapi_json()).expect("the document is JSON")
}

#[test]
fn tags_and_responses_accumulate_outermost_first_in_the_document() {
    let inner = group!(
        "/inner",
        tags("inner", "outer"),
        responses(503 = "Inner unavailable", 429 = "Slow down")
    )
    .routes(routes![read_thing, create_note]);
    let outer = group!(
        "/outer",
        tags("outer"),
        responses(503 = "Outer unavailable", 404 = "Gone")
    )
    .group(inner);
    let doc = document(App::new().group(outer).routes(routes![ping]));
    let read = &doc["paths"]["/outer/inner/{thing_id}"]["get"];
    // The groups' tags before the route's own, each once.
    assert_eq!(read["tags"], json!(["outer", "inner", "things"]));
    let statuses = |op: &Value| -> Vec<(String, Value)> {
        op["responses"]
            .as_object()
            .map(|r| {
                r.iter()
                    .map(|(status, response)| (status.clone(), response["description"].clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        statuses(read),
        [
            ("200".to_owned(), json!("Successful Response")),
            // The route's own 404 wins over the outer group's.
            ("404".to_owned(), json!("Thing not found")),
            // The inner group's words in the outer group's place.
            ("503".to_owned(), json!("Inner unavailable")),
            ("429".to_owned(), json!("Slow down")),
            ("422".to_owned(), json!("Validation Error")),
        ]
    );
    let create = &doc["paths"]["/outer/inner/notes"]["post"];
    assert_eq!(create["tags"], json!(["outer", "inner"]));
    assert_eq!(
        statuses(create),
        [
            ("201".to_owned(), json!("Successful Response")),
            ("503".to_owned(), json!("The route's own words")),
            ("404".to_owned(), json!("Gone")),
            ("429".to_owned(), json!("Slow down")),
            ("422".to_owned(), json!("Validation Error")),
        ]
    );
    // A route outside the groups gets nothing of theirs.
    let ping = &doc["paths"]["/ping"]["get"];
    assert_eq!(ping.get("tags"), None);
    assert_eq!(statuses(ping).len(), 1);
}

#[tokio::test]
async fn the_first_declared_route_wins_across_groups_by_full_path() {
    let by_id = || group!("/users").routes(routes![read_user]);
    let me = || group!("/users").routes(routes![read_me]);
    // `/users/{id}` first: `/users/me` is shadowed, reported with the full path of the winner.
    let app = App::new().group(by_id()).group(me());
    let table = app.route_table().expect("a route table");
    assert_eq!(table[1].path, "/users/me");
    assert_eq!(
        table[1].shadowed_by,
        Some(("read_user", "/users/{id}".to_owned()))
    );
    let doc = document(App::new().group(by_id()).group(me()));
    assert_eq!(doc["paths"].as_object().map(|p| p.len()), Some(1));
    let client = TestClient::new(app);
    assert_eq!(client.get("/users/me").send().await.text(), "user me");
    // Declared the other way round, both are served.
    let app = App::new().group(me()).group(by_id());
    assert!(app
        .route_table()
        .expect("a route table")
        .iter()
        .all(|row| row.shadowed_by.is_none()));
    let client = TestClient::new(app);
    assert_eq!(client.get("/users/me").send().await.text(), "me");
    assert_eq!(client.get("/users/7").send().await.text(), "user 7");
    // A route outside any group declared first wins over a group's, and the other way round.
    let app = App::new()
        .routes(routes![read_me])
        .group(group!("").routes(routes![read_user]));
    let table = app.route_table().expect("a route table");
    assert_eq!((table[0].path.as_str(), table[1].path.as_str()), ("/me", "/{id}"));
    let client = TestClient::new(app);
    assert_eq!(client.get("/me").send().await.text(), "me");
}

/// What the marking layers saw, in the order they saw it: the layer's name and the matched
/// route's path.
type Seen = Arc<Mutex<Vec<(&'static str, Option<String>)>>>;

/// A layer of our own: appends its name to the answer's `x-layers` and records the request's
/// [`MatchedRoute`]; counts how many stacks it was applied to.
#[derive(Clone)]
struct Mark {
    name: &'static str,
    seen: Seen,
    applied: Arc<AtomicUsize>,
}

impl Mark {
    fn new(name: &'static str, seen: &Seen) -> Self {
        Mark {
            name,
            seen: seen.clone(),
            applied: Arc::default(),
        }
    }
}

impl<S> Layer<S> for Mark {
    type Service = MarkService<S>;
    fn layer(&self, inner: S) -> MarkService<S> {
        self.applied.fetch_add(1, Ordering::Relaxed);
        MarkService {
            inner,
            mark: self.clone(),
        }
    }
}

#[derive(Clone)]
struct MarkService<S> {
    inner: S,
    mark: Mark,
}

impl<S, B> Service<hyper::Request<B>> for MarkService<S>
where
    S: Service<hyper::Request<B>, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: hyper::Request<B>) -> Self::Future {
        let path = request
            .extensions()
            .get::<MatchedRoute>()
            .map(|m| m.path().to_owned());
        if let Ok(mut seen) = self.mark.seen.lock() {
            seen.push((self.mark.name, path));
        }
        let name = self.mark.name;
        let future = self.inner.call(request);
        Box::pin(async move {
            let mut response = future.await?;
            response
                .headers_mut()
                .append("x-layers", HeaderValue::from_static(name));
            Ok(response)
        })
    }
}

fn layers_of(reply: &TestResponse) -> Vec<&str> {
    reply
        .headers()
        .get_all("x-layers")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .collect()
}

/// [`layers_of`] for an answer over the socket.
fn socket_layers_of(reply: &Reply) -> Vec<&str> {
    reply
        .headers
        .iter()
        .filter(|(name, _)| name == "x-layers")
        .map(|(_, value)| value.as_str())
        .collect()
}

fn take(seen: &Seen) -> Vec<(&'static str, Option<String>)> {
    std::mem::take(&mut *seen.lock().expect("not poisoned"))
}

/// `/g` (layer `outer`) with `/g/{thing_id}` and `/g/n` (layers `inner1` then `inner2`) with
/// `/g/n/notes` and `/g/n/slow`; `/ping` outside.
fn layered(seen: &Seen, outer: &Mark) -> App {
    let nested = group!("/n")
        .routes(routes![create_note, slow])
        .layer(Mark::new("inner1", seen))
        .layer(Mark::new("inner2", seen))
        .layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(50)));
    let g = group!("/g")
        .routes(routes![read_thing])
        .group(nested)
        .layer(outer.clone());
    App::new().routes(routes![ping]).group(g)
}

#[tokio::test]
async fn a_groups_layers_wrap_its_routes_only_outermost_group_first() {
    let seen = Seen::default();
    let outer = Mark::new("outer", &seen);
    let client = TestClient::new(layered(&seen, &outer));
    // One stack per route: the outer layer was applied to each of the group's routes, the
    // nested group's included (`/g/{thing_id}`, `/g/n/notes`, `/g/n/slow`).
    assert_eq!(outer.applied.load(Ordering::Relaxed), 3);

    let reply = client
        .post("/g/n/notes")
        .json(&json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (201, json!({"text": "hi"}))
    );
    // On the way out the innermost layer (the first added) appends first.
    assert_eq!(layers_of(&reply), ["inner1", "inner2", "outer"]);
    // On the way in, the outermost first, each seeing the route's full path although the app
    // itself has no layer.
    let notes = Some("/g/n/notes".to_owned());
    assert_eq!(
        take(&seen),
        [
            ("outer", notes.clone()),
            ("inner2", notes.clone()),
            ("inner1", notes)
        ]
    );

    let reply = client.get("/g/5").send().await;
    assert_eq!(layers_of(&reply), ["outer"]);
    assert_eq!(take(&seen), [("outer", Some("/g/{thing_id}".to_owned()))]);
    // Validation errors are answers like any other, through the layers.
    let reply = client.get("/g/x").send().await;
    assert_eq!((reply.status().as_u16(), layers_of(&reply)), (422, vec!["outer"]));
    take(&seen);

    // Outside the group, and requests no route matches, meet none of its layers.
    let reply = client.get("/ping").send().await;
    assert_eq!((reply.text(), layers_of(&reply)), ("pong".to_owned(), vec![]));
    assert_eq!(
        layers_of(&client.get("/g/n/nope").send().await),
        Vec::<&str>::new()
    );
    assert_eq!(take(&seen), []);

    // A group layer's error is answered, as an app layer's is.
    let reply = client.get("/g/n/slow").send().await;
    assert_eq!(reply.status().as_u16(), 408);
    assert_eq!(layers_of(&reply), ["outer"]);
}

#[tokio::test]
// Over a socket: the server's body type through both stacks, with a body to read at the end.
async fn a_groups_layers_run_inside_the_apps_layers() {
    let seen = Seen::default();
    let outer = Mark::new("outer", &seen);
    let app = layered(&seen, &outer).layer(Mark::new("app", &seen));
    let addr = spawn(app).await;
    let reply = send_json(addr, "POST", "/g/n/notes", r#"{"text":"hi"}"#).await;
    assert_eq!(reply.status, 201);
    assert_eq!(socket_layers_of(&reply), ["inner1", "inner2", "outer", "app"]);
    let names: Vec<&str> = take(&seen).iter().map(|(name, _)| *name).collect();
    assert_eq!(names, ["app", "outer", "inner2", "inner1"]);
    assert_eq!(socket_layers_of(&get(addr, "/ping").await), ["app"]);
    // The body still reaches the route through both stacks, and its errors come back.
    let reply = send_json(addr, "POST", "/g/n/notes", r#"{"text": 5}"#).await;
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "text"]));
}

/// A note on a thing: a path parameter and a body.
#[post("/{thing_id}/notes")]
async fn note_thing(thing_id: i64, note: Note) -> Json<Value> {
    Json(json!({ "thing_id": thing_id, "text": note.text }))
}

/// A layer that reads the whole body and passes on a new request made from the head's parts
/// (none of the old one's extensions) and a new body of the same bytes.
#[derive(Clone)]
struct Rebuild;

impl<S> Layer<S> for Rebuild {
    type Service = RebuildService<S>;
    fn layer(&self, inner: S) -> RebuildService<S> {
        RebuildService { inner }
    }
}

#[derive(Clone)]
struct RebuildService<S> {
    inner: S,
}

impl<S> Service<hyper::Request<ferrapi::Body>> for RebuildService<S>
where
    S: Service<hyper::Request<ferrapi::Body>, Response = Response, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: hyper::Request<ferrapi::Body>) -> Self::Future {
        use http_body_util::BodyExt;
        let mut inner = self.inner.clone();
        std::mem::swap(&mut inner, &mut self.inner);
        Box::pin(async move {
            let (parts, body) = request.into_parts();
            let bytes = match body.collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(_) => return Ok(StatusCode::BAD_REQUEST.into_response()),
            };
            let mut rebuilt = hyper::Request::new(ferrapi::Body::from(bytes));
            *rebuilt.method_mut() = parts.method;
            *rebuilt.uri_mut() = parts.uri;
            *rebuilt.version_mut() = parts.version;
            *rebuilt.headers_mut() = parts.headers;
            inner.call(rebuilt).await
        })
    }
}

#[tokio::test]
async fn a_group_layer_that_rebuilds_the_request_still_reaches_the_route() {
    // In-process, and over a socket (the server's body, and what it hands over with it, lost
    // with the old request), with the app's layers around the group's.
    let app = || {
        let g = group!("/g").routes(routes![note_thing]).layer(Rebuild);
        App::new().group(g)
    };
    let client = TestClient::new(app().layer(Rebuild));
    let reply = client
        .post("/g/7/notes")
        .json(&json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (200, json!({"thing_id": 7, "text": "hi"}))
    );
    let addr = spawn(app().layer(Rebuild)).await;
    for (path, body, status, answer) in [
        (
            "/g/8/notes",
            r#"{"text":"yo"}"#,
            200,
            json!({"thing_id": 8, "text": "yo"}),
        ),
        ("/g/x/notes", r#"{"text":"yo"}"#, 422, json!(["path", "thing_id"])),
        ("/g/8/notes", r#"{"text":5}"#, 422, json!(["body", "text"])),
    ] {
        let reply = send_json(addr, "POST", path, body).await;
        assert_eq!(reply.status, status, "{path} {body}");
        let got = if status == 200 {
            reply.json()
        } else {
            reply.json()["detail"][0]["loc"].clone()
        };
        assert_eq!(got, answer, "{path} {body}");
    }
    assert_eq!(get(addr, "/nowhere").await.status, 404);
}

/// How many times the `Audit` dependency ran.
#[derive(Default)]
struct Audits(AtomicUsize);

/// A dependency with an effect: it counts its runs.
#[derive(Clone)]
struct Audit(usize);

#[dependency]
async fn audit(audits: State<Audits>) -> Audit {
    tokio::task::yield_now().await;
    Audit(audits.0.fetch_add(1, Ordering::Relaxed) + 1)
}

/// Who calls, from `X-Caller`; 401 without it.
#[derive(Clone)]
struct Caller(#[allow(dead_code)] String);

#[dependency(responses(401 = "Not authenticated"))]
async fn caller(headers: HeaderMap) -> Result<Caller, Response> {
    match headers.get("x-caller").and_then(|v| v.to_str().ok()) {
        Some(name) => Ok(Caller(name.to_owned())),
        None => {
            let mut response = HttpError::new(401, "Not authenticated").into_response();
            response
                .headers_mut()
                .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Token"));
            Err(response)
        }
    }
}

/// A page size, a query parameter validated with the route's own.
#[derive(Clone)]
struct Limit(#[allow(dead_code)] i64);

#[dependency]
fn limit(
    #[default(10)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
) -> Limit {
    Limit(limit)
}

/// Takes the group's `Audit` too: the group's run resolved it, so it is not run again.
#[get("/audited")]
async fn audited(audit: Audit) -> Json<Value> {
    Json(json!({ "audit": audit.0 }))
}

/// `/secure` (dependencies `Caller`, then `Limit`) with `/secure/{thing_id}` and
/// `/secure/notes`, and `/secure/audit` (dependency `Audit`) with `/secure/audit/audited` and
/// `/secure/audit/ping`; `/ping` outside.
fn with_dependencies() -> App {
    let audited = group!("/audit", dependencies(Audit)).routes(routes![audited, ping]);
    let secure = group!("/secure", dependencies(Caller, Limit))
        .routes(routes![read_thing, create_note])
        .group(audited);
    App::new()
        .state(Audits::default())
        .routes(routes![ping])
        .group(secure)
}

async fn as_caller(client: &TestClient, path: &str) -> TestResponse {
    client.get(path).header("X-Caller", "ada").send().await
}

fn locs(reply: &TestResponse) -> Vec<Value> {
    reply.json::<Value>()["detail"]
        .as_array()
        .map(|items| items.iter().map(|item| item["loc"].clone()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_groups_dependencies_run_once_per_request_for_each_route() {
    let client = TestClient::new(with_dependencies());
    // The route takes `Audit` as well: the group's run is the request's only one.
    assert_eq!(
        as_caller(&client, "/secure/audit/audited").await.json::<Value>(),
        json!({"audit": 1})
    );
    assert_eq!(
        as_caller(&client, "/secure/audit/audited").await.json::<Value>(),
        json!({"audit": 2})
    );
    // A route that does not take it runs it all the same.
    assert_eq!(as_caller(&client, "/secure/audit/ping").await.text(), "pong");
    assert_eq!(
        as_caller(&client, "/secure/audit/audited").await.json::<Value>(),
        json!({"audit": 4})
    );
    // The outer group's dependency answers first: the inner one does not run.
    assert_eq!(client.get("/secure/audit/audited").send().await.status(), 401);
    assert_eq!(
        as_caller(&client, "/secure/audit/audited").await.json::<Value>(),
        json!({"audit": 5})
    );
    // Outside the group, nothing runs.
    assert_eq!(client.get("/ping").send().await.text(), "pong");
}

#[tokio::test]
async fn a_groups_dependency_answers_401_before_validation_errors() {
    let client = TestClient::new(with_dependencies());
    let reply = client.get("/secure/7").send().await;
    assert_eq!(reply.status().as_u16(), 401);
    assert_eq!(reply.header("www-authenticate"), Some("Token"));
    assert_eq!(reply.text(), r#"{"detail":"Not authenticated"}"#);
    // As for a route's own dependencies, a failing one answers even when parameters are invalid.
    let reply = client.get("/secure/x?limit=0&q=").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.header("www-authenticate")),
        (401, Some("Token"))
    );
    let reply = as_caller(&client, "/secure/7?limit=5").await;
    assert_eq!(reply.json::<Value>(), json!({"thing_id": 7, "q": null}));
}

#[tokio::test]
async fn a_groups_dependency_parameters_are_validated_with_the_routes_own() {
    let client = TestClient::new(with_dependencies());
    // Path, then the group's dependencies, then the route's own query parameters, in one 422.
    let reply = as_caller(&client, "/secure/x?limit=0&q=").await;
    assert_eq!(reply.status().as_u16(), 422);
    assert_eq!(
        locs(&reply),
        [
            json!(["path", "thing_id"]),
            json!(["query", "limit"]),
            json!(["query", "q"])
        ]
    );
    assert_eq!(
        reply.json::<Value>()["detail"][1],
        json!({"type": "greater_than_equal", "loc": ["query", "limit"], "msg": "Input should be greater than or equal to 1",
               "input": "0", "ctx": {"ge": 1}})
    );
    // With a body: the dependency's errors, then the body's.
    let reply = client
        .post("/secure/notes?limit=500")
        .header("X-Caller", "ada")
        .json(&json!({"text": 1}))
        .send()
        .await;
    assert_eq!(reply.status().as_u16(), 422);
    assert_eq!(locs(&reply), [json!(["query", "limit"]), json!(["body", "text"])]);
    let reply = client
        .post("/secure/notes")
        .header("X-Caller", "ada")
        .json(&json!({"text": "hi"}))
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.json::<Value>()),
        (201, json!({"text": "hi"}))
    );
}

#[test]
fn a_groups_dependencies_are_documented_on_each_operation() {
    let doc = document(with_dependencies());
    let read = &doc["paths"]["/secure/{thing_id}"]["get"];
    let names: Vec<&str> = read["parameters"]
        .as_array()
        .map(|p| p.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    // Path, then the groups' dependencies', then the route's own: the order of their errors.
    assert_eq!(names, ["thing_id", "limit", "q"]);
    assert_eq!(
        read["parameters"][1]["schema"],
        json!({"type": "integer", "format": "int64", "minimum": 1, "maximum": 100, "default": 10, "title": "Limit"})
    );
    assert_eq!(read["responses"]["401"]["description"], "Not authenticated");
    let audited = &doc["paths"]["/secure/audit/audited"]["get"];
    assert_eq!(audited["parameters"].as_array().map(Vec::len), Some(1));
    assert!(audited["responses"].get("401").is_some());
    assert!(audited["responses"].get("422").is_some());
    assert_eq!(doc["paths"]["/ping"]["get"].get("parameters"), None);
}

#[test]
fn a_groups_dependency_needing_missing_state_stops_the_build() {
    let app = App::new().group(group!("/a", dependencies(Audit)).routes(routes![ping]));
    let err = app.build().expect_err("no `Audits` state");
    assert!(err.to_string().contains("route `ping` (GET /a/ping)"), "{err}");
    assert!(err.to_string().contains("its groups' dependency `"), "{err}");
    assert!(err.to_string().contains("State<"), "{err}");
}

#[tokio::test]
async fn the_example_serves_its_groups() {
    let client = TestClient::new(example::app(example::Library::sample()));
    let reply = client.get("/api/v1/books?limit=1").send().await;
    assert_eq!(reply.status().as_u16(), 200);
    assert_eq!(reply.json::<Value>().as_array().map(Vec::len), Some(1));
    let reply = client.get("/api/v1/admin/loans").send().await;
    assert_eq!(reply.status().as_u16(), 401);
    let reply = client
        .get("/api/v1/admin/loans")
        .header("Authorization", "Bearer librarian-token")
        .send()
        .await;
    assert_eq!(reply.status().as_u16(), 200);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    assert_eq!(
        client.get("/api/v1/books/1").send().await.header("cache-control"),
        None
    );
}

const SNAPSHOT: &str = "snapshots/openapi_groups_example.json";

#[test]
fn the_examples_document_matches_its_snapshot() {
    let doc = document(example::app(example::Library::sample()));
    assert_document_snapshot(SNAPSHOT, &doc);
}
