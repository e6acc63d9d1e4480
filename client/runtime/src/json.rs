//! Free-form JSON (`{}`, `additionalProperties: true`) that keeps every number exactly as it was
//! written: `18446744073709551616`, `1e400` and a 40-digit decimal go out and come back unchanged,
//! where `serde_json::Value` would turn them into the nearest `f64`.
//!
//! Rules enforced here:
//! - a number is kept as its text ([`JsonNumber`]), read from the answer's bytes: [`Json`] asks
//!   serde_json for the value's raw text (its `raw_value` feature, which adds `RawValue` and
//!   changes nothing else; `arbitrary_precision` would change `serde_json::Number` for every
//!   crate of the user's program, the server's included) and reads it with the small parser
//!   below; a format that has no raw text hands over the value itself, numbers as it holds them;
//! - written, a number is its text again (a `RawValue`), so serde_json writes it byte for byte;
//! - an object keeps its members in the order they were written;
//! - nesting is bounded (128 levels, serde_json's own limit), so a hostile answer is an error,
//!   never a stack overflow.

use std::borrow::Cow;
use std::fmt;
use std::ops::Index;
use std::str::FromStr;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Any JSON value, its numbers kept exactly as written.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Json {
    /// `null`.
    #[default]
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as its text.
    Number(JsonNumber),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its members in the order written.
    Object(JsonObject),
}

/// A JSON number as it was written (`18446744073709551616`, `1e400`, `0.1000`): nothing is
/// rounded until you ask for a Rust number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct JsonNumber(String);

/// A JSON object: its members in the order they were written (a later one with the same name
/// replaces the earlier, as serde_json does).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct JsonObject(Vec<(String, Json)>);

/// serde_json's name for "give me this value's text" (the `RawValue` protocol): a stable part
/// of serde_json's `raw_value` feature since 1.0.29, and checked by this module's tests.
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// serde_json's recursion limit, which bounds this module's parser too.
const MAX_DEPTH: usize = 128;

/// The text is not a JSON number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidNumber(String);

impl fmt::Display for InvalidNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a JSON number: `{}`", self.0)
    }
}

impl std::error::Error for InvalidNumber {}

impl JsonNumber {
    /// The number as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The number as an `i64`, if it is an integer written without fraction or exponent and
    /// fits.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The number as a `u64`, if it is a non-negative integer that fits.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    /// The nearest `f64` (infinite beyond its range, as Python's `float()` would not be: check
    /// [`as_str`](Self::as_str) when that matters).
    pub fn as_f64(&self) -> f64 {
        self.0.parse().unwrap_or(f64::NAN)
    }

    /// The number read as any type with a `FromStr` (a `rust_decimal::Decimal`, a big integer).
    pub fn parse<T: FromStr>(&self) -> Result<T, T::Err> {
        self.0.parse()
    }

    /// A finite `f64`, written as its shortest round-trip text; `None` for NaN or an infinity,
    /// which JSON cannot hold.
    pub fn from_f64(value: f64) -> Option<Self> {
        value.is_finite().then(|| {
            JsonNumber(
                serde_json::Number::from_f64(value).map_or_else(|| value.to_string(), |n| n.to_string()),
            )
        })
    }
}

/// The length of the JSON number at the start of `bytes` (RFC 8259's grammar), or `None`.
fn number_len(bytes: &[u8]) -> Option<usize> {
    let digits = |at: usize| {
        bytes[at.min(bytes.len())..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut at = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => at += digits(at),
        _ => return None,
    }
    if bytes.get(at) == Some(&b'.') {
        let n = digits(at + 1);
        if n == 0 {
            return None;
        }
        at += 1 + n;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(bytes.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        let n = digits(at);
        if n == 0 {
            return None;
        }
        at += n;
    }
    Some(at)
}

impl FromStr for JsonNumber {
    type Err = InvalidNumber;

    fn from_str(text: &str) -> Result<Self, InvalidNumber> {
        match number_len(text.as_bytes()) {
            Some(len) if len == text.len() => Ok(JsonNumber(text.to_owned())),
            _ => Err(InvalidNumber(text.to_owned())),
        }
    }
}

impl fmt::Display for JsonNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! number_from_integer {
    ($($ty:ty),*) => {$(
        impl From<$ty> for JsonNumber {
            fn from(value: $ty) -> Self {
                JsonNumber(value.to_string())
            }
        }

        impl From<$ty> for Json {
            fn from(value: $ty) -> Self {
                Json::Number(value.into())
            }
        }
    )*};
}
number_from_integer!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize);

impl From<serde_json::Number> for JsonNumber {
    fn from(number: serde_json::Number) -> Self {
        JsonNumber(number.to_string())
    }
}

impl PartialEq<serde_json::Number> for JsonNumber {
    /// Equal when they are the same number: integers exactly, others as `f64`s (a
    /// `serde_json::Number` holds no more than that).
    fn eq(&self, other: &serde_json::Number) -> bool {
        if let Some(i) = other.as_i64() {
            return self.as_i64() == Some(i);
        }
        if let Some(u) = other.as_u64() {
            return self.as_u64() == Some(u);
        }
        other.as_f64().is_some_and(|f| self.as_f64() == f)
    }
}

impl Serialize for JsonNumber {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // serde_json writes a `RawValue`'s text as it is; the text is a number by construction.
        let raw = RawValue::from_string(self.0.clone()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl JsonObject {
    /// An empty object.
    pub fn new() -> Self {
        JsonObject(Vec::new())
    }

    /// The member `name`.
    pub fn get(&self, name: &str) -> Option<&Json> {
        self.0.iter().find(|(key, _)| key == name).map(|(_, value)| value)
    }

    /// The member `name`, to change it.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Json> {
        self.0
            .iter_mut()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
    }

    /// Set member `name` (in place when it exists, else last); the old value, if any.
    pub fn insert(&mut self, name: impl Into<String>, value: impl Into<Json>) -> Option<Json> {
        let name = name.into();
        let value = value.into();
        match self.get_mut(&name) {
            Some(slot) => Some(std::mem::replace(slot, value)),
            None => {
                self.0.push((name, value));
                None
            }
        }
    }

    /// Take member `name` out.
    pub fn remove(&mut self, name: &str) -> Option<Json> {
        let at = self.0.iter().position(|(key, _)| key == name)?;
        Some(self.0.remove(at).1)
    }

    /// The members, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.0.iter().map(|(key, value)| (key.as_str(), value))
    }

    /// How many members it has.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when it has no member.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<K: Into<String>, V: Into<Json>> FromIterator<(K, V)> for JsonObject {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(members: I) -> Self {
        let mut object = JsonObject::new();
        for (name, value) in members {
            object.insert(name, value);
        }
        object
    }
}

impl IntoIterator for JsonObject {
    type Item = (String, Json);
    type IntoIter = std::vec::IntoIter<(String, Json)>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Serialize for JsonObject {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for JsonObject {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Json::deserialize(deserializer)? {
            Json::Object(object) => Ok(object),
            other => Err(de::Error::custom(format_args!(
                "expected a JSON object, got {other}"
            ))),
        }
    }
}

impl PartialEq<serde_json::Map<String, serde_json::Value>> for JsonObject {
    fn eq(&self, other: &serde_json::Map<String, serde_json::Value>) -> bool {
        self.len() == other.len()
            && other
                .iter()
                .all(|(name, value)| self.get(name).is_some_and(|mine| mine == value))
    }
}

impl Json {
    /// The member `name` of an object.
    pub fn get(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(object) => object.get(name),
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The number, as written.
    pub fn as_number(&self) -> Option<&JsonNumber> {
        match self {
            Json::Number(number) => Some(number),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(JsonNumber::as_i64)
    }

    /// The boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The array's items, if it is one.
    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The object, if it is one.
    pub fn as_object(&self) -> Option<&JsonObject> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }

    /// True for `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}

static NULL: Json = Json::Null;

impl Index<&str> for Json {
    type Output = Json;

    /// The member `name`, or `null` when there is none (as `serde_json::Value` indexes).
    fn index(&self, name: &str) -> &Json {
        self.get(name).unwrap_or(&NULL)
    }
}

impl Index<usize> for Json {
    type Output = Json;

    /// The item at `at`, or `null` when there is none.
    fn index(&self, at: usize) -> &Json {
        self.as_array().and_then(|items| items.get(at)).unwrap_or(&NULL)
    }
}

impl From<serde_json::Value> for Json {
    /// serde_json's value (its numbers already as `serde_json` holds them).
    fn from(value: serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Json::Null,
            serde_json::Value::Bool(b) => Json::Bool(b),
            serde_json::Value::Number(n) => Json::Number(n.into()),
            serde_json::Value::String(s) => Json::String(s),
            serde_json::Value::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            serde_json::Value::Object(members) => Json::Object(members.into_iter().collect()),
        }
    }
}

impl From<bool> for Json {
    fn from(value: bool) -> Self {
        Json::Bool(value)
    }
}

impl From<&str> for Json {
    fn from(value: &str) -> Self {
        Json::String(value.to_owned())
    }
}

impl From<String> for Json {
    fn from(value: String) -> Self {
        Json::String(value)
    }
}

impl From<JsonNumber> for Json {
    fn from(value: JsonNumber) -> Self {
        Json::Number(value)
    }
}

impl From<JsonObject> for Json {
    fn from(value: JsonObject) -> Self {
        Json::Object(value)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(items: Vec<T>) -> Self {
        Json::Array(items.into_iter().map(Into::into).collect())
    }
}

impl PartialEq<serde_json::Value> for Json {
    /// Equal when they hold the same value (numbers as [`JsonNumber`] compares them), so a test
    /// can compare an answer with a `json!`.
    fn eq(&self, other: &serde_json::Value) -> bool {
        match (self, other) {
            (Json::Null, serde_json::Value::Null) => true,
            (Json::Bool(a), serde_json::Value::Bool(b)) => a == b,
            (Json::Number(a), serde_json::Value::Number(b)) => a == b,
            (Json::String(a), serde_json::Value::String(b)) => a == b,
            (Json::Array(a), serde_json::Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(a, b)| a == b)
            }
            (Json::Object(a), serde_json::Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl PartialEq<bool> for Json {
    fn eq(&self, other: &bool) -> bool {
        self.as_bool() == Some(*other)
    }
}

impl PartialEq<&str> for Json {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<i64> for Json {
    fn eq(&self, other: &i64) -> bool {
        self.as_i64() == Some(*other)
    }
}

impl PartialEq<f64> for Json {
    /// A number equal to `other` as the nearest `f64`.
    fn eq(&self, other: &f64) -> bool {
        self.as_number().is_some_and(|n| n.as_f64() == *other)
    }
}

impl fmt::Display for Json {
    /// Compact JSON text, numbers as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl FromStr for Json {
    type Err = serde_json::Error;

    /// JSON text, numbers kept as written.
    fn from_str(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(object) => object.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // serde_json answers this with the value's text (its `RawValue` protocol); any other
        // deserializer (or serde's buffer of an untagged enum) with the value itself.
        deserializer.deserialize_newtype_struct(RAW_TOKEN, RawOrValue)
    }
}

/// Reads the raw text serde_json offers, else the value as any deserializer gives it.
struct RawOrValue;

/// A map key that may be serde_json's raw-value marker.
struct Key(Cow<'static, str>, bool);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        let raw = name == RAW_TOKEN;
        Ok(Key(Cow::Owned(name), raw))
    }
}

/// The raw text of a value, borrowed or owned.
struct RawText(String);

impl<'de> Deserialize<'de> for RawText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(RawText)
    }
}

impl<'de> Visitor<'de> for RawOrValue {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let Some(Key(first, raw)) = map.next_key::<Key>()? else {
            return Ok(Json::Object(JsonObject::new()));
        };
        if raw {
            let RawText(text) = map.next_value()?;
            return parse(&text).map_err(de::Error::custom);
        }
        let mut object = JsonObject::new();
        object.insert(first.into_owned(), map.next_value::<Json>()?);
        while let Some(name) = map.next_key::<String>()? {
            let value = map.next_value::<Json>()?;
            object.insert(name, value);
        }
        Ok(Json::Object(object))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element_seed(JsonSeed)? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Json, E> {
        Ok(n.into())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Json, E> {
        Ok(n.into())
    }

    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Json, E> {
        Ok(n.into())
    }

    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Json, E> {
        Ok(n.into())
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Json, E> {
        JsonNumber::from_f64(n)
            .map(Json::Number)
            .ok_or_else(|| E::custom("JSON has no NaN or infinity"))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.to_owned()))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s))
    }
}

/// [`Json`] as a seed, for the items of a sequence.
struct JsonSeed;

impl<'de> DeserializeSeed<'de> for JsonSeed {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        Json::deserialize(deserializer)
    }
}

/// JSON text (which serde_json has already checked) as a [`Json`], numbers as written.
fn parse(text: &str) -> Result<Json, String> {
    let mut parser = Parser { text, at: 0 };
    let value = parser.value(0)?;
    parser.skip_space();
    if parser.at != text.len() {
        return Err(parser.error("trailing characters"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("{what} at byte {} of a JSON value", self.at)
    }

    fn skip_space(&mut self) {
        let rest = &self.text.as_bytes()[self.at..];
        self.at += rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", char::from(byte))))
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.text[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// A string token, unescaped by serde_json (which knows every escape).
    fn string(&mut self) -> Result<String, String> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let mut at = start + 1;
        loop {
            match bytes.get(at) {
                Some(b'"') => break,
                Some(b'\\') => at += 2,
                Some(_) => at += 1,
                None => return Err(self.error("unterminated string")),
            }
        }
        self.at = at + 1;
        let token = self
            .text
            .get(start..self.at)
            .ok_or_else(|| self.error("bad string"))?;
        if token.contains('\\') {
            serde_json::from_str(token).map_err(|e| e.to_string())
        } else {
            Ok(token[1..token.len() - 1].to_owned())
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        match self.peek() {
            Some(b'n') => self.literal("null", Json::Null),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::String),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b']') {
                    self.at += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        self.eat(b']')?;
                        return Ok(Json::Array(items));
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut object = JsonObject::new();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                    return Ok(Json::Object(object));
                }
                loop {
                    if self.peek() != Some(b'"') {
                        return Err(self.error("expected a member name"));
                    }
                    let name = self.string()?;
                    self.eat(b':')?;
                    let value = self.value(depth + 1)?;
                    object.insert(name, value);
                    if self.peek() == Some(b',') {
                        self.at += 1;
                    } else {
                        self.eat(b'}')?;
                        return Ok(Json::Object(object));
                    }
                }
            }
            Some(_) => {
                let len = number_len(&self.text.as_bytes()[self.at..])
                    .ok_or_else(|| self.error("expected a value"))?;
                let number = JsonNumber(self.text[self.at..self.at + len].to_owned());
                self.at += len;
                Ok(Json::Number(number))
            }
            None => Err(self.error("expected a value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const EXACT: &str = r#"{"big":18446744073709551616,"huge":1e400,"decimal":1234567890123456789012345678901234567890.5,"nested":[0.1000,-0,{"x":"a\"\u00e9"}],"flag":true,"none":null}"#;

    #[test]
    fn numbers_come_back_exactly_as_written() {
        let value: Json = serde_json::from_str(EXACT).unwrap();
        assert_eq!(value["big"].as_number().unwrap().as_str(), "18446744073709551616");
        assert_eq!(value["huge"].as_number().unwrap().as_str(), "1e400");
        assert_eq!(value["nested"][0].as_number().unwrap().as_str(), "0.1000");
        assert_eq!(value["nested"][2]["x"].as_str(), Some("a\"é"));
        assert_eq!(
            serde_json::to_string(&value).unwrap(),
            EXACT.replace("\\u00e9", "é")
        );
        assert_eq!(value.to_string(), EXACT.replace("\\u00e9", "é"));
        // In a struct, from bytes, and as an object.
        #[derive(Deserialize, Serialize)]
        struct Bird {
            extra: JsonObject,
        }
        let text = format!(r#"{{"extra":{EXACT}}}"#);
        let bird: Bird = serde_json::from_slice(text.as_bytes()).unwrap();
        assert_eq!(
            bird.extra
                .get("big")
                .and_then(Json::as_number)
                .map(JsonNumber::as_str),
            Some("18446744073709551616")
        );
        assert_eq!(
            serde_json::to_string(&bird).unwrap(),
            text.replace("\\u00e9", "é")
        );
    }

    #[test]
    fn other_deserializers_and_untagged_enums_get_the_value() {
        #[derive(Deserialize, Debug, PartialEq)]
        #[serde(untagged)]
        enum Either {
            Text(String),
            Any(Json),
        }
        let either: Either = serde_json::from_str(r#"{"a":[1,2.5,null]}"#).unwrap();
        assert_eq!(either, Either::Any(json!({"a": [1, 2.5, null]}).into()));
        let from_value: Json = serde_json::from_value(json!({"n": 18446744073709551615u64})).unwrap();
        assert_eq!(from_value["n"].as_number().unwrap().as_u64(), Some(u64::MAX));
        assert_eq!(from_value, json!({"n": 18446744073709551615u64}));
    }

    #[test]
    fn numbers_are_checked_and_nesting_is_bounded() {
        for good in ["0", "-0", "1.5e-7", "18446744073709551616", "1E+400"] {
            assert_eq!(good.parse::<JsonNumber>().unwrap().as_str(), good);
        }
        for bad in ["", "01", "1.", ".5", "1e", "+1", "NaN", "1 "] {
            assert!(bad.parse::<JsonNumber>().is_err(), "{bad}");
        }
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        assert!(serde_json::from_str::<Json>(&deep).is_ok());
        assert!(parse(&format!("{}{}", "[".repeat(200), "]".repeat(200))).is_err());
        assert!(JsonNumber::from_f64(f64::NAN).is_none());
        assert_eq!(JsonNumber::from_f64(0.1).unwrap().as_str(), "0.1");
    }
}
