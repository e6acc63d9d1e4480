//! Carrying a routed request on to its route ([`onward`]): straight there for a route whose
//! groups have no layers, else down the route's own stack ([`through`]); and down the app's
//! stack, which wraps every request. The stacks' innermost services are in `innermost.rs`.
//!
//! Rules enforced here:
//! - an app without layers and a route whose groups have none never come here but for one test
//!   each (the app's stack and a route's are `Option`s);
//! - the request is routed before any stack, so a layer sees which route answers: the
//!   [`MatchedRoute`] request extension (its full path template and name) is set for a request
//!   that matched a route;
//! - nothing of the routing travels down a stack: the request a stack's innermost service gets
//!   is all it goes by (a layer may have made a new one), so a layer that rebuilds the request
//!   still reaches the route, and nothing comes back into this function from a stack;
//! - what the server handed over with the body (its connection's share, where it hears back:
//!   `body/handed.rs`) goes down a stack as one private extension; a layer that drops it costs
//!   the body those, never its answer.

use std::sync::Arc;

use bytes::Bytes;
use hyper::http::request::Parts;
use hyper::Request;
use tower::ServiceExt;

use super::routed::{respond_unrouted, Routed};
use super::run::{run, take_parts, Run};
use super::{Compiled, Endpoint, Received, Target};
use crate::body::{HandedOwned, Look};
use crate::response::{internal_error, Body, BoxError};
use crate::trace::TraceIds;

/// Past the app's layers (or without them): the route's stack, when its groups have layers, else
/// the route itself; or the answer of a place that is not a route.
#[inline(always)]
pub(super) fn onward<B>(
    inner: &Arc<Compiled>,
    parts: &mut Parts,
    body: Received<'_, B>,
    routed: Routed,
    trace: Option<&TraceIds>,
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    let Routed::Route {
        index,
        params,
        version,
    } = routed
    else {
        return Run::ready(respond_unrouted(inner, parts, routed));
    };
    let Some(target) = inner.targets.get(index) else {
        return Run::ready(internal_error());
    };
    match &target.stack {
        None => run(inner, index, target, parts, body, (params, version, trace)),
        Some(stack) => through(stack, inner, take_parts(parts), body, (Some(target), trace)),
    }
}

/// Send the request down `stack` (the app's, or `target`'s own), with the route's
/// [`MatchedRoute`](super::MatchedRoute) extension when it matched one, and its trace context
/// (a [`TraceIds`] extension) when the app traces: the bottom of the stack reads it there.
// Not inlined into the path of routes without layers.
#[inline(never)]
pub(super) fn through<B>(
    stack: &Endpoint,
    inner: &Compiled,
    mut parts: Parts,
    (body, handed): Received<'_, B>,
    (target, trace): (Option<&Target>, Option<&TraceIds>),
) -> Run<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let mut route = "-";
    if let Some(target) = target {
        route = target.def.name;
        // Set by the app's stack already, unless a layer removed it.
        if parts.extensions.get::<super::MatchedRoute>().is_none() {
            parts.extensions.insert(target.matched.clone());
        }
    }
    if let Some(handed) = HandedOwned::of(handed) {
        parts.extensions.insert(handed);
    }
    if let Some(trace) = trace {
        parts.extensions.insert(*trace);
    }
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
        (None, None),
    )
}
