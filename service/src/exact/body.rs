//! A JSON object request body read as exact JSON: the argument `Json<ExactBody>`.
//!
//! Rules enforced here:
//! - the framework's fast path (the body's bytes, straight from serde_json) lends the body's
//!   text (a borrowed `RawValue`: valid UTF-8, nothing copied) and it is read in one pass into
//!   its canonical text (see [`Tokens`](super::Tokens) for what is accepted); whatever is not one
//!   JSON object is declined, and the framework's lax path then answers exactly as it does for
//!   `Json<Map<String, Value>>`: `missing`, `json_invalid` (with Python's offsets), invalid
//!   UTF-8, too deep nesting, `dict_type` for any other JSON value or a body not sent as JSON;
//! - a JSON object the lax path reads after the fast path declined it could only mean the two
//!   readers disagree: it is refused (422 `json_invalid`), never stored with its numbers rounded;
//! - reading holds at most [`PARSE_COST`] bytes per byte of the body (beside the body itself),
//!   and the value kept is the canonical text alone; that is what the framework's memory budget
//!   charges before the read (`FastJson::fast_cost`), not what a JSON tree of the body would cost;
//! - its JSON Schema is `Map<String, Value>`'s, so the OpenAPI document is what it was.

use ferrapi::convert::{Constrainable, FastJson, FromJson};
use ferrapi::schema::{JsonSchema, SchemaRegistry};
use ferrapi::validation::{Failure, Loc, ValidationErrors};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

use super::canonical::{canonical_object, PARSE_COST};
use super::scan::ScanError;

/// A request body that is one JSON object, as its canonical text (numbers as sent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactBody {
    text: String,
    unkeepable: bool,
}

impl ExactBody {
    /// `text` (one JSON object, whitespace around it allowed) read as exact JSON.
    pub fn parse(text: &str) -> Result<Self, ScanError> {
        let canonical = canonical_object(text)?;
        Ok(ExactBody {
            text: canonical.text,
            unkeepable: canonical.unkeepable,
        })
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether some number sent has no BSON number of exactly its value (when `false`, every
    /// number of the text has one; when `true`, such a number was sent, and may have been left
    /// out since, as the value of a repeated key).
    pub fn may_hold_unkeepable(&self) -> bool {
        self.unkeepable
    }

    /// The canonical text, taken.
    pub fn into_text(self) -> String {
        self.text
    }
}

impl FastJson for ExactBody {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Borrowed: the framework reads from the body's bytes, so the text is not copied.
        let text = <&RawValue>::deserialize(deserializer)?;
        ExactBody::parse(text.get()).map_err(D::Error::custom)
    }

    /// What the one pass holds (no tree): the memory budget charges this, not a tree's cost.
    fn fast_cost(text: &[u8]) -> usize {
        text.len().saturating_mul(PARSE_COST)
    }
}

impl FromJson for ExactBody {
    fn from_json(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<Self> {
        if value.is_object() {
            errors.push(
                Failure::with_ctx(
                    "json_invalid",
                    "JSON decode error",
                    json!({ "error": "the body could not be read with its numbers as sent" }),
                )
                .at(loc.clone(), json!({})),
            );
        } else {
            // Not an object: the framework's own error for one (`dict_type`).
            let _ = Map::<String, Value>::from_json(value, loc, errors);
        }
        None
    }
}

impl JsonSchema for ExactBody {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        Map::<String, Value>::schema(registry)
    }
}

impl Constrainable for ExactBody {}

#[cfg(test)]
mod tests {
    use super::*;
    use ferrapi::validation::LocItem;

    fn fast(text: &str) -> Option<ExactBody> {
        let mut deserializer = serde_json::Deserializer::from_slice(text.as_bytes());
        let body = ExactBody::fast(&mut deserializer).ok()?;
        deserializer.end().ok()?;
        Some(body)
    }

    #[test]
    fn the_fast_path_takes_objects_with_their_numbers() {
        let body = fast(r#" {"a": 1E5, "b": [-0], "a": 1.50} "#).unwrap();
        assert_eq!(body.as_str(), r#"{"a":1.50,"b":[-0]}"#);
        assert!(!body.may_hold_unkeepable());
        assert!(fast(r#"{"a": 1e99999}"#).unwrap().may_hold_unkeepable());
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(126), "]".repeat(126));
        assert!(fast(&deep).is_some());
        let deeper = format!("{{\"a\":{}{}}}", "[".repeat(127), "]".repeat(127));
        for declined in [
            "[1]",
            "\"a\"",
            "1",
            "null",
            "{",
            "{\"a\":01}",
            "{} {}",
            "{\"a\":\"\\ud800\"}",
            deeper.as_str(),
        ] {
            assert!(fast(declined).is_none(), "{declined:.40}");
        }
        // Invalid UTF-8 is declined (the lax path names it).
        let mut deserializer = serde_json::Deserializer::from_slice(b"{\"a\":\"\xff\"}");
        assert!(ExactBody::fast(&mut deserializer).is_err());
    }

    #[test]
    fn the_lax_path_reports_and_never_accepts() {
        let mut loc = vec![LocItem::Static("body")];
        let mut errors = ValidationErrors::new();
        assert!(ExactBody::from_json(&json!([1]), &mut loc, &mut errors).is_none());
        assert_eq!(errors.items()[0].kind, "dict_type");

        let mut errors = ValidationErrors::new();
        assert!(ExactBody::from_json(&json!({"a": 1}), &mut loc, &mut errors).is_none());
        assert_eq!(errors.items()[0].kind, "json_invalid");
        assert_eq!(errors.items()[0].loc, vec![LocItem::Static("body")]);
    }

    #[test]
    fn the_schema_is_an_object_s() {
        let mut registry = SchemaRegistry::new();
        let mut expected = SchemaRegistry::new();
        assert_eq!(
            ExactBody::schema(&mut registry),
            Map::<String, Value>::schema(&mut expected)
        );
    }
}
