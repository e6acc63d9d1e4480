//! What a handler sees of a request: raw path parameter values, the query string, headers, the
//! body and the application state.
//!
//! Rules enforced here: everything is borrowed from the dispatcher (no copy of the request head
//! per request); the router hands over the path parameters as byte ranges of the raw (still
//! percent-encoded) values ([`PathParams`], at most [`MAX_PARAMS`], kept inline without
//! allocating); nothing is decoded until an argument asks for it; the query string is scanned
//! on demand (a route has few parameters; see `query.rs`) and a repeated scalar parameter
//! takes its last value, as Starlette does.

use std::borrow::Cow;
use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::HeaderMap;

use super::query;
use super::state::Shared;
use crate::body::BodyInput;
use crate::budget::{Charge, MemoryBudget};
use crate::response::ErrorAnswers;
use crate::trace::{TraceIds, Tracer};
use crate::validate::{BadBody, ValidationErrors};
use crate::versions::Chosen;

/// Most parameters a template may have (their ranges are kept inline, without allocating).
pub(crate) const MAX_PARAMS: usize = 8;

/// Byte ranges of the path parameter values in the request path, in template order. Offsets
/// fit in `u16` because the `http` crate refuses URIs of 64 KiB or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathParams {
    len: u8,
    ranges: [(u16, u16); MAX_PARAMS],
}

impl PathParams {
    /// Add the range of the next parameter (ignored past [`MAX_PARAMS`], which the router refuses
    /// to compile).
    pub(crate) fn push(&mut self, (start, end): (usize, usize)) {
        let (Ok(start), Ok(end)) = (u16::try_from(start), u16::try_from(end)) else {
            return;
        };
        if let Some(slot) = self.ranges.get_mut(usize::from(self.len)) {
            *slot = (start, end);
            self.len += 1;
        }
    }

    /// The range of the `index`-th parameter.
    #[inline]
    pub fn get(&self, index: usize) -> Option<(usize, usize)> {
        self.ranges[..usize::from(self.len)]
            .get(index)
            .map(|&(start, end)| (usize::from(start), usize::from(end)))
    }

    /// All ranges.
    pub fn to_vec(&self) -> Vec<(usize, usize)> {
        (0..usize::from(self.len)).filter_map(|i| self.get(i)).collect()
    }
}

/// One routed request, as the generated handler reads it.
#[derive(Debug, Clone, Copy)]
pub struct RequestCx<'a> {
    pub(crate) parts: &'a Parts,
    /// `parts.uri.path()`, worked out once by the dispatcher (the router needed it too).
    pub(crate) path: &'a str,
    pub(crate) params: &'a PathParams,
    pub(crate) body_input: &'a BodyInput,
    /// The user's state, the app's error answers and its task tracker.
    pub(crate) shared: &'a Shared,
    /// The request's charge against the memory budget (a route that reads its body, in an app
    /// with a budget): what parsing the body takes is charged to it before the parse.
    pub(crate) charge: Option<&'a Charge>,
    /// The app's memory budget, when it has one (the [`Memory`](super::Memory) argument).
    pub(crate) budget: Option<&'a Arc<MemoryBudget>>,
    /// The version the request is served at ([`Chosen::NONE`] in an app without versions).
    pub(crate) version: Chosen,
    /// The request's trace context, when the app traces (`App::tracing`).
    pub(crate) trace: Option<&'a TraceIds>,
    /// The app's tracing, when it traces.
    pub(crate) tracer: Option<&'a Tracer>,
    /// Its date (in an app with versions).
    pub(crate) version_date: Option<&'static str>,
    /// The date set while the route's code runs so versioned models see it (`versions::at`):
    /// its date, but none at the newest version (`VersionSet::shape_date`).
    pub(crate) shape_date: Option<&'static str>,
}

impl<'a> RequestCx<'a> {
    /// Charge `bytes` more to the request's memory charge, before they are taken; `false` (with
    /// the refusal recorded in `errors`, which it answers) when they do not fit.
    #[inline]
    pub(crate) fn charge(&self, bytes: usize, errors: &mut ValidationErrors) -> bool {
        let Some(charge) = self.charge else {
            return true;
        };
        match charge.grow(bytes) {
            Ok(()) => true,
            Err(refused) => {
                errors.bad_body(BadBody::OverBudget(refused));
                false
            }
        }
    }

    /// The app's error answers (`App::on_not_found`, `App::on_validation_error`, ...).
    #[inline]
    pub(crate) fn answers(&self) -> &'a ErrorAnswers {
        &self.shared.answers
    }

    /// The raw (still percent-encoded) value of the `index`-th path parameter.
    // Inlined: generated handlers, in the route author's crate, call this once per argument.
    #[inline]
    pub fn path_raw(&self, index: usize) -> Option<&'a str> {
        let (start, end) = self.params.get(index)?;
        self.path.get(start..end)
    }

    /// The raw query string, if any.
    pub fn query_string(&self) -> &'a str {
        self.parts.uri.query().unwrap_or("")
    }

    /// The last value of query parameter `name`, decoded.
    pub fn query_last(&self, name: &str) -> Option<Cow<'a, str>> {
        query::last(self.query_string(), name)
    }

    /// Every value of query parameter `name`, decoded, in order.
    pub fn query_all<'n>(&self, name: &'n str) -> impl Iterator<Item = Cow<'a, str>> + 'n
    where
        'a: 'n,
    {
        query::all(self.query_string(), name)
    }

    /// The request headers.
    pub fn headers(&self) -> &'a HeaderMap {
        &self.parts.headers
    }

    /// The request head (method, URI, headers, extensions).
    pub fn parts(&self) -> &'a Parts {
        self.parts
    }

    /// The body as validation sees it (JSON text, other text, or missing).
    pub fn body_input(&self) -> &'a BodyInput {
        self.body_input
    }

    /// The request's trace ids (its trace, its span, its caller's span, whether it is sampled),
    /// when the app traces (`App::tracing`); a route takes them as a
    /// [`TraceContext`](crate::trace::TraceContext) argument.
    pub fn trace_ids(&self) -> Option<TraceIds> {
        self.trace.copied()
    }

    /// The application state of type `T`, if the app registered one.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.shared.state.get::<T>()
    }
}
