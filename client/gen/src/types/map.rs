//! The Rust type of a schema where it is used: a scalar, a container, a component's name, or an
//! inline type declared on the way (named after where it is).
//!
//! Rules enforced here: the keywords decide in this order: `$ref`, `not`, `anyOf`/`oneOf`,
//! `allOf`, a string `enum`/`const`, another `enum`/`const` without `type`, then `type` (a list of
//! types a union of them, `null` among them an `Option`).

use crate::document::schema::{Schema, SchemaObject, Type, Types};
use crate::document::{child, GenError};

use super::space::Schemas;
use super::{enum_variants, ty_word, Kind, Ty, Variant};

impl Schemas<'_> {
    /// The Rust type of `schema` (at `pointer`); an inline type it needs is declared, named after
    /// `context`.
    pub fn ty(&mut self, schema: &Schema, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let ty = self.ty_of(schema, pointer, context)?;
        if let Some(feature) = ty.feature() {
            self.features.insert(feature);
        }
        Ok(ty)
    }

    fn ty_of(&mut self, schema: &Schema, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let object = match schema {
            Schema::Bool(true) => return Ok(Ty::Value),
            Schema::Bool(false) => {
                return Err(GenError::at(pointer, "the `false` schema (no value is valid)"))
            }
            Schema::Object(object) => object,
        };
        if let Some(reference) = &object.reference {
            if let Some(name) = self.components.get(reference) {
                return Ok(Ty::Named(name.clone()));
            }
            let document = self.document;
            let (target, target_pointer) = document.resolve(schema, pointer)?;
            return self.ty(&target, &target_pointer, context);
        }
        if object.not.is_some() {
            return Err(GenError::at(pointer, "`not` has no Rust type"));
        }
        if let Some((keyword, members)) = object.union_members() {
            return self.union_ty(schema, keyword, members, pointer, context);
        }
        if let Some(all_of) = &object.all_of {
            if let [only] = all_of.as_slice() {
                return self.ty(only, &child(&child(pointer, "allOf"), "0"), context);
            }
            return self.inline(schema, pointer, context);
        }
        if let Some(values) = object.string_values() {
            let named = match self.declared_inline(object) {
                Some(ty) => ty,
                None => {
                    let name = self.claim_inline(object, context);
                    let values = enum_variants(&values);
                    self.push(&name, None, Some(object), pointer, Kind::Enum { values });
                    Ty::Named(name)
                }
            };
            return Ok(optional(named, object.enum_has_null()));
        }
        if (object.enum_values.is_some() || object.const_value.is_some()) && object.types.is_none() {
            // An enum of numbers, or of mixed values, without `type`: any JSON (the document
            // lists the values in the description's place).
            return Ok(Ty::Value);
        }
        self.types_ty(object, pointer, context)
    }

    /// `anyOf`/`oneOf`: `null` among the members makes an `Option`; one other member is its
    /// type, pydantic's decimal a decimal, more a union declared inline.
    fn union_ty(
        &mut self,
        schema: &Schema,
        keyword: &str,
        members: &[Schema],
        pointer: &str,
        context: &str,
    ) -> Result<Ty, GenError> {
        let non_null = non_null(members);
        let nullable = non_null.len() < members.len();
        let inner = match non_null.as_slice() {
            [] => Ty::Value,
            [(index, only)] => self.ty(
                only,
                &child(&child(pointer, keyword), &index.to_string()),
                context,
            )?,
            many if self.decimals && is_decimal(many) => Ty::Decimal,
            _ => self.inline(schema, pointer, context)?,
        };
        Ok(optional(inner, nullable))
    }

    /// The type declared for the inline `schema` (declared now if it is the first of its identity).
    fn inline(&mut self, schema: &Schema, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let Some(object) = schema.object() else {
            return self.ty(schema, pointer, context);
        };
        if let Some(ty) = self.declared_inline(object) {
            return Ok(ty);
        }
        let name = self.claim_inline(object, context);
        self.declare(&name, None, schema, pointer)?;
        Ok(Ty::Named(name))
    }

    /// The type of `type`: none (an object if it has `properties`, else any JSON), one, or a
    /// union of several; `null` among them makes an `Option`.
    fn types_ty(&mut self, object: &SchemaObject, pointer: &str, context: &str) -> Result<Ty, GenError> {
        let (types, nullable) = types(object.types.as_ref());
        let inner = match types.as_slice() {
            [] if object.properties.is_some() => self.inline_object(object, pointer, context)?,
            [] => Ty::Value,
            [only] => self.typed(only, object, pointer, context)?,
            many => {
                // `type: [string, integer]`: a union of the types, tried in order.
                let name = self.claim(context);
                let index = self.push(&name, None, Some(object), pointer, Kind::Alias(Ty::Value));
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
        kind: &Type,
        object: &SchemaObject,
        pointer: &str,
        context: &str,
    ) -> Result<Ty, GenError> {
        let format = object.format.as_deref().unwrap_or_default();
        Ok(match kind {
            Type::String => string_ty(format, object),
            Type::Integer => Ty::Int(int_width(format)),
            Type::Number => Ty::Float(if format == "float" { "f32" } else { "f64" }),
            Type::Boolean => Ty::Bool,
            Type::Null => Ty::Value,
            Type::Array => self.array(object, pointer, context)?,
            Type::Object if object.properties.is_some() => self.inline_object(object, pointer, context)?,
            Type::Object => match &object.additional_properties {
                None | Some(Schema::Bool(_)) => Ty::Object,
                Some(additional) => Ty::Map(Box::new(self.ty(
                    additional,
                    &child(pointer, "additionalProperties"),
                    &format!("{context}_value"),
                )?)),
            },
            Type::Other(other) => return Err(GenError::at(pointer, format!("unknown type `{other}`"))),
        })
    }

    fn array(&mut self, object: &SchemaObject, pointer: &str, context: &str) -> Result<Ty, GenError> {
        if let Some(prefix) = &object.prefix_items {
            let closed = matches!(object.items, Some(Schema::Bool(false)))
                || object.max_items == Some(prefix.len() as u64);
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
        let item = match &object.items {
            Some(items) => self.ty(items, &child(pointer, "items"), &format!("{context}_item"))?,
            None => Ty::Value,
        };
        Ok(Ty::Vec(Box::new(item)))
    }

    fn inline_object(&mut self, object: &SchemaObject, pointer: &str, context: &str) -> Result<Ty, GenError> {
        if let Some(ty) = self.declared_inline(object) {
            return Ok(ty);
        }
        let name = self.claim_inline(object, context);
        self.push_with(&name, None, Some(object), pointer, |this| {
            this.object(&name, object, pointer)
        })?;
        Ok(Ty::Named(name))
    }
}

/// A string of `format` (a file when its content is not text).
fn string_ty(format: &str, object: &SchemaObject) -> Ty {
    match format {
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
    }
}

/// The integer type of `format` (`i64` without one).
fn int_width(format: &str) -> &'static str {
    match format {
        "int8" => "i8",
        "int16" => "i16",
        "int32" => "i32",
        "uint8" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" => "u64",
        _ => "i64",
    }
}

/// A string whose `contentMediaType` is not text (pydantic's `UploadFile` in OpenAPI 3.1:
/// `contentMediaType: application/octet-stream`), and not encoded as text (`contentEncoding`).
fn is_file_content(object: &SchemaObject) -> bool {
    let Some(media) = &object.content_media_type else {
        return false;
    };
    let media = media.to_ascii_lowercase();
    object.content_encoding.is_none()
        && !media.starts_with("text/")
        && media != "application/json"
        && !media.ends_with("+json")
}

pub(super) fn optional(ty: Ty, nullable: bool) -> Ty {
    if nullable && !matches!(ty, Ty::Option(_)) {
        Ty::Option(Box::new(ty))
    } else {
        ty
    }
}

/// The `type`s other than `null`, and whether `null` is one of a list (`type: null` alone is any
/// JSON, not an `Option`).
fn types(types: Option<&Types>) -> (Vec<Type>, bool) {
    match types {
        Some(Types::One(kind)) => (vec![kind.clone()], false),
        Some(Types::Many(kinds)) => {
            let nullable = kinds.contains(&Type::Null);
            let others = kinds
                .iter()
                .filter(|kind| **kind != Type::Null)
                .cloned()
                .collect();
            (others, nullable)
        }
        None => (Vec::new(), false),
    }
}

/// The members of a union other than `null`, with their index.
pub(super) fn non_null(members: &[Schema]) -> Vec<(usize, &Schema)> {
    members
        .iter()
        .enumerate()
        .filter(|(_, member)| !member.is_null())
        .collect()
}

/// A `oneOf`/`anyOf` of two or more types besides `null` (and not pydantic's decimal).
pub(super) fn is_union(object: &SchemaObject, decimals: bool) -> bool {
    let Some((_, members)) = object.union_members() else {
        return false;
    };
    let non_null = non_null(members);
    non_null.len() >= 2 && !(decimals && is_decimal(&non_null))
}

/// pydantic's decimal in input mode: a number or a string (no format).
fn is_decimal(members: &[(usize, &Schema)]) -> bool {
    let plain = |member: &Schema, kind: Type| {
        member
            .object()
            .is_some_and(|object| object.types == Some(Types::One(kind)) && object.format.is_none())
    };
    matches!(members, [(_, number), (_, string)] if plain(number, Type::Number) && plain(string, Type::String))
}
