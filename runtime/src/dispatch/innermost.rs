//! The services at the bottom of the layer stacks, and the one place stacks are built
//! ([`stacks`]): the app's stack ends in [`AppRoutes`], which routes the request it is given; a
//! route's stack (its groups' layers, composed for that route when the app is built, as axum's
//! `route_layer`) ends in [`RouteOnly`], which runs that route. Both are an [`Innermost`] service.
//!
//! Rules enforced here:
//! - an innermost service goes by the request it is given and by what it was built with, never
//!   by routing carried down the stack: a layer that makes a new request from the parts and a new
//!   body still reaches the route, with its path parameters (read again from the request's path);
//! - a route's stack is its own: a stateful layer on a group (a concurrency limit) holds one
//!   state per route of the group; to share one across the group, share it in the layer
//!   (`tower::limit::GlobalConcurrencyLimitLayer`);
//! - a group's layers wrap its routes only, inside the app's layers, the outermost group's
//!   outermost; the app's wrap every request, also the answers that are not routes' (404, 405,
//!   the OpenAPI document, the docs pages and the metrics);
//! - a layer that rewrites the request's path before the app's innermost service changes which
//!   route answers (it routes what it is given); under a route's own stack, a path the route
//!   does not match any more is answered 404 (its parameters cannot be read from it).

use std::convert::Infallible;
use std::sync::{Arc, Weak};
use std::task::{Context, Poll};

use hyper::http::request::Parts;
use hyper::Request;

use super::proceed::onward;
use super::response_future::ResponseFuture;
use super::routed::{route, Routed};
use super::run::{run, Run};
use super::{Compiled, Endpoint, LayerFn, Received, ServiceFuture};
use crate::body::{Handed, HandedOwned, Unhanded};
use crate::response::{internal_answer, Body, InternalAnswer, Response};
use crate::trace::TraceIds;

/// Build the stacks of `compiled`: each route's (its groups' layers, `Target::layers`) and the
/// app's (`app_layers`); the compiled app, and the app's stack when it has layers.
pub(crate) fn stacks(mut compiled: Compiled, app_layers: &[LayerFn]) -> (Arc<Compiled>, Option<Endpoint>) {
    let internal = compiled.shared.answers.internal.clone();
    // A route's innermost service holds the app weakly: the app holds the route's stack.
    let inner = Arc::new_cyclic(|app: &Weak<Compiled>| {
        for (index, target) in compiled.targets.iter_mut().enumerate() {
            let layers = std::mem::take(&mut target.layers);
            if !layers.is_empty() {
                let innermost = Innermost(RouteOnly {
                    app: app.clone(),
                    index,
                    internal: internal.clone(),
                });
                target.stack = Some(fold(&layers, innermost, internal.as_ref()));
            }
        }
        compiled
    });
    let app_stack = (!app_layers.is_empty())
        .then(|| fold(app_layers, Innermost(AppRoutes(inner.clone())), internal.as_ref()));
    (inner, app_stack)
}

/// `layers` folded over `innermost`, the first one innermost (the last added sees the request
/// first); `internal` is the app's 500, for a layer's error.
fn fold<S>(layers: &[LayerFn], innermost: S, internal: Option<&InternalAnswer>) -> Endpoint
where
    S: tower::Service<Request<Body>, Response = Response, Error = Infallible> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
{
    layers
        .iter()
        .fold(Endpoint::new(innermost, internal.cloned()), |endpoint, layer| {
            layer(endpoint)
        })
}

/// What the bottom of a stack makes of the request it is given: the answer, or its way there.
trait Bottom: Clone + Send + Sync + 'static {
    /// The answer to the request of `parts` and `body`, or the way to it.
    fn answer(&self, parts: Parts, body: Received<'_, Unhanded<Body>>) -> Run<Unhanded<Body>>;
}

/// A [`Bottom`] as the `tower::Service` the layers wrap: what the server handed over with the
/// body travels as a private extension, when there is any (`body/handed.rs`).
#[derive(Clone)]
struct Innermost<T>(T);

impl<T: Bottom> tower::Service<Request<Body>> for Innermost<T> {
    type Response = Response;
    type Error = Infallible;
    type Future = ServiceFuture<Body>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Body>) -> ServiceFuture<Body> {
        let (mut parts, body) = request.into_parts();
        let owned = parts.extensions.remove::<HandedOwned>();
        let handed = owned.as_ref().map_or_else(Handed::default, HandedOwned::borrow);
        let run = self.0.answer(parts, (Unhanded(body), handed));
        ServiceFuture(ResponseFuture::new(run, None, false, None))
    }
}

/// The bottom of the app's stack: routes the request it is given, and carries it on to its
/// route (down the route's own stack, when its groups have layers) or answers it.
#[derive(Clone)]
struct AppRoutes(Arc<Compiled>);

impl Bottom for AppRoutes {
    fn answer(&self, mut parts: Parts, body: Received<'_, Unhanded<Body>>) -> Run<Unhanded<Body>> {
        let routed = route(&self.0, &parts, &mut ());
        let trace = parts.extensions.get::<TraceIds>().copied();
        onward(&self.0, &mut parts, body, routed, trace.as_ref())
    }
}

/// The bottom of a route's stack: runs route `index` of the app on the request it is given, its
/// path parameters read from its path.
#[derive(Clone)]
struct RouteOnly {
    app: Weak<Compiled>,
    index: usize,
    /// The app's 500, for a request that outlived its app.
    internal: Option<InternalAnswer>,
}

impl Bottom for RouteOnly {
    fn answer(&self, mut parts: Parts, body: Received<'_, Unhanded<Body>>) -> Run<Unhanded<Body>> {
        let Some(app) = self.app.upgrade() else {
            return Run::ready(internal_answer(self.internal.as_ref()));
        };
        // Routed again, as the app's bottom does: the version too is the request's own.
        let found = match route(&app, &parts, &mut ()) {
            Routed::Route {
                index,
                params,
                version,
            } if index == self.index => Some((params, version)),
            _ => None,
        };
        match (found, app.targets.get(self.index)) {
            (Some((params, version)), Some(target)) => {
                let trace = parts.extensions.get::<TraceIds>().copied();
                run(
                    &app,
                    self.index,
                    target,
                    &mut parts,
                    body,
                    (params, version, trace.as_ref()),
                )
            }
            _ => Run::ready(moved_off(&app, &parts)),
        }
    }
}

/// The answer to a request a layer moved off its route (a path or method the route does not
/// match any more): 404, the app's.
#[cold]
fn moved_off(app: &Compiled, parts: &Parts) -> Response {
    tracing::debug!(
        path = parts.uri.path(),
        "a group's layer moved the request off its route; answering 404"
    );
    app.shared.answers.not_found(parts)
}
