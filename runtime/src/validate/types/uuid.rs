//! `uuid::Uuid` as pydantic's `UUID`: hyphenated, simple, braced or `urn:uuid:` text in any
//! letter case, written back hyphenated and lower case.
//!
//! Rules enforced here: text that is not a UUID is `uuid_parsing` with the `uuid` crate's words,
//! which are pydantic's (pydantic-core reads UUIDs with the same crate); a JSON value that is not
//! a string is `uuid_type`.

use serde_json::{json, Value};
use uuid::Uuid;

use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

impl TextValue for Uuid {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        Uuid::parse_str(raw).map_err(|error| {
            let error = error.to_string();
            Failure::with_ctx(
                "uuid_parsing",
                format!("Input should be a valid UUID, {error}"),
                json!({ "error": error }),
            )
        })
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => Self::from_text(text),
            _ => Err(Failure::new(
                "uuid_type",
                "UUID input should be a string, bytes or UUID object",
            )),
        }
    }
    fn schema() -> Value {
        string_format("uuid")
    }
}

text_value!(Uuid => "UUID");

impl Constrainable for Uuid {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_and_errors() {
        let id = "6f1c8a52-3f0e-4c8e-9d7b-2a1b3c4d5e6f";
        for form in [
            id.to_uppercase(),
            id.replace('-', ""),
            format!("{{{id}}}"),
            format!("urn:uuid:{id}"),
        ] {
            assert_eq!(
                Uuid::from_text(&form).map(|u| u.to_string()),
                Ok(id.to_owned()),
                "{form}"
            );
        }
        assert_eq!(
            Uuid::from_text(&id[..35]).unwrap_err().msg,
            "Input should be a valid UUID, invalid group length in group 4: expected 12, found 11"
        );
        assert_eq!(Uuid::from_value(&json!(123)).unwrap_err().kind, "uuid_type");
    }
}
