//! An in-process test client, FastAPI's `TestClient`: requests are answered by the app itself,
//! through [`Service::handle`], with no socket, port or server task.
//!
//! Rules enforced here:
//! - a request takes exactly the path a request read from a socket takes: routing, the layers
//!   (when the app has them), extraction, dependencies, the handler, every error answer, HEAD;
//!   only what the [`Server`](crate::Server) adds is not there (the concurrency limit, the head
//!   limits and timeouts, HTTP framing);
//! - a request carries only what the test gives it, to the client (headers for every request)
//!   or to the request (and the `Content-Type` of a JSON or text body, the `Content-Length` of
//!   any body, as every HTTP client sends them, and the cookies the app set, as a browser sends
//!   them: `cookies.rs`); a request's own header replaces the client's of the same name;
//! - the response's body is read whole before [`TestRequest::send`] returns, so reading it is
//!   synchronous (`text()`, `json()`);
//! - a client may replace dependencies for its own requests (`override_dependency`: see
//!   `extract/overrides.rs`);
//! - [`TestClient::start`] runs the app's startup hooks first, as serving it would;
//! - this is test support: a mistake in the test (a malformed header or URI, a value that does not
//!   serialize, an answer that is not the JSON the test expects) panics with a message naming
//!   it, as an assertion does.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::header::{HeaderName, HeaderValue, CONTENT_LENGTH, CONTENT_TYPE, COOKIE, SET_COOKIE};
use hyper::{HeaderMap, Method, Request, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::app::App;
use crate::dispatch::Service;
use crate::extract::Overrides;
use crate::response::Body;

mod cookies;

use cookies::{parse_set_cookie, Jar};

/// What a [`TestClient`] can drive: an [`App`] (built when the client is made) or a built
/// [`Service`].
pub trait IntoService {
    /// The service.
    fn into_service(self) -> Service;
}

impl IntoService for Service {
    fn into_service(self) -> Service {
        self
    }
}

impl IntoService for &Service {
    fn into_service(self) -> Service {
        self.clone()
    }
}

impl IntoService for App {
    /// # Panics
    ///
    /// When the app does not build, with the build error (a test of an app that does not build
    /// fails there).
    fn into_service(self) -> Service {
        self.build()
            .unwrap_or_else(|error| panic!("the app does not build: {error}"))
    }
}

/// `pairs` as `application/x-www-form-urlencoded` text.
fn urlencoded<K: AsRef<str>, V: AsRef<str>>(pairs: &[(K, V)]) -> String {
    let mut encoded = form_urlencoded::Serializer::new(String::new());
    for (name, value) in pairs {
        encoded.append_pair(name.as_ref(), value.as_ref());
    }
    encoded.finish()
}

/// Calls an app in-process: `TestClient::new(app).get("/item/42").send().await`.
///
/// Cheap to clone (the app is shared); requests may be sent from many tasks at once. It keeps
/// the cookies the app sets and sends them back, as a browser does; clones share them (make
/// another client for another user).
#[derive(Debug, Clone)]
pub struct TestClient {
    service: Service,
    jar: Arc<Mutex<Jar>>,
    /// Sent with every request, under the request's own.
    headers: HeaderMap,
    /// The test's replacements of dependencies.
    overrides: Overrides,
}

impl TestClient {
    /// A client of `app`: an [`App`] (built now: see [`IntoService`]) or a [`Service`].
    pub fn new(app: impl IntoService) -> Self {
        TestClient {
            service: app.into_service(),
            jar: Arc::default(),
            headers: HeaderMap::new(),
            overrides: Overrides::default(),
        }
    }

    /// A client of `app` once its startup hooks ran ([`App::on_startup`]), FastAPI's `with
    /// TestClient(app) as client:`: the states they give are there for the requests. The
    /// shutdown hooks are not run.
    ///
    /// # Panics
    ///
    /// When the app does not build, or a startup hook fails, with the reason (the test fails
    /// there; a test of a failing hook serves the app with [`App::bind`] instead).
    pub async fn start(mut app: App) -> Self {
        let (lifecycle, _tasks) = app.take_lifecycle();
        let service = app.into_service();
        if let Err(line) = crate::app::start(lifecycle.startup).await {
            panic!("{line}");
        }
        Self::new(service)
    }

    /// This client, answering its requests with dependency `D` resolved by `replace()` instead of
    /// `D`'s own resolution, wherever `D` is used (FastAPI's `app.dependency_overrides`): test a
    /// route without the database or the identity provider its dependency needs. `replace` may
    /// answer the request itself with `Err(response)`, as a dependency may. `D`'s inputs are
    /// still read (a parameter it declares is still required); its own dependencies are not
    /// resolved. A second override of `D` replaces the first; other clients are not affected.
    pub fn override_dependency<D, F, Fut>(mut self, replace: F) -> Self
    where
        D: crate::Dependency,
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<D, crate::Response>> + Send + 'static,
    {
        self.overrides
            .set::<D, F, Fut>(replace, crate::extract::Cacheable::kept);
        self
    }

    /// [`override_dependency`](TestClient::override_dependency) with a value: every request
    /// gets a clone of `value` for dependency `D`.
    pub fn override_value<D>(self, value: D) -> Self
    where
        D: crate::Dependency + Send + Sync,
    {
        self.override_dependency(move || std::future::ready(Ok(crate::extract::Cacheable::cached(&value))))
    }

    /// This client, sending header `name: value` with every request (a credential every test
    /// request carries, say), unless a request sets that header itself. A repeated name adds a
    /// value. The client keeps its cookies.
    ///
    /// # Panics
    ///
    /// When the name or the value is not one a header can have (the test's mistake).
    pub fn with_header<K, V>(mut self, name: K, value: V) -> Self
    where
        K: TryInto<HeaderName>,
        K::Error: fmt::Display,
        V: TryInto<HeaderValue>,
        V::Error: fmt::Display,
    {
        let (name, value) =
            header_pair(name, value).unwrap_or_else(|mistake| panic!("a client header: {mistake}"));
        self.headers.append(name, value);
        self
    }

    /// The value of the cookie `name` the client holds (one the app set, or
    /// [`set_cookie`](TestClient::set_cookie)).
    pub fn cookie(&self, name: &str) -> Option<String> {
        lock(&self.jar).get(name).map(str::to_owned)
    }

    /// Hold cookie `name=value` and send it with every request from now on, as if the app had
    /// set it (a session a test starts with).
    pub fn set_cookie(&self, name: &str, value: &str) {
        lock(&self.jar).set(name, value);
    }

    /// Forget every cookie the client holds.
    pub fn clear_cookies(&self) {
        lock(&self.jar).clear();
    }

    /// The service the client calls (for its document, route table, configuration).
    pub fn service(&self) -> &Service {
        &self.service
    }

    /// A request of any method.
    pub fn request(&self, method: Method, uri: &str) -> TestRequest {
        TestRequest {
            service: self.service.clone(),
            jar: self.jar.clone(),
            method,
            uri: uri.to_owned(),
            defaults: self.headers.clone(),
            headers: HeaderMap::new(),
            cookies: Vec::new(),
            body: Bytes::new(),
            mistake: None,
            overrides: self.overrides.clone(),
        }
    }

    /// A `GET` request.
    pub fn get(&self, uri: &str) -> TestRequest {
        self.request(Method::GET, uri)
    }

    /// A `POST` request.
    pub fn post(&self, uri: &str) -> TestRequest {
        self.request(Method::POST, uri)
    }

    /// A `PUT` request.
    pub fn put(&self, uri: &str) -> TestRequest {
        self.request(Method::PUT, uri)
    }

    /// A `PATCH` request.
    pub fn patch(&self, uri: &str) -> TestRequest {
        self.request(Method::PATCH, uri)
    }

    /// A `DELETE` request.
    pub fn delete(&self, uri: &str) -> TestRequest {
        self.request(Method::DELETE, uri)
    }

    /// A `HEAD` request.
    pub fn head(&self, uri: &str) -> TestRequest {
        self.request(Method::HEAD, uri)
    }

    /// An `OPTIONS` request.
    pub fn options(&self, uri: &str) -> TestRequest {
        self.request(Method::OPTIONS, uri)
    }
}

/// A request being written; [`send`](TestRequest::send) answers it. The URI is a path with an
/// optional query (`/items?skip=2`), percent-encoded as it would be on the wire.
#[must_use = "a request does nothing until it is sent"]
pub struct TestRequest {
    service: Service,
    jar: Arc<Mutex<Jar>>,
    method: Method,
    uri: String,
    /// The client's headers, under this request's own.
    defaults: HeaderMap,
    headers: HeaderMap,
    /// This request's own cookies, over the client's.
    cookies: Vec<(String, String)>,
    body: Bytes,
    /// The first mistake in building the request, reported when it is sent.
    mistake: Option<String>,
    /// The client's replacements of dependencies.
    overrides: Overrides,
}

impl fmt::Debug for TestRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestRequest")
            .field("method", &self.method)
            .field("uri", &self.uri)
            .field("defaults", &self.defaults)
            .field("headers", &self.headers)
            .field("cookies", &self.cookies)
            .field("body", &self.body.len())
            .finish()
    }
}

impl TestRequest {
    /// Add a header (a repeated name adds a value).
    pub fn header<K, V>(mut self, name: K, value: V) -> Self
    where
        K: TryInto<HeaderName>,
        K::Error: fmt::Display,
        V: TryInto<HeaderValue>,
        V::Error: fmt::Display,
    {
        match header_pair(name, value) {
            Ok((name, value)) => {
                self.headers.append(name, value);
            }
            Err(mistake) => self.note(mistake),
        }
        self
    }

    /// Send cookie `name=value` with this request only, over a cookie of that name the client
    /// holds. (All of a request's cookies go in one `Cookie` header, after any the test wrote
    /// with [`header`](TestRequest::header).)
    pub fn cookie(mut self, name: &str, value: &str) -> Self {
        self.cookies.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Set the `Content-Type` header.
    pub fn content_type(mut self, value: &str) -> Self {
        match HeaderValue::from_str(value) {
            Ok(value) => {
                self.headers.insert(CONTENT_TYPE, value);
            }
            Err(error) => self.note(format!("the content type {value:?}: {error}")),
        }
        self
    }

    /// Add the query parameters `pairs`, form-encoded, to the URI's query.
    pub fn query<K: AsRef<str>, V: AsRef<str>>(mut self, pairs: &[(K, V)]) -> Self {
        let query = urlencoded(pairs);
        if !query.is_empty() {
            self.uri.push(if self.uri.contains('?') { '&' } else { '?' });
            self.uri.push_str(&query);
        }
        self
    }

    /// The body: the form fields `pairs`, in order (a name may repeat), urlencoded, with
    /// `Content-Type: application/x-www-form-urlencoded` unless a content type is set (FastAPI's
    /// `data=`).
    pub fn form<K: AsRef<str>, V: AsRef<str>>(mut self, pairs: &[(K, V)]) -> Self {
        self.body = Bytes::from(urlencoded(pairs));
        self.default_content_type("application/x-www-form-urlencoded")
    }

    /// The body: `value` serialized as JSON, with `Content-Type: application/json` unless a
    /// content type is set.
    pub fn json<T: Serialize + ?Sized>(mut self, value: &T) -> Self {
        match serde_json::to_vec(value) {
            Ok(bytes) => self.body = Bytes::from(bytes),
            Err(error) => self.note(format!("the JSON body does not serialize: {error}")),
        }
        self.default_content_type("application/json")
    }

    /// The body: `text`, with `Content-Type: text/plain; charset=utf-8` unless a content type
    /// is set.
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.body = Bytes::from(text.into());
        self.default_content_type("text/plain; charset=utf-8")
    }

    /// The body: these bytes as they are, with the content type set by
    /// [`content_type`](TestRequest::content_type) or [`header`](TestRequest::header), if any
    /// (`.content_type("application/json").body(r#"{"name":"#)` sends JSON that does not parse).
    pub fn body(mut self, bytes: impl Into<Bytes>) -> Self {
        self.body = bytes.into();
        self
    }

    /// Answer the request in-process.
    ///
    /// # Panics
    ///
    /// When the request is malformed (a header, the URI, a JSON body that does not serialize),
    /// or the response's body fails while it is read (a streaming body's error).
    pub async fn send(self) -> TestResponse {
        let TestRequest {
            service,
            jar,
            method,
            uri,
            defaults,
            mut headers,
            cookies,
            body,
            mistake,
            overrides,
        } = self;
        let what = format!("{method} {uri}");
        if let Some(mistake) = mistake {
            panic!("{what}: {mistake}");
        }
        for name in defaults.keys() {
            if !headers.contains_key(name) {
                for value in defaults.get_all(name) {
                    headers.append(name.clone(), value.clone());
                }
            }
        }
        let sent = lock(&jar).header(&cookies);
        if !sent.is_empty() {
            // One `Cookie` header, as RFC 6265 asks of a user agent: the test's own first.
            let mut line: Vec<&str> = headers
                .get_all(COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect();
            line.push(&sent);
            match HeaderValue::from_str(&line.join("; ")) {
                Ok(value) => {
                    headers.insert(COOKIE, value);
                }
                Err(error) => panic!("{what}: a cookie is not a header value ({sent:?}): {error}"),
            }
        }
        if !body.is_empty() && !headers.contains_key(CONTENT_LENGTH) {
            headers.insert(CONTENT_LENGTH, HeaderValue::from(body.len()));
        }
        let mut request = match Request::builder()
            .method(method)
            .uri(uri.as_str())
            .body(Body::from(body))
        {
            Ok(request) => request,
            Err(error) => panic!("{what}: not a request: {error}"),
        };
        *request.headers_mut() = headers;
        let response = if overrides.is_empty() {
            service.handle(request).await
        } else {
            overrides.run(async { service.handle(request).await }).await
        };
        let (parts, body) = response.into_parts();
        lock(&jar).store(&parts.headers);
        let body = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(error) => panic!("{what}: the response body failed: {error}"),
        };
        TestResponse {
            status: parts.status,
            headers: parts.headers,
            body,
        }
    }

    /// [`send`](TestRequest::send) from synchronous code (a plain `#[test]`, a doctest): the
    /// request is answered on a runtime of its own, made for it.
    ///
    /// # Panics
    ///
    /// As `send`, and when called inside an async runtime (use `send().await` there).
    pub fn send_blocking(self) -> TestResponse {
        let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
            Ok(runtime) => runtime,
            Err(error) => panic!("a runtime for the request: {error}"),
        };
        runtime.block_on(self.send())
    }

    fn note(&mut self, mistake: String) {
        self.mistake.get_or_insert(mistake);
    }

    fn default_content_type(mut self, value: &'static str) -> Self {
        self.headers
            .entry(CONTENT_TYPE)
            .or_insert(HeaderValue::from_static(value));
        self
    }
}

/// An answer, its body read whole.
#[derive(Clone)]
pub struct TestResponse {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
}

impl fmt::Debug for TestResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TestResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body", &String::from_utf8_lossy(&self.body))
            .finish()
    }
}

impl TestResponse {
    /// The status (compares with a number: `assert_eq!(response.status(), 200)`).
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The first value of header `name` (any case), when it is visible ASCII.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The value this response sets cookie `name` to (`Set-Cookie`); `None` when it does not
    /// set it, or removes it (`Max-Age=0`, an `Expires` date that has passed).
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.headers
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(parse_set_cookie)
            .rfind(|cookie| cookie.name == name)
            .filter(|cookie| !cookie.expired)
            .map(|cookie| cookie.value)
    }

    /// The body.
    pub fn bytes(&self) -> &Bytes {
        &self.body
    }

    /// The body as text (invalid UTF-8 replaced by `U+FFFD`).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body deserialized from JSON as a `T` (a `serde_json::Value` for any JSON).
    ///
    /// # Panics
    ///
    /// When the body is not JSON, or not a `T`: the message names the status, the content type
    /// and the body. [`try_json`](TestResponse::try_json) returns the error instead.
    pub fn json<T: DeserializeOwned>(&self) -> T {
        self.try_json().unwrap_or_else(|error| panic!("{error}"))
    }

    /// The body deserialized from JSON as a `T`, or why it is not one.
    pub fn try_json<T: DeserializeOwned>(&self) -> Result<T, JsonError> {
        serde_json::from_slice(&self.body).map_err(|error| JsonError {
            error,
            target: std::any::type_name::<T>(),
            status: self.status,
            content_type: self.header("content-type").map(str::to_owned),
            body: self.text(),
        })
    }
}

/// Why a response's body is not the JSON a test asked for: the error, and the answer.
#[derive(Debug)]
pub struct JsonError {
    error: serde_json::Error,
    target: &'static str,
    status: StatusCode,
    content_type: Option<String>,
    body: String,
}

impl JsonError {
    /// The deserializer's error.
    pub fn error(&self) -> &serde_json::Error {
        &self.error
    }

    /// The body, as text.
    pub fn body(&self) -> &str {
        &self.body
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const SHOWN: usize = 2000;
        let body = match self.body.char_indices().nth(SHOWN) {
            Some((end, _)) => format!("{}... ({} bytes)", &self.body[..end], self.body.len()),
            None => self.body.clone(),
        };
        write!(
            f,
            "the response body is not a `{}` in JSON: {}\n  status: {}\n  content-type: {}\n  body: {body:?}",
            self.target,
            self.error,
            self.status,
            self.content_type.as_deref().unwrap_or("(none)"),
        )
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// `name: value` as a header, or what is wrong with it.
fn header_pair<K, V>(name: K, value: V) -> Result<(HeaderName, HeaderValue), String>
where
    K: TryInto<HeaderName>,
    K::Error: fmt::Display,
    V: TryInto<HeaderValue>,
    V::Error: fmt::Display,
{
    let name = name
        .try_into()
        .map_err(|error| format!("a header name: {error}"))?;
    let value = value
        .try_into()
        .map_err(|error| format!("a header value: {error}"))?;
    Ok((name, value))
}

/// The jar, also after a test thread panicked holding it (the jar is a list of pairs, whole
/// after any of its operations).
fn lock(jar: &Mutex<Jar>) -> MutexGuard<'_, Jar> {
    jar.lock().unwrap_or_else(PoisonError::into_inner)
}
