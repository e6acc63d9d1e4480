//! Dispatch: answering one request — route it, read the body if the route has one, run the
//! generated handler, log. This is the per-request path; the server calls it for every request it
//! reads, and [`Service::handle`] calls it in-process. This file holds the pipeline and the data it
//! runs on (`Compiled`); its other files: `service` (the compiled app as a service), `layered` and
//! `endpoint` (the app's layers), `scoped` (a route in a group with dependencies or layers),
//! `observe` (request ids, the access line, metrics), `panic` (a panic is a 500).
//!
//! Rules enforced here:
//! - everything up to the handler's future runs synchronously when the route takes no body, or
//!   when its body is already whole (one poll without a waker tells): the returned future is
//!   small (the boxed user future, or a ready response) and owns nothing of the request but what
//!   the user's function took;
//! - routes with a body read it by polling, never beyond the limit (413), then validate it;
//! - a route in a group with dependencies or layers leaves this path once it is matched (one
//!   test of the byte a route without a body always tested), for `scoped.rs`;
//! - a panic while extracting or inside the handler is a logged 500; the 404, 405, validation
//!   and 500 answers are the app's (FastAPI's unless overridden, `response/answers.rs`);
//! - HEAD responses keep GET's headers (with the length) and drop the body;
//! - a request is observed (`observe.rs`) only when the access line is on (target
//!   `ferrapi::access` at `INFO`), or the app has request ids or metrics; otherwise the path is
//!   exactly the unobserved one, after one check.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use hyper::header::{HeaderValue, CONTENT_LENGTH};
use hyper::http::request::Parts;
use hyper::{Method, Request};

mod endpoint;
mod layered;
mod observe;
mod panic;
mod scoped;
mod service;

pub use endpoint::{Endpoint, EndpointFuture};
pub use layered::MatchedRoute;
use layered::Routed;
pub(crate) use scoped::{Descend, RouteScope};
pub(crate) use service::{Answer, LayerFn};
pub use service::{Service, ServiceFuture};

use crate::config::Config;
use crate::extract::{
    classify, too_large, BodyInput, BodyReader, PathParams, RequestCx, StateMap, StreamSlot,
};
use crate::logging::ACCESS_TARGET;
use crate::metrics::{HttpMetrics, RouteKey};
use crate::openapi::DocsRoutes;
use crate::response::{
    internal_answer, internal_error, Body, BoxError, ErrorAnswers, InternalAnswer, Response,
};
use crate::routing::{BoxFuture, Entry, Lookup, RouteDef, RouteInfo, Router};
pub(crate) use observe::{InRequest, Observed, RequestId, X_REQUEST_ID};
use panic::{panic_message, CatchPanic};

/// Everything a request needs of the app, built once by `App::build` and shared by every
/// connection: the data the pipeline below runs on, which every file of this folder reads (so
/// it is here, where they all look, and not in one of them).
pub(crate) struct Compiled {
    pub(crate) routes: Vec<RouteDef>,
    pub(crate) router: Router,
    pub(crate) state: StateMap,
    pub(crate) config: Config,
    pub(crate) openapi_json: Bytes,
    pub(crate) docs: DocsRoutes,
    pub(crate) route_table: Vec<RouteInfo>,
    /// Each route's [`MatchedRoute`] extension (by declaration index), for the layers.
    pub(crate) matched: Vec<MatchedRoute>,
    /// The request metrics, when the app has them.
    pub(crate) metrics: Option<HttpMetrics>,
    /// Requests are observed even with the access line off: the app has request ids or metrics.
    pub(crate) observe: bool,
    /// Each route's dependencies and layers of its groups (by declaration index): `Some` only
    /// for a route whose groups have either (its entry is then `Scoped`).
    pub(crate) scopes: Vec<Option<RouteScope>>,
}

/// Whether the access line is on: decided once by ferrapi's log, else asked of `tracing` (a
/// callsite's cached interest, which still consults the subscriber's filter per request).
#[inline(always)]
fn access_log_on() -> bool {
    match crate::logging::access_on() {
        Some(on) => on,
        None => tracing::enabled!(target: ACCESS_TARGET, tracing::Level::INFO),
    }
}

/// What [`route`] tells the observer of a request: where it went. The unobserved path passes
/// `()`, for which it all compiles away.
trait Hook {
    fn routed(&mut self, key: RouteKey);
    fn docs(&mut self, path: &str);
    fn enter(&self) -> Option<InRequest<'_>>;
}

impl Hook for () {
    #[inline(always)]
    fn routed(&mut self, _key: RouteKey) {}
    #[inline(always)]
    fn docs(&mut self, _path: &str) {}
    #[inline(always)]
    fn enter(&self) -> Option<InRequest<'_>> {
        None
    }
}

impl Hook for Observed {
    fn routed(&mut self, key: RouteKey) {
        Observed::routed(self, key);
    }
    fn docs(&mut self, path: &str) {
        Observed::docs(self, path);
    }
    fn enter(&self) -> Option<InRequest<'_>> {
        Observed::enter(self)
    }
}

/// A route that still needs its body.
struct Reading<B> {
    inner: Arc<Compiled>,
    route: usize,
    parts: Parts,
    params: PathParams,
    reader: BodyReader<B>,
}

enum State<B> {
    /// The answer; `Pending` once handed out. (A `Poll`, the future's own output type, so the
    /// answer leaves in one copy, by `mem::replace`, rather than through `Option::take` and a
    /// rewrap: two copies of a 150-byte value.)
    Ready(Poll<Response>),
    Running {
        future: CatchPanic,
        route: &'static str,
        /// The app's 500, when it overrides FastAPI's (so a request of an app without the
        /// override carries an empty slot, and no reference count).
        on_panic: Option<InternalAnswer>,
    },
    Reading(Box<Reading<B>>),
}

/// The future of [`Service::handle`].
pub(crate) struct HandleFuture<B> {
    state: State<B>,
    observed: Option<Box<Observed>>,
    is_head: bool,
}

/// Run the handler of `def` on a routed request: its future, or an immediate answer.
// Inlined (as is `route`) into `start`, so the state is built where the future is: each
// function boundary otherwise copies the 150-byte response once more (-45 instructions).
#[inline(always)]
fn run<B>(def: &RouteDef, cx: &RequestCx<'_>) -> State<B> {
    started(
        def.name,
        cx.state.answers(),
        catch_unwind(AssertUnwindSafe(|| (def.handler)(cx))),
    )
}

/// The state after a handler of `route` was called (and did not panic, or did); `answers` are
/// the app's, for a panic.
#[inline(always)]
fn started<B>(
    route: &'static str,
    answers: &ErrorAnswers,
    called: std::thread::Result<Result<BoxFuture, Response>>,
) -> State<B> {
    match called {
        Ok(Ok(future)) => State::Running {
            future: CatchPanic::new(future),
            route,
            on_panic: answers.internal.clone(),
        },
        Ok(Err(response)) => State::Ready(Poll::Ready(response)),
        Err(payload) => State::Ready(Poll::Ready(panicked(route, &*payload, answers))),
    }
}

/// The answer to a handler that panicked before returning (out of line, as the misses below).
#[cold]
fn panicked(route: &'static str, payload: &(dyn std::any::Any + Send), answers: &ErrorAnswers) -> Response {
    tracing::error!(route, panic = %panic_message(payload), "handler panicked");
    answers.internal()
}

/// Start answering `request`.
pub(crate) fn start<B>(inner: &Arc<Compiled>, request: Request<B>) -> HandleFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let is_head = request.method() == Method::HEAD;
    let log = access_log_on();
    if log || inner.observe {
        return start_observed(inner, request, log, is_head);
    }
    let (parts, body) = request.into_parts();
    let state = route(inner, parts, body, &mut ());
    HandleFuture {
        state,
        observed: None,
        is_head,
    }
}

/// [`start`] for a request that is observed (see `observe.rs`).
#[inline(never)]
fn start_observed<B>(inner: &Arc<Compiled>, request: Request<B>, log: bool, is_head: bool) -> HandleFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let mut observed = Observed::begin(inner, &request, log);
    let (parts, body) = request.into_parts();
    let state = match observed.metrics_endpoint(parts.uri.path(), &parts.headers) {
        Some(response) => State::Ready(Poll::Ready(response)),
        None => route(inner, parts, body, &mut *observed),
    };
    HandleFuture {
        state,
        observed: Some(observed),
        is_head,
    }
}

#[inline(always)]
fn route<B, H: Hook>(inner: &Arc<Compiled>, parts: Parts, body: B, hook: &mut H) -> State<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let path = parts.uri.path();
    if let Some(response) = inner.docs.respond(&parts.method, path) {
        hook.docs(path);
        return State::Ready(Poll::Ready(response));
    }
    match inner.router.lookup(&parts.method, path) {
        Lookup::Found { route, params } => {
            hook.routed(RouteKey::Route(route));
            let _entered = hook.enter();
            matched(inner, parts, body, route, params)
        }
        Lookup::NotFound => {
            hook.routed(RouteKey::Unmatched);
            State::Ready(Poll::Ready(inner.state.answers().not_found(&parts)))
        }
        Lookup::MethodNotAllowed(allow) => {
            hook.routed(RouteKey::Unmatched);
            State::Ready(Poll::Ready(
                inner.state.answers().method_not_allowed(&parts, allow),
            ))
        }
    }
}

/// Run route `route`, which `parts` matched with `params`: read the body if it takes one, then
/// its handler.
#[inline(always)]
fn matched<B>(inner: &Arc<Compiled>, parts: Parts, body: B, route: usize, params: PathParams) -> State<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let Some(def) = inner.routes.get(route) else {
        return State::Ready(Poll::Ready(internal_error()));
    };
    let body_input = if def.entry == Entry::Head {
        BodyInput::Missing
    } else if def.entry == Entry::Body {
        let mut reader = match BodyReader::new(body, inner.config.body_limit) {
            Ok(reader) => reader,
            Err(response) => return State::Ready(Poll::Ready(response)),
        };
        // A small body is usually whole by the time its head is routed: one poll without a
        // waker finds out, and then the route runs here, without boxing the request to wait.
        // If it is not, the future polls the body again with the real waker before waiting.
        match reader.poll_read(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(Ok(bytes)) => classify(&parts.headers, bytes),
            Poll::Ready(Err(response)) => return State::Ready(Poll::Ready(response)),
            Poll::Pending => {
                return State::Reading(Box::new(Reading {
                    inner: inner.clone(),
                    route,
                    parts,
                    params,
                    reader,
                }))
            }
        }
    } else if def.entry == Entry::Stream {
        return streamed(inner, def, &parts, body, &params);
    } else {
        return scoped::scoped(inner, parts, body, route, params);
    };
    let cx = RequestCx {
        parts: &parts,
        path: parts.uri.path(),
        params: &params,
        body_input: &body_input,
        state: &inner.state,
    };
    run(def, &cx)
}

/// Run route `def`, which reads its body as it arrives (an upload): the body is handed over
/// unread, after a declared length over the upload limit is refused.
#[cold]
fn streamed<B>(inner: &Arc<Compiled>, def: &RouteDef, parts: &Parts, body: B, params: &PathParams) -> State<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let (total, part) = (inner.config.upload_limit, inner.config.upload_part_limit);
    if body.size_hint().lower() > total {
        let limit = usize::try_from(total).unwrap_or(usize::MAX);
        return State::Ready(Poll::Ready(too_large(limit)));
    }
    let body_input = BodyInput::Stream(StreamSlot::new(Body::new(body), total, part));
    let cx = RequestCx {
        parts,
        path: parts.uri.path(),
        params,
        body_input: &body_input,
        state: &inner.state,
    };
    run(def, &cx)
}

/// Answer a request the layered path already routed (see `layered.rs`): the innermost service
/// of the layer stack. Logging and HEAD are the outer path's.
pub(crate) fn start_routed<B>(inner: &Arc<Compiled>, request: Request<B>, routed: Routed) -> HandleFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let (parts, body) = request.into_parts();
    let answers = inner.state.answers();
    let state = match routed {
        Routed::Route { index, params } => matched(inner, parts, body, index, params),
        Routed::Docs => State::Ready(Poll::Ready(
            inner
                .docs
                .respond(&parts.method, parts.uri.path())
                .unwrap_or_else(|| answers.not_found(&parts)),
        )),
        Routed::Metrics => State::Ready(Poll::Ready(match &inner.metrics {
            Some(metrics) => metrics.respond(&parts.headers),
            None => answers.not_found(&parts),
        })),
        Routed::NotFound => State::Ready(Poll::Ready(answers.not_found(&parts))),
        Routed::MethodNotAllowed(allow) => {
            State::Ready(Poll::Ready(answers.method_not_allowed(&parts, allow)))
        }
    };
    HandleFuture {
        state,
        observed: None,
        is_head: false,
    }
}

impl<B> Future for HandleFuture<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: Into<BoxError>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = self.get_mut();
        loop {
            match &mut this.state {
                State::Ready(slot) => {
                    match slot {
                        Poll::Ready(response) => finish(&mut this.observed, this.is_head, response),
                        // Polled again after answering.
                        Poll::Pending => *slot = Poll::Ready(internal_error()),
                    }
                    return std::mem::replace(slot, Poll::Pending);
                }
                State::Running {
                    future,
                    route,
                    on_panic,
                } => {
                    // The handler runs in the request, whichever poll runs it.
                    let entered = this.observed.as_ref().and_then(|o| o.enter());
                    let mut response = match Pin::new(future).poll(cx) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Ok(response)) => response,
                        Poll::Ready(Err(message)) => {
                            tracing::error!(route = *route, panic = %message, "handler panicked");
                            internal_answer(on_panic.as_ref())
                        }
                    };
                    drop(entered);
                    finish(&mut this.observed, this.is_head, &mut response);
                    return Poll::Ready(response);
                }
                State::Reading(reading) => {
                    let bytes = match reading.reader.poll_read(cx) {
                        Poll::Pending => return Poll::Pending,
                        Poll::Ready(Err(response)) => {
                            this.state = State::Ready(Poll::Ready(response));
                            continue;
                        }
                        Poll::Ready(Ok(bytes)) => bytes,
                    };
                    let Reading {
                        inner,
                        route,
                        parts,
                        params,
                        ..
                    } = &**reading;
                    let _entered = this.observed.as_ref().and_then(|o| o.enter());
                    let next = match inner.routes.get(*route) {
                        Some(def) => {
                            let body_input = classify(&parts.headers, bytes);
                            let request = RequestCx {
                                parts,
                                path: parts.uri.path(),
                                params,
                                body_input: &body_input,
                                state: &inner.state,
                            };
                            run(def, &request)
                        }
                        None => State::Ready(Poll::Ready(internal_error())),
                    };
                    this.state = next;
                }
            }
        }
    }
}

/// Record the answer (when observed: its id, the access line, the metrics) and drop the body of
/// a HEAD answer, in place: the response is large, and each move of it is a copy.
fn finish(observed: &mut Option<Box<Observed>>, is_head: bool, response: &mut Response) {
    if let Some(observed) = observed.take() {
        observed.finish(response);
    }
    if is_head {
        strip_body(response);
    }
}

/// HEAD answers carry GET's headers, including the length, without the body.
fn strip_body(response: &mut Response) {
    use hyper::body::Body as _;
    if !response.headers().contains_key(CONTENT_LENGTH) {
        if let Some(len) = response.body().size_hint().exact() {
            response
                .headers_mut()
                .insert(CONTENT_LENGTH, HeaderValue::from(len));
        }
    }
    *response.body_mut() = Body::empty();
}
