//! Version changes of models (item 3 of issue 44): what `#[derive(Model)]` writes for a model
//! whose fields declare `#[since("date", ..)]` leans on this module: which of the model's shapes
//! a version reads and writes ([`shape_at`]), a forward step's failure as a 422
//! ([`forward_field`]), and the build-time check that each date is a version of the app
//! ([`check_changes`]).
//!
//! Rules enforced here:
//! - a model's shapes are numbered from the newest (0) back: shape `k` is the model as it was
//!   before its `k`-th newest change; a request at version `v` is read in, and its answer written
//!   in, the shape of the changes newer than `v` (`YYYY-MM-DD` sorts as text: no date parsing);
//!   at the newest version, or outside a request, the shape is 0 and the model is exactly an
//!   unversioned one;
//! - a forward step that refuses a value (the user's `forward` function) is a 422 `value_error`
//!   at the field's old location with the old value as input, as a field validator's refusal is;
//! - a date a model changes at that the app does not declare is a build mistake
//!   ([`MistakeKind::VersionChange`](crate::build::MistakeKind::VersionChange)), so a typo
//!   cannot invent a version.

use serde::Serialize;
use serde_json::{Map, Value};

use super::at::{current, scoped};
use super::VersionSet;
use crate::extract::{body_model, RequestCx, StateMap};
use crate::validate::{FromJson, Loc, LocItem, Model, ValidationErrors};

/// A model with version changes: `#[derive(Model)]` implements it for a struct with
/// `#[since(..)]` fields. Its body is read, and its JSON written, in the shape of the request's
/// version (see the manual's *API versions*).
pub trait Versioned: Model + FromJson + Serialize {
    /// The dates the model changed at, newest first (`&["2026-06-01", "2026-03-01"]`).
    const CHANGES: &'static [&'static str];

    /// Read the request's JSON body as the model was at `version`, migrated forward step by
    /// step to the newest shape (its errors are that version's: its field names in `loc`).
    fn extract_at(cx: &RequestCx<'_>, version: &'static str, errors: &mut ValidationErrors) -> Option<Self> {
        scoped(Some(version), || body_model::<Self>(cx, errors))
    }

    /// The JSON of `self` as the model was at `version`, migrated back step by step.
    fn write_at(&self, version: &'static str) -> serde_json::Result<Vec<u8>> {
        scoped(Some(version), || serde_json::to_vec(self))
    }
}

/// The shape (0: the newest) a model changing at `changes` (newest first) has at the version
/// the thread serves, if any.
#[inline]
pub fn shape_at(changes: &[&'static str]) -> usize {
    match current() {
        None => 0,
        Some(at) => changes.iter().take_while(|date| at < **date).count(),
    }
}

/// One field's forward step: `step(value)`, or, when it refuses, a `value_error` at
/// `loc + key` (the field's key in the older shape) with the request's value as input.
pub fn forward_field<O, N>(
    value: O,
    step: fn(O) -> Result<N, String>,
    object: &Map<String, Value>,
    key: &'static str,
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<N> {
    match step(value) {
        Ok(value) => Some(value),
        Err(message) => {
            loc.push(LocItem::Static(key));
            let input = object.get(key).cloned().unwrap_or(Value::Null);
            errors.push(crate::validate::value_error(message).at(loc.clone(), input));
            loc.pop();
            None
        }
    }
}

/// Marks a route check's message as a version-change problem, so the build reports it as
/// `MistakeKind::VersionChange` (a route's checks return plain messages).
pub(crate) const CHANGE_MARK: &str = "\u{1}version-change\u{1}";

/// The build-time check of a versioned model read by a route: each date in `changes` must be a
/// version of the app (an app without versions: a versioned model is read at its newest shape,
/// which is fine).
pub fn check_changes(model: &'static str, changes: &[&'static str], state: &StateMap) -> Result<(), String> {
    let Some(set) = state.get::<VersionSet>() else {
        return Ok(());
    };
    let dates = set.dates();
    if dates.is_empty() {
        return Ok(());
    }
    let unknown: Vec<&str> = changes
        .iter()
        .copied()
        .filter(|date| !dates.contains(date))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{CHANGE_MARK}model `{model}` changes at {}, which {} not a version of the app; its versions are {}",
        unknown
            .iter()
            .map(|d| format!("`{d}`"))
            .collect::<Vec<_>>()
            .join(", "),
        if unknown.len() == 1 { "is" } else { "are" },
        dates.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_counts_the_changes_newer_than_the_version() {
        let changes = ["2026-06-01", "2026-03-01"];
        assert_eq!(shape_at(&changes), 0);
        assert_eq!(scoped(Some("2026-06-01"), || shape_at(&changes)), 0);
        assert_eq!(scoped(Some("2026-03-01"), || shape_at(&changes)), 1);
        assert_eq!(scoped(Some("2026-01-15"), || shape_at(&changes)), 2);
    }
}
