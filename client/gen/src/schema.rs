//! JSON Schemas (2020-12, as OpenAPI 3.1 and pydantic write them) as Rust types: the type of a
//! schema ([`Ty`]) and the types the generated code declares ([`TypeDef`]).
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
//!   of non-objects, a discriminated variant without its tag property) is a [`GenError`] naming
//!   its pointer, never a guess.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Value};

use crate::document::{child, Document, GenError};
use crate::names::{member, type_name, variant, Namer};

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
    /// Any JSON (`{}`).
    Value,
    /// Any JSON object (`type: object` alone).
    Object,
    /// `ferrapi_client::DateTime`.
    DateTime,
    /// `chrono::NaiveDate`.
    Date,
    /// `chrono::NaiveTime`.
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
    fn feature(&self) -> Option<&'static str> {
        match self {
            Ty::DateTime | Ty::Date | Ty::Time | Ty::Duration => Some("chrono"),
            Ty::Uuid => Some("uuid"),
            Ty::Decimal => Some("decimal"),
            Ty::Url => Some("url"),
            _ => None,
        }
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
    /// Its description.
    pub doc: Option<String>,
    /// Its default, as the document says.
    pub default: Option<Value>,
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

/// The declared types, and the names given so far.
pub struct Schemas<'d> {
    document: &'d Document<'d>,
    /// Component pointer (`#/components/schemas/X`) → Rust name.
    components: HashMap<String, String>,
    /// The declared types, components first in document order, then inline ones as met.
    pub defs: Vec<TypeDef>,
    namer: Namer,
    /// The `ferrapi-client` features the types need.
    pub features: BTreeSet<&'static str>,
    /// Map `anyOf: [number, string]` to a decimal.
    decimals: bool,
    /// Inline schemas already declared, by their JSON: the same schema written twice (pydantic
    /// repeats a union at each use) is one type.
    inline: HashMap<String, String>,
}

const COMPONENTS: &str = "#/components/schemas";

impl<'d> Schemas<'d> {
    /// Every component schema of `document`, declared.
    pub fn new(document: &'d Document<'d>, decimals: bool) -> Result<Self, GenError> {
        let mut schemas = Schemas {
            document,
            components: HashMap::new(),
            defs: Vec::new(),
            namer: Namer::default(),
            features: BTreeSet::new(),
            decimals,
            inline: HashMap::new(),
        };
        let Some(components) = document.get(COMPONENTS).and_then(Value::as_object) else {
            return Ok(schemas);
        };
        for key in components.keys() {
            let name = schemas.namer.claim(&type_name(key));
            schemas.components.insert(child(COMPONENTS, key), name);
        }
        for (key, schema) in components {
            let pointer = child(COMPONENTS, key);
            let name = schemas.components[&pointer].clone();
            schemas.declare(&name, Some(key), schema, &pointer)?;
        }
        Ok(schemas)
    }

    /// A name for an inline type, unique among the declared ones.
    pub fn claim(&mut self, context: &str) -> String {
        self.namer.claim(&type_name(context))
    }

    /// The type already declared for an inline schema of this JSON (its annotations aside), if any.
    fn declared_inline(&self, schema: &Value) -> Option<Ty> {
        self.inline
            .get(&identity(schema))
            .map(|name| Ty::Named(name.clone()))
    }

    /// A name for the inline `schema`, remembered for its JSON (its annotations aside).
    fn claim_inline(&mut self, schema: &Value, context: &str) -> String {
        let name = self.claim(context);
        self.inline.insert(identity(schema), name.clone());
        name
    }

    /// The definition named `name`.
    pub fn def(&self, name: &str) -> Option<&TypeDef> {
        self.defs.iter().find(|def| def.name == name)
    }

    /// Declare `name`: its place in the order is taken now, before the types its members need.
    fn push(&mut self, name: &str, key: Option<&str>, schema: &Value, pointer: &str, kind: Kind) -> usize {
        self.defs.push(TypeDef {
            name: name.to_owned(),
            doc: description(schema),
            pointer: pointer.to_owned(),
            key: key.map(str::to_owned),
            kind,
        });
        self.defs.len() - 1
    }

    /// Declare `name` with the kind `make` finds (which may declare types of its own, after it).
    fn push_with(
        &mut self,
        name: &str,
        key: Option<&str>,
        schema: &Value,
        pointer: &str,
        make: impl FnOnce(&mut Self) -> Result<Kind, GenError>,
    ) -> Result<(), GenError> {
        let index = self.push(name, key, schema, pointer, Kind::Alias(Ty::Value));
        let kind = make(self)?;
        self.defs[index].kind = kind;
        Ok(())
    }

    /// Declare `schema` as the type `name`.
    fn declare(
        &mut self,
        name: &str,
        key: Option<&str>,
        schema: &Value,
        pointer: &str,
    ) -> Result<(), GenError> {
        let object = schema.as_object();
        let is_object = object.is_some_and(|o| {
            o.get("type").and_then(Value::as_str) == Some("object")
                || (o.contains_key("properties") && !o.contains_key("type"))
        });
        if is_object && schema.get("properties").is_some() {
            return self.push_with(name, key, schema, pointer, |this| {
                this.object(name, schema, pointer)
            });
        }
        if let Some(values) = string_values(schema) {
            let values = enum_variants(&values);
            self.push(name, key, schema, pointer, Kind::Enum { values });
            return Ok(());
        }
        if is_union(schema, self.decimals) {
            return self.push_with(name, key, schema, pointer, |this| {
                this.union(name, schema, pointer)?
                    .ok_or_else(|| GenError::at(pointer, "internal: not a union"))
            });
        }
        if let Some(all_of) = schema.get("allOf").and_then(Value::as_array) {
            if all_of.len() > 1 {
                let merged = self.merge_all_of(all_of, pointer)?;
                return self.push_with(name, key, schema, pointer, |this| {
                    this.object(name, &merged, pointer)
                });
            }
        }
        let ty = self.ty(schema, pointer, name)?;
        self.push(name, key, schema, pointer, Kind::Alias(ty));
        Ok(())
    }

    /// The fields of an object schema.
    fn object(&mut self, name: &str, schema: &Value, pointer: &str) -> Result<Kind, GenError> {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        let mut field_names = Namer::with(&["extra"]);
        let empty = Map::new();
        let properties = schema
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let properties_pointer = child(pointer, "properties");
        for (json, property) in properties {
            let property_pointer = child(&properties_pointer, json);
            let context = format!("{name}_{json}");
            let (ty, nullable) = self.ty(property, &property_pointer, &context)?.unwrap_option();
            let is_required = required.contains(&json.as_str());
            fields.push(Field {
                name: field_names.claim(&member(json)),
                json: json.clone(),
                ty,
                optional: nullable || !is_required,
                skip_none: !is_required,
                doc: description(property),
                default: property.get("default").cloned(),
            });
        }
        let extra = match schema.get("additionalProperties") {
            Some(Value::Bool(false)) | None => None,
            Some(Value::Bool(true)) => (!properties.is_empty()).then_some(Ty::Value),
            Some(additional) => Some(self.ty(
                additional,
                &child(pointer, "additionalProperties"),
                &format!("{name}_extra"),
            )?),
        };
        Ok(Kind::Struct { fields, extra })
    }

    /// The members of a `oneOf`/`anyOf` without `null` as a union, if `schema` is one.
    fn union(&mut self, name: &str, schema: &Value, pointer: &str) -> Result<Option<Kind>, GenError> {
        if !is_union(schema, self.decimals) {
            return Ok(None);
        }
        let Some((keyword, members)) = union_members(schema) else {
            return Ok(None);
        };
        let non_null: Vec<(usize, &Value)> =
            members.iter().enumerate().filter(|(_, m)| !is_null(m)).collect();
        let members_pointer = child(pointer, keyword);
        let tag = schema
            .get("discriminator")
            .and_then(|d| d.get("propertyName"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let mut variants = Vec::new();
        let mut variant_names = Namer::default();
        for (index, member_schema) in non_null {
            let member_pointer = child(&members_pointer, &index.to_string());
            let tag_value = match &tag {
                Some(property) => Some(self.tag_value(schema, member_schema, &member_pointer, property)?),
                None => None,
            };
            let context = match &tag_value {
                Some(value) => format!("{name}_{value}"),
                None => format!("{name}_{index}"),
            };
            let ty = self.ty(member_schema, &member_pointer, &context)?;
            let base = match (&ty, &tag_value) {
                (Ty::Named(named), _) => named.clone(),
                (_, Some(value)) => variant(value),
                (other, None) => ty_word(other).to_owned(),
            };
            variants.push(Variant {
                name: variant_names.claim(&base),
                ty,
                tag: tag_value,
            });
        }
        Ok(Some(Kind::Union { variants, tag }))
    }

    /// The discriminator value of a union's member: its key in `mapping`, else its tag property's
    /// constant, else its schema key.
    fn tag_value(
        &self,
        union: &Value,
        member: &Value,
        pointer: &str,
        property: &str,
    ) -> Result<String, GenError> {
        let reference = member.get("$ref").and_then(Value::as_str);
        if let (Some(mapping), Some(reference)) = (
            union
                .get("discriminator")
                .and_then(|d| d.get("mapping"))
                .and_then(Value::as_object),
            reference,
        ) {
            if let Some((value, _)) = mapping
                .iter()
                .find(|(_, target)| target.as_str() == Some(reference))
            {
                return Ok(value.clone());
            }
        }
        let (resolved, resolved_pointer) = self.document.resolve(member, pointer)?;
        let Some(tag_schema) = resolved.get("properties").and_then(|p| p.get(property)) else {
            return Err(GenError::at(
                &resolved_pointer,
                format!("a variant of a union discriminated by `{property}` has no property `{property}`"),
            ));
        };
        if let Some(values) = string_values(tag_schema) {
            if let [value] = values.as_slice() {
                return Ok(value.clone());
            }
        }
        match reference.and_then(|r| r.strip_prefix("#/components/schemas/")) {
            Some(key) => Ok(key.to_owned()),
            None => Err(GenError::at(
                pointer,
                format!("no value of discriminator `{property}` for this variant"),
            )),
        }
    }

    /// The object `allOf` members make together.
    fn merge_all_of(&self, all_of: &[Value], pointer: &str) -> Result<Value, GenError> {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for (index, part) in all_of.iter().enumerate() {
            let part_pointer = child(&child(pointer, "allOf"), &index.to_string());
            let (part, _) = self.document.resolve(part, &part_pointer)?;
            let Some(part_properties) = part.get("properties").and_then(Value::as_object) else {
                return Err(GenError::at(
                    &part_pointer,
                    "`allOf` of a schema that is not an object",
                ));
            };
            properties.extend(part_properties.clone());
            if let Some(names) = part.get("required").and_then(Value::as_array) {
                required.extend(names.iter().cloned());
            }
        }
        Ok(serde_json::json!({"type": "object", "properties": properties, "required": required}))
    }

    /// The Rust type of `schema` (at `pointer`); an inline type it needs is declared, named after
    /// `context`.
    pub fn ty(&mut self, schema: &Value, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let ty = self.ty_of(schema, pointer, context)?;
        if let Some(feature) = ty.feature() {
            self.features.insert(feature);
        }
        Ok(ty)
    }

    fn ty_of(&mut self, schema: &Value, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let object = match schema {
            Value::Bool(true) => return Ok(Ty::Value),
            Value::Bool(false) => {
                return Err(GenError::at(pointer, "the `false` schema (no value is valid)"))
            }
            Value::Object(object) => object,
            _ => return Err(GenError::at(pointer, "a schema must be an object or a boolean")),
        };
        if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
            if let Some(name) = self.components.get(reference) {
                return Ok(Ty::Named(name.clone()));
            }
            let (target, target_pointer) = self.document.resolve(schema, pointer)?;
            return self.ty(target, &target_pointer, context);
        }
        if object.contains_key("not") {
            return Err(GenError::at(pointer, "`not` has no Rust type"));
        }
        if let Some((keyword, members)) = union_members(schema) {
            let non_null: Vec<(usize, &Value)> =
                members.iter().enumerate().filter(|(_, m)| !is_null(m)).collect();
            let nullable = non_null.len() < members.len();
            let inner = match non_null.as_slice() {
                [] => Ty::Value,
                [(index, only)] => self.ty(
                    only,
                    &child(&child(pointer, keyword), &index.to_string()),
                    context,
                )?,
                many if self.decimals && is_decimal(many) => Ty::Decimal,
                _ => match self.declared_inline(schema) {
                    Some(ty) => ty,
                    None => {
                        let name = self.claim_inline(schema, context);
                        self.declare(&name, None, schema, pointer)?;
                        Ty::Named(name)
                    }
                },
            };
            return Ok(optional(inner, nullable));
        }
        if let Some(all_of) = object.get("allOf").and_then(Value::as_array) {
            if let [only] = all_of.as_slice() {
                return self.ty(only, &child(&child(pointer, "allOf"), "0"), context);
            }
            if let Some(ty) = self.declared_inline(schema) {
                return Ok(ty);
            }
            let name = self.claim_inline(schema, context);
            self.declare(&name, None, schema, pointer)?;
            return Ok(Ty::Named(name));
        }
        if let Some(values) = string_values(schema) {
            let named = match self.declared_inline(schema) {
                Some(ty) => ty,
                None => {
                    let name = self.claim_inline(schema, context);
                    let values = enum_variants(&values);
                    self.push(&name, None, schema, pointer, Kind::Enum { values });
                    Ty::Named(name)
                }
            };
            return Ok(optional(named, enum_has_null(schema)));
        }
        if object.contains_key("enum") || object.contains_key("const") {
            // An enum of numbers, or of mixed values: the values' own type (the document lists
            // them in the description's place).
            let typed = object.get("type").is_some();
            if !typed {
                return Ok(Ty::Value);
            }
        }
        let (types, nullable) = types(object);
        let inner = match types.as_slice() {
            [] if object.contains_key("properties") => self.inline_object(schema, pointer, context)?,
            [] => Ty::Value,
            [only] => self.typed(only, object, pointer, context)?,
            many => {
                // `type: [string, integer]`: a union of the types, tried in order.
                let name = self.claim(context);
                let index = self.push(&name, None, schema, pointer, Kind::Alias(Ty::Value));
                let mut variants = Vec::new();
                for one in many {
                    let ty = self.typed(one, object, pointer, context)?;
                    variants.push(Variant {
                        name: ty_word(&ty).to_owned(),
                        ty,
                        tag: None,
                    });
                }
                self.defs[index].kind = Kind::Union { variants, tag: None };
                Ty::Named(name)
            }
        };
        Ok(optional(inner, nullable))
    }

    /// The type of a schema whose `type` is `kind`.
    fn typed(
        &mut self,
        kind: &str,
        object: &Map<String, Value>,
        pointer: &str,
        context: &str,
    ) -> Result<Ty, GenError> {
        let format = object.get("format").and_then(Value::as_str).unwrap_or_default();
        Ok(match kind {
            "string" => match format {
                "date-time" => Ty::DateTime,
                "date" => Ty::Date,
                "time" => Ty::Time,
                "duration" => Ty::Duration,
                "uuid" | "uuid1" | "uuid3" | "uuid4" | "uuid5" => Ty::Uuid,
                "uri" => Ty::Url,
                "ipv4" => Ty::Ipv4,
                "ipv6" => Ty::Ipv6,
                "ipvanyaddress" => Ty::IpAddr,
                "binary" => Ty::File,
                _ if is_file_content(object) => Ty::File,
                _ => Ty::String,
            },
            "integer" => Ty::Int(match format {
                "int8" => "i8",
                "int16" => "i16",
                "int32" => "i32",
                "uint8" => "u8",
                "uint16" => "u16",
                "uint32" => "u32",
                "uint64" => "u64",
                _ => "i64",
            }),
            "number" => Ty::Float(if format == "float" { "f32" } else { "f64" }),
            "boolean" => Ty::Bool,
            "null" => Ty::Value,
            "array" => self.array(object, pointer, context)?,
            "object" => {
                let schema = Value::Object(object.clone());
                if object.contains_key("properties") {
                    self.inline_object(&schema, pointer, context)?
                } else {
                    match object.get("additionalProperties") {
                        None | Some(Value::Bool(_)) => Ty::Object,
                        Some(additional) => Ty::Map(Box::new(self.ty(
                            additional,
                            &child(pointer, "additionalProperties"),
                            &format!("{context}_value"),
                        )?)),
                    }
                }
            }
            other => return Err(GenError::at(pointer, format!("unknown type `{other}`"))),
        })
    }

    fn array(&mut self, object: &Map<String, Value>, pointer: &str, context: &str) -> Result<Ty, GenError> {
        if let Some(prefix) = object.get("prefixItems").and_then(Value::as_array) {
            let closed = matches!(object.get("items"), Some(Value::Bool(false)))
                || object.get("maxItems").and_then(Value::as_u64) == Some(prefix.len() as u64);
            if !closed {
                return Err(GenError::at(
                    pointer,
                    "`prefixItems` with more items allowed: no Rust tuple holds it",
                ));
            }
            let mut items = Vec::new();
            for (index, item) in prefix.iter().enumerate() {
                let item_pointer = child(&child(pointer, "prefixItems"), &index.to_string());
                items.push(self.ty(item, &item_pointer, &format!("{context}_{index}"))?);
            }
            return Ok(Ty::Tuple(items));
        }
        let item = match object.get("items") {
            Some(items) => self.ty(items, &child(pointer, "items"), &format!("{context}_item"))?,
            None => Ty::Value,
        };
        Ok(Ty::Vec(Box::new(item)))
    }

    fn inline_object(&mut self, schema: &Value, pointer: &str, context: &str) -> Result<Ty, GenError> {
        if let Some(ty) = self.declared_inline(schema) {
            return Ok(ty);
        }
        let name = self.claim_inline(schema, context);
        self.push_with(&name, None, schema, pointer, |this| {
            this.object(&name, schema, pointer)
        })?;
        Ok(Ty::Named(name))
    }
}

/// A string whose `contentMediaType` is not text (pydantic's `UploadFile` in OpenAPI 3.1:
/// `contentMediaType: application/octet-stream`), and not encoded as text (`contentEncoding`).
fn is_file_content(object: &Map<String, Value>) -> bool {
    let Some(media) = object.get("contentMediaType").and_then(Value::as_str) else {
        return false;
    };
    let media = media.to_ascii_lowercase();
    !object.contains_key("contentEncoding")
        && !media.starts_with("text/")
        && media != "application/json"
        && !media.ends_with("+json")
}

/// What makes two inline schemas one type: their JSON without the annotations on top (`title`,
/// `description`, `default`, `examples`), which pydantic writes differently at each use.
fn identity(schema: &Value) -> String {
    match schema {
        Value::Object(object) => {
            let mut object = object.clone();
            for annotation in ["title", "description", "default", "examples", "deprecated"] {
                object.remove(annotation);
            }
            Value::Object(object).to_string()
        }
        other => other.to_string(),
    }
}

/// The schema's `description`.
pub fn description(schema: &Value) -> Option<String> {
    schema
        .get("description")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

fn optional(ty: Ty, nullable: bool) -> Ty {
    if nullable && !matches!(ty, Ty::Option(_)) {
        Ty::Option(Box::new(ty))
    } else {
        ty
    }
}

/// The schema's `type`s other than `null`, and whether `null` is one.
fn types(object: &Map<String, Value>) -> (Vec<String>, bool) {
    match object.get("type") {
        Some(Value::String(kind)) if kind == "null" => (vec!["null".to_owned()], false),
        Some(Value::String(kind)) => (vec![kind.clone()], false),
        Some(Value::Array(kinds)) => {
            let all: Vec<String> = kinds
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect();
            let nullable = all.iter().any(|kind| kind == "null");
            (all.into_iter().filter(|kind| kind != "null").collect(), nullable)
        }
        _ => (Vec::new(), false),
    }
}

/// `oneOf` or `anyOf`, with its keyword.
fn union_members(schema: &Value) -> Option<(&'static str, &Vec<Value>)> {
    for keyword in ["anyOf", "oneOf"] {
        if let Some(members) = schema.get(keyword).and_then(Value::as_array) {
            return Some((keyword, members));
        }
    }
    None
}

/// A `oneOf`/`anyOf` of two or more types besides `null` (and not pydantic's decimal).
fn is_union(schema: &Value, decimals: bool) -> bool {
    let Some((_, members)) = union_members(schema) else {
        return false;
    };
    let non_null: Vec<(usize, &Value)> = members.iter().enumerate().filter(|(_, m)| !is_null(m)).collect();
    non_null.len() >= 2 && !(decimals && is_decimal(&non_null))
}

fn is_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
}

/// pydantic's decimal in input mode: a number or a string (no format).
fn is_decimal(members: &[(usize, &Value)]) -> bool {
    let kinds: Vec<(&str, Option<&str>)> = members
        .iter()
        .map(|(_, m)| {
            (
                m.get("type").and_then(Value::as_str).unwrap_or_default(),
                m.get("format").and_then(Value::as_str),
            )
        })
        .collect();
    matches!(kinds.as_slice(), [("number", None), ("string", None)])
}

/// The string values of an `enum` (of strings, `null` aside) or a string `const`.
fn string_values(schema: &Value) -> Option<Vec<String>> {
    if let Some(value) = schema.get("const") {
        return value.as_str().map(|value| vec![value.to_owned()]);
    }
    let values = schema.get("enum")?.as_array()?;
    let strings: Vec<String> = values
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    let nulls = values.iter().filter(|v| v.is_null()).count();
    (!strings.is_empty() && strings.len() + nulls == values.len()).then_some(strings)
}

fn enum_has_null(schema: &Value) -> bool {
    schema
        .get("enum")
        .and_then(Value::as_array)
        .is_some_and(|values| values.iter().any(Value::is_null))
}

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
mod tests {
    use super::*;
    use serde_json::json;

    fn with_components(components: Value) -> Value {
        json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": components}})
    }

    fn ty_of(schema: Value) -> Result<Ty, GenError> {
        let root = with_components(json!({}));
        let document = Document::new(&root).unwrap();
        let mut schemas = Schemas::new(&document, true).unwrap();
        schemas.ty(&schema, "#/x", "Ctx")
    }

    #[test]
    fn scalars_and_formats() {
        assert_eq!(ty_of(json!({"type": "string"})).unwrap(), Ty::String);
        assert_eq!(
            ty_of(json!({"type": "string", "format": "date-time"})).unwrap(),
            Ty::DateTime
        );
        assert_eq!(
            ty_of(json!({"type": "string", "format": "email"})).unwrap(),
            Ty::String
        );
        assert_eq!(
            ty_of(json!({"type": "integer", "format": "uint8"})).unwrap(),
            Ty::Int("u8")
        );
        assert_eq!(ty_of(json!({"type": "integer"})).unwrap(), Ty::Int("i64"));
        assert_eq!(ty_of(json!({})).unwrap(), Ty::Value);
        assert_eq!(
            ty_of(json!({"type": "array", "items": {"type": "integer"}})).unwrap(),
            Ty::Vec(Box::new(Ty::Int("i64")))
        );
        assert_eq!(
            ty_of(json!({"type": "object", "additionalProperties": {"type": "integer"}})).unwrap(),
            Ty::Map(Box::new(Ty::Int("i64")))
        );
    }

    #[test]
    fn nullable_and_decimal() {
        assert_eq!(
            ty_of(json!({"anyOf": [{"type": "string"}, {"type": "null"}]})).unwrap(),
            Ty::Option(Box::new(Ty::String))
        );
        assert_eq!(
            ty_of(json!({"type": ["integer", "null"]})).unwrap(),
            Ty::Option(Box::new(Ty::Int("i64")))
        );
        assert_eq!(
            ty_of(json!({"anyOf": [{"type": "number"}, {"type": "string"}, {"type": "null"}]})).unwrap(),
            Ty::Option(Box::new(Ty::Decimal))
        );
    }

    #[test]
    fn unmappable_constructs_name_their_pointer() {
        assert_eq!(
            ty_of(json!({"not": {"type": "string"}})).unwrap_err(),
            GenError::at("#/x", "`not` has no Rust type")
        );
        assert_eq!(ty_of(json!(false)).unwrap_err().pointer, "#/x");
        assert_eq!(
            ty_of(json!({"type": "array", "prefixItems": [{"type": "integer"}]}))
                .unwrap_err()
                .pointer,
            "#/x"
        );
    }

    #[test]
    fn components_become_declared_types() {
        let root = with_components(json!({
            "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}, "required": ["kind", "lives"]},
            "Dog": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["dog"]}, "name": {"type": "string"}}, "required": ["kind"]},
            "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                    "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"}}},
            "Side": {"type": "string", "enum": ["buy", "sell"]},
            "Page_Item_": {"type": "object", "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Side"}}}},
        }));
        let document = Document::new(&root).unwrap();
        let schemas = Schemas::new(&document, true).unwrap();
        let names: Vec<&str> = schemas.defs.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            ["Cat", "CatKind", "Dog", "DogKind", "Pet", "Side", "PageItem"]
        );
        let Kind::Union { variants, tag } = &schemas.def("Pet").unwrap().kind else {
            panic!()
        };
        assert_eq!(tag.as_deref(), Some("kind"));
        assert_eq!(
            variants
                .iter()
                .map(|v| (v.name.as_str(), v.tag.as_deref()))
                .collect::<Vec<_>>(),
            [("Cat", Some("cat")), ("Dog", Some("dog"))]
        );
        let Kind::Struct { fields, .. } = &schemas.def("Dog").unwrap().kind else {
            panic!()
        };
        assert_eq!(
            (fields[1].name.as_str(), fields[1].optional, fields[1].skip_none),
            ("name", true, true)
        );
    }

    #[test]
    fn a_discriminated_variant_without_its_tag_is_an_error() {
        let root = with_components(json!({
            "Cat": {"type": "object", "properties": {"lives": {"type": "integer"}}},
            "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}], "discriminator": {"propertyName": "kind"}},
            "Pets": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"type": "string"}], "discriminator": {"propertyName": "kind"}},
        }));
        let document = Document::new(&root).unwrap();
        let error = Schemas::new(&document, true).err().unwrap();
        assert_eq!(error.pointer, "#/components/schemas/Cat");
    }
}
