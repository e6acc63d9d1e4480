//! The route table: every declared route compiled once into its template and the router, and the
//! rows that show it (the table logged at start-up and returned by `App::route_table`).
//!
//! Rules enforced here: a template that does not parse, or a table the router cannot compile,
//! stops the build with the route's name in the message; a shadowed route's row names the route
//! that wins and its path.

use ferrapi_template::Template;
use hyper::Method;

use super::route::RouteDef;
use super::router::{RouteStatus, Router};

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
}

impl std::fmt::Display for RouteInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:<7} {:<40} {}", self.method.as_str(), self.path, self.name)?;
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
}

impl RouteTable {
    /// Parse every route's template and compile the router; the message names the culprit.
    pub(crate) fn compile(routes: &[RouteDef]) -> Result<Self, String> {
        let mut templates = Vec::with_capacity(routes.len());
        let mut keyed = Vec::with_capacity(routes.len());
        for def in routes {
            let template = Template::parse(def.path).map_err(|e| format!("route `{}`: {e}", def.name))?;
            keyed.push((def.method.clone(), template.clone()));
            templates.push(template);
        }
        let router = Router::new(&keyed).map_err(|e| e.to_string())?;
        Ok(RouteTable { router, templates })
    }

    /// One row per declared route, in declaration order, shadowed ones marked.
    pub(crate) fn rows(&self, routes: &[RouteDef]) -> Vec<RouteInfo> {
        let name_and_path = |index: usize| {
            let name = routes.get(index).map_or("?", |def| def.name);
            let path = self
                .templates
                .get(index)
                .map(Template::openapi_path)
                .unwrap_or_default();
            (name, path)
        };
        routes
            .iter()
            .zip(self.router.statuses())
            .zip(&self.templates)
            .map(|((def, status), template)| RouteInfo {
                method: def.method.clone(),
                path: template.openapi_path(),
                name: def.name,
                shadowed_by: match status {
                    RouteStatus::Served => None,
                    RouteStatus::Shadowed { by } => Some(name_and_path(*by)),
                },
            })
            .collect()
    }
}
