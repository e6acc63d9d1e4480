//! The compiled app: the data the per-request path runs on, built once by `App::build` and
//! shared by every connection (see the flow in `mod.rs`).
//!
//! Rules enforced here: everything a request needs of the app is computed before the first
//! request; a route's own layer stack (its groups' layers, composed for it) and its groups'
//! dependencies are data of its [`Target`], `None` and an empty slice for a route whose groups
//! have none, so the request path tests them instead of taking another path; the
//! [`MatchedRoute`] extension of each route is made once, here.

use std::sync::Arc;

use bytes::Bytes;

use super::{Endpoint, LayerFn};
use crate::budget::MemoryBudget;
use crate::config::Config;
use crate::extract::{DependencyFn, Shared};
use crate::metrics::HttpMetrics;
use crate::openapi::DocsRoutes;
use crate::routing::{RouteDef, RouteInfo, Router, VersionRouter};
use crate::trace::Tracer;
use crate::versions::VersionSet;

/// Everything a request needs of the app, built once by `App::build` and shared by every
/// connection: the data the pipeline runs on, which every file of this folder reads.
pub(crate) struct Compiled {
    /// The routes, by declaration index (the router's answer).
    pub(crate) targets: Vec<Target>,
    pub(crate) router: Router,
    /// The user's state, the app's error answers and its background tasks' tracker.
    pub(crate) shared: Shared,
    pub(crate) config: Config,
    pub(crate) openapi_json: Bytes,
    /// Each version's document (date, bytes), oldest first; empty without versions.
    pub(crate) version_documents: Vec<(&'static str, Bytes)>,
    pub(crate) docs: DocsRoutes,
    pub(crate) route_table: Vec<RouteInfo>,
    /// The request metrics, when the app has them.
    pub(crate) metrics: Option<HttpMetrics>,
    /// The app's tracing, when it traces (`App::tracing`).
    pub(crate) tracer: Option<Tracer>,
    /// Requests are observed even with the access line off: the app has request ids, metrics or
    /// tracing.
    pub(crate) observe: bool,
    /// What clients can make the process hold (`Config::memory_budget`), when it has a budget.
    pub(crate) budget: Option<Arc<MemoryBudget>>,
    /// The app's API versions, when it has them (`App::versions`).
    pub(crate) versions: Option<Arc<VersionSet>>,
    /// In an app with versions, each version's router (by the version's index); empty without.
    pub(crate) routers: Box<[VersionRouter]>,
}

/// One route as the pipeline runs it: what its attribute generated, and what its groups add per
/// request.
pub(crate) struct Target {
    pub(crate) def: RouteDef,
    /// The [`MatchedRoute`] extension layers see, and the template observation reports.
    pub(crate) matched: MatchedRoute,
    /// The route's groups' layers, the innermost group's first (the first one innermost), until
    /// its stack is built with the app (`innermost.rs`); empty after.
    pub(crate) layers: Box<[LayerFn]>,
    /// The route inside its groups' layers, ending in the route itself (`innermost.rs`); `None`
    /// for most routes.
    pub(crate) stack: Option<Endpoint>,
    /// The dependencies of the route's groups, outermost group first, handed to the handler.
    /// Empty for most routes.
    pub(crate) dependencies: Box<[DependencyFn]>,
}

impl Target {
    /// The route of `def`, whose layers see `matched`, inside its groups' `layers` (the innermost
    /// group's first) and given their `dependencies` (the outermost group's first).
    pub(crate) fn new(
        def: RouteDef,
        matched: MatchedRoute,
        layers: Box<[LayerFn]>,
        dependencies: Box<[DependencyFn]>,
    ) -> Self {
        Target {
            def,
            matched,
            layers,
            stack: None,
            dependencies,
        }
    }
}

/// The route a request matched, as a request extension: what a layer (metrics, access control,
/// tracing) can read of it with `request.extensions().get::<MatchedRoute>()`. Set only for
/// requests that matched a route, and only for the layers (an app's or a group's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedRoute {
    path: Arc<str>,
    name: &'static str,
}

impl MatchedRoute {
    pub(crate) fn new(path: String, name: &'static str) -> Self {
        MatchedRoute {
            path: path.into(),
            name,
        }
    }

    /// The route's path template, as in the OpenAPI document (`/item/{id}`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The route's function name.
    pub fn name(&self) -> &'static str {
        self.name
    }
}
