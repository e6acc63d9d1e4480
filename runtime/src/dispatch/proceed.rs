//! Carrying a routed request on to its route ([`proceed`]): straight there for an app and a
//! route without layers, else down each layer stack on the way, the app's (`App::layer`) and
//! each group's (`Group::layer`), built by one fold ([`stack`]) over one innermost service for
//! all of them.
//!
//! Rules enforced here:
//! - an app without layers and a route whose groups have none never come here but for one test
//!   each (the app's stack is an `Option`, a route's stacks a slice);
//! - the request is routed before any stack, so a layer sees which route answers: the
//!   [`MatchedRoute`] request extension (its full path template and name) is set for a request
//!   that matched a route; where it was routed travels down a stack as one private extension
//!   ([`Resume`]), which the stack's innermost service ([`Innermost`]) takes to carry on from
//!   there, so the route is looked up once;
//! - every request goes through the app's layers, also the answers that are not routes' (404,
//!   405, the OpenAPI document, the docs pages and the metrics), so a CORS, compression or access
//!   layer applies to them too;
//! - a group's layers wrap its routes only, inside the app's layers, the outermost group's
//!   first; one stack per group serves all its routes (a concurrency limit on a group limits the
//!   group), nested groups' included;
//! - a layer that rewrites the request's path does not change which route answers (the route is
//!   already matched); to rewrite paths, wrap the whole [`Service`](crate::Service) instead;
//! - a layer that drops the private extension (a new request made without the old one's
//!   extensions) gets a logged 500, not a hang; a layer that panics, a logged 500.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::http::request::Parts;
use hyper::Request;
use tower::ServiceExt;

use super::response_future::ResponseFuture;
use super::routed::{respond_unrouted, Routed};
use super::run::{run, Run};
use super::{Compiled, Endpoint, LayerFn, MatchedRoute, Received, ServiceFuture};
use crate::budget::Share;
use crate::response::{internal_answer, internal_error, Body, BoxError, InternalAnswer, Response};

/// Where a request going down a stack will be picked up by [`Innermost`]: the app, where it was
/// routed, and how many of its route's group stacks it will have passed.
#[derive(Clone)]
struct Resume {
    inner: Arc<Compiled>,
    routed: Routed,
    depth: usize,
    /// The share of its connection's bodies being received the body counts against.
    share: Option<Arc<Share>>,
}

/// After the app's layers (or without them): the next of the route's group stacks, from the
/// `depth`-th, or the route itself; or the answer of a place that is not a route.
pub(super) fn proceed<B>(
    inner: &Arc<Compiled>,
    parts: Parts,
    body: Received<'_, B>,
    routed: Routed,
    depth: usize,
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let Routed::Route { index, params } = routed else {
        return Run::ready(respond_unrouted(inner, &parts, routed));
    };
    let Some(target) = inner.targets.get(index) else {
        return Run::ready(internal_error());
    };
    match target.stacks.get(depth) {
        None => run(inner, index, target, parts, body, params),
        Some(stack) => through(
            stack,
            inner,
            parts,
            body,
            Routed::Route { index, params },
            depth + 1,
        ),
    }
}

/// Send the request down `stack`, to be picked up by its [`Innermost`] at `depth` (see
/// [`proceed`]).
// Not inlined into the path of routes without layers.
#[inline(never)]
pub(super) fn through<B>(
    stack: &Endpoint,
    inner: &Arc<Compiled>,
    mut parts: Parts,
    (body, share): Received<'_, B>,
    routed: Routed,
    depth: usize,
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let mut route = "-";
    if let Routed::Route { index, .. } = &routed {
        if let Some(target) = inner.targets.get(*index) {
            route = target.def.name;
            // Set by the app's stack already, unless a layer removed it.
            if parts.extensions.get::<MatchedRoute>().is_none() {
                parts.extensions.insert(target.matched.clone());
            }
        }
    }
    parts.extensions.insert(Resume {
        inner: inner.clone(),
        routed,
        depth,
        share: share.cloned(),
    });
    let future = stack.clone().oneshot(Request::from_parts(parts, Body::new(body)));
    Run::running(
        Box::pin(async move {
            match future.await {
                Ok(response) => response,
                Err(never) => match never {},
            }
        }),
        route,
        &inner.shared.answers,
        None,
    )
}

/// A layer stack: `layers` folded over the [`Innermost`] service, the first one innermost (the
/// last added sees the request first); `internal` is the app's 500, for a layer's error. The one
/// place a stack is built, for the app's layers and for each group's.
pub(crate) fn stack(layers: &[LayerFn], internal: Option<&InternalAnswer>) -> Endpoint {
    layers.iter().fold(
        Endpoint::new(Innermost(internal.cloned()), internal.cloned()),
        |endpoint, layer| layer(endpoint),
    )
}

/// The innermost service of every layer stack: carries on where the request is ([`Resume`]).
/// It holds the app's 500, for a request a layer passed on without its routing.
#[derive(Clone, Default)]
pub(crate) struct Innermost(Option<InternalAnswer>);

impl tower::Service<Request<Body>> for Innermost {
    type Response = Response;
    type Error = Infallible;
    type Future = ServiceFuture<Body>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Body>) -> ServiceFuture<Body> {
        let run = match request.extensions_mut().remove::<Resume>() {
            Some(Resume {
                inner,
                routed,
                depth,
                share,
            }) => {
                let (parts, body) = request.into_parts();
                proceed(&inner, parts, (body, share.as_ref()), routed, depth)
            }
            None => Run::ready(lost_routing(self.0.as_ref())),
        };
        ServiceFuture(ResponseFuture::new(run, None, false))
    }
}

#[cold]
fn lost_routing(internal: Option<&InternalAnswer>) -> Response {
    tracing::error!("a layer passed on a request without its routing information; answering 500");
    internal_answer(internal)
}
