//! Where a request goes: the one routing function, and the answers of the places that are not
//! routes.
//!
//! Rules enforced here:
//! - the metrics endpoint (`App::metrics`) first, then the docs pages and the OpenAPI document,
//!   then the router (declaration order; a route, else 404, else 405 with `Allow`);
//! - a request is routed once, before any layer runs, so a layer sees which route answers (the
//!   [`MatchedRoute`](super::MatchedRoute) extension) and the route is never looked up again;
//! - the places that are not routes are answered after the layers, so a CORS or compression
//!   layer applies to them too.

use hyper::header::HeaderValue;
use hyper::http::request::Parts;

use super::observe::Hook;
use super::Compiled;
use crate::extract::PathParams;
use crate::metrics::RouteKey;
use crate::response::Response;
use crate::routing::Lookup;

/// What routing found for a request.
#[derive(Debug, Clone)]
pub(crate) enum Routed {
    /// Route `index` (declaration order) answers; `params` are its parameters' byte ranges.
    Route {
        index: usize,
        params: PathParams,
    },
    /// A docs page or the OpenAPI document (or their 405).
    Docs,
    /// The metrics endpoint.
    Metrics,
    NotFound,
    /// The path exists for the methods of `Allow`.
    MethodNotAllowed(HeaderValue),
}

/// Route the request of `parts`, telling `hook` (the observer, or nothing) where it went.
#[inline(always)]
pub(super) fn route<H: Hook>(inner: &Compiled, parts: &Parts, hook: &mut H) -> Routed {
    let path = parts.uri.path();
    if inner.metrics.as_ref().is_some_and(|metrics| metrics.owns(path)) {
        hook.routed(RouteKey::Endpoint);
        return Routed::Metrics;
    }
    if inner.docs.owns(path) {
        hook.docs(path);
        return Routed::Docs;
    }
    match inner.router.lookup(&parts.method, path) {
        Lookup::Found { route, params } => {
            hook.routed(RouteKey::Route(route));
            Routed::Route { index: route, params }
        }
        Lookup::NotFound => {
            hook.routed(RouteKey::Unmatched);
            Routed::NotFound
        }
        Lookup::MethodNotAllowed(allow) => {
            hook.routed(RouteKey::Unmatched);
            Routed::MethodNotAllowed(allow)
        }
    }
}

/// The answer of a place that is not a route (see [`Routed`]); a route is a 404 here (only the
/// caller's mistake would bring one).
#[cold]
pub(super) fn respond_unrouted(inner: &Compiled, parts: &Parts, routed: Routed) -> Response {
    let answers = &inner.shared.answers;
    match routed {
        Routed::Docs => inner
            .docs
            .respond(&parts.method, parts.uri.path())
            .unwrap_or_else(|| answers.not_found(parts)),
        Routed::Metrics => match &inner.metrics {
            Some(metrics) => metrics.respond(&parts.headers),
            None => answers.not_found(parts),
        },
        Routed::MethodNotAllowed(allow) => answers.method_not_allowed(parts, allow),
        Routed::NotFound | Routed::Route { .. } => answers.not_found(parts),
    }
}
