//! Reading a JSON text into an [`ExactValue`], every number as its text.
//!
//! Rules enforced here:
//! - serde_json does the reading (strings and their escapes, nesting and its depth limit,
//!   keys sent twice), so exact JSON accepts and refuses what the framework's JSON bodies do, but
//!   for numbers: serde_json hands a visitor a number only as an i64, u64 or f64, and refuses one
//!   beyond a double (`1e400`) outright. So the numbers are cut out of the text first
//!   ([`blank_numbers`]: each replaced by `0`, its text kept), and serde_json reads the rest;
//!   it visits values in the order they are written, so the n-th number it visits is the n-th one
//!   cut out (a value later replaced by a repeated key is visited too, so the count holds);
//! - the cutting knows strings (an escaped `"` does not end one), so digits inside a string are
//!   never taken for a number, and it checks every number against JSON's grammar, so blanking
//!   never turns an invalid text into a valid one (`01` is refused, not read as `0`);
//! - one pass to cut, one to read: the cost is linear in the text, whatever its nesting.

use std::fmt;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;

use super::number::is_json_number;
use super::{ExactMap, ExactNumber, ExactValue};

/// Why a text is not exact JSON (or not the object it should be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// Read `text`, one JSON value (whitespace around it allowed).
pub fn parse(text: &str) -> Result<ExactValue, ParseError> {
    let (blanked, numbers) = blank_numbers(text)?;
    let mut numbers = numbers.into_iter();
    let mut deserializer = serde_json::Deserializer::from_str(&blanked);
    let value = ValueSeed {
        numbers: &mut numbers,
    }
    .deserialize(&mut deserializer)
    .map_err(|err| ParseError(err.to_string()))?;
    deserializer.end().map_err(|err| ParseError(err.to_string()))?;
    if numbers.next().is_some() {
        return Err(ParseError("a number was not read".to_owned()));
    }
    Ok(value)
}

/// Read `text`, which must be one JSON object.
pub fn parse_object(text: &str) -> Result<ExactMap, ParseError> {
    match parse(text)? {
        ExactValue::Object(map) => Ok(map),
        _ => Err(ParseError("not a JSON object".to_owned())),
    }
}

/// `text` with every number outside a string replaced by `0`, and the numbers' texts in order.
fn blank_numbers(text: &str) -> Result<(String, Vec<&str>), ParseError> {
    let bytes = text.as_bytes();
    let mut blanked = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let mut copied = 0;
    let mut at = 0;
    let mut in_string = false;
    while let Some(&byte) = bytes.get(at) {
        if in_string {
            match byte {
                // The escaped byte is skipped with it (UTF-8 continuation bytes are never `"` or
                // `\`, so stepping by bytes is safe).
                b'\\' => at += 1,
                b'"' => in_string = false,
                _ => {}
            }
            at += 1;
        } else if byte == b'"' {
            in_string = true;
            at += 1;
        } else if byte == b'-' || byte.is_ascii_digit() {
            let rest = bytes.get(at..).unwrap_or_default();
            let len = rest
                .iter()
                .take_while(|b| matches!(b, b'0'..=b'9' | b'+' | b'-' | b'.' | b'e' | b'E'))
                .count();
            // The bytes are ASCII, so these are character boundaries.
            let (Some(before), Some(number)) = (text.get(copied..at), text.get(at..at + len)) else {
                return Err(ParseError("a number is cut by a character".to_owned()));
            };
            if !is_json_number(number.as_bytes()) {
                return Err(ParseError(format!("{number:?} is not a JSON number")));
            }
            blanked.push_str(before);
            blanked.push('0');
            numbers.push(number);
            at += len;
            copied = at;
        } else {
            at += 1;
        }
    }
    blanked.push_str(text.get(copied..).unwrap_or_default());
    Ok((blanked, numbers))
}

/// Reads one value, taking each number's text from `numbers`.
struct ValueSeed<'n, 't> {
    numbers: &'n mut std::vec::IntoIter<&'t str>,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = ExactValue;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<ExactValue, D::Error> {
        // `deserialize_any`, as serde_json's `Value` is read: the same nesting limit applies.
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = ExactValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<ExactValue, E> {
        Ok(ExactValue::Null)
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<ExactValue, E> {
        Ok(ExactValue::Bool(value))
    }

    fn visit_u64<E: serde::de::Error>(self, _blank: u64) -> Result<ExactValue, E> {
        let text = self
            .numbers
            .next()
            .ok_or_else(|| E::custom("more numbers read than cut out"))?;
        ExactNumber::parse(text)
            .map(ExactValue::Number)
            .ok_or_else(|| E::custom(format!("{text:?} is not a JSON number")))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<ExactValue, E> {
        Ok(ExactValue::String(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<ExactValue, E> {
        Ok(ExactValue::String(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ExactValue, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ValueSeed {
            numbers: &mut *self.numbers,
        })? {
            items.push(item);
        }
        Ok(ExactValue::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ExactValue, A::Error> {
        let mut object = ExactMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(ValueSeed {
                numbers: &mut *self.numbers,
            })?;
            object.insert(key, value);
        }
        Ok(ExactValue::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        serde_json::to_string(&parse(text).unwrap()).unwrap()
    }

    #[test]
    fn numbers_keep_their_text() {
        let big = "9".repeat(30_000);
        for number in [
            "18446744073709551616",
            "-9223372036854775809",
            "1e-400",
            "1e400",
            "-0",
            "-0.0",
            "0.1",
            "1.0",
            "1E5",
            "1e+05",
            "1234567890.123456789012345678901234567890",
            big.as_str(),
        ] {
            assert_eq!(round_trip(number), number);
            assert_eq!(
                round_trip(&format!(" [ {number} , {{\"k\" : {number} }} ] ")),
                format!("[{number},{{\"k\":{number}}}]")
            );
        }
    }

    #[test]
    fn digits_in_strings_are_not_numbers() {
        let text = r#"{"a\"1":"2 -3 \\","b":[4,"5e6",7.5],"-8":9}"#;
        assert_eq!(round_trip(text), text);
    }

    #[test]
    fn a_repeated_key_keeps_its_place_and_its_last_value() {
        assert_eq!(round_trip(r#"{"a":1.0,"b":2,"a":3e0}"#), r#"{"a":3e0,"b":2}"#);
    }

    #[test]
    fn what_serde_json_refuses_is_refused() {
        // serde_json's limit, as for the framework's `Value`s: 127 levels.
        let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
        for bad in [
            "",
            "{",
            "01",
            "[1.]",
            "[-]",
            "[1e]",
            "[1,]",
            "[1 2]",
            "{\"a\" 1}",
            "NaN",
            "[Infinity]",
            "\"\\ud800\"",
            "\"\\x\"",
            "[0x1]",
            "1 1",
            "[1-2]",
            deep.as_str(),
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        let deep_enough = format!("{}{}", "[".repeat(127), "]".repeat(127));
        assert!(parse(&deep_enough).is_ok());
        assert!(serde_json::from_str::<serde_json::Value>(&deep_enough).is_ok());
        assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
    }

    #[test]
    fn only_objects_are_objects() {
        assert!(parse_object("{}").is_ok());
        for other in ["[]", "1", "\"a\"", "null"] {
            assert!(parse_object(other).is_err(), "{other}");
        }
    }
}
