//! Validation: turning request text and JSON into typed values, with pydantic v2's errors.
//!
//! This layer knows nothing of HTTP, routing or requests: it converts strings and JSON values and
//! describes types, and every other layer builds on it. Its files:
//!
//! - `error`: the error shapes (`{"type","loc","msg","input"[,"ctx"]}`) and their collection;
//! - `convert`: one path or query string into a scalar ([`FromParam`]);
//! - `constraint`: `ge`/`gt`/`le`/`lt`/`multiple_of`/`min_length`/`max_length`/`max_digits`/
//!   `decimal_places`, with `pattern` compiling `#[pattern("..")]` once;
//! - `types`: dates, times, durations, UUIDs, decimals, e-mails, URLs and IP addresses, each
//!   behind a cargo feature, and `Strict`, pydantic's strict mode for the date and time types;
//! - `json`: a JSON value into a Rust type, laxly, every error reported ([`FromJson`]);
//! - `fast_json`: the strict path straight from the bytes, which only ever accepts;
//! - `json_text`, `json_error`: a body's text into a JSON value, with Python's error messages;
//! - `model`, `str_enum`: what `#[derive(Model)]` and `#[derive(StrEnum)]` generate against;
//! - `nullable`: [`Nullable`], a value that must be sent and may be null;
//! - `generic`: the names of a generic model's parametrisations (`Page[Item]`, `Page_Item_`);
//! - `union`: what `#[derive(Model)]` on an enum generates against (unions);
//! - `schema`: each type's JSON Schema ([`JsonSchema`]), with pydantic's titles;
//! - `schema_modes`: the names of schemas that differ between input and output (`Name-Input`,
//!   `Name-Output`), decided once the document's schemas are all built.
//!
//! Rules enforced here: messages, error types and `ctx` are pydantic's own words, measured
//! against FastAPI (tests/fastapi/observed.json), so clients written against FastAPI keep
//! working; every failure is recorded and validation goes on, so one answer lists them all;
//! nothing here panics on any input.

mod constraint;
mod convert;
mod error;
pub(crate) mod fast_json;
mod generic;
mod json;
mod json_error;
mod json_text;
pub(crate) mod json_tree;
mod model;
mod nullable;
#[cfg(feature = "pattern")]
mod pattern;
mod schema;
mod schema_modes;
mod str_enum;
pub(crate) mod types;
mod union;

pub use constraint::{Bound, Constrainable, Constraint, NumberKind};
pub(crate) use convert::convert_param;
pub use convert::FromParam;
pub(crate) use error::BadBody;
pub(crate) use error::{path_loc, query_loc};
pub use error::{ErrorItem, Failure, Loc, LocItem, ValidationErrors};
pub use fast_json::{FastJson, Skip};
pub use generic::{generic_schema, generic_title, param_field};
pub use json::{field, FromJson};
pub(crate) use json_text::{parse_json_value, strip_bom};
pub(crate) use model::{not_an_object, value_error};
pub use model::{validate_field, validate_model, validate_whole, FieldDecline, FieldFast, FieldProbe, Model};
pub use nullable::Nullable;
#[cfg(feature = "pattern")]
pub use pattern::{Pattern, PatternCell};
pub(crate) use schema::nullable;
pub use schema::{title_case, JsonSchema, SchemaMode, SchemaRegistry};
pub use str_enum::{enum_failure, enum_from_json, enum_from_param, enum_schema, fast_enum, StrEnum};
#[cfg(feature = "email")]
pub use types::EmailStr;
#[cfg(feature = "url")]
pub use types::HttpUrl;
#[cfg(feature = "datetime")]
pub use types::{Datetime, Duration};
pub use types::{Strict, StrictValue};
pub use union::{
    tagged_schema, untagged_schema, validate_tagged, validate_untagged, TaggedVariant, UntaggedVariant,
};
