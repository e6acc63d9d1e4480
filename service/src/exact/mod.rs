//! Exact JSON: JSON values whose numbers are the texts they were sent as. Birds are read, stored
//! and answered as exact JSON, because the specification stores "whatever the client sent", and
//! `serde_json::Value` turns every number into an i64, a u64 or an f64 (`18446744073709551616`
//! came back as `1.8446744073709552e+19`, `1e-400` as `0.0`, `-0` as `-0.0`).
//!
//! Rules enforced here:
//! - a number is its text, byte for byte as sent ([`ExactNumber`]): nothing converts it to a
//!   binary number on the way in or out, and writing an [`ExactValue`] writes each number's text
//!   unchanged (everything else as serde_json writes it);
//! - objects keep their keys in the order sent; a key sent twice keeps its first place and its
//!   last value, as Python's `dict` and serde_json's `Map` (with `preserve_order`) do, so as the
//!   framework's JSON bodies always did;
//! - this is local to the bird path: serde_json's `arbitrary_precision` would do the same for
//!   every `Value` of the workspace, framework included (Cargo features unify), changing how
//!   every body is parsed and compared; exact JSON needs only serde_json's `raw_value` (to carry
//!   a number's text, and the body's) which changes nothing for code that does not use it.

mod body;
mod number;
mod parse;

use indexmap::IndexMap;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

pub use body::ExactBody;
pub use number::{BsonNumber, ExactNumber, Unkeepable, DECIMAL128_DIGITS};
pub use parse::{parse, parse_object, ParseError};

/// A JSON object of exact JSON values, keys in the order sent.
pub type ExactMap = IndexMap<String, ExactValue>;

/// A JSON value whose numbers are the texts they were sent as.
#[derive(Debug, Clone, PartialEq)]
pub enum ExactValue {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its text.
    Number(ExactNumber),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<ExactValue>),
    /// An object.
    Object(ExactMap),
}

impl Serialize for ExactValue {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ExactValue::Null => serializer.serialize_unit(),
            ExactValue::Bool(b) => serializer.serialize_bool(*b),
            ExactValue::Number(n) => n.serialize(serializer),
            ExactValue::String(s) => serializer.serialize_str(s),
            ExactValue::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            ExactValue::Object(map) => serialize_map(map, serializer),
        }
    }
}

/// The JSON text of `map`, every number as its text.
pub fn object_to_string(map: &ExactMap) -> serde_json::Result<String> {
    struct Object<'a>(&'a ExactMap);
    impl Serialize for Object<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_map(self.0, serializer)
        }
    }
    serde_json::to_string(&Object(map))
}

/// An [`ExactMap`] as a JSON object (indexmap's own `Serialize` needs a feature; this is all of
/// it).
fn serialize_map<S: Serializer>(map: &ExactMap, serializer: S) -> Result<S::Ok, S::Error> {
    let mut out = serializer.serialize_map(Some(map.len()))?;
    for (key, value) in map {
        out.serialize_entry(key, value)?;
    }
    out.end()
}

impl From<&Value> for ExactValue {
    /// The same JSON; a number as serde_json writes it (what it was read as, when it came from
    /// serde_json).
    fn from(value: &Value) -> Self {
        match value {
            Value::Null => ExactValue::Null,
            Value::Bool(b) => ExactValue::Bool(*b),
            Value::Number(n) => {
                ExactNumber::parse(&n.to_string()).map_or(ExactValue::Null, ExactValue::Number)
            }
            Value::String(s) => ExactValue::String(s.clone()),
            Value::Array(items) => ExactValue::Array(items.iter().map(ExactValue::from).collect()),
            Value::Object(map) => ExactValue::Object(
                map.iter()
                    .map(|(key, value)| (key.clone(), ExactValue::from(value)))
                    .collect(),
            ),
        }
    }
}

impl ExactValue {
    /// As a `serde_json::Value`, for code that reads documents without exactness: a number as
    /// serde_json reads its text (rounded to a double where it must be), and one beyond a
    /// double's range, which serde_json refuses, as MongoDB's extended JSON for a decimal,
    /// `{"$numberDecimal": "1e400"}` (what a plain read of a Decimal128 from MongoDB shows).
    pub fn to_value(&self) -> Value {
        match self {
            ExactValue::Null => Value::Null,
            ExactValue::Bool(b) => Value::Bool(*b),
            ExactValue::Number(n) => serde_json::from_str::<serde_json::Number>(n.as_str()).map_or_else(
                |_| serde_json::json!({ "$numberDecimal": n.as_str() }),
                Value::Number,
            ),
            ExactValue::String(s) => Value::String(s.clone()),
            ExactValue::Array(items) => Value::Array(items.iter().map(ExactValue::to_value).collect()),
            ExactValue::Object(map) => Value::Object(to_map(map)),
        }
    }
}

/// `map` as a `serde_json` object, each value as [`ExactValue::to_value`] gives it.
pub fn to_map(map: &ExactMap) -> Map<String, Value> {
    map.iter()
        .map(|(key, value)| (key.clone(), value.to_value()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_are_written_as_sent_and_the_rest_as_serde_json_writes_it() {
        let text = r#"{"n":1E5,"z":-0,"s":"a\"b\u00e9","l":[null,true,1.50,{"k":-0.0}],"e":{}}"#;
        let value = parse(text).unwrap();
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            r#"{"n":1E5,"z":-0,"s":"a\"bé","l":[null,true,1.50,{"k":-0.0}],"e":{}}"#
        );
    }

    #[test]
    fn values_convert_both_ways() {
        let value = json!({"a": 1, "b": [0.5, "x", null], "c": {"d": false}, "e": u64::MAX});
        let exact = ExactValue::from(&value);
        assert_eq!(exact.to_value(), value);
        assert_eq!(serde_json::to_string(&exact).unwrap(), value.to_string());
        // Beyond a double: MongoDB's extended JSON for a decimal, not an error.
        let big = parse(r#"{"big":1e400,"small":1e-400,"long":18446744073709551616}"#).unwrap();
        assert_eq!(
            big.to_value(),
            json!({"big": {"$numberDecimal": "1e400"}, "small": 0.0, "long": 18446744073709551616_f64})
        );
    }
}
