//! What changed in an app's API, version by version (issue 44, items 3 and 4), read from the
//! declarations that make its versions: each versioned model's field changes (`#[since(..)]`,
//! `#[model(removed(..))]`), each route's range (`versions = ..`) and its status per version
//! (`status_before(..)`). The same walk checks the models' dates and writes the changelog, in
//! each version's document (`info.description`) and as JSON (`/openapi/changes.json`).
//!
//! Rules enforced here:
//! - the models are met where the documents meet them: in the schemas of every route's
//!   operation (its groups' dependencies included), made at each version the route exists in, so
//!   a model a route only returns, one nested in another (a field, a `Vec`, an `Option`), and
//!   one only an older shape holds are all met; a route left out of the document is walked too;
//! - a date a versioned model changes at that the app does not declare is a build mistake
//!   ([`MistakeKind::VersionChange`]), one per model, at the first route that shows it, so a typo
//!   cannot invent a version;
//! - a version's changes are what makes it differ from the one before: its models' field changes
//!   dated at it (in the order the routes meet the models), then the routes that came, went or
//!   changed their success status at it (in declaration order); the oldest version has no
//!   route changes (everything came then);
//! - all of it is done when the app is built; a request never comes here, and an app without
//!   versions never either.

use bytes::Bytes;
use serde_json::{json, Map, Value};

use super::checks::declared;
use super::{App, Mistake, MistakeKind};
use crate::validate::SchemaRegistry;
use crate::versions::{scoped, FieldChange, VersionSet};

/// A versioned model, met first in route `route`'s operation.
struct Met {
    model: &'static str,
    changes: &'static [FieldChange],
    route: usize,
}

/// What the walk saw of the app: its versioned models, and each route's success status at each
/// version (`None` where it does not exist), by declaration index.
pub(super) struct Survey {
    models: Vec<Met>,
    statuses: Vec<Vec<Option<u16>>>,
}

impl App {
    /// Every route's operation made at each version of `set` it exists in, each in a registry of
    /// its own (a registry builds a named schema once: a fresh one meets every nested model).
    pub(super) fn survey(&self, set: &VersionSet) -> Survey {
        let mut models: Vec<Met> = Vec::new();
        let mut statuses = vec![Vec::with_capacity(set.dates().len()); self.routes.len()];
        for &date in set.dates() {
            scoped(Some(date), || {
                for (index, route) in self.routes.iter().enumerate() {
                    let status = route.def.versions.contains(date).then(|| {
                        let mut registry = SchemaRegistry::new();
                        let mut operation = (route.def.operation)(&mut registry);
                        if let Some(inherited) = &route.inherited {
                            operation.group_parameters(|operation| {
                                for dependency in &inherited.dependencies {
                                    (dependency.doc)(operation, &mut registry);
                                }
                            });
                        }
                        for &(model, changes) in registry.versioned_models() {
                            if !models.iter().any(|met| met.model == model) {
                                models.push(Met {
                                    model,
                                    changes,
                                    route: index,
                                });
                            }
                        }
                        operation.status()
                    });
                    if let Some(statuses) = statuses.get_mut(index) {
                        statuses.push(status);
                    }
                }
            });
        }
        Survey { models, statuses }
    }

    /// One mistake per versioned model changing at a date that is not a version of `set`.
    pub(super) fn check_changes(&self, survey: &Survey, set: &VersionSet, mistakes: &mut Vec<Mistake>) {
        let dates = set.dates();
        for met in &survey.models {
            let mut unknown: Vec<&str> = met
                .changes
                .iter()
                .map(|change| change.date)
                .filter(|date| !dates.contains(date))
                .collect();
            unknown.sort_unstable_by(|a, b| b.cmp(a));
            unknown.dedup();
            let Some(route) = self.routes.get(met.route).filter(|_| !unknown.is_empty()) else {
                continue;
            };
            let problem = format!(
                "model `{}` changes at {}, which {} not a version of the app; its versions are {}",
                met.model,
                unknown
                    .iter()
                    .map(|date| format!("`{date}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                if unknown.len() == 1 { "is" } else { "are" },
                dates.join(", ")
            );
            mistakes.push(Mistake::new(
                MistakeKind::VersionChange { problem },
                declared(route),
            ));
        }
    }

    /// The changelog of `set`, from `survey`.
    pub(super) fn changelog(&self, survey: &Survey, set: &VersionSet) -> Changelog {
        let dates = set.dates();
        let versions = dates
            .iter()
            .enumerate()
            .map(|(at, &date)| {
                let mut entries: Vec<Entry> = survey
                    .models
                    .iter()
                    .flat_map(|met| {
                        met.changes
                            .iter()
                            .filter(move |change| change.date == date)
                            .map(|change| Entry::Field {
                                model: met.model,
                                change: *change,
                            })
                    })
                    .collect();
                if at > 0 {
                    for (route, statuses) in self.routes.iter().zip(&survey.statuses) {
                        let (Some(before), Some(now)) = (statuses.get(at - 1), statuses.get(at)) else {
                            continue;
                        };
                        let route = format!("{} {}", route.def.method, route.path);
                        let change = match (*before, *now) {
                            (None, Some(_)) => RouteChange::Added,
                            (Some(_), None) => RouteChange::Removed,
                            (Some(was), Some(now)) if was != now => RouteChange::Status { was, now },
                            _ => continue,
                        };
                        entries.push(Entry::Route { route, change });
                    }
                }
                (date, entries)
            })
            .collect();
        Changelog {
            header: set.spelled(),
            released: (0..dates.len())
                .map(|index| {
                    u8::try_from(index)
                        .ok()
                        .and_then(|index| set.get(index))
                        .is_some_and(|(_, released)| released)
                })
                .collect(),
            versions,
        }
    }
}

/// How a route changed at a version.
enum RouteChange {
    /// It exists from this version on.
    Added,
    /// It is gone from this version on.
    Removed,
    /// Its success status changed.
    Status { was: u16, now: u16 },
}

/// One change of the API at a version.
enum Entry {
    /// A versioned model's field changed.
    Field {
        model: &'static str,
        change: FieldChange,
    },
    /// A route (`METHOD /path`) came, went or answers another status.
    Route { route: String, change: RouteChange },
}

impl Entry {
    /// The change in a sentence.
    fn summary(&self) -> String {
        match self {
            Entry::Field { model, change } => change.describe(model),
            Entry::Route { route, change } => match change {
                RouteChange::Added => format!("{route} added"),
                RouteChange::Removed => format!("{route} removed"),
                RouteChange::Status { was, now } => format!("{route} answers {now} (was {was})"),
            },
        }
    }

    /// The change as the changelog's JSON has it: its kind, what it is about, and its summary.
    fn json(&self) -> Value {
        let mut out = Map::new();
        match self {
            Entry::Field { model, change } => {
                out.insert("kind".into(), json!(change.kind.as_str()));
                out.insert("model".into(), json!(model));
                if !change.field.is_empty() {
                    out.insert("field".into(), json!(change.field));
                }
                if !change.was.is_empty() {
                    out.insert("was".into(), json!(change.was));
                }
            }
            Entry::Route { route, change } => {
                let kind = match change {
                    RouteChange::Added => "route_added",
                    RouteChange::Removed => "route_removed",
                    RouteChange::Status { .. } => "status_changed",
                };
                out.insert("kind".into(), json!(kind));
                out.insert("route".into(), json!(route));
                if let RouteChange::Status { was, now } = change {
                    out.insert("was".into(), json!(was));
                    out.insert("now".into(), json!(now));
                }
            }
        }
        out.insert("summary".into(), json!(self.summary()));
        Value::Object(out)
    }
}

/// The changes of every version of an app, oldest first.
pub(super) struct Changelog {
    header: &'static str,
    released: Vec<bool>,
    versions: Vec<(&'static str, Vec<Entry>)>,
}

impl Changelog {
    /// What a version's document adds to its `info.description`: `Changes in DATE:` and a list,
    /// or nothing when nothing changed at it.
    pub(super) fn markdown(&self, date: &str) -> String {
        let Some((_, entries)) = self.versions.iter().find(|(at, _)| *at == date) else {
            return String::new();
        };
        if entries.is_empty() {
            return String::new();
        }
        let mut text = format!("Changes in {date}:\n");
        for entry in entries {
            text.push_str("\n- ");
            text.push_str(&entry.summary());
        }
        text
    }

    /// The whole changelog as JSON: the header a request names its version in, then each
    /// version, oldest first, with whether it is released and its changes.
    pub(super) fn json(&self) -> Bytes {
        let versions: Vec<Value> = self
            .versions
            .iter()
            .zip(&self.released)
            .map(|((date, entries), released)| {
                json!({
                    "version": date,
                    "released": released,
                    "changes": entries.iter().map(Entry::json).collect::<Vec<_>>(),
                })
            })
            .collect();
        Bytes::from(json!({ "header": self.header, "versions": versions }).to_string())
    }
}
