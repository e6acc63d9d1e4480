//! Route groups: routes that share a path prefix, tags, default `responses(..)`, dependencies and
//! layers, declared once (FastAPI's `APIRouter`), nested as deep as needed.
//!
//! Rules enforced here:
//! - a group is flattened into the app's route list where it is added: its routes (and its nested
//!   groups' routes) take their places in the app's declaration order, each under its full path
//!   (the prefixes, outermost first, then its own template), so the first-match rule, the shadow
//!   report, the route table and the OpenAPI document see full paths like any other;
//! - what groups state accumulates from the outermost group: tags, `responses(..)`, dependencies
//!   and layers (the outermost group's layers wrap the inner ones');
//! - prefix, tags and responses cost nothing per request (they are applied when the app is
//!   built); a route's groups' dependencies and layer stacks are data of its dispatch target
//!   (`dispatch/proceed.rs`, and the route's handler), one slice-length test each for a route
//!   whose groups have none;
//! - a prefix is checked by `group!` at compile time (`ferrapi_template::check_prefix`), and again
//!   when the app is built.

use std::sync::Arc;

use bytes::Bytes;

use crate::dispatch::{Endpoint, LayerFn};
use crate::extract::DependencyFn;
use crate::response::BoxError;
use crate::routing::{Route, RouteDef};

/// A group of routes sharing a path prefix, tags, default responses, dependencies and layers:
/// made by [`group!`](crate::group), filled with [`Group::routes`], [`Group::group`] (nesting)
/// and [`Group::layer`], and added to an app with [`App::group`](crate::App::group). See the
/// manual's [Route groups](crate#route-groups).
pub struct Group {
    prefix: &'static str,
    tags: Vec<&'static str>,
    responses: Vec<(u16, &'static str)>,
    dependencies: Vec<DependencyFn>,
    layers: Vec<LayerFn>,
    items: Vec<Item>,
}

/// What a group holds, in declaration order.
enum Item {
    Route(RouteDef),
    Group(Group),
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("prefix", &self.prefix)
            .field("tags", &self.tags)
            .field("responses", &self.responses)
            .field("dependencies", &self.dependencies)
            .field("layers", &self.layers.len())
            .field("items", &self.items.len())
            .finish()
    }
}

/// What `group!` generates for one group; a [`Group`] is made from it.
#[doc(hidden)]
pub struct GroupParts {
    /// The path prefix, checked by the macro.
    pub prefix: &'static str,
    /// `tags("a", "b")`.
    pub tags: &'static [&'static str],
    /// `responses(503 = "..")`.
    pub responses: Vec<(u16, &'static str)>,
    /// `dependencies(CurrentUser)`.
    pub dependencies: Vec<DependencyFn>,
}

impl From<GroupParts> for Group {
    fn from(parts: GroupParts) -> Self {
        Group {
            prefix: parts.prefix,
            tags: parts.tags.to_vec(),
            responses: parts.responses,
            dependencies: parts.dependencies,
            layers: Vec::new(),
            items: Vec::new(),
        }
    }
}

impl Group {
    /// The group's own path prefix (without its enclosing groups').
    pub fn prefix(&self) -> &'static str {
        self.prefix
    }

    /// Append routes, in declaration order; their paths are relative to the prefix.
    pub fn routes(mut self, routes: impl IntoIterator<Item = RouteDef>) -> Self {
        self.items.extend(routes.into_iter().map(Item::Route));
        self
    }

    /// Append one route.
    pub fn route(mut self, route: impl Route) -> Self {
        self.items.push(Item::Route(route.def()));
        self
    }

    /// Nest `group` here, in declaration order: its prefix follows this group's, and its routes
    /// get this group's tags, responses, dependencies and layers before their own.
    pub fn group(mut self, group: Group) -> Self {
        self.items.push(Item::Group(group));
        self
    }

    /// Wrap the group's routes (its nested groups' included) in a `tower` layer, inside the
    /// app's layers (see [`App::layer`](crate::App::layer), whose rules it follows: a layer added
    /// later wraps the ones added before; its errors are answered). The layers see the
    /// [`MatchedRoute`](crate::layer::MatchedRoute) extension, with the route's full path. One
    /// instance of each layer serves all the group's routes. Routes outside the group do not go
    /// through it, nor pay for it.
    pub fn layer<L, ResBody>(mut self, layer: L) -> Self
    where
        L: tower::Layer<Endpoint> + Send + Sync + 'static,
        L::Service: tower::Service<hyper::Request<crate::Body>, Response = hyper::Response<ResBody>>
            + Clone
            + Send
            + Sync
            + 'static,
        <L::Service as tower::Service<hyper::Request<crate::Body>>>::Error: Into<BoxError>,
        <L::Service as tower::Service<hyper::Request<crate::Body>>>::Future: Send + 'static,
        ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
        ResBody::Error: Into<BoxError>,
    {
        self.layers
            .push(Arc::new(move |endpoint: Endpoint| endpoint.layered(&layer)));
        self
    }

    /// Append the group's routes, flattened, to `out` under `parent` (what the enclosing
    /// groups state); a malformed prefix is recorded in `problems`.
    pub(crate) fn flatten(
        self,
        parent: Option<&Inherited>,
        out: &mut Vec<Mounted>,
        problems: &mut Vec<String>,
    ) {
        if let Err(err) = ferrapi_template::check_prefix(self.prefix) {
            problems.push(format!("group `{}`: {}", self.prefix, err.problems().join("; ")));
        }
        let inherited = Arc::new(Inherited::nest(
            parent,
            self.prefix,
            self.tags,
            self.responses,
            self.dependencies,
            self.layers,
        ));
        for item in self.items {
            match item {
                Item::Route(def) => {
                    let path = ferrapi_template::join(&inherited.prefix, def.path);
                    out.push(Mounted {
                        def,
                        path,
                        inherited: Some(inherited.clone()),
                    });
                }
                Item::Group(group) => group.flatten(Some(&inherited), out, problems),
            }
        }
    }
}

/// What a route's groups state, accumulated from the outermost group.
pub(crate) struct Inherited {
    /// The groups' prefixes joined.
    pub(crate) prefix: String,
    /// Tags, outermost group first.
    pub(crate) tags: Vec<&'static str>,
    /// Default responses, outermost group first.
    pub(crate) responses: Vec<(u16, &'static str)>,
    /// Dependencies, outermost group first.
    pub(crate) dependencies: Vec<DependencyFn>,
    /// The layers of each group that has some, outermost first; one `Arc` per group, shared by
    /// its routes and nested groups (the dispatcher composes them into each route's own stack).
    pub(crate) layers: Vec<Arc<[LayerFn]>>,
}

impl Inherited {
    fn nest(
        parent: Option<&Inherited>,
        prefix: &'static str,
        tags: Vec<&'static str>,
        responses: Vec<(u16, &'static str)>,
        dependencies: Vec<DependencyFn>,
        layers: Vec<LayerFn>,
    ) -> Self {
        let mut inherited = match parent {
            Some(parent) => Inherited {
                prefix: format!("{}{prefix}", parent.prefix),
                tags: parent.tags.clone(),
                responses: parent.responses.clone(),
                dependencies: parent.dependencies.clone(),
                layers: parent.layers.clone(),
            },
            None => Inherited {
                prefix: prefix.to_owned(),
                tags: Vec::new(),
                responses: Vec::new(),
                dependencies: Vec::new(),
                layers: Vec::new(),
            },
        };
        inherited.tags.extend(tags);
        inherited.responses.extend(responses);
        inherited.dependencies.extend(dependencies);
        if !layers.is_empty() {
            inherited.layers.push(layers.into());
        }
        inherited
    }
}

/// A route as the app serves it: its definition, its full path and what its groups state (`None`
/// outside any group).
pub(crate) struct Mounted {
    pub(crate) def: RouteDef,
    pub(crate) path: String,
    pub(crate) inherited: Option<Arc<Inherited>>,
}

impl Mounted {
    /// A route outside any group.
    pub(crate) fn plain(def: RouteDef) -> Self {
        Mounted {
            path: def.path.to_owned(),
            def,
            inherited: None,
        }
    }
}

impl std::fmt::Debug for Mounted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Route")
            .field("name", &self.def.name)
            .field("method", &self.def.method)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}
