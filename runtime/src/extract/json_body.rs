//! The JSON body argument: a `#[derive(Model)]` struct, or `Json<T>` of any JSON-readable type.
//!
//! Rules enforced here (FastAPI's, measured; see tests/fastapi/observed.json):
//! - an absent or empty body is `missing` at `["body"]`;
//! - a body declared as JSON is first deserialized strictly, straight from the bytes; only when
//!   that declines is it parsed into a `Value` and validated laxly, which reports every error
//!   (a body that is not UTF-8 or not JSON replaces every other error of the request);
//! - each of those reads is charged against the memory budget before it runs (the fast path as
//!   its type says, `FastJson::fast_cost`; the lax path as its tree costs, twice): a charge that
//!   does not fit answers 503 or 413 instead of every other error;
//! - a body not declared as JSON is validated as its text: not an object for a model
//!   (`model_attributes_type`), a JSON string for `Json<T>`.

use serde_json::Value;

use super::arg::{Body, Extract};
use super::param::Param;
use super::request::RequestCx;
use crate::body::BodyInput;
use crate::openapi::Operation;
use crate::response::Json;
use crate::validate::json_tree::tree_peak;
use crate::validate::{
    fast_json, not_an_object, parse_json_value, strip_bom, FromJson, LocItem, Model, SchemaRegistry,
    ValidationErrors,
};

/// Validate the request body as model `T`: strictly from the bytes when that succeeds, else
/// through the lax path that reports every error.
pub fn body_model<T: Model + FromJson>(cx: &RequestCx, errors: &mut ValidationErrors) -> Option<T> {
    match cx.body_input() {
        // A stream is only handed to a route that takes an upload, and no JSON body with it.
        BodyInput::Missing | BodyInput::Stream(_) | BodyInput::Form(_) => {
            errors.missing(vec![LocItem::Static("body")]);
            None
        }
        BodyInput::Json(bytes) => {
            let text = strip_bom(bytes);
            if !cx.charge(T::fast_cost(text), errors) {
                return None;
            }
            if let Some(value) = fast_json::from_slice::<T>(text) {
                return Some(value);
            }
            if !cx.charge(lax_cost(text), errors) {
                return None;
            }
            let value = parse_json_value(bytes, errors)?;
            // A model's `from_json` is `validate_model`; an untagged union's tries each variant.
            T::from_json(&value, &mut vec![LocItem::Static("body")], errors)
        }
        BodyInput::Text(bytes) => {
            if !cx.charge(text_cost(bytes), errors) {
                return None;
            }
            let text = String::from_utf8_lossy(bytes).into_owned();
            errors.push(not_an_object().at(vec![LocItem::Static("body")], Value::String(text)));
            None
        }
    }
}

/// Validate the request body as any JSON-readable `T` (`Json<Map<String, Value>>` takes any
/// object, `Json<Vec<i64>>` a list of integers): the body argument for types that are not models.
pub(super) fn body_value<T: FromJson>(cx: &RequestCx, errors: &mut ValidationErrors) -> Option<T> {
    let mut loc = vec![LocItem::Static("body")];
    match cx.body_input() {
        // A stream is only handed to a route that takes an upload, and no JSON body with it.
        BodyInput::Missing | BodyInput::Stream(_) | BodyInput::Form(_) => {
            errors.missing(loc);
            None
        }
        BodyInput::Json(bytes) => {
            let text = strip_bom(bytes);
            if !cx.charge(T::fast_cost(text), errors) {
                return None;
            }
            if let Some(value) = fast_json::from_slice::<T>(text) {
                return Some(value);
            }
            if !cx.charge(lax_cost(text), errors) {
                return None;
            }
            let value = parse_json_value(bytes, errors)?;
            T::from_json(&value, &mut loc, errors)
        }
        BodyInput::Text(bytes) => {
            if !cx.charge(text_cost(bytes), errors) {
                return None;
            }
            let text = String::from_utf8_lossy(bytes).into_owned();
            T::from_json(&Value::String(text), &mut loc, errors)
        }
    }
}

/// What the lax path holds beyond the fast path's charge, given back by then: the body's tree,
/// and as much again for what validating it copies of it (the values taken, the inputs its
/// errors echo).
fn lax_cost(text: &[u8]) -> usize {
    tree_peak(text).saturating_mul(2)
}

/// What validating a body that is not JSON holds: its text (invalid UTF-8 replaced, up to three
/// bytes for one), and the error that echoes it.
fn text_cost(bytes: &[u8]) -> usize {
    bytes.len().saturating_mul(4)
}

impl<T: FromJson + Send + 'static> Extract for Json<T> {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        body_value::<T>(cx, errors).map(Json)
    }

    fn doc(_param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        op.request_body(T::schema(registry));
    }
}

impl<T: FromJson + Send + 'static> Body for Json<T> {}
