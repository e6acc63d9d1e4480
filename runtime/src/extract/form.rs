//! Form bodies: [`Form<T>`], an `application/x-www-form-urlencoded` body validated into a model.
//!
//! Rules enforced here (FastAPI's, measured; see the `/form` cases in
//! tests/fastapi/observed.json):
//! - the body is read as a form only when its `Content-Type` is
//!   `application/x-www-form-urlencoded` (any case, any parameters); any other body, or none,
//!   is an empty form (Starlette's `request.form()`), so every required field is `missing`;
//! - each model field takes the *last* value of its name (a list field every value, in order); an
//!   empty value is no value (FastAPI drops it), and names the model does not have are ignored;
//! - the fields are then validated as a JSON object of strings, with the model's lax rules
//!   (`"33"` is an integer, `"on"` is true), errors at `["body", field]`; a `missing` error's
//!   input is that object, its keys in the model's field order (as FastAPI builds it);
//! - documented as the model's schema under `application/x-www-form-urlencoded`.

use std::borrow::Cow;
use std::future::Future;

use hyper::header::CONTENT_TYPE;
use serde_json::{Map, Value};

use super::arg::{ready, Arg, Deps, Param, Source};
use super::body::BodyInput;
use super::request::RequestCx;
use crate::openapi::Operation;
use crate::response::Response;
use crate::validate::{validate_model, FromJson, LocItem, Model, SchemaRegistry, ValidationErrors};

/// A form body (`application/x-www-form-urlencoded`), validated into model `T`:
/// `async fn login(form: Form<Login>)` where `Login` derives `Model`. FastAPI's
/// `Annotated[Login, Form()]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Form<T>(pub T);

impl<T> std::ops::Deref for Form<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Form<T> {
    /// The model.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// True for `application/x-www-form-urlencoded`, ignoring case and parameters.
fn is_form(cx: &RequestCx<'_>) -> bool {
    cx.headers()
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(';').next())
        .is_some_and(|essence| {
            essence
                .trim()
                .eq_ignore_ascii_case("application/x-www-form-urlencoded")
        })
}

/// The form's pairs, decoded, in order.
fn pairs<'a>(cx: &RequestCx<'a>) -> Vec<(Cow<'a, str>, Cow<'a, str>)> {
    if !is_form(cx) {
        return Vec::new();
    }
    let bytes: &[u8] = match cx.body_input() {
        BodyInput::Missing | BodyInput::Stream(_) => return Vec::new(),
        BodyInput::Json(bytes) | BodyInput::Text(bytes) => bytes,
    };
    form_urlencoded::parse(bytes).collect()
}

/// The model's fields, in order, each with whether it is a list (from its schema).
fn fields<T: FromJson>() -> Vec<(String, bool)> {
    let mut registry = SchemaRegistry::new();
    let reference = T::schema(&mut registry);
    let components = registry.into_components();
    let schema = reference["$ref"]
        .as_str()
        .and_then(|r| r.rsplit('/').next())
        .and_then(|name| components.get(name))
        .unwrap_or(&reference);
    let Some(properties) = schema["properties"].as_object() else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, field)| {
            let is_list = field["type"] == "array"
                || field["anyOf"]
                    .as_array()
                    .is_some_and(|options| options.iter().any(|o| o["type"] == "array"));
            (name.clone(), is_list)
        })
        .collect()
}

/// The object FastAPI validates: with `fields`, the model's fields in order; without, every name
/// of the form (a first attempt that needs no schema).
fn object(pairs: &[(Cow<'_, str>, Cow<'_, str>)], fields: Option<&[(String, bool)]>) -> Map<String, Value> {
    let mut object = Map::new();
    let Some(fields) = fields else {
        for (name, value) in pairs {
            match value.is_empty() {
                true => object.shift_remove(name.as_ref()),
                false => object.insert(name.to_string(), Value::String(value.to_string())),
            };
        }
        return object;
    };
    for (field, is_list) in fields {
        let mut values = pairs
            .iter()
            .filter(|(name, _)| name == field)
            .map(|(_, value)| value);
        if *is_list {
            let list: Vec<Value> = values.map(|v| Value::String(v.to_string())).collect();
            if !list.is_empty() {
                object.insert(field.clone(), Value::Array(list));
            }
        } else if let Some(value) = values.next_back().filter(|v| !v.is_empty()) {
            object.insert(field.clone(), Value::String(value.to_string()));
        }
    }
    object
}

/// Validate the form body as model `T`.
fn form_model<T: Model + FromJson>(cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Option<T> {
    let pairs = pairs(cx);
    // A valid form needs no schema: its own names are enough.
    let mut scratch = ValidationErrors::new();
    let first = Value::Object(object(&pairs, None));
    if let Some(value) = validate_model::<T>(&first, &mut vec![LocItem::Static("body")], &mut scratch) {
        return Some(value);
    }
    let fields = fields::<T>();
    let value = Value::Object(object(&pairs, Some(&fields)));
    validate_model::<T>(&value, &mut vec![LocItem::Static("body")], errors)
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl<T: Model + FromJson + Send + 'static> Arg for Form<T> {
    const SOURCE: Source = Source::Body;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        form_model::<T>(cx, errors).map(Form)
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
    }

    fn doc(_param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        op.request_body_as("application/x-www-form-urlencoded", T::schema(registry));
    }
}
