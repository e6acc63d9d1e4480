//! String enumerations (`#[derive(StrEnum)]`): what the derive's generated code calls.
//!
//! Rules enforced here: a string enum accepts exactly its values (case-sensitive), from a path or
//! query value, a JSON string or the strict fast path alike, and otherwise reports `enum` with the
//! expected values in pydantic's words (`Input should be 'buy' or 'sell'`); its schema lists the
//! values.

use std::fmt;
use std::marker::PhantomData;

use serde::de::Visitor;
use serde::Deserializer;
use serde_json::{json, Value};

use super::error::{Failure, Loc, ValidationErrors};
use super::json::record;

/// A string enumeration serialized as its values. Implemented by `#[derive(StrEnum)]`.
pub trait StrEnum: Sized + 'static {
    /// The accepted values, in declaration order.
    const VALUES: &'static [&'static str];
    /// pydantic's rendering of the values: `'buy' or 'sell'`.
    const EXPECTED: &'static str;

    /// The variant with this exact value.
    fn from_value(value: &str) -> Option<Self>;

    /// This variant's value.
    fn as_str(&self) -> &'static str;
}

/// The `enum` failure for `T`.
pub fn enum_failure<T: StrEnum>() -> Failure {
    Failure::with_ctx(
        "enum",
        format!("Input should be {}", T::EXPECTED),
        json!({ "expected": T::EXPECTED }),
    )
}

/// Parse a string enum from a path or query value.
pub fn enum_from_param<T: StrEnum>(raw: &str) -> Result<T, Failure> {
    T::from_value(raw).ok_or_else(enum_failure::<T>)
}

/// Validate a string enum from a JSON value.
pub fn enum_from_json<T: StrEnum>(value: &Value, loc: &mut Loc, errors: &mut ValidationErrors) -> Option<T> {
    let found = value.as_str().and_then(T::from_value);
    if found.is_none() {
        record(errors, loc, enum_failure::<T>(), value);
    }
    found
}

/// The schema of a string enum: `{"type": "string", "enum": [...], "title": Name}`.
pub fn enum_schema<T: StrEnum>(name: &str) -> Value {
    json!({ "type": "string", "enum": T::VALUES, "title": name })
}

/// The fast path of a string enum: exactly one of its values.
pub fn fast_enum<'de, T: StrEnum, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    struct EnumVisitor<T>(PhantomData<T>);
    impl<'de, T: StrEnum> Visitor<'de> for EnumVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(T::EXPECTED)
        }
        fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<T, E> {
            T::from_value(value).ok_or_else(|| E::custom("not a value of the enum"))
        }
    }
    deserializer.deserialize_str(EnumVisitor(PhantomData))
}
