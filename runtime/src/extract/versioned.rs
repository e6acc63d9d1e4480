//! Reading a model with version changes (issue 44, item 3; the model side is
//! `versions/changes.rs`): a forward step's refusal as a 422 ([`forward_field`]), the
//! build-time check that each date a model changes at is a version of the app
//! ([`check_changes`]). (A body is read at the request's version by the generated handler,
//! which runs its extraction with the version set: `versions/at.rs`.)
//!
//! Rules enforced here:
//! - a forward step that refuses a value (the user's `forward` function) is a 422 `value_error`
//!   at the field's old location with the old value as input, as a field validator's refusal is;
//! - a date a model changes at that the app does not declare is a build mistake
//!   ([`MistakeKind::VersionChange`](crate::build::MistakeKind::VersionChange)), so a typo
//!   cannot invent a version.

use serde_json::{Map, Value};

use super::StateMap;
use crate::validate::{value_error, Loc, LocItem, ValidationErrors};
use crate::versions::{VersionSet, CHANGE_MARK};

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
            errors.push(value_error(message).at(loc.clone(), input));
            loc.pop();
            None
        }
    }
}

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
