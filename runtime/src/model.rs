//! JSON body models (`#[derive(Model)]`) and string enums (`#[derive(StrEnum)]`).
//!
//! Rules enforced here: a body that is not a JSON object is `model_attributes_type` (also when
//! nested, as pydantic reports it); a string enum accepts exactly its values (case-sensitive) and
//! otherwise reports `enum` with the expected values in pydantic's words.

use serde_json::{json, Map, Value};

use crate::body::{parse_json_value, strip_bom, BodyInput};
use crate::error::{Failure, Loc, LocItem, ValidationErrors};
use crate::fast_json;
use crate::json::record;
use crate::json::FromJson;
use crate::request::RequestCx;

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

fn not_an_object() -> Failure {
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

/// Validate the request body as model `T`: strictly from the bytes when that succeeds, else
/// through the lax path that reports every error.
pub fn body_model<T: Model + FromJson>(cx: &RequestCx, errors: &mut ValidationErrors) -> Option<T> {
    match cx.body_input() {
        BodyInput::Missing => {
            errors.missing(vec![LocItem::Static("body")]);
            None
        }
        BodyInput::Json(bytes) => {
            if let Some(value) = fast_json::from_slice::<T>(strip_bom(bytes)) {
                return Some(value);
            }
            let value = parse_json_value(bytes, errors)?;
            validate_model(&value, &mut vec![LocItem::Static("body")], errors)
        }
        BodyInput::Text(text) => {
            errors.push(not_an_object().at(vec![LocItem::Static("body")], Value::String(text.clone())));
            None
        }
    }
}

/// Validate the request body as any JSON-readable `T` (`Json<Map<String, Value>>` takes any
/// object, `Json<Vec<i64>>` a list of integers): the body argument for types that are not models.
pub fn body_value<T: FromJson>(cx: &RequestCx, errors: &mut ValidationErrors) -> Option<T> {
    let mut loc = vec![LocItem::Static("body")];
    match cx.body_input() {
        BodyInput::Missing => {
            errors.missing(loc);
            None
        }
        BodyInput::Json(bytes) => {
            if let Some(value) = fast_json::from_slice::<T>(strip_bom(bytes)) {
                return Some(value);
            }
            let value = parse_json_value(bytes, errors)?;
            T::from_json(&value, &mut loc, errors)
        }
        BodyInput::Text(text) => T::from_json(&Value::String(text.clone()), &mut loc, errors),
    }
}

impl<T: FromJson> crate::arg::Arg for crate::response::Json<T> {
    const SOURCE: crate::arg::Source = crate::arg::Source::Body;

    fn extract(
        cx: &RequestCx,
        _name: &'static str,
        _default: Option<fn() -> Self>,
        _constraints: &'static [crate::constraint::Constraint],
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        body_value::<T>(cx, errors).map(crate::response::Json)
    }

    fn doc(
        _name: &'static str,
        _default: Option<fn() -> Self>,
        _constraints: &[crate::constraint::Constraint],
        registry: &mut crate::schema::SchemaRegistry,
    ) -> crate::arg::ArgDoc {
        crate::arg::ArgDoc::Body(T::schema(registry))
    }
}

/// A string enumeration serialized as its values. Implemented by `#[derive(StrEnum)]`.
pub trait StrEnum: Sized + 'static {
    /// The accepted values, in declaration order.
    const VALUES: &'static [&'static str];
    /// pydantic's rendering of the values: `'buy' or 'sell'`.
    const EXPECTED: &'static str;

    /// The variant with this exact value.
    fn from_value(value: &str) -> Option<Self>;

    /// This variant's value.
    fn as_str(&self) -> &'static str;
}

/// The `enum` failure for `T`.
pub fn enum_failure<T: StrEnum>() -> Failure {
    Failure::with_ctx(
        "enum",
        format!("Input should be {}", T::EXPECTED),
        json!({ "expected": T::EXPECTED }),
    )
}

/// Parse a string enum from a path or query value.
pub fn enum_from_param<T: StrEnum>(raw: &str) -> Result<T, Failure> {
    T::from_value(raw).ok_or_else(enum_failure::<T>)
}

/// Validate a string enum from a JSON value.
pub fn enum_from_json<T: StrEnum>(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<T> {
    let found = value.as_str().and_then(T::from_value);
    if found.is_none() {
        record(errors, loc, enum_failure::<T>(), value);
    }
    found
}

/// The schema of a string enum: `{"type": "string", "enum": [...], "title": Name}`.
pub fn enum_schema<T: StrEnum>(name: &str) -> Value {
    json!({ "type": "string", "enum": T::VALUES, "title": name })
}
