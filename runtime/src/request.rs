//! What a handler sees of a request: raw path parameter values, the query string, headers, the
//! body bytes and the application state.
//!
//! Rules enforced here: nothing is decoded or copied until an argument asks for it; the query
//! string is scanned on demand (a route has few parameters) and a repeated scalar parameter takes
//! its last value, as Starlette does.

use std::borrow::Cow;
use std::sync::Arc;

use bytes::Bytes;
use hyper::http::request::Parts;
use hyper::HeaderMap;

use crate::body::BodyInput;
use crate::state::StateMap;

/// One routed request, as the generated handler receives it.
#[derive(Debug)]
pub struct RequestCx {
    pub(crate) parts: Parts,
    /// Byte ranges of the path parameter values in `parts.uri.path()`, in template order.
    pub(crate) params: Vec<(usize, usize)>,
    pub(crate) body: Bytes,
    pub(crate) body_input: BodyInput,
    pub(crate) state: Arc<StateMap>,
}

impl RequestCx {
    /// The raw (still percent-encoded) value of the `index`-th path parameter.
    pub fn path_raw(&self, index: usize) -> Option<&str> {
        let (start, end) = *self.params.get(index)?;
        self.parts.uri.path().get(start..end)
    }

    /// The raw query string, if any.
    pub fn query_string(&self) -> &str {
        self.parts.uri.query().unwrap_or("")
    }

    /// The last value of query parameter `name`, decoded.
    pub fn query_last(&self, name: &str) -> Option<Cow<'_, str>> {
        let mut last = None;
        for (key, value) in form_urlencoded::parse(self.query_string().as_bytes()) {
            if key == name {
                last = Some(value);
            }
        }
        last
    }

    /// Every value of query parameter `name`, decoded, in order.
    pub fn query_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = Cow<'a, str>> + 'a {
        form_urlencoded::parse(self.query_string().as_bytes())
            .filter(move |(key, _)| key == name)
            .map(|(_, value)| value)
    }

    /// The request headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.parts.headers
    }

    /// The request head (method, URI, headers, extensions).
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// The body, read up to the configured limit (empty for routes without a body argument).
    pub fn body(&self) -> &Bytes {
        &self.body
    }

    /// The body as validation sees it (parsed JSON, text, or missing).
    pub fn body_input(&self) -> &BodyInput {
        &self.body_input
    }

    /// The application state of type `T`, if the app registered one.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.state.get::<T>()
    }
}
