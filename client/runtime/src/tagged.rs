//! Discriminated unions (`oneOf` + `discriminator`): read by their tag, written as their variant.
//!
//! Rules enforced here: the tag property is read first and picks the one variant to decode (a
//! single attempt, whose errors name that variant's fields), and the variant keeps the tag
//! property as its own field, so it is written back with it (a variant struct is also a type of
//! its own, used elsewhere with its tag); a missing or unknown tag is an error naming the tag
//! property and the values it may take.

use serde::de::{self, DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_json::Value;

/// Read a union's value and its tag (`property`'s string).
pub fn read<'de, D: Deserializer<'de>>(
    deserializer: D,
    property: &'static str,
) -> Result<(String, Value), D::Error> {
    let value = Value::deserialize(deserializer)?;
    match value.get(property) {
        Some(Value::String(tag)) => Ok((tag.clone(), value)),
        Some(_) => Err(de::Error::custom(format_args!(
            "the union's tag `{property}` is not a string"
        ))),
        None => Err(de::Error::missing_field(property)),
    }
}

/// Decode `value` as the variant its tag names.
pub fn variant<T: DeserializeOwned, E: de::Error>(value: Value) -> Result<T, E> {
    T::deserialize(value).map_err(E::custom)
}

/// The error for a tag no variant has.
pub fn unknown<E: de::Error>(tag: &str, expected: &'static [&'static str]) -> E {
    E::unknown_variant(tag, expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_is_read_first() {
        let mut json = serde_json::Deserializer::from_str(r#"{"kind": "cat", "lives": 9}"#);
        let (tag, value) = read(&mut json, "kind").unwrap();
        assert_eq!((tag.as_str(), &value["lives"]), ("cat", &Value::from(9)));
        let mut untagged = serde_json::Deserializer::from_str(r#"{"lives": 9}"#);
        assert_eq!(
            read(&mut untagged, "kind").unwrap_err().to_string(),
            "missing field `kind`"
        );
        let error: serde_json::Error = unknown("cow", &["cat", "dog"]);
        assert_eq!(
            error.to_string(),
            "unknown variant `cow`, expected `cat` or `dog`"
        );
    }
}
