//! The dispatch matrix (issue 22): one small route set served over real HTTP on 127.0.0.1 by
//! every combination of app layer (none / one) × group layer (none / one) × group dependency
//! (none / one) × observation (none / request ids / metrics / both), each sent the same requests
//! — no body, a JSON body, a form, an upload (multipart), streamed responses, each also as HEAD
//! where it is a GET, and the error answers (422 of the path, the body and the form, 404, 405,
//! 413 of a JSON body, a form and an upload), a body a route reads also sent chunked and slow to
//! come (its second half after a pause) — and each answer compared with the plain variant's (no
//! layers, no group, not observed): the same status, headers and body, but for the headers a
//! layer or the observation adds ([`ADDED`]), which must be there exactly on the variants that
//! add them. A dependency that refuses (401) is compared with the variant that has only the
//! dependency. This pins what every path of `runtime/src/dispatch/` answers today.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use ferrapi::files::{Multipart, MultipartError};
use ferrapi::http::header::HeaderValue;
use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::streaming::StreamingResponse;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{read_to_close, request, Reply};
use futures_util::future::join_all;
use futures_util::stream;
use serde::Serialize;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tower::{Layer, Service};

/// The header the app's layer adds.
const APP_LAYER: &str = "x-app-layer";
/// The header the group's layer adds.
const GROUP_LAYER: &str = "x-group-layer";
/// The response id added when request ids are on.
const REQUEST_ID: &str = "x-request-id";
/// The headers left out of the comparison: the ones a layer or the observation adds (checked on
/// their own), and the date (which changes by the second).
const ADDED: [&str; 4] = [APP_LAYER, GROUP_LAYER, REQUEST_ID, "date"];

/// The header of a request the group dependency refuses.
const DENY: (&str, &str) = ("X-Deny", "yes");

/// The body limit of every variant (a JSON body or a form above it is a 413).
const BODY_LIMIT: usize = 256;
/// The upload limits of every variant: all parts, and one part.
const UPLOAD_LIMITS: (u64, u64) = (2048, 1024);

/// A note, the JSON body.
#[derive(Model, Serialize)]
struct Note {
    /// At least two characters.
    #[min_length(2)]
    text: String,
}

/// A login, the form body.
#[derive(Model, Serialize)]
struct Login {
    /// Who.
    username: String,
    /// At least three characters.
    #[min_length(3)]
    password: String,
}

/// No body: a path and a query parameter.
#[get("/m/item/{id}")]
async fn item(id: i64, #[min_length(1)] q: Option<String>) -> Json<Value> {
    Json(json!({ "id": id, "q": q }))
}

/// A JSON body.
#[post("/m/json")]
async fn note(note: Note) -> Json<Note> {
    Json(note)
}

/// A form body.
#[post("/m/form", status = 200)]
async fn login(data: Form<Login>) -> Json<Login> {
    Json(data.into_inner())
}

/// An upload, read as it arrives: each part's name and size.
#[post("/m/upload", status = 200)]
async fn upload(mut form: Multipart) -> Result<Json<Value>, MultipartError> {
    let mut parts = Vec::new();
    while let Some(mut part) = form.next_part().await? {
        let name = part.name().unwrap_or("").to_owned();
        while part.chunk().await?.is_some() {}
        parts.push(json!({ "name": name, "size": part.size() }));
    }
    Ok(Json(json!({ "parts": parts })))
}

/// A streamed answer of unknown length (chunked).
#[get("/m/stream")]
async fn chunks() -> StreamingResponse {
    let parts = ["alpha ", "beta ", "gamma"].map(Ok::<_, std::io::Error>);
    StreamingResponse::new(stream::iter(parts)).content_type(HeaderValue::from_static("text/plain"))
}

/// A streamed answer of a known length.
#[get("/m/sized")]
async fn sized() -> StreamingResponse {
    let data = std::io::Cursor::new(vec![b'z'; 3000]);
    StreamingResponse::from_reader(data).content_length(3000)
}

/// What the group dependency gives: nothing.
#[derive(Clone)]
struct Gate;

/// The group dependency: succeeds, unless the request says `X-Deny` (401).
#[dependency(responses(401 = "Denied"))]
async fn gate(headers: HeaderMap) -> Result<Gate, Response> {
    match headers.get("x-deny") {
        None => Ok(Gate),
        Some(_) => Err(HttpError::new(401, "Denied").into_response()),
    }
}

/// A no-op layer that adds one response header, so that it visibly ran.
#[derive(Clone)]
struct Mark(&'static str);

impl<S> Layer<S> for Mark {
    type Service = MarkService<S>;
    fn layer(&self, inner: S) -> MarkService<S> {
        MarkService {
            inner,
            header: self.0,
        }
    }
}

/// The service of [`Mark`].
#[derive(Clone)]
struct MarkService<S> {
    inner: S,
    header: &'static str,
}

impl<S, B> Service<hyper::Request<B>> for MarkService<S>
where
    S: Service<hyper::Request<B>, Response = Response, Error = Infallible>,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: hyper::Request<B>) -> Self::Future {
        let future = self.inner.call(request);
        let header = self.header;
        Box::pin(async move {
            let mut response = future.await?;
            response
                .headers_mut()
                .insert(header, HeaderValue::from_static("ran"));
            Ok(response)
        })
    }
}

/// How a variant observes its requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Observe {
    /// Not observed.
    Off,
    /// `App::request_ids(true)`.
    Ids,
    /// `App::metrics(..)`.
    Metrics,
    /// Both.
    Both,
}

/// One way of serving the route set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Variant {
    /// A layer around the app.
    app_layer: bool,
    /// The routes in a group with a layer.
    group_layer: bool,
    /// The routes in a group with a dependency.
    dependency: bool,
    /// Request ids, metrics.
    observe: Observe,
}

/// The plain variant, every answer's reference.
const PLAIN: Variant = Variant {
    app_layer: false,
    group_layer: false,
    dependency: false,
    observe: Observe::Off,
};

/// The variant with only the dependency, the reference of a refused request.
const DEPENDENCY_ONLY: Variant = Variant {
    dependency: true,
    ..PLAIN
};

impl Variant {
    /// Every variant, the plain one first.
    fn all() -> Vec<Variant> {
        let mut all = Vec::new();
        for observe in [Observe::Off, Observe::Ids, Observe::Metrics, Observe::Both] {
            for app_layer in [false, true] {
                for group_layer in [false, true] {
                    for dependency in [false, true] {
                        all.push(Variant {
                            app_layer,
                            group_layer,
                            dependency,
                            observe,
                        });
                    }
                }
            }
        }
        all
    }

    /// The app of this variant: the route set at the root, or in a group (no prefix) with the
    /// variant's layer and dependency.
    fn app(self) -> App {
        let routes = routes![item, note, login, upload, chunks, sized];
        let mut app = App::new()
            .body_limit(BODY_LIMIT)
            .upload_limits(UPLOAD_LIMITS.0, UPLOAD_LIMITS.1);
        app = if self.group_layer || self.dependency {
            let mut group = if self.dependency {
                group!("", dependencies(Gate))
            } else {
                group!("")
            };
            group = group.routes(routes);
            if self.group_layer {
                group = group.layer(Mark(GROUP_LAYER));
            }
            app.group(group)
        } else {
            app.routes(routes)
        };
        if matches!(self.observe, Observe::Ids | Observe::Both) {
            app = app.request_ids(true);
        }
        if matches!(self.observe, Observe::Metrics | Observe::Both) {
            app = app.metrics(Metrics::new());
        }
        if self.app_layer {
            app = app.layer(Mark(APP_LAYER));
        }
        app
    }
}

/// How a request's body is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framing {
    /// With its `Content-Length`, all at once (whole when the route first looks).
    Whole,
    /// `Transfer-Encoding: chunked`, in two chunks, all at once.
    Chunked,
    /// With its `Content-Length`, its second half after a pause (the route waits for it).
    Delayed,
}

/// One request of the matrix.
#[derive(Clone)]
struct Case {
    /// What it is, for a failure's message.
    name: String,
    /// The method.
    method: &'static str,
    /// The path and query.
    path: &'static str,
    /// Extra headers.
    headers: Vec<(&'static str, String)>,
    /// The body.
    body: Option<Vec<u8>>,
    /// How the body is sent.
    framing: Framing,
    /// The status the plain variant answers.
    status: u16,
    /// Whether a route answers (so a group's layer runs), rather than the 404 or 405.
    routed: bool,
    /// Whether the group dependency refuses it.
    denied: bool,
}

/// How long a [`Framing::Delayed`] body pauses halfway.
const PAUSE: std::time::Duration = std::time::Duration::from_millis(30);

/// The multipart boundary of the uploads.
const BOUNDARY: &str = "----ferrapi-matrix-boundary";

/// A `multipart/form-data` body: a text part and a file part of `size` bytes.
fn multipart(size: usize) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n\
         --{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\
         Content-Type: application/octet-stream\r\n\r\n"
    )
    .into_bytes();
    body.extend(std::iter::repeat_n(b'u', size));
    body.extend(format!("\r\n--{BOUNDARY}--\r\n").into_bytes());
    body
}

/// Every request of the matrix.
fn cases() -> Vec<Case> {
    let json = || vec![("Content-Type", "application/json".to_owned())];
    let form = || vec![("Content-Type", "application/x-www-form-urlencoded".to_owned())];
    let upload = || {
        vec![(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )]
    };
    let denied = |mut headers: Vec<(&'static str, String)>| {
        headers.push((DENY.0, DENY.1.to_owned()));
        headers
    };
    let case = |name: &str, method, path, headers, body: Option<&[u8]>, status| Case {
        name: name.to_owned(),
        method,
        path,
        headers,
        body: body.map(<[u8]>::to_vec),
        framing: Framing::Whole,
        status,
        routed: true,
        denied: false,
    };
    let big = format!(r#"{{"text": "{}"}}"#, "x".repeat(BODY_LIMIT));
    let mut cases = vec![
        case("no body", "GET", "/m/item/7?q=ab", vec![], None, 200),
        case("no body, HEAD", "HEAD", "/m/item/7?q=ab", vec![], None, 200),
        case("path 422", "GET", "/m/item/seven", vec![], None, 422),
        case("path 422, HEAD", "HEAD", "/m/item/seven", vec![], None, 422),
        case("query 422", "GET", "/m/item/7?q=", vec![], None, 422),
        case("json", "POST", "/m/json", json(), Some(br#"{"text": "hi"}"#), 200),
        case(
            "json 422",
            "POST",
            "/m/json",
            json(),
            Some(br#"{"text": "h"}"#),
            422,
        ),
        case("json invalid", "POST", "/m/json", json(), Some(b"{\"text\""), 422),
        case("json missing", "POST", "/m/json", json(), None, 422),
        case("json 413", "POST", "/m/json", json(), Some(big.as_bytes()), 413),
        case(
            "form",
            "POST",
            "/m/form",
            form(),
            Some(b"username=ada&password=secret"),
            200,
        ),
        case(
            "form 422",
            "POST",
            "/m/form",
            form(),
            Some(b"username=ada&password=x"),
            422,
        ),
        case("form 413", "POST", "/m/form", form(), Some(big.as_bytes()), 413),
        case(
            "upload",
            "POST",
            "/m/upload",
            upload(),
            Some(&multipart(600)),
            200,
        ),
        case(
            "upload 413",
            "POST",
            "/m/upload",
            upload(),
            Some(&multipart(1500)),
            413,
        ),
        case("stream", "GET", "/m/stream", vec![], None, 200),
        case("stream, HEAD", "HEAD", "/m/stream", vec![], None, 200),
        case("sized stream", "GET", "/m/sized", vec![], None, 200),
        case("sized stream, HEAD", "HEAD", "/m/sized", vec![], None, 200),
        case("404", "GET", "/m/nope", vec![], None, 404),
        case("404, HEAD", "HEAD", "/m/nope", vec![], None, 404),
        case("405", "DELETE", "/m/json", vec![], None, 405),
        case(
            "405 with a body",
            "PUT",
            "/m/json",
            json(),
            Some(br#"{"text": "hi"}"#),
            405,
        ),
        case("denied, no body", "GET", "/m/item/7", denied(vec![]), None, 200),
        case("denied, HEAD", "HEAD", "/m/item/7", denied(vec![]), None, 200),
        case(
            "denied, path 422",
            "GET",
            "/m/item/seven",
            denied(vec![]),
            None,
            422,
        ),
        case(
            "denied, json",
            "POST",
            "/m/json",
            denied(json()),
            Some(br#"{"text": "hi"}"#),
            200,
        ),
        case(
            "denied, json 422",
            "POST",
            "/m/json",
            denied(json()),
            Some(b"{}"),
            422,
        ),
        case(
            "denied, form",
            "POST",
            "/m/form",
            denied(form()),
            Some(b"username=ada&password=secret"),
            200,
        ),
        case(
            "denied, upload",
            "POST",
            "/m/upload",
            denied(upload()),
            Some(&multipart(10)),
            200,
        ),
        case("denied, stream", "GET", "/m/stream", denied(vec![]), None, 200),
        case("denied, 404", "GET", "/m/nope", denied(vec![]), None, 404),
    ];
    for case in &mut cases {
        case.routed = !matches!(case.status, 404 | 405);
        case.denied = case.headers.iter().any(|(name, _)| *name == DENY.0);
    }
    // Each body a route reads, also chunked and also slow to come.
    let bodies: Vec<Case> = cases
        .iter()
        .filter(|case| case.body.is_some() && case.routed)
        .cloned()
        .collect();
    for framing in [Framing::Chunked, Framing::Delayed] {
        for case in &bodies {
            cases.push(Case {
                name: format!("{}, {framing:?}", case.name),
                framing,
                ..case.clone()
            });
        }
    }
    cases
}

/// Send `case` to the server at `addr`.
async fn ask(addr: SocketAddr, case: &Case) -> Reply {
    let mut headers: Vec<(&str, &str)> = vec![("Connection", "close")];
    headers.extend(case.headers.iter().map(|(name, value)| (*name, value.as_str())));
    let host = addr.to_string();
    let body = case.body.as_deref();
    let (bytes, pause_at) = match (case.framing, body) {
        (Framing::Chunked, Some(body)) => {
            headers.push(("Transfer-Encoding", "chunked"));
            let mut bytes = request(&host, case.method, case.path, &headers, None);
            let (first, second) = body.split_at(body.len() / 2);
            for chunk in [first, second] {
                bytes.extend(format!("{:x}\r\n", chunk.len()).into_bytes());
                bytes.extend_from_slice(chunk);
                bytes.extend_from_slice(b"\r\n");
            }
            bytes.extend_from_slice(b"0\r\n\r\n");
            (bytes, None)
        }
        (Framing::Delayed, Some(body)) => {
            let bytes = request(&host, case.method, case.path, &headers, Some(body));
            let at = bytes.len() - body.len() / 2;
            (bytes, Some(at))
        }
        _ => (request(&host, case.method, case.path, &headers, body), None),
    };
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await?;
        let (first, second) = bytes.split_at(pause_at.unwrap_or(bytes.len()));
        stream.write_all(first).await?;
        if !second.is_empty() {
            tokio::time::sleep(PAUSE).await;
            stream.write_all(second).await?;
        }
        read_to_close(&mut stream).await
    };
    exchange
        .await
        .unwrap_or_else(|e: std::io::Error| panic!("{} {} at {addr}: {e}", case.method, case.path))
}

/// What is compared of an answer: the status, the headers but [`ADDED`] (sorted: a layer may
/// insert its header anywhere), and the body without its chunked framing.
#[derive(Debug, PartialEq, Eq)]
struct Compared {
    /// The status.
    status: u16,
    /// The headers but [`ADDED`], sorted.
    headers: Vec<(String, String)>,
    /// The body, dechunked.
    body: String,
}

/// The compared part of `reply`.
fn compared(reply: &Reply) -> Compared {
    let mut headers: Vec<(String, String)> = reply
        .headers
        .iter()
        .filter(|(name, _)| !ADDED.contains(&name.as_str()))
        .cloned()
        .collect();
    headers.sort();
    Compared {
        status: reply.status,
        headers,
        body: String::from_utf8_lossy(&reply.dechunked()).into_owned(),
    }
}

/// Serve every variant, send every case to each, and return the answers (by variant, then by
/// case).
async fn answers(variants: &[Variant], cases: &[Case]) -> Vec<Vec<Reply>> {
    let mut addrs = Vec::new();
    for variant in variants {
        addrs.push(spawn(variant.app()).await);
    }
    join_all(
        addrs
            .into_iter()
            .map(|addr| join_all(cases.iter().map(move |case| ask(addr, case)))),
    )
    .await
}

/// The problems of `reply`, the answer of `variant` to `case`, given the reference answer and
/// the variant's answer to the GET of a HEAD case.
fn problems(
    variant: Variant,
    case: &Case,
    reply: &Reply,
    reference: &Reply,
    get: Option<&Reply>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let expected = compared(reference);
    let actual = compared(reply);
    if actual != expected {
        problems.push(format!("answers {actual:?}, the reference {expected:?}"));
    }
    let marks = [
        (APP_LAYER, variant.app_layer),
        (GROUP_LAYER, variant.group_layer && case.routed),
        (
            REQUEST_ID,
            matches!(variant.observe, Observe::Ids | Observe::Both),
        ),
    ];
    for (header, expected) in marks {
        let count = reply.headers.iter().filter(|(name, _)| name == header).count();
        if count != usize::from(expected) {
            problems.push(format!(
                "has {count} {header} header(s), expected {}",
                usize::from(expected)
            ));
        }
    }
    if let Some(get) = get {
        let mut head = compared(reply);
        let mut get = compared(get);
        if !head.body.is_empty() {
            problems.push(format!("a HEAD answer has a body: {:?}", head.body));
        }
        // A GET's chunked answer keeps no framing header for HEAD: its length is unknown.
        get.headers.retain(|(name, _)| name != "transfer-encoding");
        head.headers.retain(|(name, _)| name != "transfer-encoding");
        get.body.clear();
        if head != get {
            problems.push(format!("HEAD answers {head:?}, GET {get:?}"));
        }
    }
    problems
}

#[tokio::test]
async fn every_dispatch_path_answers_as_the_plain_route_does() {
    let variants = Variant::all();
    assert_eq!(variants[0], PLAIN);
    let cases = cases();
    let answers = answers(&variants, &cases).await;
    let dependency_only = variants
        .iter()
        .position(|v| *v == DEPENDENCY_ONLY)
        .expect("the dependency-only variant");
    let mut failures = Vec::new();
    // The plain route answers as the cases say, and the dependency refuses what it should.
    for (i, case) in cases.iter().enumerate() {
        if answers[0][i].status != case.status {
            failures.push(format!(
                "plain variant, {} ({} {}): status {}, expected {}",
                case.name, case.method, case.path, answers[0][i].status, case.status
            ));
        }
        let refused = answers[dependency_only][i].status;
        let expected = if case.denied && case.routed {
            401
        } else {
            case.status
        };
        if refused != expected {
            failures.push(format!(
                "dependency variant, {} ({} {}): status {refused}, expected {expected}",
                case.name, case.method, case.path
            ));
        }
    }
    for (v, variant) in variants.iter().enumerate() {
        for (i, case) in cases.iter().enumerate() {
            let reference = if case.denied && variant.dependency {
                &answers[dependency_only][i]
            } else {
                &answers[0][i]
            };
            let get = (case.method == "HEAD").then(|| {
                let get = cases
                    .iter()
                    .position(|c| c.method == "GET" && c.path == case.path && c.headers == case.headers)
                    .expect("each HEAD case has its GET");
                &answers[v][get]
            });
            for problem in problems(*variant, case, &answers[v][i], reference, get) {
                failures.push(format!(
                    "{variant:?}, {} ({} {}): {problem}",
                    case.name, case.method, case.path
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} (variant × request) cases fail:\n{}",
        failures.len(),
        variants.len() * cases.len(),
        failures.join("\n")
    );
}
