//! Files as route arguments: the `Arg` impls of [`UploadFile`] (required), `Option<UploadFile>`
//! and `Vec<UploadFile>`, FastAPI's `file: UploadFile`, taken from the form the dispatcher read
//! before the route ran (`body/spool.rs`), next to `Form<T>` fields.
//!
//! Rules enforced here (FastAPI 0.165's, measured: tests/fastapi/observed_uploads.json):
//! - an argument takes the *last* file part of its name (a `Vec` every part of it, in order);
//!   other parts, files included, are ignored;
//! - no part of the name (or an empty text part) is `missing` at `["body", name]` for a required
//!   file, `None` for an `Option`, `missing` for a `Vec` without a `#[default]`; a text part
//!   where a file is expected is `value_error` (`"Expected UploadFile, received: <class 'str'>"`)
//!   with the text as input, at `["body", name]` (`["body", name, index]` in a `Vec`);
//! - the errors are validation errors like any argument's, answered with the others of the
//!   request (path, query, headers, form fields) through the app's `on_validation_error`;
//! - documented as FastAPI documents it: a property of the route's `multipart/form-data` form
//!   `Body_<operation id>`, `{"type": "string", "contentMediaType": "application/octet-stream"}`
//!   (in an `anyOf` with `null` for an `Option`, the `items` of an array for a `Vec`), with one
//!   addition, `"format": "binary"`: FastAPI 0.165 dropped it, but client generators still
//!   recognise a file only by it (openapi-python-client 0.29 sent the file's `repr` as text
//!   without it; the docs checks caught it), as `Multipart` parts are documented.

use serde_json::{json, Value};

use super::arg::{Body, Extract};
use super::param::Param;
use super::request::RequestCx;
use crate::body::BodyInput;
use crate::body::UploadFile;
use crate::body::{FormParts, PartValue};
use crate::openapi::Operation;
use crate::validate::{title_case, Failure, LocItem, SchemaRegistry, ValidationErrors};

/// The form the dispatcher read for the route; `None` (logged) when the route's body was not
/// read as one, which happens only when the route macros did not see the `UploadFile` by name.
fn form<'a>(cx: &RequestCx<'a>) -> Option<&'a FormParts> {
    match cx.body_input() {
        BodyInput::Form(form) => Some(form),
        _ => {
            tracing::error!(
                path = cx.path,
                "an `UploadFile` argument in a route whose body was not read as a form: write the type as `UploadFile`, `Option<UploadFile>` or `Vec<UploadFile>` (not through an alias), so the route macros see it"
            );
            None
        }
    }
}

/// What one part gives a file argument.
enum Found {
    File(Box<UploadFile>),
    Text(String),
    Missing,
}

fn found(part: &PartValue) -> Found {
    match part {
        PartValue::Text(text) if text.is_empty() => Found::Missing,
        PartValue::Text(text) => Found::Text(text.clone()),
        PartValue::File(slot) => match slot.lock().ok().and_then(|mut file| file.take()) {
            Some(file) => Found::File(file),
            None => Found::Missing,
        },
    }
}

fn loc(name: &'static str, index: Option<usize>) -> Vec<LocItem> {
    let mut loc = vec![LocItem::Static("body"), LocItem::Static(name)];
    loc.extend(index.map(LocItem::Index));
    loc
}

/// FastAPI's error for text where a file is expected.
fn not_a_file(text: String, loc: Vec<LocItem>, errors: &mut ValidationErrors) {
    let failure = Failure::with_ctx(
        "value_error",
        "Value error, Expected UploadFile, received: <class 'str'>",
        json!({ "error": {} }),
    );
    errors.push(failure.at(loc, Value::String(text)));
}

/// The last part named `name`, as a file; `Ok(None)` when there is none.
fn one_file(
    cx: &RequestCx<'_>,
    name: &'static str,
    errors: &mut ValidationErrors,
) -> Result<Option<UploadFile>, ()> {
    let Some(form) = form(cx) else {
        return Ok(None);
    };
    match form.named(name).last().map(found) {
        None | Some(Found::Missing) => Ok(None),
        Some(Found::File(file)) => Ok(Some(*file)),
        Some(Found::Text(text)) => {
            not_a_file(text, loc(name, None), errors);
            Err(())
        }
    }
}

/// A file's schema, as FastAPI writes it.
fn file_schema() -> Value {
    json!({ "type": "string", "format": "binary", "contentMediaType": "application/octet-stream" })
}

fn titled(mut schema: Value, name: &str) -> Value {
    if let Value::Object(map) = &mut schema {
        map.insert("title".into(), json!(title_case(name)));
    }
    schema
}

impl Extract for UploadFile {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        match one_file(cx, param.name(), errors) {
            Ok(Some(file)) => Some(file),
            Ok(None) => {
                errors.missing(loc(param.name(), None));
                None
            }
            Err(()) => None,
        }
    }

    fn doc(param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        op.file_field(param.name(), titled(file_schema(), param.name()), true);
    }
}

impl Body for UploadFile {
    const STREAMED: bool = true;
}

impl Extract for Option<UploadFile> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        one_file(cx, param.name(), errors).ok()
    }

    fn doc(param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        let schema = json!({ "anyOf": [file_schema(), { "type": "null" }] });
        op.file_field(param.name(), titled(schema, param.name()), false);
    }
}

impl Body for Option<UploadFile> {
    const STREAMED: bool = true;
}

impl Extract for Vec<UploadFile> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name();
        let form = form(cx)?;
        let mut files = Vec::new();
        let mut valid = true;
        for (index, part) in form.named(name).enumerate() {
            match found(part) {
                Found::File(file) => files.push(*file),
                Found::Text(text) => {
                    not_a_file(text, loc(name, Some(index)), errors);
                    valid = false;
                }
                Found::Missing => {
                    not_a_file(String::new(), loc(name, Some(index)), errors);
                    valid = false;
                }
            }
        }
        if !valid {
            return None;
        }
        if files.is_empty() {
            if let Some(default) = param.default_value() {
                return Some(default);
            }
            errors.missing(loc(name, None));
            return None;
        }
        Some(files)
    }

    fn doc(param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        let mut schema = titled(json!({ "items": file_schema(), "type": "array" }), param.name());
        // A default (`#[default(Vec::new())]`, FastAPI's `list[UploadFile] = []`) is written,
        // as FastAPI writes it (no file has a JSON form, so only the empty list is).
        if param.default_value().is_some_and(|files| files.is_empty()) {
            schema["default"] = json!([]);
        }
        op.file_field(param.name(), schema, param.default_fn().is_none());
    }
}

impl Body for Vec<UploadFile> {
    const STREAMED: bool = true;
}
