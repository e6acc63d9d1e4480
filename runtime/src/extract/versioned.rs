//! Reading a model with version changes (issue 44, item 3; the model side is
//! `versions/changes.rs`): a forward step's refusal as a 422 ([`forward_field`],
//! [`forward_model`]). (A body is
//! read at the request's version by the generated handler, which runs its extraction with the
//! version set: `versions/at.rs`; the check that each date a model changes at is a version of
//! the app is the app's build, `app/changelog.rs`, which meets every model a route reads or
//! writes.)
//!
//! Rules enforced here:
//! - a forward step that refuses a value (the user's `forward` function) is a 422 `value_error`
//!   at the field's old location with the old value as input, as a field validator's refusal is;
//!   a whole-model step's refusal ([`forward_model`]) is one at the model's location with the
//!   object as input, as a model validator's is.

use serde_json::{Map, Value};

use crate::validate::{value_error, Loc, LocItem, ValidationErrors};

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
    step(value)
        .map_err(|message| {
            loc.push(LocItem::Static(key));
            let input = object.get(key).cloned().unwrap_or(Value::Null);
            errors.push(value_error(message).at(loc.clone(), input));
            loc.pop();
        })
        .ok()
}

/// A whole-model forward step (`#[model(changed(..))]`): `step(value)`, or, when it refuses, a
/// `value_error` at `loc` (the model's own location) with the request's object as input.
pub fn forward_model<O, N>(
    value: O,
    step: fn(O) -> Result<N, String>,
    object: &Map<String, Value>,
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<N> {
    step(value)
        .map_err(|message| errors.push(value_error(message).at(loc.clone(), Value::Object(object.clone()))))
        .ok()
}
