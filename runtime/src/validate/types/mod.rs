//! The value types of a real API (issue 23): dates and times, durations, UUIDs, decimals,
//! e-mail addresses, URLs and IP addresses, each read as pydantic v2 reads it in lax mode.
//!
//! Rules enforced here:
//! - the values are the ecosystem's own types (`chrono`, `uuid`, `rust_decimal`, `url`, std's
//!   `IpAddr`), each behind a default-on cargo feature; ferrapi adds only the reading, the errors
//!   and the schema, and a newtype where the crate's own serialization differs from FastAPI's
//!   ([`Duration`]) or pydantic adds a rule the crate lacks ([`HttpUrl`], [`EmailStr`]);
//! - one reader per type over text, shared by path, query, header, cookie and form values and by
//!   JSON strings; a JSON number goes where pydantic sends it (a unix timestamp, seconds);
//! - the error types, messages and `ctx` are pydantic's, replayed from FastAPI's recorded answers
//!   (tests/fastapi/types_observed.json); each deliberate difference is in the manual's
//!   "Differences from FastAPI";
//! - pydantic's strict mode is a type, [`Strict`], never a flag read per request;
//! - a route or model that uses none of these types runs none of this code.

use serde_json::Value;

use super::error::Failure;

#[cfg(feature = "datetime")]
mod datetime;
#[cfg(feature = "datetime")]
mod datetime_strict;
#[cfg(feature = "decimal")]
pub(crate) mod decimal;
#[cfg(feature = "datetime")]
mod duration;
#[cfg(feature = "email")]
mod email;
mod ip;
#[cfg(feature = "datetime")]
mod plain_datetime;
mod strict;
#[cfg(feature = "url")]
mod url;
#[cfg(feature = "uuid")]
mod uuid;

#[cfg(feature = "datetime")]
pub use duration::Duration;
#[cfg(feature = "email")]
pub use email::EmailStr;
#[cfg(feature = "datetime")]
pub use plain_datetime::Datetime;
pub use strict::{Strict, StrictValue};
#[cfg(feature = "url")]
pub use url::HttpUrl;

/// A wire format's error (the grammars and their words are `ferrapi-wire`'s, shared with the
/// generated clients) as the failure a 422 item is made of: `ctx` is `{"error": words}`.
impl From<ferrapi_wire::WireError> for Failure {
    #[inline]
    fn from(error: ferrapi_wire::WireError) -> Self {
        Failure {
            kind: error.kind,
            msg: error.msg,
            ctx: error.error.map(|words| serde_json::json!({ "error": words })),
        }
    }
}

/// A type read from text (a parameter, or a JSON string) and from a JSON value by one reader
/// each: what the macro [`text_value!`] turns into the five traits of a parameter and field type.
pub(crate) trait TextValue: Sized {
    /// Read a parameter's text.
    fn from_text(raw: &str) -> Result<Self, Failure>;
    /// Read a JSON value (strings through [`TextValue::from_text`] unless the type says otherwise).
    fn from_value(value: &Value) -> Result<Self, Failure>;
    /// The JSON Schema, as pydantic writes it for what is read (validation mode).
    fn schema() -> Value;
    /// The JSON Schema of what is written (pydantic's serialization mode), where it differs.
    fn output_schema() -> Value {
        Self::schema()
    }
}

/// `FromParam`, `FromJson`, `JsonSchema` and `FastJson` (the strict path declines: these values
/// are read by the lax reader, which owns their errors) for a [`TextValue`]; `Ty => "name"` gives
/// the Python type's name where it is not the Rust one (`Uuid => "UUID"`, see
/// [`JsonSchema::python_name`](crate::validate::JsonSchema::python_name)).
macro_rules! text_value {
    ($($ty:ty $(=> $python:literal)?),* $(,)?) => {$(
        impl $crate::validate::FromParam for $ty {
            fn from_param(raw: &str) -> Result<Self, $crate::validate::Failure> {
                <$ty as $crate::validate::types::TextValue>::from_text(raw)
            }
        }

        impl $crate::validate::FromJson for $ty {
            fn from_json(
                value: &serde_json::Value,
                loc: &mut $crate::validate::Loc,
                errors: &mut $crate::validate::ValidationErrors,
            ) -> Option<Self> {
                <$ty as $crate::validate::types::TextValue>::from_value(value)
                    .map_err(|f| errors.push(f.at(loc.clone(), value.clone())))
                    .ok()
            }
        }

        impl $crate::validate::JsonSchema for $ty {
            fn schema(registry: &mut $crate::validate::SchemaRegistry) -> serde_json::Value {
                match registry.mode() {
                    $crate::validate::SchemaMode::Input => {
                        <$ty as $crate::validate::types::TextValue>::schema()
                    }
                    $crate::validate::SchemaMode::Output => {
                        <$ty as $crate::validate::types::TextValue>::output_schema()
                    }
                }
            }
            $(
                fn python_name() -> String {
                    $python.to_owned()
                }
            )?
        }

        impl $crate::validate::FastJson for $ty {}
    )*};
}
pub(crate) use text_value;

/// `{"type": "string", "format": format}`.
fn string_format(format: &str) -> Value {
    serde_json::json!({ "type": "string", "format": format })
}

/// True when `S` builds a `serde_json::Value`: the value is going into a `json!` (or
/// `serde_json::to_value`), where FastAPI's `jsonable_encoder` would write it, rather than being
/// written by a response of a model, where pydantic would. FastAPI writes a few types differently
/// in the two (a UTC datetime `+00:00` or `Z`, a timedelta as seconds or ISO 8601), and a serde
/// impl cannot be told which it is in otherwise. The two names are the compiler's for types of one
/// build, so they are equal exactly when the types are; the test is a comparison of two constant
/// strings, made only where such a value is written.
fn into_value<S: serde::Serializer>() -> bool {
    std::any::type_name::<S>() == std::any::type_name::<serde_json::value::Serializer>()
}
