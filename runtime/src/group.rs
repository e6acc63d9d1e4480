//! Route groups: routes that share a path prefix, tags, default `responses(..)`, dependencies and
//! layers, declared once (FastAPI's `APIRouter`), nested as deep as needed.
//!
//! Rules enforced here:
//! - a group is flattened into the app's route list where it is added: its routes (and its nested
//!   groups' routes) take their places in the app's declaration order, each under its full path
//!   (the prefixes, outermost first, then its own template), so the first-match rule, the shadow
//!   report, the route table and the OpenAPI document see full paths like any other;
//! - what groups state accumulates from the outermost group: tags, `responses(..)`, dependencies
//!   and layers (the outermost group's layers wrap the inner ones'); their ranges of API versions
//!   intersect, and a route's own range narrows theirs (it exists where both say);
//! - a deprecated group (`deprecated = true`, or `deprecated(since = "..", sunset = "..")`) marks
//!   every route of it, its nested groups' included, `deprecated: true` in the documents, as the
//!   route option of the same name does; with dates, its routes' answers carry `Deprecation` and
//!   `Sunset` (the route's notice layer, `app/deprecated.rs`): a route's own dates win over its
//!   groups', an inner group's over an outer one's;
//! - prefix, tags and responses cost nothing per request (they are applied when the app is
//!   built); a route's groups' dependencies and layer stacks are data of its dispatch target
//!   (`dispatch/proceed.rs`, and the route's handler), one slice-length test each for a route
//!   whose groups have none;
//! - a prefix is checked by `group!` at compile time (`ferrapi_template::check_prefix`), and again
//!   when the app is built.

use std::panic::Location;
use std::sync::Arc;

use bytes::Bytes;

use crate::dispatch::{Endpoint, LayerFn};
use crate::extract::DependencyFn;
use crate::response::{Body, BoxError};
use crate::routing::{Route, RouteDef};
use crate::versions::VersionRange;

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
    /// The API versions the group's routes exist in (`versions = ..`; every version unless set).
    versions: VersionRange,
    /// `deprecated = true` or `deprecated(..)`: every route's operation says `deprecated: true`.
    deprecated: bool,
    /// `deprecated(since = .., sunset = ..)`: the dates its routes' answers carry.
    deprecation: Option<Deprecation>,
}

/// The day a route or group was deprecated and, if known, its last day (`YYYY-MM-DD` each).
pub(crate) type Deprecation = (&'static str, Option<&'static str>);

/// What a group holds, in declaration order, each with where it was added (for the build's
/// mistakes).
enum Item {
    Route(RouteDef, &'static Location<'static>),
    Group(Group, &'static Location<'static>),
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
            .field("versions", &self.versions)
            .field("deprecated", &self.deprecated)
            .field("deprecation", &self.deprecation)
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
            versions: VersionRange::ALL,
            deprecated: false,
            deprecation: None,
        }
    }
}

impl Group {
    /// The group's own path prefix (without its enclosing groups').
    pub fn prefix(&self) -> &'static str {
        self.prefix
    }

    /// The group's routes (its nested groups' included) exist in the API versions from `from`
    /// until, not including, `until` (the group option `versions = "from".."until"` writes this
    /// call): a route of it exists in the versions of both its group's range and its own, which
    /// may only narrow the group's (a route's range reaching outside its group's does not build,
    /// [`MistakeKind::RouteVersions`](crate::build::MistakeKind::RouteVersions)).
    pub fn in_versions(mut self, from: Option<&'static str>, until: Option<&'static str>) -> Self {
        self.versions = VersionRange::new(from, until);
        self
    }

    /// Mark every route of the group (its nested groups' included) `deprecated: true` in the
    /// documents, as each route's option `deprecated = true` would (the group option
    /// `deprecated = true` writes this call). Its answers are unchanged: see
    /// [`deprecated_at`](Self::deprecated_at) for the headers.
    pub fn deprecated(mut self) -> Self {
        self.deprecated = true;
        self
    }

    /// The group deprecated since the day `since` (`YYYY-MM-DD`), served until `sunset` if given:
    /// every route of it (its nested groups' included) is as if it said
    /// [`RouteDef::deprecated_at`] itself — `deprecated: true` in the documents, `Deprecation`
    /// (RFC 9745) and `Sunset` (RFC 8594) on every answer. A route's own dates win over its
    /// group's, an inner group's over an outer one's. The group option
    /// `deprecated(since = "..", sunset = "..")` writes this call; a date that is not one does
    /// not build ([`MistakeKind::RouteVersions`](crate::build::MistakeKind::RouteVersions), at
    /// each of its routes).
    pub fn deprecated_at(mut self, since: &'static str, sunset: Option<&'static str>) -> Self {
        self.deprecated = true;
        self.deprecation = Some((since, sunset));
        self
    }

    /// Append routes, in declaration order; their paths are relative to the prefix.
    #[track_caller]
    pub fn routes(mut self, routes: impl IntoIterator<Item = RouteDef>) -> Self {
        let added_at = Location::caller();
        self.items
            .extend(routes.into_iter().map(|def| Item::Route(def, added_at)));
        self
    }

    /// Append one route.
    #[track_caller]
    pub fn route(mut self, route: impl Route) -> Self {
        self.items.push(Item::Route(route.def(), Location::caller()));
        self
    }

    /// Nest `group` here, in declaration order: its prefix follows this group's, and its routes
    /// get this group's tags, responses, dependencies and layers before their own.
    #[track_caller]
    pub fn group(mut self, group: Group) -> Self {
        self.items.push(Item::Group(group, Location::caller()));
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
        L::Service: tower::Service<hyper::Request<Body>, Response = hyper::Response<ResBody>>
            + Clone
            + Send
            + Sync
            + 'static,
        <L::Service as tower::Service<hyper::Request<Body>>>::Error: Into<BoxError>,
        <L::Service as tower::Service<hyper::Request<Body>>>::Future: Send + 'static,
        ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
        ResBody::Error: Into<BoxError>,
    {
        self.layers
            .push(Arc::new(move |endpoint: Endpoint| endpoint.layered(&layer)));
        self
    }

    /// Append the group's routes, flattened, to `out` under `parent` (what the enclosing
    /// groups state); a malformed prefix is recorded in `refused` (the group was added at
    /// `added_at`).
    pub(crate) fn flatten(
        self,
        parent: Option<&Inherited>,
        added_at: &'static Location<'static>,
        out: &mut Vec<Mounted>,
        refused: &mut Vec<RefusedPrefix>,
    ) {
        let checked = ferrapi_template::check_prefix(self.prefix);
        if let Err(err) = &checked {
            refused.push(RefusedPrefix {
                prefix: self.prefix,
                problems: err.problems().to_vec(),
                added_at,
            });
        }
        let mut inherited = Inherited::nest(
            parent,
            self.prefix,
            self.tags,
            self.responses,
            self.dependencies,
            self.layers,
        );
        inherited.versions = inherited.versions.intersect(&self.versions);
        inherited.deprecated |= self.deprecated;
        inherited.deprecation = self.deprecation.or(inherited.deprecation);
        inherited.prefix_refused |= checked.is_err();
        let inherited = Arc::new(inherited);
        for item in self.items {
            match item {
                Item::Route(mut def, added_at) => {
                    let path = ferrapi_template::join(&inherited.prefix, def.path);
                    // The route exists where both its groups' range and its own say; its own
                    // may only narrow theirs.
                    let groups = inherited.versions;
                    let outside = (!def.versions.is_all() && !groups.covers(&def.versions))
                        .then_some((groups, def.versions));
                    def.versions = groups.intersect(&def.versions);
                    // The route's own deprecation dates, or its groups' (the notice layer of
                    // `app/deprecated.rs` sends them, as for a route that says so).
                    def.deprecation = def.deprecation.or(inherited.deprecation);
                    out.push(Mounted {
                        def,
                        path,
                        inherited: Some(inherited.clone()),
                        added_at,
                        versions_outside: outside,
                    });
                }
                Item::Group(group, added_at) => group.flatten(Some(&inherited), added_at, out, refused),
            }
        }
    }
}

/// A group whose prefix is malformed (made without `group!`, which checks it at compile time),
/// refused when the app is built.
#[derive(Debug)]
pub(crate) struct RefusedPrefix {
    /// The group's own prefix.
    pub(crate) prefix: &'static str,
    /// What is wrong with it, one sentence each.
    pub(crate) problems: Vec<String>,
    /// Where the group was added to its app or enclosing group.
    pub(crate) added_at: &'static Location<'static>,
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
    /// This group's or an enclosing group's prefix is malformed: the group is reported, not
    /// each of its routes' full paths again.
    pub(crate) prefix_refused: bool,
    /// The API versions the groups' routes exist in: the groups' ranges, intersected.
    pub(crate) versions: VersionRange,
    /// This group or an enclosing one is deprecated: its routes' operations say so.
    pub(crate) deprecated: bool,
    /// The innermost deprecated group's dates, if one gives them.
    pub(crate) deprecation: Option<Deprecation>,
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
                prefix_refused: parent.prefix_refused,
                versions: parent.versions,
                deprecated: parent.deprecated,
                deprecation: parent.deprecation,
            },
            None => Inherited {
                prefix: prefix.to_owned(),
                tags: Vec::new(),
                responses: Vec::new(),
                dependencies: Vec::new(),
                layers: Vec::new(),
                prefix_refused: false,
                versions: VersionRange::ALL,
                deprecated: false,
                deprecation: None,
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
    /// Where the route was added to its app or group (`App::routes`, `Group::route`, ...).
    pub(crate) added_at: &'static Location<'static>,
    /// Its groups' range and its own, when its own reaches outside theirs (a mistake).
    pub(crate) versions_outside: Option<(VersionRange, VersionRange)>,
}

impl Mounted {
    /// A route outside any group, added at `added_at`.
    pub(crate) fn plain(def: RouteDef, added_at: &'static Location<'static>) -> Self {
        Mounted {
            path: def.path.to_owned(),
            def,
            inherited: None,
            added_at,
            versions_outside: None,
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
