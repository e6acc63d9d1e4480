//! The OpenAPI document as read: its parts by JSON pointer, local `$ref`s resolved, and the error
//! that names where a construct cannot be mapped.
//!
//! Rules enforced here: every error names the JSON pointer (RFC 6901, `~1` for `/`) of what it is
//! about; only references inside the document (`#/…`) are followed, and a chain of references
//! that loops is an error, never a hang.

use std::fmt;

use serde_json::Value;

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

/// `pointer` extended by the key `key` (escaped as RFC 6901 says).
pub fn child(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// The document.
#[derive(Debug)]
pub struct Document<'a> {
    root: &'a Value,
}

impl<'a> Document<'a> {
    /// `root` as an OpenAPI document: it must be an object with `openapi: 3.x`.
    pub fn new(root: &'a Value) -> Result<Self, GenError> {
        let version = root.get("openapi").and_then(Value::as_str).unwrap_or_default();
        if !version.starts_with("3.") {
            return Err(GenError::at(
                "#/openapi",
                format!("not an OpenAPI 3 document (openapi: `{version}`)"),
            ));
        }
        Ok(Document { root })
    }

    /// The value at `#/`-pointer `pointer`.
    pub fn get(&self, pointer: &str) -> Option<&'a Value> {
        self.root.pointer(pointer.strip_prefix('#')?)
    }

    /// The root.
    pub fn root(&self) -> &'a Value {
        self.root
    }

    /// `value` (found at `pointer`) with its `$ref`s followed: the value they lead to and its
    /// pointer.
    pub fn resolve(&self, value: &'a Value, pointer: &str) -> Result<(&'a Value, String), GenError> {
        let mut value = value;
        let mut pointer = pointer.to_owned();
        for _ in 0..32 {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
                return Ok((value, pointer));
            };
            if !reference.starts_with("#/") {
                return Err(GenError::at(
                    &pointer,
                    format!(
                        "`$ref: {reference}` is outside the document (only `#/…` references are followed)"
                    ),
                ));
            }
            value = self
                .get(reference)
                .ok_or_else(|| GenError::at(&pointer, format!("`$ref: {reference}` leads nowhere")))?;
            pointer = reference.to_owned();
        }
        Err(GenError::at(&pointer, "a chain of `$ref`s that loops"))
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
        let root = json!({"openapi": "3.1.0", "components": {"parameters": {"a": {"$ref": "#/components/parameters/b"}, "b": {"name": "x"}, "c": {"$ref": "#/components/parameters/c"}}}});
        let document = Document::new(&root).unwrap();
        let a = document.get("#/components/parameters/a").unwrap();
        let (value, pointer) = document.resolve(a, "#/components/parameters/a").unwrap();
        assert_eq!(
            (value, pointer.as_str()),
            (&json!({"name": "x"}), "#/components/parameters/b")
        );
        let c = document.get("#/components/parameters/c").unwrap();
        assert_eq!(
            document.resolve(c, "#/x").unwrap_err().message,
            "a chain of `$ref`s that loops"
        );
        let external = json!({"$ref": "other.json#/x"});
        assert!(document.resolve(&external, "#/y").is_err());
        assert!(Document::new(&json!({"swagger": "2.0"})).is_err());
    }
}
