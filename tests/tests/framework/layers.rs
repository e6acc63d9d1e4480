//! `tower` layers around an app (`App::layer`) over real HTTP on 127.0.0.1: tower-http's CORS,
//! compression, timeout, trace, request-id and body-limit layers, a layer of our own that reads
//! the matched route, errors of layers answered as responses, and the app as a `tower::Service`.

use std::convert::Infallible;
use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use ferrapi::layer::BoxError;
use ferrapi::layer::MatchedRoute;
use ferrapi::prelude::*;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, raw, request, send, send_json};
use hyper::header::HeaderValue;
use tower::{Layer, Service, ServiceExt};
use tower_http::compression::CompressionLayer;
use tower_http::cors::CorsLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

#[derive(Model)]
struct Note {
    text: String,
}

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id, "padding": "x".repeat(2000) }))
}

#[post("/notes")]
async fn create_note(note: Note) -> Json<Value> {
    Json(json!({ "text": note.text }))
}

#[get("/slow")]
async fn slow() -> &'static str {
    tokio::time::sleep(Duration::from_millis(500)).await;
    "late"
}

fn routes() -> App {
    App::new().routes(routes![read_item, create_note, slow])
}

#[tokio::test]
async fn cors_answers_preflights_and_marks_answers_also_404s() {
    let cors = CorsLayer::new()
        .allow_origin(HeaderValue::from_static("https://app.example"))
        .allow_methods([ferrapi::http::Method::GET, ferrapi::http::Method::POST]);
    let addr = spawn(routes().layer(cors)).await;
    let preflight = send(
        addr,
        "OPTIONS",
        "/items/1",
        &[
            ("Origin", "https://app.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
        None,
    )
    .await;
    assert_eq!(preflight.status, 200);
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("https://app.example")
    );
    assert!(preflight
        .header("access-control-allow-methods")
        .is_some_and(|m| m.contains("POST")));
    let answer = send(
        addr,
        "GET",
        "/items/7",
        &[("Origin", "https://app.example")],
        None,
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.header("access-control-allow-origin"),
        Some("https://app.example")
    );
    let missing = send(addr, "GET", "/nope", &[("Origin", "https://app.example")], None).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.text(), r#"{"detail":"Not Found"}"#);
    assert_eq!(
        missing.header("access-control-allow-origin"),
        Some("https://app.example")
    );
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("a gzip body");
    text
}

#[tokio::test]
async fn compression_is_negotiated_by_accept_encoding() {
    let addr = spawn(routes().layer(CompressionLayer::new())).await;
    let plain = get(addr, "/items/3").await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    let expected = plain.text();
    let compressed = send(addr, "GET", "/items/3", &[("Accept-Encoding", "gzip")], None).await;
    assert_eq!(compressed.status, 200);
    assert_eq!(compressed.header("content-encoding"), Some("gzip"));
    let body = compressed.dechunked();
    assert!(body.len() < expected.len() / 4, "2 KB of x compress well");
    assert_eq!(gunzip(&body), expected);
    // The OpenAPI document goes through the layers too.
    let document = send(addr, "GET", "/openapi.json", &[("Accept-Encoding", "gzip")], None).await;
    assert_eq!(document.header("content-encoding"), Some("gzip"));
    assert!(gunzip(&document.dechunked()).starts_with(r#"{"openapi":"3.1.0""#));
}

#[tokio::test]
async fn timeouts_answer_408_from_tower_http_and_from_tower_errors() {
    let addr = spawn(routes().layer(TimeoutLayer::with_status_code(
        StatusCode::REQUEST_TIMEOUT,
        Duration::from_millis(50),
    )))
    .await;
    assert_eq!(get(addr, "/slow").await.status, 408);
    assert_eq!(get(addr, "/items/1").await.status, 200);
    // tower's own timeout fails with an error instead: the app answers it.
    let addr = spawn(routes().layer(tower::timeout::TimeoutLayer::new(Duration::from_millis(50)))).await;
    let reply = get(addr, "/slow").await;
    assert_eq!(reply.status, 408);
    assert_eq!(reply.text(), r#"{"detail":"Request Timeout"}"#);
}

#[tokio::test]
async fn trace_layer_wraps_requests() {
    let addr = spawn(routes().layer(TraceLayer::new_for_http())).await;
    assert_eq!(get(addr, "/items/5").await.json()["id"], 5);
}

/// Request ids 1, 2, 3, ...
#[derive(Clone, Default)]
struct Counting(Arc<AtomicU64>);

impl MakeRequestId for Counting {
    fn make_request_id<B>(&mut self, _request: &hyper::Request<B>) -> Option<RequestId> {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        HeaderValue::from_str(&n.to_string()).ok().map(RequestId::new)
    }
}

#[tokio::test]
async fn request_ids_are_set_and_propagated() {
    let name = hyper::header::HeaderName::from_static("x-request-id");
    let app = routes()
        .layer(PropagateRequestIdLayer::new(name.clone()))
        .layer(SetRequestIdLayer::new(name, Counting::default()));
    let addr = spawn(app).await;
    assert_eq!(get(addr, "/items/1").await.header("x-request-id"), Some("1"));
    let given = send(addr, "GET", "/items/1", &[("X-Request-Id", "abc-123")], None).await;
    assert_eq!(given.header("x-request-id"), Some("abc-123"));
}

#[tokio::test]
async fn a_body_limit_layer_answers_413_declared_or_streamed() {
    let addr = spawn(routes().layer(RequestBodyLimitLayer::new(16))).await;
    let small = send_json(addr, "POST", "/notes", r#"{"text":"hi"}"#).await;
    assert_eq!(small.status, 200);
    let declared = send_json(addr, "POST", "/notes", r#"{"text":"far too long for it"}"#).await;
    assert_eq!(declared.status, 413);
    // Chunked: no length to refuse up front, so the limit is met while reading.
    let head = "POST /notes HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\
                Transfer-Encoding: chunked\r\n\r\n";
    let body = "1b\r\n{\"text\":\"far too long for it\"}\r\n0\r\n\r\n";
    let streamed = raw(addr, format!("{head}{body}").as_bytes()).await;
    assert_eq!(streamed.status, 413);
    assert_eq!(
        streamed.text(),
        r#"{"detail":"Request body is larger than the limit"}"#
    );
}

/// What the route-tagging layer saw of each request: the matched route's name and path.
type Seen = Arc<Mutex<Vec<Option<(String, String)>>>>;

/// A layer of our own: tags each answer with the route that served it, and records what it saw.
#[derive(Clone, Default)]
struct RouteTag {
    seen: Seen,
}

impl<S> Layer<S> for RouteTag {
    type Service = RouteTagService<S>;
    fn layer(&self, inner: S) -> RouteTagService<S> {
        RouteTagService {
            inner,
            seen: self.seen.clone(),
        }
    }
}

#[derive(Clone)]
struct RouteTagService<S> {
    inner: S,
    seen: Seen,
}

impl<S, B> Service<hyper::Request<B>> for RouteTagService<S>
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
        let matched = request
            .extensions()
            .get::<MatchedRoute>()
            .map(|m| (m.name().to_owned(), m.path().to_owned()));
        if let Ok(mut seen) = self.seen.lock() {
            seen.push(matched.clone());
        }
        let future = self.inner.call(request);
        Box::pin(async move {
            let mut response = future.await?;
            if let Some((name, _)) = matched {
                if let Ok(value) = HeaderValue::from_str(&name) {
                    response.headers_mut().insert("x-route", value);
                }
            }
            Ok(response)
        })
    }
}

#[tokio::test]
async fn a_layer_of_our_own_sees_the_matched_route() {
    let tag = RouteTag::default();
    let addr = spawn(routes().layer(tag.clone())).await;
    assert_eq!(get(addr, "/items/9").await.header("x-route"), Some("read_item"));
    assert_eq!(get(addr, "/items/9/").await.header("x-route"), Some("read_item"));
    assert_eq!(get(addr, "/nope").await.header("x-route"), None);
    let seen = tag.seen.lock().expect("not poisoned").clone();
    assert_eq!(
        seen,
        vec![
            Some(("read_item".to_owned(), "/items/{id}".to_owned())),
            Some(("read_item".to_owned(), "/items/{id}".to_owned())),
            None,
        ]
    );
}

/// A layer adding `name` to `x-order`, so the order layers ran in shows.
fn mark(name: &'static str) -> tower::util::MapResponseLayer<impl Fn(Response) -> Response + Clone> {
    tower::util::MapResponseLayer::new(move |mut response: Response| {
        let before = response
            .headers()
            .get("x-order")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let order = match before {
            Some(before) => format!("{before},{name}"),
            None => name.to_owned(),
        };
        if let Ok(value) = HeaderValue::from_str(&order) {
            response.headers_mut().insert("x-order", value);
        }
        response
    })
}

#[tokio::test]
async fn a_layer_added_later_wraps_the_earlier_ones() {
    let addr = spawn(routes().layer(mark("inner")).layer(mark("outer"))).await;
    // The response passes the inner layer first on its way out.
    assert_eq!(get(addr, "/items/1").await.header("x-order"), Some("inner,outer"));
}

/// A layer that fails every request with an error of its own.
#[derive(Clone)]
struct Failing;

impl<S> Layer<S> for Failing {
    type Service = FailingService;
    fn layer(&self, _inner: S) -> FailingService {
        FailingService
    }
}

#[derive(Clone)]
struct FailingService;

impl<B> Service<hyper::Request<B>> for FailingService {
    type Response = Response;
    type Error = BoxError;
    type Future = std::future::Ready<Result<Response, BoxError>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _request: hyper::Request<B>) -> Self::Future {
        std::future::ready(Err("the layer broke".into()))
    }
}

#[tokio::test]
async fn a_layers_error_is_a_500_answer_not_a_dropped_connection() {
    let addr = spawn(routes().layer(Failing)).await;
    let reply = get(addr, "/items/1").await;
    assert_eq!(reply.status, 500);
    assert_eq!(reply.text(), r#"{"detail":"Internal Server Error"}"#);
}

/// A layer whose service panics when it is polled for the answer.
#[derive(Clone)]
struct Panicking;

impl<S> Layer<S> for Panicking {
    type Service = PanickingService;

    fn layer(&self, _inner: S) -> PanickingService {
        PanickingService
    }
}

#[derive(Clone)]
struct PanickingService;

impl<B> Service<hyper::Request<B>> for PanickingService {
    type Response = Response;
    type Error = Infallible;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _request: hyper::Request<B>) -> Self::Future {
        Box::pin(async { panic!("the layer panicked") })
    }
}

#[tokio::test]
async fn a_layer_that_panics_is_a_500_not_a_dropped_connection() {
    // On the app and on a group: both stacks are run by the same path.
    let addr = spawn(routes().layer(Panicking)).await;
    let group = group!("/g").routes(routes![read_item]).layer(Panicking);
    let grouped = spawn(App::new().group(group)).await;
    for (addr, path) in [(addr, "/items/1"), (addr, "/nowhere"), (grouped, "/g/items/1")] {
        let reply = get(addr, path).await;
        assert_eq!(reply.status, 500, "{path}");
        assert_eq!(reply.text(), r#"{"detail":"Internal Server Error"}"#);
    }
}

/// A layer that passes on the request without any of its extensions.
fn forgetful(
) -> tower::util::MapRequestLayer<fn(hyper::Request<ferrapi::Body>) -> hyper::Request<ferrapi::Body>> {
    tower::util::MapRequestLayer::new(|mut request: hyper::Request<ferrapi::Body>| {
        request.extensions_mut().clear();
        request
    })
}

#[tokio::test]
async fn a_layer_that_drops_the_extensions_still_reaches_the_route() {
    // Nothing of the routing travels down a stack: the app's stack and a route's go by the
    // request they are given.
    let addr = spawn(routes().layer(forgetful())).await;
    let group = group!("/g").routes(routes![read_item]).layer(forgetful());
    let grouped = spawn(App::new().group(group)).await;
    for (addr, path, status) in [
        (addr, "/items/1", 200),
        (addr, "/nowhere", 404),
        (grouped, "/g/items/1", 200),
    ] {
        let reply = tokio::time::timeout(Duration::from_secs(5), get(addr, path))
            .await
            .unwrap_or_else(|_| panic!("{path}: no answer in 5 s"));
        assert_eq!(reply.status, status, "{path}");
    }
    assert_eq!(
        get(addr, "/items/1").await.json(),
        get(grouped, "/g/items/1").await.json()
    );
}

#[tokio::test]
async fn head_answers_keep_their_length_through_a_layer() {
    let addr = spawn(routes().layer(TraceLayer::new_for_http())).await;
    let get_reply = get(addr, "/items/1").await;
    let head = send(addr, "HEAD", "/items/1", &[], None).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(
        head.header("content-length"),
        Some(get_reply.body.len().to_string().as_str())
    );
}

#[tokio::test]
async fn the_app_is_a_tower_service_inside_another_stack() {
    let service = routes().build().expect("builds");
    let stack = tower::ServiceBuilder::new()
        .layer(CompressionLayer::new())
        .service(service);
    let request = hyper::Request::get("/items/4")
        .body(ferrapi::Body::empty())
        .expect("a request");
    let response = stack.oneshot(request).await.expect("infallible");
    assert_eq!(response.status(), StatusCode::OK);
    use http_body_util::BodyExt;
    let bytes = response.into_body().collect().await.expect("a body").to_bytes();
    assert!(bytes.starts_with(br#"{"id":4"#));
    // And over a socket, a request written by hand still gets its answer.
    let addr = spawn(routes().layer(CompressionLayer::new())).await;
    let reply = raw(addr, &request_bytes("/items/2")).await;
    assert_eq!(reply.status, 200);
}

fn request_bytes(path: &str) -> Vec<u8> {
    request("x", "GET", path, &[("Connection", "close")], None)
}
