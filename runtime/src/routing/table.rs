//! The route table: every declared route compiled once into its template and the router, and the
//! rows that show it (the table logged at start-up and returned by `App::route_table`).
//!
//! Rules enforced here: routes are compiled by their full paths (a group's prefix included), so
//! the first-match rule and the shadow report apply across groups as to any routes; a template
//! that does not parse, or a route the router cannot hold, stops the build, every such route
//! reported by its declaration index; a shadowed route's row names the route that wins and its path; a
//! WebSocket route's row is marked (known from its operation's `x-websocket` extension, read at
//! build time, so serving pays nothing for it).

use ferrapi_template::Template;
use hyper::Method;

use super::router::{RouteStatus, Router, RouterErrorKind};

/// A row of the route table shown at start-up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouteInfo {
    /// The method.
    pub method: Method,
    /// The path in `{name}` form.
    pub path: String,
    /// The handler function's name.
    pub name: &'static str,
    /// `None` when served; the winning route's name and path when shadowed.
    pub shadowed_by: Option<(&'static str, String)>,
    /// `true` for a WebSocket route (one that takes a `WebSocketUpgrade`).
    pub websocket: bool,
}

impl std::fmt::Display for RouteInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:<7} {:<40} {}", self.method.as_str(), self.path, self.name)?;
        if self.websocket {
            f.write_str("  [websocket]")?;
        }
        if let Some((name, path)) = &self.shadowed_by {
            write!(f, "  [shadowed by {name} ({path})]")?;
        }
        Ok(())
    }
}

/// The declared routes compiled for lookups, with each route's parsed template (by declaration
/// index).
#[derive(Debug)]
pub(crate) struct RouteTable {
    pub(crate) router: Router,
    pub(crate) templates: Vec<Template>,
    /// Each route's method and name, by declaration index.
    keys: Vec<(Method, &'static str)>,
    /// Whether each route is a WebSocket route, by declaration index.
    websocket: Vec<bool>,
}

/// A route the table cannot hold: its declaration index and why.
#[derive(Debug)]
pub(crate) struct TableError {
    pub(crate) route: usize,
    pub(crate) kind: TableErrorKind,
}

/// Why the table cannot hold a route.
#[derive(Debug)]
pub(crate) enum TableErrorKind {
    /// Its full path is not a template (the parser's message).
    Template(String),
    /// The router cannot hold it.
    Router(RouterErrorKind),
}

impl RouteTable {
    /// Parse every route's full path template (`(name, method, path, websocket)` in declaration
    /// order) and compile the router; every route that cannot be held is reported, in
    /// declaration order (the router is compiled of the routes whose templates parse, so one
    /// build reports both kinds).
    pub(crate) fn compile<'r>(
        routes: impl IntoIterator<Item = (&'static str, &'r Method, &'r str, bool)>,
    ) -> Result<Self, Vec<TableError>> {
        let mut templates = Vec::new();
        let mut keyed = Vec::new();
        let mut keys = Vec::new();
        let mut websocket = Vec::new();
        let mut errors = Vec::new();
        // The declaration index of each route given to the router.
        let mut routed = Vec::new();
        for (index, (name, method, path, is_websocket)) in routes.into_iter().enumerate() {
            match Template::parse(path) {
                Ok(template) => {
                    keyed.push((method.clone(), template.clone()));
                    routed.push(index);
                    templates.push(template);
                }
                Err(e) => errors.push(TableError {
                    route: index,
                    kind: TableErrorKind::Template(e.to_string()),
                }),
            }
            keys.push((method.clone(), name));
            websocket.push(is_websocket);
        }
        let router = Router::new(&keyed).map_err(|refused| {
            refused.into_iter().map(|error| TableError {
                route: routed.get(error.route).copied().unwrap_or(error.route),
                kind: TableErrorKind::Router(error.kind),
            })
        });
        let router = match router {
            Ok(router) if errors.is_empty() => router,
            Ok(_) => return Err(errors),
            Err(refused) => {
                errors.extend(refused);
                errors.sort_by_key(|error| error.route);
                return Err(errors);
            }
        };
        Ok(RouteTable {
            router,
            templates,
            keys,
            websocket,
        })
    }

    /// One row per declared route, in declaration order, shadowed ones marked.
    pub(crate) fn rows(&self) -> Vec<RouteInfo> {
        let name_and_path = |index: usize| {
            let name = self.keys.get(index).map_or("?", |(_, name)| *name);
            let path = self
                .templates
                .get(index)
                .map(Template::openapi_path)
                .unwrap_or_default();
            (name, path)
        };
        self.keys
            .iter()
            .zip(self.router.statuses())
            .zip(&self.templates)
            .zip(&self.websocket)
            .map(|((((method, name), status), template), websocket)| RouteInfo {
                method: method.clone(),
                path: template.openapi_path(),
                name,
                shadowed_by: match status {
                    RouteStatus::Served => None,
                    RouteStatus::Shadowed { by } => Some(name_and_path(*by)),
                },
                websocket: *websocket,
            })
            .collect()
    }
}
