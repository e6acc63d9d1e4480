//! Turning handler results into HTTP responses.
//!
//! Rules enforced here:
//! - JSON is `application/json`, text is `text/plain; charset=utf-8`, HTML `text/html; charset=utf-8`;
//! - a value that cannot be serialized is a logged 500, never a panic;
//! - `HttpError` bodies are `{"detail": <json>}` like FastAPI's `HTTPException`;
//! - `Html` responses carry `X-Content-Type-Options: nosniff` and a restrictive
//!   `Content-Security-Policy` ([`HTML_CONTENT_SECURITY_POLICY`]);
//! - validation errors are answered 422 with FastAPI's body, all of a request's at once; a body
//!   that is not UTF-8 is a 400 instead, one that is not JSON its one `json_invalid` error;
//! - the app may replace the 404, 405, validation and 500 answers (`answers.rs`).

mod answers;
mod body;
mod digest;
mod json_events;
mod lines;
mod memory;
mod sse;
mod stream;

pub use answers::Invalid;
pub(crate) use answers::{internal_answer, ErrorAnswers, InternalAnswer, KeptValidation, ValidationAnswer};
pub use body::{Body, BodyError, BoxError};
pub(crate) use digest::fnv1a;
pub use json_events::JsonEvent;
pub use lines::JsonLines;
pub(crate) use memory::{body_reset, charge_answer, fitted, over_budget, MemoryRefused};
pub use sse::{Event, KeepAlive, LastEventId, Sse, Untyped};
pub use stream::StreamingResponse;

use bytes::Bytes;
use hyper::header::{HeaderName, HeaderValue, CONTENT_TYPE};
use hyper::{HeaderMap, StatusCode};
use serde::Serialize;
use serde_json::Value;

use crate::validate::{BadBody, JsonSchema, SchemaRegistry, ValidationErrors};

/// The response type handlers produce.
pub type Response = hyper::Response<Body>;

pub(crate) const APPLICATION_JSON: HeaderValue = HeaderValue::from_static("application/json");
const TEXT_PLAIN: HeaderValue = HeaderValue::from_static("text/plain; charset=utf-8");
const TEXT_HTML: HeaderValue = HeaderValue::from_static("text/html; charset=utf-8");

/// Anything a handler may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a route",
    label = "this type does not implement `IntoResponse`",
    note = "return `Json<T>` (T: Serialize), `serde_json::Value`, `String`, `Html<T>`, `HttpError`, `(StatusCode, R)`, `Result<R, E>` or a `Response`"
)]
pub trait IntoResponse {
    /// Build the response.
    fn into_response(self) -> Response;
}

/// A body serialized as JSON (`application/json`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// A body sent as HTML (`text/html; charset=utf-8`). The route author escapes dynamic strings
/// (see [`escape_html`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Html<T>(pub T);

/// An HTTP error with a JSON `detail`, e.g. `HttpError::new(404, "Employee not found")`, and
/// optionally headers of its own (FastAPI's `HTTPException(headers=...)`).
#[derive(Debug, Clone, PartialEq)]
pub struct HttpError {
    status: StatusCode,
    detail: Value,
    /// Boxed: most errors carry none, and the error travels in every `Result` a route returns.
    headers: Option<Box<HeaderMap>>,
}

impl HttpError {
    /// An error with `status` and a string (or any JSON) detail. An invalid status becomes 500.
    pub fn new(status: u16, detail: impl Into<Value>) -> Self {
        let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        HttpError {
            status,
            detail: detail.into(),
            headers: None,
        }
    }

    /// The same error answered with header `name: value` too (a second value of a name is
    /// added, not replaced): `HttpError::new(401, "Not authenticated").with_header(WWW_AUTHENTICATE,
    /// HeaderValue::from_static("Bearer"))`.
    pub fn with_header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers
            .get_or_insert_with(Default::default)
            .append(name, value);
        self
    }

    /// The same error answered with every header of `headers` too.
    pub fn with_headers(mut self, headers: HeaderMap) -> Self {
        let own = self.headers.get_or_insert_with(Default::default);
        for (name, value) in &headers {
            own.append(name, value.clone());
        }
        self
    }

    /// The headers the error is answered with (empty unless set).
    pub fn headers(&self) -> &HeaderMap {
        static NONE: std::sync::OnceLock<HeaderMap> = std::sync::OnceLock::new();
        self.headers
            .as_deref()
            .unwrap_or_else(|| NONE.get_or_init(HeaderMap::new))
    }

    /// 404 with `detail`.
    pub fn not_found(detail: impl Into<Value>) -> Self {
        Self::new(404, detail)
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The detail value.
    pub fn detail(&self) -> &Value {
        &self.detail
    }
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.status, self.detail)
    }
}

impl std::error::Error for HttpError {}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let mut response = error_response(self.status, &self.detail);
        if let Some(headers) = self.headers {
            // An error's own `Content-Type` replaces the JSON one, as in Starlette.
            if headers.contains_key(CONTENT_TYPE) {
                response.headers_mut().remove(CONTENT_TYPE);
            }
            for (name, value) in headers.iter() {
                response.headers_mut().append(name, value.clone());
            }
        }
        response
    }
}

/// `{"detail": detail}` with `status`.
pub(crate) fn error_response(status: StatusCode, detail: &Value) -> Response {
    #[derive(Serialize)]
    struct Detail<'a> {
        detail: &'a Value,
    }
    match serde_json::to_vec(&Detail { detail }) {
        Ok(bytes) => json_bytes_response(status, fitted(bytes)),
        Err(_) => internal_error(),
    }
}

/// 500 `{"detail":"Internal Server Error"}`.
pub(crate) fn internal_error() -> Response {
    json_bytes_response(
        StatusCode::INTERNAL_SERVER_ERROR,
        &b"{\"detail\":\"Internal Server Error\"}"[..],
    )
}

/// A response with `status`, `Content-Type: application/json` and the given bytes.
// Inlined (with `with_content_type`) into `Json::into_response`, which is instantiated in the
// route author's crate: every JSON answer goes through here.
#[inline]
pub(crate) fn json_bytes_response(status: StatusCode, bytes: impl Into<Bytes>) -> Response {
    with_content_type(status, APPLICATION_JSON, bytes.into())
}

#[inline]
fn with_content_type(status: StatusCode, content_type: HeaderValue, bytes: Bytes) -> Response {
    let mut response = hyper::Response::new(Body::from(bytes));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, content_type);
    response
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        match serde_json::to_vec(&self.0) {
            Ok(bytes) => json_bytes_response(StatusCode::OK, fitted(bytes)),
            Err(err) => {
                tracing::error!(error = %err, "response body could not be serialized as JSON");
                internal_error()
            }
        }
    }
}

impl IntoResponse for Value {
    fn into_response(self) -> Response {
        Json(self).into_response()
    }
}

impl IntoResponse for String {
    fn into_response(self) -> Response {
        with_content_type(StatusCode::OK, TEXT_PLAIN, Bytes::from(self))
    }
}

impl IntoResponse for &'static str {
    fn into_response(self) -> Response {
        with_content_type(StatusCode::OK, TEXT_PLAIN, Bytes::from_static(self.as_bytes()))
    }
}

/// The policy of HTML written by route authors: no scripts, plugins, frames or remote loads at
/// all (inline styles only), so an escaping mistake cannot become script execution. The docs
/// pages, which need their own scripts, set a policy of their own (see `docs.rs`).
pub const HTML_CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
     img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

impl<T: Into<Bytes>> IntoResponse for Html<T> {
    fn into_response(self) -> Response {
        let mut response = with_content_type(StatusCode::OK, TEXT_HTML, self.0.into());
        let headers = response.headers_mut();
        headers.insert(
            hyper::header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        headers.insert(
            hyper::header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(HTML_CONTENT_SECURITY_POLICY),
        );
        response
    }
}

impl IntoResponse for Response {
    fn into_response(self) -> Response {
        self
    }
}

impl IntoResponse for StatusCode {
    fn into_response(self) -> Response {
        let mut response = hyper::Response::new(Body::empty());
        *response.status_mut() = self;
        response
    }
}

impl IntoResponse for () {
    fn into_response(self) -> Response {
        StatusCode::OK.into_response()
    }
}

impl<R: IntoResponse> IntoResponse for (StatusCode, R) {
    fn into_response(self) -> Response {
        let mut response = self.1.into_response();
        *response.status_mut() = self.0;
        response
    }
}

impl<R: IntoResponse> IntoResponse for (HeaderMap, R) {
    fn into_response(self) -> Response {
        let mut response = self.1.into_response();
        response.headers_mut().extend(self.0);
        response
    }
}

impl<R: IntoResponse, const N: usize> IntoResponse for ([(HeaderName, HeaderValue); N], R) {
    fn into_response(self) -> Response {
        let mut response = self.1.into_response();
        for (name, value) in self.0 {
            response.headers_mut().insert(name, value);
        }
        response
    }
}

impl<R: IntoResponse, const N: usize> IntoResponse for (StatusCode, [(HeaderName, HeaderValue); N], R) {
    fn into_response(self) -> Response {
        let mut response = (self.1, self.2).into_response();
        *response.status_mut() = self.0;
        response
    }
}

impl<R: IntoResponse, E: IntoResponse> IntoResponse for Result<R, E> {
    fn into_response(self) -> Response {
        match self {
            Ok(ok) => ok.into_response(),
            Err(err) => err.into_response(),
        }
    }
}

impl<T: JsonSchema> JsonSchema for Json<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        T::schema(registry)
    }
}

// The answers to failed validation live here, not beside `ValidationErrors`: validation knows
// nothing of HTTP.
impl ValidationErrors {
    /// `Err` with FastAPI's answer when a check failed (see its [`IntoResponse`]), else `Ok`.
    /// (Generated handlers ask the app's answer instead, which may be overridden: see
    /// [`App::on_validation_error`](crate::App::on_validation_error).)
    #[inline]
    pub fn finish(self) -> Result<(), Response> {
        self.answer_with(IntoResponse::into_response).map_or(Ok(()), Err)
    }

    /// `Some(answer(self))` when a check failed, else `None`.
    #[inline]
    pub(crate) fn answer_with<T>(self, answer: impl FnOnce(Self) -> T) -> Option<T> {
        if !self.is_empty() {
            return Some(answer(self));
        }
        // Nothing recorded and nothing allocated: forgetting the value leaks nothing and spares
        // every valid request the out-of-line drop glue (a call, a loop over no items).
        if self.items.capacity() == 0 {
            std::mem::forget(self);
        }
        None
    }
}

impl IntoResponse for ValidationErrors {
    /// 422 with every error, or the answer to a body that could not be read.
    fn into_response(self) -> Response {
        match self.bad_body {
            Some(BadBody::NotUtf8) => error_response(
                StatusCode::BAD_REQUEST,
                &Value::from("There was an error parsing the body"),
            ),
            Some(BadBody::InvalidJson(item)) => ValidationErrors {
                items: vec![*item],
                bad_body: None,
            }
            .into_response(),
            Some(BadBody::OverBudget(refused)) => over_budget(refused),
            None => json_bytes_response(StatusCode::UNPROCESSABLE_ENTITY, self.to_json_bytes()),
        }
    }
}

/// Escape `&`, `<`, `>`, `"` and `'` so a string can be placed in HTML text or an attribute.
pub fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + 8);
    for c in input.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_html_special_character() {
        assert_eq!(
            escape_html(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;y&#x27;"
        );
    }

    #[test]
    fn http_error_body_is_detail_object() {
        let response = HttpError::new(404, "Employee not found").into_response();
        assert_eq!(response.status(), StatusCode::NOT_FOUND);
        assert_eq!(response.headers()[CONTENT_TYPE], "application/json");
        assert_eq!(response.headers().len(), 1);
    }

    #[test]
    fn http_error_headers_are_answered() {
        let error = HttpError::new(401, "Not authenticated")
            .with_header(
                hyper::header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer"),
            )
            .with_header(hyper::header::SET_COOKIE, HeaderValue::from_static("a=1"))
            .with_header(hyper::header::SET_COOKIE, HeaderValue::from_static("b=2"))
            .with_header(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        assert_eq!(error.headers()["www-authenticate"], "Bearer");
        let response = error.into_response();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        assert_eq!(response.headers().get_all("set-cookie").iter().count(), 2);
        assert_eq!(response.headers()[CONTENT_TYPE], "text/plain");
    }
}
