//! JSON object models (`#[derive(Model)]`): what the derive's generated code calls.
//!
//! Rules enforced here:
//! - a value that is not a JSON object is `model_attributes_type` (also when nested, as pydantic
//!   reports it);
//! - the strict fast path of a derived model (see [`super::fast_json`]) uses, per field, the
//!   field type's own fast path when it has one ([`FieldProbe`]), and otherwise declines, so the
//!   lax path reports the field; a field whose value breaks a constraint declines too;
//! - a validator (`#[validate(check)]`, a field's or the model's) runs after conversion and its
//!   rejection is pydantic's `value_error` (`"Value error, <message>"`), among the other errors.

use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Error as _};
use serde::Deserializer;
use serde_json::{Map, Value};

use super::constraint::Constraint;
use super::error::{Failure, Loc, ValidationErrors};
use super::fast_json::FastSeed;
use super::json::{record, FromJson};

/// A struct validated from a JSON object. Implemented by `#[derive(Model)]`.
pub trait Model: Sized {
    /// The schema name (the struct's name).
    const NAME: &'static str;

    /// Validate the fields of `object`, recording every failure.
    fn validate_object(
        object: &Map<String, Value>,
        loc: &mut Loc,
        errors: &mut ValidationErrors,
    ) -> Option<Self>;
}

/// pydantic's failure for a model input that is not an object.
pub(crate) fn not_an_object() -> Failure {
    Failure::new(
        "model_attributes_type",
        "Input should be a valid dictionary or object to extract fields from",
    )
}

/// Validate `value` as model `T` at `loc`.
pub fn validate_model<T: Model>(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<T> {
    match value {
        Value::Object(object) => T::validate_object(object, loc, errors),
        _ => {
            record(errors, loc, not_an_object(), value);
            None
        }
    }
}

/// What the fast path of a derived model needs of one field type, found by autoref
/// specialization (`(&FieldProbe::<T>::new()).seed()`): the real thing when `T: FromJson`, a
/// path that declines otherwise. The fallback exists so that an unsupported field type is
/// reported once, by the derive's assertion, instead of again by the fast path.
pub struct FieldProbe<T>(PhantomData<T>);

impl<T> FieldProbe<T> {
    /// The probe.
    pub fn new() -> Self {
        FieldProbe(PhantomData)
    }
}

impl<T> Default for FieldProbe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The field probe for supported types.
pub trait FieldFast<T> {
    /// The seed deserializing the field.
    fn seed(&self) -> FastSeed<T>;
    /// The value of an absent field, if any.
    fn absent(&self) -> Option<T>;
    /// True when `value` breaks one of `constraints`.
    fn violates(&self, constraints: &[Constraint], value: &T) -> bool;
}

impl<T: FromJson> FieldFast<T> for FieldProbe<T> {
    fn seed(&self) -> FastSeed<T> {
        FastSeed::new()
    }
    fn absent(&self) -> Option<T> {
        T::when_absent()
    }
    fn violates(&self, constraints: &[Constraint], value: &T) -> bool {
        Constraint::check_all(constraints, value).is_some()
    }
}

/// The field probe for unsupported types (which fail to compile elsewhere anyway).
pub trait FieldDecline<T> {
    /// A seed that declines.
    fn seed(&self) -> Decline<T>;
    /// None.
    fn absent(&self) -> Option<T>;
    /// Always true.
    fn violates(&self, constraints: &[Constraint], value: &T) -> bool;
}

impl<T> FieldDecline<T> for &FieldProbe<T> {
    fn seed(&self) -> Decline<T> {
        Decline(PhantomData)
    }
    fn absent(&self) -> Option<T> {
        None
    }
    fn violates(&self, _constraints: &[Constraint], _value: &T) -> bool {
        true
    }
}

/// A seed that always declines.
pub struct Decline<T>(PhantomData<T>);

impl<'de, T> DeserializeSeed<'de> for Decline<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, _deserializer: D) -> Result<T, D::Error> {
        Err(D::Error::custom("no fast path"))
    }
}

/// pydantic's `value_error` for a validator's `message`: "Value error, <message>", with the
/// `ctx` FastAPI writes (`{"error": {}}`: the exception object, which it cannot encode).
pub(crate) fn value_error(message: String) -> Failure {
    Failure::with_ctx(
        "value_error",
        format!("Value error, {message}"),
        serde_json::json!({ "error": {} }),
    )
}

/// Run field `key`'s validator (`#[validate(check)]`) on its converted value, if it converted:
/// a rejection is a `value_error` at the field's location with the field's input, reported with
/// every other error of the request.
pub fn validate_field<T>(
    value: Option<T>,
    check: fn(&T) -> Result<(), String>,
    object: &Map<String, Value>,
    key: &'static str,
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let value = value?;
    match check(&value) {
        Ok(()) => Some(value),
        Err(message) => {
            loc.push(super::error::LocItem::Static(key));
            let input = object.get(key).cloned().unwrap_or(Value::Null);
            errors.push(value_error(message).at(loc.clone(), input));
            loc.pop();
            None
        }
    }
}

/// Run the model's validator (`#[validate(check)]` on the struct) once every field converted: a
/// rejection is a `value_error` at the model's location with the whole object as input, as
/// pydantic's `model_validator(mode="after")` reports it.
pub fn validate_whole<T>(
    value: T,
    check: fn(&T) -> Result<(), String>,
    object: &Map<String, Value>,
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    match check(&value) {
        Ok(()) => Some(value),
        Err(message) => {
            errors.push(value_error(message).at(loc.clone(), Value::Object(object.clone())));
            None
        }
    }
}
