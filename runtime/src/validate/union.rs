//! Unions (`#[derive(Model)]` on an enum, discriminated by `#[serde(tag = "..")]` or
//! `#[serde(untagged)]`): what the derive's generated code calls to validate one and describe it.
//!
//! Rules enforced here:
//! - an object without the tag is
//!   `union_tag_not_found`; a tag that names no variant is `union_tag_invalid` (its `tag` is the
//!   value as Python prints it), each at the union's own `loc` with the whole object as `input`;
//! - a variant's own errors are reported under the tag (`["body", "cat", "lives"]`), as pydantic
//!   places them;
//! - the schema is `oneOf` of the variants' `$ref`s with `discriminator: {propertyName,
//!   mapping}`, and each variant's schema gains the tag as its first, required property
//!   (`{"type": "string", "const": tag, "title": ..}`), as pydantic writes a `Literal` field;
//! - an untagged union is the first variant the value is valid for (pydantic's smart mode, but
//!   lax: see the manual's differences); when none, every variant's errors, each under the
//!   variant model's name (`["body", "Cat", "lives"]`; a parametrised generic model's Python
//!   name, `["body", "Page[Item]", "total"]`, spelled only once the variant has failed); its
//!   schema is `anyOf` of `$ref`s.

use serde_json::{json, Map, Value};

use super::error::{Failure, Loc, LocItem, ValidationErrors};
use super::schema::{title_case, SchemaRegistry};

/// The validator of one variant: the object into the union's value, errors recorded.
type VariantFn<U> = fn(&Map<String, Value>, &mut Loc, &mut ValidationErrors) -> Option<U>;

/// One variant of a discriminated union, as the derive lists it.
pub struct TaggedVariant<U> {
    /// The tag value naming the variant.
    pub tag: &'static str,
    /// Validates the object as the variant's model.
    pub validate: VariantFn<U>,
    /// The variant model's schema (a `$ref`, registering it).
    pub schema: fn(&mut SchemaRegistry) -> Value,
}

/// A tag value as pydantic prints it in `union_tag_invalid` (Python's `str()` of the value).
fn python_str(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Null => "None".to_owned(),
        other => other.to_string(),
    }
}

/// `'cat', 'dog'`: the tags as pydantic lists them.
fn quoted_list(tags: impl Iterator<Item = &'static str>) -> String {
    tags.map(|tag| format!("'{tag}'")).collect::<Vec<_>>().join(", ")
}

/// Validate `object` as the union whose tag is field `discriminator` (a value that is not an
/// object is refused before, by [`super::validate_model`], as pydantic refuses it).
pub fn validate_tagged<U>(
    object: &Map<String, Value>,
    discriminator: &'static str,
    variants: &[TaggedVariant<U>],
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<U> {
    let Some(tag_value) = object.get(discriminator) else {
        let failure = Failure::with_ctx(
            "union_tag_not_found",
            format!("Unable to extract tag using discriminator '{discriminator}'"),
            json!({ "discriminator": format!("'{discriminator}'") }),
        );
        errors.push(failure.at(loc.clone(), Value::Object(object.clone())));
        return None;
    };
    let found = match tag_value {
        Value::String(tag) => variants.iter().find(|variant| variant.tag == tag),
        _ => None,
    };
    let Some(variant) = found else {
        let (tag, expected) = (python_str(tag_value), quoted_list(variants.iter().map(|v| v.tag)));
        let failure = Failure::with_ctx(
            "union_tag_invalid",
            format!(
                "Input tag '{tag}' found using '{discriminator}' does not match any of the expected tags: {expected}"
            ),
            json!({ "discriminator": format!("'{discriminator}'"), "tag": tag, "expected_tags": expected }),
        );
        errors.push(failure.at(loc.clone(), Value::Object(object.clone())));
        return None;
    };
    loc.push(LocItem::Static(variant.tag));
    let result = (variant.validate)(object, loc, errors);
    loc.pop();
    result
}

/// The union's schema; each variant's registered schema gains the tag property.
pub fn tagged_schema<U>(
    discriminator: &'static str,
    variants: &[TaggedVariant<U>],
    registry: &mut SchemaRegistry,
) -> Value {
    let mut one_of = Vec::with_capacity(variants.len());
    let mut mapping = Map::new();
    for variant in variants {
        let reference = (variant.schema)(registry);
        if let Some(target) = reference.get("$ref").and_then(Value::as_str) {
            mapping.insert(variant.tag.to_owned(), Value::from(target));
            let name = target.rsplit('/').next().unwrap_or(target).to_owned();
            registry.update(&name, |schema| {
                add_tag_property(schema, discriminator, variant.tag)
            });
        }
        one_of.push(reference);
    }
    json!({
        "oneOf": one_of,
        "discriminator": { "propertyName": discriminator, "mapping": mapping },
    })
}

/// Put `key: {"type": "string", "const": tag, "title": ..}` first among the properties of
/// `schema`, and first among its `required`.
fn add_tag_property(schema: &mut Value, key: &str, tag: &str) {
    let Value::Object(object) = schema else { return };
    let property = json!({ "type": "string", "const": tag, "title": title_case(key) });
    let mut properties = Map::new();
    properties.insert(key.to_owned(), property);
    if let Some(Value::Object(old)) = object.shift_remove("properties") {
        properties.extend(old.into_iter().filter(|(name, _)| name != key));
    }
    let mut required = vec![Value::from(key)];
    if let Some(Value::Array(old)) = object.shift_remove("required") {
        required.extend(old.into_iter().filter(|name| name != key));
    }
    let mut rebuilt = Map::new();
    for (name, value) in std::mem::take(object) {
        rebuilt.insert(name.clone(), value);
        if name == "type" {
            // pydantic's order: properties, type, required.
            rebuilt.insert("required".to_owned(), Value::Array(required.clone()));
        }
    }
    let mut ordered = Map::new();
    ordered.insert("properties".to_owned(), Value::Object(properties));
    ordered.extend(rebuilt);
    if !ordered.contains_key("required") {
        ordered.insert("required".to_owned(), Value::Array(required));
    }
    *object = ordered;
}

/// One variant of an untagged union, as the derive lists it.
pub struct UntaggedVariant<U> {
    /// The variant model's name: its errors' place in `loc`, as pydantic places them.
    pub name: &'static str,
    /// For a parametrised generic model, its Python name (`Page[Item]`), which pydantic puts in
    /// `loc` instead of `name`; called only when the variant fails, so a valid value costs
    /// nothing more.
    pub spelled: Option<fn() -> String>,
    /// Validates the value as the variant's model.
    pub validate: fn(&Value, &mut Loc, &mut ValidationErrors) -> Option<U>,
    /// The variant model's schema (a `$ref`, registering it).
    pub schema: fn(&mut SchemaRegistry) -> Value,
}

/// Validate `value` as the first variant it is valid for; when none, every variant's errors,
/// each under the variant's name.
pub fn validate_untagged<U>(
    value: &Value,
    variants: &[UntaggedVariant<U>],
    loc: &mut Loc,
    errors: &mut ValidationErrors,
) -> Option<U> {
    let mut failed = Vec::new();
    let depth = loc.len();
    for variant in variants {
        let mut mine = ValidationErrors::new();
        loc.push(LocItem::Static(variant.name));
        let result = (variant.validate)(value, loc, &mut mine);
        loc.pop();
        match result {
            Some(valid) if mine.is_empty() => return Some(valid),
            _ => {
                if let Some(spelled) = variant.spelled {
                    respell(&mut mine, depth, &spelled());
                }
                failed.extend(mine.items)
            }
        }
    }
    errors.items.extend(failed);
    None
}

/// Put `name` at position `depth` of each error's `loc` (where the variant's constant name was).
fn respell(errors: &mut ValidationErrors, depth: usize, name: &str) {
    for item in &mut errors.items {
        if let Some(place) = item.loc.get_mut(depth) {
            *place = LocItem::Owned(name.to_owned());
        }
    }
}

/// The untagged union's schema: `anyOf` of the variants' `$ref`s.
pub fn untagged_schema<U>(variants: &[UntaggedVariant<U>], registry: &mut SchemaRegistry) -> Value {
    let any_of: Vec<Value> = variants
        .iter()
        .map(|variant| (variant.schema)(registry))
        .collect();
    json!({ "anyOf": any_of })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_becomes_the_first_required_property() {
        let mut schema = json!({
            "properties": {"lives": {"type": "integer"}},
            "type": "object",
            "required": ["lives"],
            "title": "Cat",
        });
        add_tag_property(&mut schema, "kind", "cat");
        // The order of the object's own keys is checked by the framework test, where serde_json
        // keeps insertion order (here its map may be sorted).
        assert_eq!(schema["required"], json!(["kind", "lives"]));
        assert_eq!(
            schema["properties"]["kind"],
            json!({"type": "string", "const": "cat", "title": "Kind"})
        );
        let properties = schema["properties"]
            .as_object()
            .map(|p| p.keys().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(properties, Some(vec!["kind", "lives"]));
    }

    #[test]
    fn tags_print_as_python_prints_them() {
        assert_eq!(python_str(&json!(5)), "5");
        assert_eq!(python_str(&json!(true)), "True");
        assert_eq!(python_str(&json!(null)), "None");
        assert_eq!(python_str(&json!("cow")), "cow");
    }
}
