//! A JSON object request body read as exact JSON: the argument `Json<ExactBody>`.
//!
//! Rules enforced here:
//! - the framework's fast path (the body's bytes, straight from serde_json) reads the body whole
//!   as text and [`parse_object`] reads that, so every number keeps its text; it declines
//!   whatever is not one JSON object, and the framework's lax path then answers exactly as it does
//!   for `Json<Map<String, Value>>`: `missing`, `json_invalid` (with Python's offsets), invalid
//!   UTF-8, too deep nesting, `dict_type` for any other JSON value or a body not sent as JSON;
//! - a JSON object the lax path reads after the fast path declined it could only mean the two
//!   readers disagree: it is refused (422 `json_invalid`), never stored with its numbers rounded;
//! - its JSON Schema is `Map<String, Value>`'s, so the OpenAPI document is what it was.

use ferrapi::convert::{Constrainable, FastJson, FromJson};
use ferrapi::schema::{JsonSchema, SchemaRegistry};
use ferrapi::validation::{Failure, Loc, ValidationErrors};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};

use super::{parse_object, ExactMap};

/// A request body that is one JSON object, its numbers as sent.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactBody(pub ExactMap);

impl FastJson for ExactBody {
    fn fast<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = Box::<RawValue>::deserialize(deserializer)?;
        parse_object(text.get()).map(ExactBody).map_err(D::Error::custom)
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
        let mut deserializer = serde_json::Deserializer::from_str(text);
        ExactBody::fast(&mut deserializer).ok()
    }

    #[test]
    fn the_fast_path_takes_objects_with_their_numbers() {
        let body = fast(r#" {"a": 1E5, "b": [-0]} "#).unwrap();
        assert_eq!(
            serde_json::to_string(&super::super::ExactValue::Object(body.0)).unwrap(),
            r#"{"a":1E5,"b":[-0]}"#
        );
        for declined in ["[1]", "\"a\"", "1", "null", "{", "{\"a\":01}"] {
            assert!(fast(declined).is_none(), "{declined}");
        }
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
