//! A schema declared as a named type: a struct of its properties, an enum of its string values, a
//! union of its members (tagged by its discriminator), a struct of an `allOf`'s objects merged, or
//! an alias.
//!
//! Rules enforced here: a discriminated union's variants each have a tag value (the mapping's
//! key, the tag property's constant, or the component's key) and the tag property, else the
//! error names the variant's pointer; an `allOf` of several parts merges objects only.

use crate::document::schema::{Schema, SchemaObject, Type, Types};
use crate::document::{child, GenError};
use crate::names::{member, variant, Namer};

use super::map::{is_union, non_null};
use super::space::Schemas;
use super::{enum_variants, ty_word, Field, Kind, Ty, Variant};

impl Schemas<'_> {
    /// Declare `schema` (at `pointer`) as the type `name`.
    pub(super) fn declare(
        &mut self,
        name: &str,
        key: Option<&str>,
        schema: &Schema,
        pointer: &str,
    ) -> Result<(), GenError> {
        let Some(object) = schema.object() else {
            let ty = self.ty(schema, pointer, name)?;
            self.push(name, key, None, pointer, Kind::Alias(ty));
            return Ok(());
        };
        let is_object = object.types == Some(Types::One(Type::Object))
            || (object.properties.is_some() && object.types.is_none());
        if is_object && object.properties.is_some() {
            return self.push_with(name, key, Some(object), pointer, |this| {
                this.object(name, object, pointer)
            });
        }
        if let Some(values) = object.string_values() {
            let values = enum_variants(&values);
            self.push(name, key, Some(object), pointer, Kind::Enum { values });
            return Ok(());
        }
        if is_union(object, self.decimals) {
            return self.push_with(name, key, Some(object), pointer, |this| {
                this.union(name, object, pointer)
            });
        }
        if let Some(all_of) = object.all_of.as_ref().filter(|all_of| all_of.len() > 1) {
            let merged = self.merge_all_of(all_of, pointer)?;
            return self.push_with(name, key, Some(object), pointer, |this| {
                this.object(name, &merged, pointer)
            });
        }
        let ty = self.ty(schema, pointer, name)?;
        self.push(name, key, Some(object), pointer, Kind::Alias(ty));
        Ok(())
    }

    /// The fields of an object schema.
    pub(super) fn object(
        &mut self,
        name: &str,
        schema: &SchemaObject,
        pointer: &str,
    ) -> Result<Kind, GenError> {
        let mut fields = Vec::new();
        let mut field_names = Namer::with(&["extra"]);
        let properties_pointer = child(pointer, "properties");
        let properties = schema.properties.iter().flatten();
        for (json, property) in properties {
            let property_pointer = child(&properties_pointer, json);
            let context = format!("{name}_{json}");
            let (ty, nullable) = self.ty(property, &property_pointer, &context)?.unwrap_option();
            let is_required = schema.required.contains(json);
            // Any JSON (`{}`) may be `null` too: an error's `input` that was `null`.
            let may_be_null = nullable || ty == Ty::Value;
            fields.push(Field {
                name: field_names.claim(&member(json)),
                json: json.clone(),
                ty,
                optional: nullable || !is_required,
                skip_none: !is_required,
                nullable: may_be_null,
                doc: property.description(),
                default: property.default().cloned(),
            });
        }
        let extra = match &schema.additional_properties {
            Some(Schema::Bool(false)) | None => None,
            Some(Schema::Bool(true)) => (!fields.is_empty()).then_some(Ty::Value),
            Some(additional) => Some(self.ty(
                additional,
                &child(pointer, "additionalProperties"),
                &format!("{name}_extra"),
            )?),
        };
        Ok(Kind::Struct { fields, extra })
    }

    /// The members of a `oneOf`/`anyOf` (`null` aside) as a union.
    fn union(&mut self, name: &str, schema: &SchemaObject, pointer: &str) -> Result<Kind, GenError> {
        let Some((keyword, members)) = schema.union_members() else {
            return Err(GenError::at(pointer, "internal: not a union"));
        };
        let members_pointer = child(pointer, keyword);
        let tag = schema
            .discriminator
            .as_ref()
            .and_then(|discriminator| discriminator.property_name.clone());
        let mut variants = Vec::new();
        let mut variant_names = Namer::default();
        for (index, member_schema) in non_null(members) {
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
        Ok(Kind::Union { variants, tag })
    }

    /// The discriminator value of a union's member: its key in `mapping`, else its tag property's
    /// constant, else its schema key.
    fn tag_value(
        &self,
        union: &SchemaObject,
        member: &Schema,
        pointer: &str,
        property: &str,
    ) -> Result<String, GenError> {
        let reference = member.reference();
        let mapped = union.discriminator.as_ref().and_then(|discriminator| {
            let reference = reference?;
            discriminator
                .mapping
                .iter()
                .find(|(_, target)| target.as_str() == reference)
        });
        if let Some((value, _)) = mapped {
            return Ok(value.clone());
        }
        let (resolved, resolved_pointer) = self.document.resolve(member, pointer)?;
        let Some(tag_schema) = resolved.object().and_then(|object| object.property(property)) else {
            return Err(GenError::at(
                &resolved_pointer,
                format!("a variant of a union discriminated by `{property}` has no property `{property}`"),
            ));
        };
        if let Some([value]) = tag_schema
            .object()
            .and_then(SchemaObject::string_values)
            .as_deref()
        {
            return Ok(value.clone());
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
    fn merge_all_of(&self, all_of: &[Schema], pointer: &str) -> Result<SchemaObject, GenError> {
        let mut properties = indexmap::IndexMap::new();
        let mut required = Vec::new();
        for (index, part) in all_of.iter().enumerate() {
            let part_pointer = child(&child(pointer, "allOf"), &index.to_string());
            let (part, _) = self.document.resolve(part, &part_pointer)?;
            let Some(part) = part.object().filter(|part| part.properties.is_some()) else {
                return Err(GenError::at(
                    &part_pointer,
                    "`allOf` of a schema that is not an object",
                ));
            };
            properties.extend(
                part.properties
                    .iter()
                    .flatten()
                    .map(|(k, v)| (k.clone(), v.clone())),
            );
            required.extend(part.required.iter().cloned());
        }
        Ok(SchemaObject {
            types: Some(Types::One(Type::Object)),
            properties: Some(properties),
            required,
            ..SchemaObject::default()
        })
    }
}
