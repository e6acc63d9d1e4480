//! An app's routes per API version, when it has versions: the routes' ranges checked against the
//! declared versions, one router per version, and what the document and the route table show.
//!
//! Rules enforced here: a route's range names only declared versions and holds at least one (one
//! `MistakeKind::RouteVersions` per problem, where the route was added); a range on a route of an
//! app without versions is a mistake too; each version's router holds the routes that exist in
//! it; a route's `status_before(..)` names only declared versions; a route's deprecation names real dates, its sunset not before it (with or without
//! versions); a route's row is shadowed only when it is shadowed in every version it exists in (in a
//! version it is served, it answers).

use ferrapi_template::Template;
use hyper::Method;

use super::checks::declared;
use super::{App, Mistake, MistakeKind};
use crate::routing::{RouteInfo, RouteStatus, RouteTable, RouterErrorKind, VersionRouter};
use crate::versions::{Notice, VersionSet};

impl App {
    /// Every route's range against the app's versions (`None`: it declares none).
    pub(super) fn check_route_versions(&self, versions: Option<&VersionSet>, mistakes: &mut Vec<Mistake>) {
        for route in &self.routes {
            if let Some((groups, own)) = route.versions_outside {
                mistakes.push(Mistake::new(
                    MistakeKind::RouteVersions {
                        problem: format!(
                            "the route's versions `{own}` reach outside its group's `{groups}`; a route in a group only narrows the group's range"
                        ),
                    },
                    declared(route),
                ));
            }
        }
        for route in self.routes.iter().filter(|route| !route.def.versions.is_all()) {
            for problem in route.def.versions.problems(versions) {
                mistakes.push(Mistake::new(
                    MistakeKind::RouteVersions { problem },
                    declared(route),
                ));
            }
        }
        for route in self
            .routes
            .iter()
            .filter(|route| !route.def.status_before.is_empty())
        {
            for problem in status_before_problems(route.def.status_before, versions) {
                mistakes.push(Mistake::new(
                    MistakeKind::RouteVersions { problem },
                    declared(route),
                ));
            }
        }
        for route in &self.routes {
            if let Some((since, sunset)) = route.def.deprecation {
                if let Some(problem) = deprecation_problem(since, sunset) {
                    mistakes.push(Mistake::new(
                        MistakeKind::RouteVersions { problem },
                        declared(route),
                    ));
                }
            }
        }
    }

    /// One router per version of `versions`, of the routes that exist in it.
    pub(super) fn version_routers(
        &self,
        table: &RouteTable,
        versions: &VersionSet,
    ) -> Result<Vec<VersionRouter>, Vec<Mistake>> {
        let all: Vec<(Method, Template)> = self
            .routes
            .iter()
            .zip(&table.templates)
            .map(|(route, template)| (route.def.method.clone(), template.clone()))
            .collect();
        let mut routers = Vec::with_capacity(versions.dates().len());
        let mut mistakes = Vec::new();
        for date in versions.dates() {
            let live = (0..self.routes.len())
                .filter(|&index| {
                    self.routes
                        .get(index)
                        .is_some_and(|route| route.def.versions.contains(date))
                })
                .collect();
            match VersionRouter::new(&all, live) {
                Ok(router) => routers.push(router),
                Err(errors) => mistakes.extend(errors.into_iter().filter_map(|error| {
                    let route = self.routes.get(error.route)?;
                    let problem = match error.kind {
                        RouterErrorKind::Conflict(problem) => format!("at version {date}: {problem}"),
                        other => format!("at version {date}: {other}"),
                    };
                    Some(Mistake::new(
                        MistakeKind::RouteConflict { problem },
                        declared(route),
                    ))
                })),
            }
        }
        if mistakes.is_empty() {
            Ok(routers)
        } else {
            Err(mistakes)
        }
    }
}

/// Each route's status in the document of the version whose router is `router`: served there, or
/// (not in that version, or shadowed in it) left out.
pub(super) fn statuses_at(router: &VersionRouter, routes: usize) -> Vec<RouteStatus> {
    (0..routes)
        .map(|index| match router.status(index) {
            Some(RouteStatus::Served) => RouteStatus::Served,
            Some(shadowed) => shadowed,
            // Not in this version: left out of its document as a shadowed route is.
            None => RouteStatus::Shadowed { by: index },
        })
        .collect()
}

/// `rows` (the route table, by declaration index) with each route's shadowing as the versions
/// see it: shadowed only when shadowed in every version it exists in, by the route that wins the
/// first such version.
pub(super) fn rows_per_version(mut rows: Vec<RouteInfo>, routers: &[VersionRouter]) -> Vec<RouteInfo> {
    let names: Vec<(&'static str, String)> = rows.iter().map(|row| (row.name, row.path.clone())).collect();
    for (index, row) in rows.iter_mut().enumerate() {
        let statuses: Vec<RouteStatus> = routers.iter().filter_map(|router| router.status(index)).collect();
        let served_somewhere = statuses.contains(&RouteStatus::Served);
        let first_by = statuses.iter().find_map(|status| match status {
            RouteStatus::Shadowed { by } => Some(*by),
            RouteStatus::Served => None,
        });
        row.shadowed_by = match first_by {
            Some(by) if !served_somewhere => names.get(by).cloned(),
            _ => None,
        };
    }
    rows
}

/// What is wrong with a route's `status_before(..)`: a date that is not a version of the app, or
/// an app without versions (one sentence each).
fn status_before_problems(before: &[(&'static str, u16)], versions: Option<&VersionSet>) -> Vec<String> {
    let Some(versions) = versions else {
        return vec!["the route's status changes at a version (`status_before`), but the app declares no versions; declare them with `App::versions`".to_owned()];
    };
    before
        .iter()
        .filter(|(date, _)| !versions.dates().contains(date))
        .map(|(date, _)| {
            format!(
                "the route's status changes at `{date}` (`status_before`), which is not a version of the app; its versions are {}",
                versions.listed()
            )
        })
        .collect()
}

/// What is wrong with a route's deprecation (`RouteDef::deprecated_at`), if anything: a date that
/// is not one, a sunset before the deprecation (the route option checks both when it compiles).
fn deprecation_problem(since: &str, sunset: Option<&str>) -> Option<String> {
    if let Some(date) = std::iter::once(since)
        .chain(sunset)
        .find(|date| Notice::new(date, None).is_none())
    {
        return Some(format!(
            "the route's deprecation date `{date}` is not a date written `YYYY-MM-DD`"
        ));
    }
    sunset
        .filter(|sunset| *sunset < since)
        .map(|sunset| format!("the route's sunset `{sunset}` is before its deprecation `{since}`"))
}
