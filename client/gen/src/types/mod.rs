//! The type space: JSON Schemas (2020-12, as OpenAPI 3.1 and pydantic write them) as Rust types,
//! apart from the operations that use them: the type of a schema ([`Ty`]), the types the generated
//! code declares ([`TypeDef`]), found by [`Schemas`] (`space`, `map`, `declare`) and written by
//! `emit`.
//!
//! Rules enforced here (each row of the manual's table "OpenAPI construct → Rust type"):
//! - a component schema is a named type: an object a struct, a string `enum` a Rust enum, a
//!   `oneOf`/`anyOf` a Rust enum (tagged by its `discriminator`, else tried in order), anything
//!   else a type alias; an inline object, enum, `const` or union gets a name from where it is
//!   (`Booking` + `contact` → `BookingContact`);
//! - `null` in `anyOf`, or in `type`, makes the type an `Option`; pydantic's decimal in input
//!   mode (`anyOf: [number, string]`) is a decimal;
//! - formats map to the crates the framework uses: `date-time` (aware or naive: pydantic writes
//!   one format for both) to `ferrapi_client::DateTime`, `date`/`time` to chrono's, `duration` to
//!   `ferrapi_client::Duration`, `uuid` to `uuid::Uuid`, `uri` to `url::Url`, `ipv4`/`ipv6`/
//!   `ipvanyaddress` to `std::net`'s, `binary` to a file; integer formats to their width, no
//!   format to `i64`; any other format stays a `String`;
//! - what cannot be mapped (a reference outside the document, `not`, a `false` schema, an `allOf`
//!   of non-objects, a discriminated variant without its tag property) is a
//!   [`GenError`](crate::GenError) naming its pointer, never a guess.

mod declare;
pub mod emit;
mod map;
mod space;

use serde_json::Value;

use crate::names::{variant, Namer};

pub use space::Schemas;

/// The Rust type of a schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// A declared type (a component, or an inline type given a name).
    Named(String),
    /// `String`.
    String,
    /// `bool`.
    Bool,
    /// An integer type (`i64`, `u8`, …).
    Int(&'static str),
    /// A float type (`f64`, `f32`).
    Float(&'static str),
    /// Any JSON (`{}`): `ferrapi_client::Json`, numbers kept as written.
    Value,
    /// Any JSON object (`type: object` alone): `ferrapi_client::JsonObject`.
    Object,
    /// `ferrapi_client::DateTime`.
    DateTime,
    /// `chrono::NaiveDate`.
    Date,
    /// `ferrapi_client::Time` (aware or naive, as sent).
    Time,
    /// `ferrapi_client::Duration`.
    Duration,
    /// `uuid::Uuid`.
    Uuid,
    /// `rust_decimal::Decimal`.
    Decimal,
    /// `url::Url`.
    Url,
    /// `std::net::IpAddr`.
    IpAddr,
    /// `std::net::Ipv4Addr`.
    Ipv4,
    /// `std::net::Ipv6Addr`.
    Ipv6,
    /// `ferrapi_client::File` (`format: binary`): an upload.
    File,
    /// `Vec<T>`.
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>` (`additionalProperties`).
    Map(Box<Ty>),
    /// `Option<T>`.
    Option(Box<Ty>),
    /// A tuple (`prefixItems`).
    Tuple(Vec<Ty>),
}

impl Ty {
    /// The type without an outer `Option`, and whether it had one.
    pub fn unwrap_option(self) -> (Ty, bool) {
        match self {
            Ty::Option(inner) => (*inner, true),
            other => (other, false),
        }
    }

    /// The cargo feature of `ferrapi-client` this type needs.
    pub(super) fn feature(&self) -> Option<&'static str> {
        match self {
            Ty::DateTime | Ty::Date | Ty::Time | Ty::Duration => Some("chrono"),
            Ty::Uuid => Some("uuid"),
            Ty::Decimal => Some("decimal"),
            Ty::Url => Some("url"),
            _ => None,
        }
    }

    /// The generated code names the runtime (`rt::…`) to write this type.
    pub fn names_runtime(&self) -> bool {
        match self {
            Ty::Value
            | Ty::Object
            | Ty::DateTime
            | Ty::Date
            | Ty::Time
            | Ty::Duration
            | Ty::Uuid
            | Ty::Decimal
            | Ty::Url
            | Ty::File => true,
            Ty::Vec(inner) | Ty::Map(inner) | Ty::Option(inner) => inner.names_runtime(),
            Ty::Tuple(items) => items.iter().any(Ty::names_runtime),
            Ty::Named(_)
            | Ty::String
            | Ty::Bool
            | Ty::Int(_)
            | Ty::Float(_)
            | Ty::IpAddr
            | Ty::Ipv4
            | Ty::Ipv6 => false,
        }
    }

    /// This type names a declared type.
    pub fn names_a_type(&self) -> bool {
        let mut named = Vec::new();
        self.named(true, &mut named);
        !named.is_empty()
    }

    /// The declared types this type names, and whether each is reached without an indirection
    /// (`Vec` and maps are one; `Option` is not).
    pub fn named(&self, direct: bool, out: &mut Vec<(String, bool)>) {
        match self {
            Ty::Named(name) => out.push((name.clone(), direct)),
            Ty::Option(inner) => inner.named(direct, out),
            Ty::Vec(inner) | Ty::Map(inner) => inner.named(false, out),
            Ty::Tuple(items) => items.iter().for_each(|item| item.named(direct, out)),
            _ => {}
        }
    }
}

/// A field of a struct.
#[derive(Clone, Debug)]
pub struct Field {
    /// The Rust name.
    pub name: String,
    /// The property's name.
    pub json: String,
    /// The type, without the `Option` of an optional or nullable field.
    pub ty: Ty,
    /// The field is an `Option` (not required, or nullable).
    pub optional: bool,
    /// `None` is left out when sending (the property is not required).
    pub skip_none: bool,
    /// The property may be `null` (`null` is one of its types, or it is any JSON): when it is
    /// not required either, the field is a `Nullable`, which tells `null` from absent.
    pub nullable: bool,
    /// Its description.
    pub doc: Option<String>,
    /// Its default, as the document says.
    pub default: Option<Value>,
}

impl Field {
    /// The field tells absent from `null`: it may be left out, and it may be `null`.
    pub fn three_states(&self) -> bool {
        self.skip_none && self.nullable
    }
}

/// A variant of a union.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The Rust name.
    pub name: String,
    /// What it holds.
    pub ty: Ty,
    /// Its discriminator value (tagged unions).
    pub tag: Option<String>,
}

/// What a declared type is.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A struct of fields, and of the other properties when `additionalProperties` allows them.
    Struct {
        /// The fields.
        fields: Vec<Field>,
        /// The type of the other properties.
        extra: Option<Ty>,
    },
    /// An enum of string values (one value: a constant, with a default).
    Enum {
        /// Variant names and their values.
        values: Vec<(String, String)>,
    },
    /// A union: tagged by property `tag` when there is one, else tried in order.
    Union {
        /// The variants.
        variants: Vec<Variant>,
        /// The discriminator's property.
        tag: Option<String>,
    },
    /// Another name for a type.
    Alias(Ty),
}

/// A type the generated code declares.
#[derive(Clone, Debug)]
pub struct TypeDef {
    /// Its Rust name.
    pub name: String,
    /// Its description.
    pub doc: Option<String>,
    /// Where its schema is.
    pub pointer: String,
    /// The schema key it comes from (components only).
    pub key: Option<String>,
    /// What it is.
    pub kind: Kind,
}

/// Variant names for an enum's string values, each told apart.
fn enum_variants(values: &[String]) -> Vec<(String, String)> {
    let mut namer = Namer::default();
    values
        .iter()
        .map(|value| (namer.claim(&variant(value)), value.clone()))
        .collect()
}

/// A variant name for an unnamed type.
fn ty_word(ty: &Ty) -> &'static str {
    match ty {
        Ty::String => "String",
        Ty::Bool => "Boolean",
        Ty::Int(_) => "Integer",
        Ty::Float(_) => "Number",
        Ty::Vec(_) | Ty::Tuple(_) => "List",
        Ty::Map(_) | Ty::Object => "Object",
        Ty::DateTime => "DateTime",
        Ty::Date => "Date",
        Ty::Time => "Time",
        Ty::Duration => "Duration",
        Ty::Uuid => "Uuid",
        Ty::Decimal => "Decimal",
        Ty::Url => "Url",
        Ty::IpAddr | Ty::Ipv4 | Ty::Ipv6 => "Ip",
        Ty::File => "File",
        Ty::Option(_) | Ty::Value | Ty::Named(_) => "Value",
    }
}

#[cfg(test)]
mod tests;
