//! The request path of a route in a group with dependencies or layers (see `Group`): its groups'
//! layer stacks, then its body and its grouped handler.
//!
//! Rules enforced here:
//! - only such routes come here (their `Entry::Scoped`, set when the app is built): every other
//!   route takes the path of `mod.rs` unchanged, and a group without dependencies or layers
//!   (its prefix, tags and responses are applied when the app is built) leaves its routes there
//!   too, so a group costs nothing per request to the routes it does not wrap;
//! - a group's layers wrap its routes only, inside the app's layers (which already ran when the
//!   request gets here), the outermost group's first; one stack per group serves all its routes,
//!   nested groups' included (a concurrency limit on a group limits the group), and its layers
//!   see the [`MatchedRoute`] extension with the route's full path, as the app's do;
//! - the routing outcome travels through a group's layers as a private extension ([`InScope`]),
//!   so the route is looked up once; a layer that drops it gets a 500, not a hang;
//! - the groups' dependencies run through the route's grouped handler, with the route's
//!   arguments (see `GroupedHandler`); a route whose groups have none runs its plain handler;
//! - a panic in the handler is a logged 500, as on the direct path (the app's, when it has
//!   one: `App::on_internal_error`).

use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::http::request::Parts;
use hyper::Request;
use tower::util::Oneshot;
use tower::ServiceExt;

use super::layered::lost_routing;
use super::panic::CatchPanic;
use super::{started, Compiled, Endpoint, HandleFuture, MatchedRoute, State};
use crate::extract::{
    classify, too_large, BodyInput, BodyReader, DependencyFn, PathParams, RequestCx, StreamSlot,
};
use crate::response::{internal_error, Body, BoxError, InternalAnswer, Response};
use crate::routing::{BoxFuture, RouteDef};

/// What a route in a group with dependencies or layers needs per request, built with the app.
pub(crate) struct RouteScope {
    /// The dependencies of the route's groups, outermost group first (empty: none).
    pub(crate) dependencies: Box<[DependencyFn]>,
    /// The layer stack of each of the route's groups that has layers, outermost first; each
    /// ends in [`Descend`].
    pub(crate) stacks: Box<[Endpoint]>,
    /// True when the route has a body argument read whole (JSON, a form).
    pub(crate) reads_body: bool,
    /// True when the route reads its body as it arrives (an upload): handed over unread.
    pub(crate) streams_body: bool,
}

/// Where a request routed to a scoped route is, on its way through the groups' layer stacks.
#[derive(Clone)]
struct InScope {
    inner: Arc<Compiled>,
    route: usize,
    params: PathParams,
    /// The index of the next stack to enter (`stacks.len()`: the route itself).
    depth: usize,
}

/// Answer route `route`, a scoped one, which `parts` matched with `params`.
// Not inlined into the direct path, which only routes without a scope run.
#[inline(never)]
pub(super) fn scoped<B>(
    inner: &Arc<Compiled>,
    mut parts: Parts,
    body: B,
    route: usize,
    params: PathParams,
) -> State<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let (Some(def), Some(Some(scope))) = (inner.routes.get(route), inner.scopes.get(route)) else {
        return State::Ready(Poll::Ready(internal_error()));
    };
    let Some(stack) = scope.stacks.first() else {
        return in_scope(inner, parts, body, route, params);
    };
    // An app with layers set it already (unless one of them removed it).
    if parts.extensions.get::<MatchedRoute>().is_none() {
        if let Some(matched) = inner.matched.get(route) {
            parts.extensions.insert(matched.clone());
        }
    }
    parts.extensions.insert(InScope {
        inner: inner.clone(),
        route,
        params,
        depth: 1,
    });
    let future = stack.clone().oneshot(Request::from_parts(parts, Body::new(body)));
    State::Running {
        future: CatchPanic::new(Box::pin(async move {
            match future.await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        })),
        route: def.name,
        on_panic: inner.state.answers().internal.clone(),
    }
}

/// Past the layers: read the body if the route takes one, then run its handler with its groups'
/// dependencies.
fn in_scope<B>(inner: &Arc<Compiled>, parts: Parts, body: B, route: usize, params: PathParams) -> State<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let (Some(def), Some(Some(scope))) = (inner.routes.get(route), inner.scopes.get(route)) else {
        return State::Ready(Poll::Ready(internal_error()));
    };
    if !scope.reads_body {
        let body_input = if scope.streams_body {
            let (total, part) = (inner.config.upload_limit, inner.config.upload_part_limit);
            if body.size_hint().lower() > total {
                let limit = usize::try_from(total).unwrap_or(usize::MAX);
                return State::Ready(Poll::Ready(too_large(limit)));
            }
            BodyInput::Stream(StreamSlot::new(Body::new(body), total, part))
        } else {
            BodyInput::Missing
        };
        let cx = RequestCx {
            parts: &parts,
            path: parts.uri.path(),
            params: &params,
            body_input: &body_input,
            state: &inner.state,
        };
        let called = catch_unwind(AssertUnwindSafe(|| call(def, &scope.dependencies, &cx)));
        return started(def.name, inner.state.answers(), called);
    }
    let mut reader = match BodyReader::new(body, inner.config.body_limit) {
        Ok(reader) => reader,
        Err(response) => return State::Ready(Poll::Ready(response)),
    };
    let inner = inner.clone();
    let name = def.name;
    let on_panic = inner.state.answers().internal.clone();
    let future = async move {
        let bytes = match poll_fn(|cx| reader.poll_read(cx)).await {
            Ok(bytes) => bytes,
            Err(response) => return response,
        };
        let (Some(def), Some(Some(scope))) = (inner.routes.get(route), inner.scopes.get(route)) else {
            return internal_error();
        };
        let body_input = classify(&parts.headers, bytes);
        let called = {
            let cx = RequestCx {
                parts: &parts,
                path: parts.uri.path(),
                params: &params,
                body_input: &body_input,
                state: &inner.state,
            };
            call(def, &scope.dependencies, &cx)
        };
        // A panic here is caught by the `CatchPanic` this future runs in.
        match called {
            Ok(future) => future.await,
            Err(response) => response,
        }
    };
    State::Running {
        future: CatchPanic::new(Box::pin(future)),
        route: name,
        on_panic,
    }
}

/// The route's handler on `cx`: the grouped one when its groups have dependencies.
fn call(def: &RouteDef, dependencies: &[DependencyFn], cx: &RequestCx<'_>) -> Result<BoxFuture, Response> {
    if dependencies.is_empty() {
        (def.handler)(cx)
    } else {
        (def.grouped)(cx, dependencies)
    }
}

/// The innermost service of a group's layer stack: the next group's stack, or the route. It
/// holds the app's 500, for a request a layer passed on without its routing.
#[derive(Clone, Default)]
pub(crate) struct Descend(pub(crate) Option<InternalAnswer>);

impl tower::Service<Request<Body>> for Descend {
    type Response = Response;
    type Error = Infallible;
    type Future = DescendFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Body>) -> DescendFuture {
        let Some(at) = request.extensions_mut().remove::<InScope>() else {
            return DescendFuture::Lost(Some(lost_routing(self.0.as_ref())));
        };
        let next = at
            .inner
            .scopes
            .get(at.route)
            .and_then(Option::as_ref)
            .and_then(|scope| scope.stacks.get(at.depth))
            .cloned();
        match next {
            Some(stack) => {
                request.extensions_mut().insert(InScope {
                    depth: at.depth + 1,
                    ..at
                });
                DescendFuture::Next(stack.oneshot(request))
            }
            None => {
                let (parts, body) = request.into_parts();
                DescendFuture::Answer(HandleFuture {
                    state: in_scope(&at.inner, parts, body, at.route, at.params),
                    observed: None,
                    is_head: false,
                })
            }
        }
    }
}

/// The future of [`Descend`].
pub(crate) enum DescendFuture {
    Next(Oneshot<Endpoint, Request<Body>>),
    Answer(HandleFuture<Body>),
    /// The 500 of a request that lost its routing; `None` once handed out.
    Lost(Option<Response>),
}

impl Future for DescendFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            DescendFuture::Next(future) => Pin::new(future).poll(cx),
            DescendFuture::Answer(future) => Pin::new(future).poll(cx).map(Ok),
            DescendFuture::Lost(answer) => Poll::Ready(Ok(answer.take().unwrap_or_else(internal_error))),
        }
    }
}
