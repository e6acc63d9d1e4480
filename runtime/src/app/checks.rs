//! The checks of an app's build: every mistake found before anything is compiled, each with
//! where its culprit was declared (see `build_error.rs` for their order and how they show).
//!
//! Rules enforced here: a check goes on past a mistake, so one build names them all; a route
//! under a malformed group prefix is reported by its group alone (its full path cannot parse
//! either, and saying so again for each route would bury the cause); a route's own arguments
//! report their first unmet need (`Arg::check`), each group dependency of the route its own.

use super::{App, Declared, Mistake, MistakeKind};
use crate::group::Mounted;
use crate::openapi::url_mistakes;
use crate::routing::{RouteTable, RouterErrorKind, TableError, TableErrorKind};
use crate::validate::SchemaRegistry;

impl App {
    /// The routes compiled by their full paths, or every mistake of the group prefixes and the
    /// routes' paths (a route under a malformed prefix is reported by its group alone).
    pub(super) fn table(&self) -> Result<RouteTable, Vec<Mistake>> {
        let mut mistakes: Vec<Mistake> = self
            .refused
            .iter()
            .map(|refused| {
                Mistake::new(
                    MistakeKind::GroupPrefix {
                        problems: refused.problems.clone(),
                    },
                    Declared::Group {
                        prefix: refused.prefix,
                        added_at: refused.added_at,
                    },
                )
            })
            .collect();
        let compiled = RouteTable::compile(self.routes.iter().map(|route| {
            // The route's own operation, built into a scratch registry, says whether its
            // arguments include a WebSocket upgrade (build time only).
            let websocket = (route.def.operation)(&mut SchemaRegistry::new()).is_websocket();
            (route.def.name, &route.def.method, route.path.as_str(), websocket)
        }));
        match compiled {
            Ok(table) if mistakes.is_empty() => Ok(table),
            Ok(_) => Err(mistakes),
            Err(errors) => {
                mistakes.extend(errors.into_iter().filter_map(|error| self.table_mistake(error)));
                Err(mistakes)
            }
        }
    }

    /// A route the table cannot hold, as a mistake; `None` for a path that does not parse
    /// because its group's prefix is malformed (the group is the mistake).
    fn table_mistake(&self, error: TableError) -> Option<Mistake> {
        let route = self.routes.get(error.route)?;
        let kind = match error.kind {
            TableErrorKind::Template(_) if route.inherited.as_ref().is_some_and(|i| i.prefix_refused) => {
                return None
            }
            TableErrorKind::Template(problem) => MistakeKind::Template { problem },
            TableErrorKind::Router(RouterErrorKind::TooManyParams { max }) => {
                MistakeKind::TooManyPathParams { max }
            }
            TableErrorKind::Router(RouterErrorKind::Conflict(problem)) => {
                MistakeKind::RouteConflict { problem }
            }
        };
        Some(Mistake::new(kind, declared(route)))
    }

    /// Every route's state and its groups' dependencies' states, checked against the app's: one
    /// mistake per route and per group dependency of a route whose needs are not met.
    pub(super) fn check(&self, mistakes: &mut Vec<Mistake>) {
        for route in &self.routes {
            if let Err(problem) = (route.def.check)(&self.state) {
                mistakes.push(Mistake::new(
                    MistakeKind::MissingState { problem },
                    declared(route),
                ));
            }
            for dependency in route
                .inherited
                .iter()
                .flat_map(|inherited| &inherited.dependencies)
            {
                if let Err(problem) = (dependency.check)(&self.state) {
                    let kind = MistakeKind::GroupDependencyState {
                        dependency: dependency.name(),
                        problem,
                    };
                    mistakes.push(Mistake::new(kind, declared(route)));
                }
            }
        }
    }
    /// The URLs of the document and the docs pages, checked before the document is made.
    pub(super) fn check_docs_urls(&self, mistakes: &mut Vec<Mistake>) {
        mistakes.extend(url_mistakes(&self.config).into_iter().map(|(setting, problem)| {
            Mistake::new(MistakeKind::DocsUrl { problem }, Declared::App { setting })
        }));
    }
}

/// Where `route` was declared, for its mistakes.
pub(super) fn declared(route: &Mounted) -> Declared {
    Declared::Route {
        method: route.def.method.clone(),
        path: route.path.clone(),
        name: route.def.name,
        added_at: route.added_at,
    }
}
