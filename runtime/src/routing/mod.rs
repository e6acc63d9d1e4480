//! Routing: the declared routes, compiled once into a router that answers in declaration order.
//!
//! This layer is built once, when the app is built, and consulted once per request (a lookup that
//! returns a route index and the byte ranges of its path parameters). Its files:
//!
//! - `handler`: the generic half of every generated handler (extract, validate, resolve the
//!   dependencies, call, in FastAPI's order), which the route macros call with what only the
//!   route knows;
//! - `route`: what a route is to the runtime ([`RouteDef`]: method, template, generated handlers,
//!   OpenAPI fragment builder), the contract between the route macros and the runtime;
//! - `router`: declaration-order matching on top of matchit, the shadow report, 404/405;
//! - `table`: templates parsed and the router compiled from the route list (full paths, group
//!   prefixes included), and the route table;
//! - `versioned`: in an app with API versions, one router per version, of the routes that exist
//!   in it.
//!
//! Rules enforced here: the first declared route that matches a request's method and path answers
//! it, whatever matchit's own preference for static segments; a route that an earlier one always
//! takes is reported as shadowed when the app is built; the path-template grammar is
//! `ferrapi-template`'s, the same the route macros check at compile time.

mod handler;
mod route;
mod router;
mod table;
mod versioned;

pub use handler::{start, Call};
pub(crate) use route::BoxFuture;
pub use route::{BodyMode, Handler, Route, RouteDef, RouteParts, Started};
pub(crate) use router::RouteStatus;
pub(crate) use router::RouterErrorKind;
pub use router::{Lookup, Router};
pub use table::RouteInfo;
pub(crate) use table::{RouteTable, TableError, TableErrorKind};
pub(crate) use versioned::VersionRouter;
