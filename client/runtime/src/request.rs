//! A request as a generated operation builds it: its path from the template's literal parts and
//! parameters, its query, headers, cookies and body.
//!
//! Rules enforced here: every parameter is percent-encoded for where it goes (a path segment
//! never adds a `/`, a query value never adds a `&`, `=` or `+`, which Starlette reads as a
//! space); a header value that is not a valid header value (a line break) and a body that cannot
//! be serialized are kept as the request's error and reported by the call before anything is
//! sent, so building never panics; a request with an `Idempotency-Key` is marked as safe to retry.

use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE, COOKIE};
use hyper::Method;
use percent_encoding::{AsciiSet, CONTROLS};
use serde::Serialize;

use crate::body::RequestBody;
use crate::param::{ParamValues, ToParam};

/// What a path segment must not carry as it is: RFC 3986's `pchar` allows the rest.
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// What a query name or value must not carry as it is: also `&`, `=`, `+` (a space to
/// Starlette's `parse_qsl`) and `;`.
const QUERY: &AsciiSet = &SEGMENT.add(b'&').add(b'=').add(b'+').add(b';').add(b'\'');

/// What a literal part of a path template must not carry as it is (its `/` stay).
const LITERAL: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The `Idempotency-Key` header.
pub const IDEMPOTENCY_KEY: HeaderName = HeaderName::from_static("idempotency-key");

/// A request being built: method, path and query, headers, body.
#[derive(Debug)]
pub struct RequestBuilder {
    pub(crate) method: Method,
    /// The path and query, after the base URL's path.
    pub(crate) target: String,
    has_query: bool,
    pub(crate) headers: HeaderMap,
    cookies: String,
    pub(crate) body: RequestBody,
    /// The first problem met while building, reported by the call.
    pub(crate) error: Option<String>,
    /// The request carries an `Idempotency-Key`: the server answers a repeat with the first
    /// answer, so sending it again is safe.
    pub(crate) keyed: bool,
    /// The body can be built again for another attempt (it is not a one-time stream).
    pub(crate) replayable: bool,
    /// A text buffer for a parameter's value, reused.
    scratch: String,
}

impl RequestBuilder {
    /// A request with `method`, whose path starts with `prefix` (the base URL's path).
    pub(crate) fn new(method: Method, prefix: &str) -> Self {
        let mut target = String::with_capacity(prefix.len() + 48);
        target.push_str(prefix);
        RequestBuilder {
            method,
            target,
            has_query: false,
            headers: HeaderMap::new(),
            cookies: String::new(),
            body: RequestBody::empty(),
            error: None,
            keyed: false,
            replayable: true,
            scratch: String::new(),
        }
    }

    /// Append a literal part of the path template (`/items/`).
    pub fn path(&mut self, literal: &str) {
        self.target
            .extend(percent_encoding::utf8_percent_encode(literal, LITERAL));
    }

    /// Append a path parameter's value, as one segment.
    pub fn path_param(&mut self, value: &dyn ToParam) {
        self.scratch.clear();
        value.write_param(&mut self.scratch);
        self.target
            .extend(percent_encoding::utf8_percent_encode(&self.scratch, SEGMENT));
    }

    /// Add query parameter `name` once per value (none for `None`).
    pub fn query(&mut self, name: &str, values: &(impl ParamValues + ?Sized)) {
        values.each_value(&mut |value| {
            self.target.push(if self.has_query { '&' } else { '?' });
            self.has_query = true;
            self.target
                .extend(percent_encoding::utf8_percent_encode(name, QUERY));
            self.target.push('=');
            self.scratch.clear();
            value.write_param(&mut self.scratch);
            self.target
                .extend(percent_encoding::utf8_percent_encode(&self.scratch, QUERY));
        });
    }

    /// Add header `name` once per value (none for `None`).
    pub fn header(&mut self, name: &'static str, values: &(impl ParamValues + ?Sized)) {
        let Ok(header) = HeaderName::from_bytes(name.as_bytes()) else {
            self.fail(format!("`{name}` is not a header name"));
            return;
        };
        values.each_value(&mut |value| {
            let mut text = String::new();
            value.write_param(&mut text);
            match HeaderValue::try_from(text) {
                Ok(value) => {
                    if header == IDEMPOTENCY_KEY {
                        self.keyed = true;
                    }
                    self.headers.append(header.clone(), value);
                }
                Err(_) => self.fail(format!("header `{name}`: not a valid header value")),
            }
        });
    }

    /// Add cookie `name` (its value as it is written; `None` adds none).
    pub fn cookie(&mut self, name: &str, values: &(impl ParamValues + ?Sized)) {
        values.each_value(&mut |value| {
            if !self.cookies.is_empty() {
                self.cookies.push_str("; ");
            }
            self.cookies.push_str(name);
            self.cookies.push('=');
            value.write_param(&mut self.cookies);
        });
    }

    /// The body: `value` as JSON.
    pub fn json<T: Serialize + ?Sized>(&mut self, value: &T) {
        match serde_json::to_vec(value) {
            Ok(bytes) => self.content(Bytes::from(bytes), "application/json"),
            Err(error) => self.fail(format!("the JSON body: {error}")),
        }
    }

    /// The body: `value`'s fields as a form (`application/x-www-form-urlencoded`), each field
    /// written as a query parameter is (a list once per item; an absent or null field not at
    /// all; an object as its JSON).
    pub fn form<T: Serialize + ?Sized>(&mut self, value: &T) {
        match crate::form::encode(value) {
            Ok(text) => self.content(Bytes::from(text), "application/x-www-form-urlencoded"),
            Err(error) => self.fail(format!("the form body: {error}")),
        }
    }

    /// The body: `bytes`, of `content_type`.
    pub fn content(&mut self, bytes: Bytes, content_type: &'static str) {
        self.body = RequestBody::full(bytes);
        self.headers
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }

    /// The body: `body`, of `content_type`; `replayable` when it can be built again for a retry.
    pub fn body(&mut self, body: RequestBody, content_type: HeaderValue, replayable: bool) {
        self.body = body;
        self.replayable = replayable;
        self.headers.insert(CONTENT_TYPE, content_type);
    }

    /// Record a problem with the request; the call reports the first one.
    pub fn fail(&mut self, why: String) {
        if self.error.is_none() {
            self.error = Some(why);
        }
    }

    /// Add `headers` (the client's defaults, then the call's own) without replacing the
    /// operation's.
    pub(crate) fn extra_headers(&mut self, headers: &HeaderMap) {
        for (name, value) in headers {
            if !self.headers.contains_key(name) {
                if name == IDEMPOTENCY_KEY {
                    self.keyed = true;
                }
                self.headers.append(name.clone(), value.clone());
            }
        }
    }

    /// The `Cookie` header, once every cookie is added.
    pub(crate) fn finish_cookies(&mut self) {
        if self.cookies.is_empty() {
            return;
        }
        match HeaderValue::try_from(std::mem::take(&mut self.cookies)) {
            Ok(value) => {
                self.headers.insert(COOKIE, value);
            }
            Err(_) => self.fail("a cookie value is not a valid header value".to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(build: impl FnOnce(&mut RequestBuilder)) -> RequestBuilder {
        let mut request = RequestBuilder::new(Method::GET, "/api");
        build(&mut request);
        request.finish_cookies();
        request
    }

    #[test]
    fn path_parameters_are_one_segment_each() {
        let request = built(|r| {
            r.path("/items/");
            r.path_param(&"a/b c?d%");
            r.path("/x");
        });
        assert_eq!(request.target, "/api/items/a%2Fb%20c%3Fd%25/x");
    }

    #[test]
    fn query_values_keep_their_ampersands_and_pluses() {
        let request = built(|r| {
            r.path("/q");
            r.query("q", &"a&b=c+d é");
            r.query("tag", &vec!["x", "y"]);
            r.query("none", &None::<i64>);
            r.query("n", &Some(3));
        });
        assert_eq!(request.target, "/api/q?q=a%26b%3Dc%2Bd%20%C3%A9&tag=x&tag=y&n=3");
    }

    #[test]
    fn headers_and_cookies() {
        let request = built(|r| {
            r.header("X-Tag", &vec!["a", "b"]);
            r.header("Idempotency-Key", &"k1");
            r.cookie("session", &"s1");
            r.cookie("theme", &Some("dark"));
        });
        let tags: Vec<_> = request.headers.get_all("x-tag").iter().collect();
        assert_eq!(tags, ["a", "b"]);
        assert!(request.keyed);
        assert_eq!(request.headers["cookie"], "session=s1; theme=dark");
        assert!(request.error.is_none());
    }

    #[test]
    fn an_invalid_header_value_is_an_error_not_a_panic() {
        let request = built(|r| r.header("X-Bad", &"a\r\nb"));
        assert_eq!(
            request.error.as_deref(),
            Some("header `X-Bad`: not a valid header value")
        );
    }
}
