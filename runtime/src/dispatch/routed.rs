//! Where a request goes: the one routing function, and the answers of the places that are not
//! routes.
//!
//! Rules enforced here:
//! - the metrics endpoint (`App::metrics`) first, then the docs pages and the OpenAPI document,
//!   then, in an app with versions, the request's version (its header's, or its path prefix's
//!   where the app allows one: the router sees the path without it; one it does not serve is a 400 before
//!   any route is looked up; an app without versions pays one `Option` test), then the router
//!   (the version's own, in an app with versions; declaration order; a route, else 404, else
//!   405 with `Allow`);
//! - a request is routed once, before any layer runs, so a layer sees which route answers (the
//!   [`MatchedRoute`](super::MatchedRoute) extension) and the route is never looked up again;
//! - the places that are not routes are answered after the layers, so a CORS or compression
//!   layer applies to them too.

use hyper::header::HeaderValue;
use hyper::http::request::Parts;
use hyper::StatusCode;
use serde_json::Value;

use super::observe::Hook;
use super::Compiled;
use crate::extract::PathParams;
use crate::metrics::RouteKey;
use crate::response::{error_response, Response};
use crate::routing::Lookup;
use crate::versions::{routed_path, Chosen, VersionSet};

/// What routing found for a request.
#[derive(Debug, Clone)]
pub(crate) enum Routed {
    /// Route `index` (declaration order) answers at `version`; `params` are its parameters'
    /// byte ranges.
    Route {
        index: usize,
        params: PathParams,
        version: Chosen,
    },
    /// A docs page or the OpenAPI document (or their 405).
    Docs,
    /// The metrics endpoint.
    Metrics,
    /// No route of the request's version has the path (the version, to echo it).
    NotFound(Chosen),
    /// The path exists for the methods of `Allow` at the request's version.
    MethodNotAllowed(HeaderValue, Chosen),
    /// The request named a version the app does not serve.
    UnknownVersion,
}

impl Routed {
    /// The version the request is answered at (`Chosen::NONE` but for a route, a 404 or a 405:
    /// the docs, the metrics and a refused version are answered at none).
    #[inline(always)]
    pub(super) fn version(&self) -> Chosen {
        match self {
            Routed::Route { version, .. }
            | Routed::NotFound(version)
            | Routed::MethodNotAllowed(_, version) => *version,
            _ => Chosen::NONE,
        }
    }
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
    let (version, lookup) = match &inner.versions {
        None => (Chosen::NONE, inner.router.lookup(&parts.method, path)),
        Some(versions) => match versions.choose(&parts.headers, path) {
            Ok(chosen) => (chosen, lookup_at(inner, chosen, parts, path)),
            Err(_) => {
                hook.routed(RouteKey::Unmatched);
                return Routed::UnknownVersion;
            }
        },
    };
    match lookup {
        Lookup::Found { route, params } => {
            hook.routed(RouteKey::Route(route));
            Routed::Route {
                index: route,
                params,
                version,
            }
        }
        Lookup::NotFound => {
            hook.routed(RouteKey::Unmatched);
            Routed::NotFound(version)
        }
        Lookup::MethodNotAllowed(allow) => {
            hook.routed(RouteKey::Unmatched);
            Routed::MethodNotAllowed(allow, version)
        }
    }
}

/// The lookup of the request at version `chosen`, in that version's router. Inlined: called
/// out of line it cost a versioned request ≈ 40 instructions more (callgrind `GET /products/1` of
/// the versions example), and an app without versions no more than noise.
#[inline]
fn lookup_at(inner: &Compiled, chosen: Chosen, parts: &Parts, path: &str) -> Lookup {
    match inner.routers.get(usize::from(chosen.index)) {
        Some(router) => router.lookup(&parts.method, routed_path(path, chosen)),
        None => Lookup::NotFound,
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
        Routed::MethodNotAllowed(allow, _) => answers.method_not_allowed(parts, allow),
        Routed::UnknownVersion => match &inner.versions {
            Some(versions) => unknown_version(versions, parts),
            None => answers.not_found(parts),
        },
        Routed::NotFound(_) | Routed::Route { .. } => answers.not_found(parts),
    }
}

/// The 400 of a request naming a version the app does not serve (unknown, or retired): FastAPI's
/// `{"detail": …}` (problem details where the app answers with them), naming the header, the
/// value and every served version.
#[cold]
fn unknown_version(versions: &VersionSet, parts: &Parts) -> Response {
    let detail = versions.refusal(&parts.headers, parts.uri.path());
    error_response(StatusCode::BAD_REQUEST, &Value::String(detail))
}
