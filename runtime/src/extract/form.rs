//! Form bodies: [`Form<T>`], an `application/x-www-form-urlencoded` body validated into a model
//! (`Form<Login>`), or one field of it (`username: Form<String>`, FastAPI's `Form()`).
//!
//! Rules enforced here (FastAPI's, measured; see the `/form` cases in
//! tests/fastapi/observed.json and the `/ff/*` cases in tests/fastapi/observed_forms.json):
//! - the body is read as a form only when its `Content-Type` is
//!   `application/x-www-form-urlencoded` (any case, any parameters), or, for fields,
//!   `multipart/form-data` (its text parts); any other body, or none, is an empty form
//!   (Starlette's `request.form()`), so every required field is `missing`;
//! - a model takes for each field the *last* value of its name (a list field every value, in
//!   order); an empty value is no value (FastAPI drops it), and names the model does not have are
//!   ignored; the fields are then validated as a JSON object of strings, with the model's lax
//!   rules (`"33"` is an integer, `"on"` is true), errors at `["body", field]`; a `missing`
//!   error's input is that object, its keys in the model's field order (as FastAPI builds it);
//! - a field argument (a scalar, `Option` or `Vec` of scalars) takes the last value of its name
//!   as a query parameter does, an empty value being none (`missing` with `"input": null` when the
//!   field is required, else its default); a `Vec` takes every value, empty ones included, and is
//!   required unless it has a `#[default]`; errors at `["body", name]` (`["body", name, index]`);
//! - a model is documented as its schema under `application/x-www-form-urlencoded`; a route's
//!   fields together as one object schema `Body_<name>_<path>_<method>`, FastAPI's name for it.

use std::any::TypeId;
use std::borrow::Cow;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use hyper::header::CONTENT_TYPE;
use serde_json::{Map, Value};

use super::arg::{Body, Extract};
use super::header::ParamValue;
use super::param::Param;
use super::request::RequestCx;
use crate::body::BodyInput;
use crate::openapi::Operation;
use crate::validate::{
    validate_model, FromJson, FromParam, LocItem, Model, SchemaRegistry, ValidationErrors,
};

/// A form body, or one field of it (FastAPI's `Form()`): `Form<Login>`, where `Login` derives
/// `Model`, validates the whole form into the model (`Annotated[Login, Form()]`);
/// `username: Form<String>` reads field `username` (`username: str = Form()`), as do
/// `Form<Option<i64>>` (optional) and `Form<Vec<String>>` (a repeated field). A field takes
/// `#[default(..)]` (the value alone) and the constraints a query parameter takes.
#[derive(Debug, Clone, PartialEq)]
pub struct Form<T>(pub T);

impl<T> std::ops::Deref for Form<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Form<T> {
    /// The model, or the field's value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> From<T> for Form<T> {
    fn from(value: T) -> Self {
        Form(value)
    }
}

/// The body's media type, without parameters, when it is one a form is read from: `Some(true)`
/// for `multipart/form-data`, `Some(false)` for `application/x-www-form-urlencoded`.
fn form_kind(cx: &RequestCx<'_>) -> Option<bool> {
    let value = cx.headers().get(CONTENT_TYPE)?.to_str().ok()?;
    let essence = value.split(';').next()?.trim();
    if essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        Some(false)
    } else if essence.eq_ignore_ascii_case("multipart/form-data") {
        Some(true)
    } else {
        None
    }
}

/// The body, read whole.
fn whole_body<'a>(cx: &RequestCx<'a>) -> Option<&'a Bytes> {
    match cx.body_input() {
        BodyInput::Missing | BodyInput::Stream(_) | BodyInput::Form(_) => None,
        BodyInput::Json(bytes) | BodyInput::Text(bytes) => Some(bytes),
    }
}

/// The urlencoded form's pairs, decoded, in order (none for any other body).
fn pairs<'a>(cx: &RequestCx<'a>) -> Vec<(Cow<'a, str>, Cow<'a, str>)> {
    match (form_kind(cx), whole_body(cx)) {
        (Some(false), Some(bytes)) => form_urlencoded::parse(bytes).collect(),
        _ => Vec::new(),
    }
}

/// The pairs a field argument reads: the urlencoded form's, or a multipart body's text parts
/// (the body was read whole, within the body limit, so its parts are parsed at once).
fn field_pairs<'a>(cx: &RequestCx<'a>) -> Vec<(Cow<'a, str>, Cow<'a, str>)> {
    if let BodyInput::Form(form) = cx.body_input() {
        // A route that takes files: its form was read before it ran.
        let texts = form
            .texts()
            .map(|(name, text)| (Cow::Borrowed(name), Cow::Borrowed(text)));
        return texts.collect();
    }
    match (form_kind(cx), whole_body(cx)) {
        (Some(false), Some(bytes)) => form_urlencoded::parse(bytes).collect(),
        (Some(true), Some(bytes)) => multipart_text_parts(cx, bytes),
        _ => Vec::new(),
    }
}

/// The text parts (those without a file name) of a multipart body held whole, in order; a
/// malformed body ends the list where it breaks.
fn multipart_text_parts<'a>(cx: &RequestCx<'_>, bytes: &Bytes) -> Vec<(Cow<'a, str>, Cow<'a, str>)> {
    let content_type = cx.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let Some(boundary) = content_type.and_then(|ct| multer::parse_boundary(ct).ok()) else {
        return Vec::new();
    };
    let chunk: Result<Bytes, std::convert::Infallible> = Ok(bytes.clone());
    let mut multipart = multer::Multipart::new(futures_util::stream::iter([chunk]), boundary);
    // Every byte is here: each future is ready on its first poll, so no waker is needed.
    let mut poll_cx = Context::from_waker(Waker::noop());
    let mut out = Vec::new();
    loop {
        let field = match pin!(multipart.next_field()).poll(&mut poll_cx) {
            Poll::Ready(Ok(Some(field))) => field,
            _ => return out,
        };
        if field.file_name().is_some() {
            continue;
        }
        let name = field.name().unwrap_or("").to_owned();
        match pin!(field.text()).poll(&mut poll_cx) {
            Poll::Ready(Ok(text)) => out.push((Cow::Owned(name), Cow::Owned(text))),
            _ => return out,
        }
    }
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

/// What a [`Form`] holds: a model (the whole form), or one field's type (a scalar, an `Option`
/// or a `Vec` of scalars).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from a form",
    label = "not a model, nor a form field's type",
    note = "`Form<T>` reads the whole form when `T` derives `Model`, and one field (named by the argument) when `T` is an integer, float, bool, String or an enum deriving `StrEnum`, or an `Option` or `Vec` of a type a query parameter can be"
)]
pub trait FormValue: Sized + Send + 'static {
    /// Read the value: the whole form, or the field the argument names.
    #[doc(hidden)]
    fn from_form(cx: &RequestCx<'_>, param: Param<Form<Self>>, errors: &mut ValidationErrors)
        -> Option<Self>;

    /// Document the value: the body's schema, or one property of the route's form.
    #[doc(hidden)]
    fn doc(param: Param<Form<Self>>, op: &mut Operation, registry: &mut SchemaRegistry);
}

/// Marker of the [`FormValue`]s that are one field: several of them share one form, where a
/// route takes one model.
#[doc(hidden)]
pub trait FormField: FormValue {}

impl<T: Model + FromJson + Send + 'static> FormValue for T {
    fn from_form(
        cx: &RequestCx<'_>,
        _param: Param<Form<Self>>,
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        form_model::<T>(cx, errors)
    }

    fn doc(_param: Param<Form<Self>>, op: &mut Operation, registry: &mut SchemaRegistry) {
        op.request_body_as("application/x-www-form-urlencoded", T::schema(registry));
    }
}

/// Read field `name` as `T` (see the rules at the top); `pydantic_bool` when `T` is `bool` or
/// holds them.
pub(super) fn read_field<T: ParamValue>(
    cx: &RequestCx<'_>,
    param: Param<Form<T>>,
    pydantic_bool: bool,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let (name, default) = (param.name(), param.default_value().map(Form::into_inner));
    let pairs = field_pairs(cx);
    let mut values = pairs
        .iter()
        .filter(|(key, _)| key == name)
        .map(|(_, value)| value.clone());
    let loc = |index: Option<usize>| {
        let mut loc = vec![LocItem::Static("body"), LocItem::Static(name)];
        loc.extend(index.map(LocItem::Index));
        loc
    };
    let mut values: Vec<Cow<'_, str>> = if T::REPEATED {
        values.collect()
    } else {
        values
            .next_back()
            .filter(|value| !value.is_empty())
            .into_iter()
            .collect()
    };
    if T::REPEATED && values.is_empty() && default.is_none() {
        errors.missing(loc(None));
        return None;
    }
    if pydantic_bool {
        values = pydantic_bools(values, T::REPEATED, &loc, errors)?;
    }
    T::from_values(values.into_iter(), default, param.constraints(), &loc, errors)
}

/// A body's booleans are pydantic's (`t`, `y`, `off` are booleans, `maybe` is `bool_parsing`),
/// where a parameter's are the spec's (anything but a true word is false): each value as the
/// word the parameter reading takes, errors recorded (`None` when any).
fn pydantic_bools<'v>(
    values: Vec<Cow<'v, str>>,
    repeated: bool,
    loc: &dyn Fn(Option<usize>) -> Vec<LocItem>,
    errors: &mut ValidationErrors,
) -> Option<Vec<Cow<'v, str>>> {
    let mut ok = true;
    let words = values.into_iter().enumerate().map(|(index, raw)| {
        let mut at = loc(repeated.then_some(index));
        match <bool as FromJson>::from_json(&Value::String(raw.into_owned()), &mut at, errors) {
            Some(value) => Cow::Borrowed(if value { "true" } else { "false" }),
            None => {
                ok = false;
                Cow::Borrowed("")
            }
        }
    });
    let words: Vec<Cow<'v, str>> = words.collect();
    ok.then_some(words)
}

/// Document field `name` of type `T` as a property of the route's form.
fn document_field<T: ParamValue>(param: Param<Form<T>>, op: &mut Operation, registry: &mut SchemaRegistry) {
    let (name, default) = (param.name(), param.default_value().map(Form::into_inner));
    let has_default = default.is_some();
    let (mut schema, mut required) = T::schema(name, default, param.constraints(), registry);
    if T::REPEATED && !has_default {
        // FastAPI: a list field without a default is required, and has no default.
        if let Value::Object(map) = &mut schema {
            map.shift_remove("default");
        }
        required = true;
    }
    op.form_field(name, schema, required);
}

/// Read form field `param` as string enumeration `T` (`Form<Side>`; the `StrEnum` derive's
/// `FormValue`).
#[doc(hidden)]
pub fn enum_form_field<T: FromParam + serde::Serialize + Send + 'static>(
    cx: &RequestCx<'_>,
    param: Param<Form<T>>,
    errors: &mut ValidationErrors,
) -> Option<T> {
    read_field(cx, param, false, errors)
}

/// Document form field `param` of string enumeration `T` (the `StrEnum` derive's `FormValue`).
#[doc(hidden)]
pub fn enum_form_doc<T: FromParam + serde::Serialize + Send + 'static>(
    param: Param<Form<T>>,
    op: &mut Operation,
    registry: &mut SchemaRegistry,
) {
    document_field(param, op, registry);
}

macro_rules! form_field {
    (@element $ty:ty) => { $ty };
    (@element $ty:ty, $generic:ident) => { $generic };
    ($ty:ty $(, $generic:ident)?) => {
        impl$(<$generic: FromParam + serde::Serialize + Send + 'static>)? FormValue for $ty {
            fn from_form(cx: &RequestCx<'_>, param: Param<Form<Self>>, errors: &mut ValidationErrors) -> Option<Self> {
                let pydantic_bool = TypeId::of::<form_field!(@element $ty $(, $generic)?)>() == TypeId::of::<bool>();
                read_field(cx, param, pydantic_bool, errors)
            }

            fn doc(param: Param<Form<Self>>, op: &mut Operation, registry: &mut SchemaRegistry) {
                document_field(param, op, registry);
            }
        }

        impl$(<$generic: FromParam + serde::Serialize + Send + 'static>)? FormField for $ty {}
    };
}

// One by one, not `impl<T: FromParam>`: that would overlap the models' impl (a type of the user's
// may be both), where a type of the standard library cannot derive `Model`.
form_field!(i8);
form_field!(i16);
form_field!(i32);
form_field!(i64);
form_field!(i128);
form_field!(isize);
form_field!(u8);
form_field!(u16);
form_field!(u32);
form_field!(u64);
form_field!(u128);
form_field!(usize);
form_field!(f32);
form_field!(f64);
form_field!(bool);
form_field!(String);
form_field!(Option<T>, T);
form_field!(Vec<T>, T);

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl<T: FormValue> Extract for Form<T> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        T::from_form(cx, param, errors).map(Form)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        T::doc(param, op, registry);
    }
}

impl<T: FormValue> Body for Form<T> {}
