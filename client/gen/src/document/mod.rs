//! The OpenAPI document, read once into typed objects ([`model`], [`schema`]): local `$ref`s
//! followed, and the error that names where a construct cannot be mapped.
//!
//! Rules enforced here: every error names the JSON pointer (RFC 6901, `~1` for `/`) of what it is
//! about, a document that cannot be read as well as a construct that cannot be mapped; only
//! references inside the document (`#/…`) are followed, and a chain of references that loops is
//! an error, never a hang.

pub mod model;
mod read;
pub mod schema;

use std::borrow::Cow;
use std::fmt;

use indexmap::IndexMap;
use serde_json::Value;

use model::{Components, OpenApi, Parameter, PathItem, RequestBody, Response};
use schema::Schema;

/// A construct the generator cannot map (or a document it cannot read), and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenError {
    /// The JSON pointer of the construct (`#/components/schemas/Item/properties/tags`).
    pub pointer: String,
    /// What is wrong with it.
    pub message: String,
}

impl GenError {
    /// An error about the construct at `pointer`.
    pub fn at(pointer: &str, message: impl Into<String>) -> Self {
        GenError {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pointer, self.message)
    }
}

impl std::error::Error for GenError {}

/// The `description` (or `summary`) `text`, trimmed, if not empty.
pub fn text(text: Option<&String>) -> Option<String> {
    text.map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

/// `pointer` extended by the key `key` (escaped as RFC 6901 says).
pub fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// The document: read once into typed objects, and its JSON kept to follow a `$ref` that names
/// something other than a component.
#[derive(Debug)]
pub struct Document<'a> {
    root: &'a Value,
    api: OpenApi,
}

/// A part of the document a `$ref` may stand for.
pub trait Part: Clone + Sized {
    /// Where such parts are kept among the components (`schemas`, `parameters`, …).
    const KIND: &'static str;
    /// The `$ref` this part is, if it is one.
    fn reference(&self) -> Option<&str>;
    /// The components of this kind.
    fn components(components: &Components) -> &IndexMap<String, Self>;
    /// The part in `value`, at `pointer`.
    fn read(value: &Value, pointer: &str) -> Result<Self, GenError>;
}

impl<'a> Document<'a> {
    /// `root` as an OpenAPI document: it must be an object with `openapi: 3.x`, and every part
    /// the generator reads must have its JSON type.
    pub fn new(root: &'a Value) -> Result<Self, GenError> {
        let version = root.get("openapi").and_then(Value::as_str).unwrap_or_default();
        if !version.starts_with("3.") {
            return Err(GenError::at(
                "#/openapi",
                format!("not an OpenAPI 3 document (openapi: `{version}`)"),
            ));
        }
        Ok(Document {
            root,
            api: OpenApi::read(root)?,
        })
    }

    /// The document's objects.
    pub fn api(&self) -> &OpenApi {
        &self.api
    }

    /// `part` (found at `pointer`) with its `$ref`s followed: the part they lead to and its
    /// pointer. A component is the one already read; anything else in the document is read now.
    pub fn resolve<'p, T: Part>(
        &'p self,
        part: &'p T,
        pointer: &str,
    ) -> Result<(Cow<'p, T>, String), GenError> {
        let mut part = Cow::Borrowed(part);
        let mut pointer = pointer.to_owned();
        for _ in 0..32 {
            let Some(reference) = part.reference().map(str::to_owned) else {
                return Ok((part, pointer));
            };
            if !reference.starts_with("#/") {
                return Err(GenError::at(
                    &pointer,
                    format!(
                        "`$ref: {reference}` is outside the document (only `#/…` references are followed)"
                    ),
                ));
            }
            part = self
                .lookup(&reference)
                .ok_or_else(|| GenError::at(&pointer, format!("`$ref: {reference}` leads nowhere")))??;
            pointer = reference;
        }
        Err(GenError::at(&pointer, "a chain of `$ref`s that loops"))
    }

    /// The part at `#/`-pointer `reference`, if there is one.
    fn lookup<T: Part>(&self, reference: &str) -> Option<Result<Cow<'_, T>, GenError>> {
        let prefix = format!("#/components/{}/", T::KIND);
        if let Some(key) = reference.strip_prefix(&prefix).filter(|key| !key.contains('/')) {
            let key = key.replace("~1", "/").replace("~0", "~");
            return T::components(&self.api.components)
                .get(&key)
                .map(|part| Ok(Cow::Borrowed(part)));
        }
        let value = self.root.pointer(reference.strip_prefix('#')?)?;
        Some(T::read(value, reference).map(Cow::Owned))
    }
}

macro_rules! part {
    ($type:ty, $kind:literal, $field:ident) => {
        impl Part for $type {
            const KIND: &'static str = $kind;

            fn reference(&self) -> Option<&str> {
                self.reference.as_deref()
            }

            fn components(components: &Components) -> &IndexMap<String, Self> {
                &components.$field
            }

            fn read(value: &Value, pointer: &str) -> Result<Self, GenError> {
                <$type>::read(value, pointer)
            }
        }
    };
}

part!(Parameter, "parameters", parameters);
part!(RequestBody, "requestBodies", request_bodies);
part!(Response, "responses", responses);
part!(PathItem, "pathItems", path_items);

impl Part for Schema {
    const KIND: &'static str = "schemas";

    fn reference(&self) -> Option<&str> {
        Schema::reference(self)
    }

    fn components(components: &Components) -> &IndexMap<String, Self> {
        &components.schemas
    }

    fn read(value: &Value, pointer: &str) -> Result<Self, GenError> {
        Schema::read(value, pointer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_escape_slashes() {
        assert_eq!(child("#/paths", "/item/{id}"), "#/paths/~1item~1{id}");
    }

    #[test]
    fn references_are_followed_within_the_document_only() {
        let root = json!({"openapi": "3.1.0", "components": {"parameters": {
            "a": {"$ref": "#/components/parameters/b"}, "b": {"name": "x"},
            "c": {"$ref": "#/components/parameters/c"}, "d": {"$ref": "#/components/parameters/b/name"},
            "e": {"$ref": "#/components/parameters/~1f"}, "/f": {"$ref": "#/paths"}
        }}, "paths": {}});
        let document = Document::new(&root).unwrap();
        let parameters = &document.api().components.parameters;
        let (parameter, pointer) = document
            .resolve(&parameters["a"], "#/components/parameters/a")
            .unwrap();
        assert_eq!(
            (parameter.name.as_deref(), pointer.as_str()),
            (Some("x"), "#/components/parameters/b")
        );
        assert_eq!(
            document.resolve(&parameters["c"], "#/x").unwrap_err().message,
            "a chain of `$ref`s that loops"
        );
        // Not a component: read where it is (here, wrongly typed).
        assert_eq!(
            document.resolve(&parameters["d"], "#/d").unwrap_err(),
            GenError::at("#/components/parameters/b/name", "a parameter must be an object")
        );
        let (parameter, pointer) = document.resolve(&parameters["e"], "#/e").unwrap();
        assert_eq!((parameter.name.clone(), pointer.as_str()), (None, "#/paths"));
        let external = Parameter {
            reference: Some("other.json#/x".to_owned()),
            ..Parameter::default()
        };
        assert!(document.resolve(&external, "#/y").is_err());
        assert!(Document::new(&json!({"swagger": "2.0"})).is_err());
    }
}
