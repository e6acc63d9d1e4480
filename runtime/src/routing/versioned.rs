//! Routing per API version: one router per served version, compiled from the routes that exist
//! in it ([`VersionRouter`]).
//!
//! Rules enforced here: a version's router holds exactly the routes whose range holds the version,
//! in declaration order, so the first-match rule, 404, 405 (`Allow` lists the methods served *at
//! that version*) and the shadow report are each version's own; its answer is the route's
//! declaration index, the same in every version, so the rest of the path does not know versions.

use ferrapi_template::Template;
use hyper::Method;

use super::router::{Lookup, RouteStatus, Router, RouterError};

/// The router of one version, and the declaration index of each route it holds.
#[derive(Debug)]
pub(crate) struct VersionRouter {
    router: Router,
    /// Declaration index by the router's own index (the router answers declaration indexes;
    /// its statuses are by its own).
    routes: Box<[usize]>,
}

impl VersionRouter {
    /// The router of the routes `live` (declaration indexes, in order) of `all` (method and
    /// template, by declaration index).
    pub(crate) fn new(all: &[(Method, Template)], live: Vec<usize>) -> Result<Self, Vec<RouterError>> {
        let routes: Vec<(Method, Template)> =
            live.iter().filter_map(|&index| all.get(index).cloned()).collect();
        let router = Router::new(&routes).map_err(|errors| {
            errors
                .into_iter()
                .map(|error| RouterError {
                    route: live.get(error.route).copied().unwrap_or(error.route),
                    kind: error.kind,
                })
                .collect::<Vec<_>>()
        })?;
        Ok(VersionRouter {
            // Answering declaration indexes itself: a lookup maps nothing (a map of the router's
            // own index per request cost ≈ 15 instructions, callgrind `GET /products/1` of the
            // versions example).
            router: router.answering(&live),
            routes: live.into_boxed_slice(),
        })
    }

    /// The lookup of `method` and `path` at this version, its route by declaration index.
    #[inline]
    pub(crate) fn lookup(&self, method: &Method, path: &str) -> Lookup {
        self.router.lookup(method, path)
    }

    /// The status at this version of route `index` (declaration order): `None` when the route
    /// does not exist in it; a shadowing route by its declaration index.
    pub(crate) fn status(&self, index: usize) -> Option<RouteStatus> {
        let local = self.routes.iter().position(|&route| route == index)?;
        Some(match self.router.statuses().get(local)? {
            RouteStatus::Served => RouteStatus::Served,
            RouteStatus::Shadowed { by } => RouteStatus::Shadowed {
                by: self.routes.get(*by).copied().unwrap_or(*by),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<(Method, Template)> {
        [
            ("GET", "/item/{id}"),
            ("GET", "/item/{id}"),
            ("PUT", "/item/{id}"),
        ]
        .iter()
        .map(|(m, p)| {
            (
                Method::from_bytes(m.as_bytes()).unwrap(),
                Template::parse(p).unwrap(),
            )
        })
        .collect()
    }

    #[test]
    fn a_version_routes_its_own_routes_by_declaration_index() {
        let newer = VersionRouter::new(&all(), vec![1, 2]).unwrap();
        match newer.lookup(&Method::GET, "/item/1") {
            Lookup::Found { route, .. } => assert_eq!(route, 1),
            other => panic!("{other:?}"),
        }
        match newer.lookup(&Method::PUT, "/item/1") {
            Lookup::Found { route, .. } => assert_eq!(route, 2),
            other => panic!("{other:?}"),
        }
        assert_eq!(newer.status(1), Some(RouteStatus::Served));
        assert_eq!(newer.status(0), None);
        let older = VersionRouter::new(&all(), vec![0]).unwrap();
        assert!(matches!(
            older.lookup(&Method::PUT, "/item/1"),
            Lookup::MethodNotAllowed(_)
        ));
        let both = VersionRouter::new(&all(), vec![0, 1]).unwrap();
        assert_eq!(both.status(1), Some(RouteStatus::Shadowed { by: 0 }));
    }
}
