//! JSON Schema (2020-12, as OpenAPI 3.1 uses) of the types that cross the API, laid out as
//! pydantic v2 and FastAPI write it.
//!
//! Rules enforced here:
//! - named types (models, string enums) are registered once under `components.schemas` and
//!   referenced with `$ref`, so the document stays small and client generators name them;
//! - `Option<T>` is `anyOf: [T, {"type": "null"}]`; as a model field it is optional with
//!   `default: null`; `Vec<T>` is an array, a map with string keys an object with
//!   `additionalProperties`;
//! - titles are pydantic's (`user_id` → "User Id", Python's `str.title()`); a field or parameter
//!   whose schema is a reference to a named type (alone or as `anyOf` with null) gets no title,
//!   as pydantic omits it; constraints go on the non-null branch of an `anyOf`;
//! - integers and floats carry their `format` (`int64`, `double`, ...).

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

use crate::constraint::Constraint;
use crate::convert::FromParam;
use crate::json::FromJson;

/// A type that can describe itself as JSON Schema.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema for the OpenAPI document",
    label = "a type in the API without `JsonSchema`",
    note = "derive `Model` for a struct or `StrEnum` for a string enum; return `Json<Value>` to leave a response undocumented"
)]
pub trait JsonSchema {
    /// The schema of the type; named types register themselves and return a `$ref`.
    fn schema(registry: &mut SchemaRegistry) -> Value;
}

/// The `components.schemas` being built for one document.
#[derive(Debug, Default, Clone)]
pub struct SchemaRegistry {
    components: BTreeMap<String, Value>,
}

impl SchemaRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Register the named schema built by `build` (once) and return its `$ref`.
    pub fn named(&mut self, name: &str, build: impl FnOnce(&mut Self) -> Value) -> Value {
        if !self.components.contains_key(name) {
            // A placeholder first, so a recursive type refers to itself instead of looping.
            self.components.insert(name.to_owned(), Value::Null);
            let schema = build(self);
            self.components.insert(name.to_owned(), schema);
        }
        json!({ "$ref": format!("#/components/schemas/{name}") })
    }

    /// Add a schema under `name`, replacing any earlier one.
    pub fn insert(&mut self, name: &str, schema: Value) {
        self.components.insert(name.to_owned(), schema);
    }

    /// The registered schemas, sorted by name.
    pub fn into_components(self) -> Map<String, Value> {
        self.components.into_iter().collect()
    }
}

impl<T: JsonSchema> JsonSchema for Option<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "anyOf": [T::schema(registry), { "type": "null" }] })
    }
}

impl<T: JsonSchema> JsonSchema for Vec<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "array", "items": T::schema(registry) })
    }
}

impl<T: JsonSchema, S> JsonSchema for HashMap<String, T, S> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": T::schema(registry) })
    }
}

impl<T: JsonSchema> JsonSchema for BTreeMap<String, T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": T::schema(registry) })
    }
}

impl JsonSchema for Value {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({})
    }
}

impl JsonSchema for Map<String, Value> {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": true })
    }
}

impl<T: JsonSchema> JsonSchema for crate::response::Json<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        T::schema(registry)
    }
}

/// "User Id" for `user_id`, as pydantic titles fields and FastAPI parameters and summaries:
/// Python's `str.title()` (a letter after a letter is lower case, any other letter upper case),
/// then `_` → space, trimmed.
pub fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut after_letter = false;
    for c in name.chars() {
        if c.is_alphabetic() {
            if after_letter {
                out.extend(c.to_lowercase());
            } else {
                out.extend(c.to_uppercase());
            }
            after_letter = true;
        } else {
            out.push(if c == '_' { ' ' } else { c });
            after_letter = false;
        }
    }
    out.trim().to_owned()
}

/// True when `schema` refers to a named type: `{"$ref"}`, or `anyOf` with a `$ref` branch.
fn is_reference(schema: &Map<String, Value>) -> bool {
    schema.contains_key("$ref")
        || matches!(schema.get("anyOf"), Some(Value::Array(branches))
            if branches.iter().any(|b| b.get("$ref").is_some()))
}

/// `schema` as an object to add keywords to (a non-object schema is wrapped in `allOf`).
fn into_object(schema: Value) -> Map<String, Value> {
    match schema {
        Value::Object(map) => map,
        other => {
            let mut map = Map::new();
            map.insert("allOf".into(), Value::Array(vec![other]));
            map
        }
    }
}

/// Add the keywords of `constraints` to `schema`, on its first `anyOf` branch if it has one.
fn annotate(schema: &mut Map<String, Value>, constraints: &[Constraint]) {
    let target = match schema.get_mut("anyOf") {
        Some(Value::Array(branches)) => match branches.first_mut() {
            Some(Value::Object(first)) => first,
            _ => return,
        },
        _ => schema,
    };
    for constraint in constraints {
        constraint.annotate(target);
    }
}

/// The schema of a scalar path or query parameter with its constraints, default and title.
pub fn param_schema<T: FromParam>(
    name: &str,
    default: Option<&T>,
    constraints: &[Constraint],
    registry: &mut SchemaRegistry,
) -> Value {
    let mut schema = into_object(T::schema(registry));
    annotate(&mut schema, constraints);
    if let Some(default) = default.and_then(|d| serde_json::to_value(d).ok()) {
        schema.insert("default".into(), default);
    }
    if !is_reference(&schema) {
        schema.insert("title".into(), Value::String(title_case(name)));
    }
    Value::Object(schema)
}

/// The schema of model field `key` of type `T`, with constraints, default, title and
/// description as pydantic writes them (a bare `$ref` for a required nested model).
pub fn field_schema<T: FromJson>(
    key: &str,
    default: Option<Value>,
    constraints: &[Constraint],
    description: Option<&str>,
    registry: &mut SchemaRegistry,
) -> Value {
    let mut schema = into_object(T::schema(registry));
    annotate(&mut schema, constraints);
    match default {
        Some(value) => {
            schema.insert("default".into(), value);
        }
        None if !T::REQUIRED => {
            schema.insert("default".into(), Value::Null);
        }
        None => {}
    }
    if !is_reference(&schema) {
        schema.insert("title".into(), Value::String(title_case(key)));
    }
    if let Some(description) = description {
        schema.insert("description".into(), Value::String(description.to_owned()));
    }
    Value::Object(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Bound;

    fn schema_of<T: JsonSchema>() -> Value {
        T::schema(&mut SchemaRegistry::new())
    }

    #[test]
    fn integers_carry_their_format() {
        assert_eq!(schema_of::<i8>(), json!({"type": "integer", "format": "int8"}));
        assert_eq!(schema_of::<i16>(), json!({"type": "integer", "format": "int16"}));
        assert_eq!(schema_of::<i32>(), json!({"type": "integer", "format": "int32"}));
        assert_eq!(schema_of::<i64>(), json!({"type": "integer", "format": "int64"}));
        assert_eq!(
            schema_of::<isize>(),
            json!({"type": "integer", "format": "int64"})
        );
        assert_eq!(schema_of::<u8>(), json!({"type": "integer", "format": "uint8"}));
        assert_eq!(schema_of::<u16>(), json!({"type": "integer", "format": "uint16"}));
        assert_eq!(schema_of::<u32>(), json!({"type": "integer", "format": "uint32"}));
        assert_eq!(schema_of::<u64>(), json!({"type": "integer", "format": "uint64"}));
        assert_eq!(
            schema_of::<usize>(),
            json!({"type": "integer", "format": "uint64"})
        );
        assert_eq!(schema_of::<i128>(), json!({"type": "integer"}));
        assert_eq!(schema_of::<u128>(), json!({"type": "integer", "minimum": 0}));
    }

    #[test]
    fn floats_bools_and_strings() {
        assert_eq!(schema_of::<f32>(), json!({"type": "number", "format": "float"}));
        assert_eq!(schema_of::<f64>(), json!({"type": "number", "format": "double"}));
        assert_eq!(schema_of::<bool>(), json!({"type": "boolean"}));
        assert_eq!(schema_of::<String>(), json!({"type": "string"}));
        assert_eq!(schema_of::<&str>(), json!({"type": "string"}));
    }

    #[test]
    fn option_is_any_of_null() {
        assert_eq!(
            schema_of::<Option<i64>>(),
            json!({"anyOf": [{"type": "integer", "format": "int64"}, {"type": "null"}]})
        );
        assert_eq!(
            schema_of::<Option<Vec<Option<String>>>>(),
            json!({"anyOf": [
                {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
                {"type": "null"}
            ]})
        );
    }

    #[test]
    fn containers() {
        assert_eq!(
            schema_of::<Vec<String>>(),
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(
            schema_of::<Vec<Vec<bool>>>(),
            json!({"type": "array", "items": {"type": "array", "items": {"type": "boolean"}}})
        );
        assert_eq!(
            schema_of::<HashMap<String, f64>>(),
            json!({"type": "object", "additionalProperties": {"type": "number", "format": "double"}})
        );
        assert_eq!(
            schema_of::<BTreeMap<String, Vec<i32>>>(),
            json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer", "format": "int32"}}})
        );
        assert_eq!(schema_of::<Value>(), json!({}));
        assert_eq!(
            schema_of::<Map<String, Value>>(),
            json!({"type": "object", "additionalProperties": true})
        );
        assert_eq!(
            schema_of::<crate::response::Json<Vec<u8>>>(),
            json!({"type": "array", "items": {"type": "integer", "format": "uint8"}})
        );
    }

    #[test]
    fn named_schemas_are_registered_once() {
        let mut registry = SchemaRegistry::new();
        let mut calls = 0;
        for _ in 0..2 {
            let reference = registry.named("Item", |_| {
                calls += 1;
                json!({"type": "object"})
            });
            assert_eq!(reference, json!({"$ref": "#/components/schemas/Item"}));
        }
        assert_eq!(calls, 1);
        assert_eq!(registry.into_components()["Item"], json!({"type": "object"}));
    }

    #[test]
    fn a_recursive_named_schema_refers_to_itself() {
        let mut registry = SchemaRegistry::new();
        fn tree(registry: &mut SchemaRegistry) -> Value {
            registry.named("Tree", |registry| {
                json!({"type": "object", "properties": {"children": {"type": "array", "items": tree(registry)}}})
            })
        }
        assert_eq!(tree(&mut registry), json!({"$ref": "#/components/schemas/Tree"}));
        assert_eq!(
            registry.into_components()["Tree"]["properties"]["children"]["items"],
            json!({"$ref": "#/components/schemas/Tree"})
        );
    }

    #[test]
    fn titles_are_pythons_str_title() {
        assert_eq!(title_case("user_id"), "User Id");
        assert_eq!(title_case("read_user_item"), "Read User Item");
        assert_eq!(title_case("q"), "Q");
        assert_eq!(title_case("item2name"), "Item2Name");
        assert_eq!(title_case("userID"), "Userid");
        assert_eq!(title_case("_private"), "Private");
        assert_eq!(title_case("a__b"), "A  B");
        assert_eq!(title_case("price_with_tax"), "Price With Tax");
    }

    #[test]
    fn parameters_have_title_default_and_constraints() {
        let mut registry = SchemaRegistry::new();
        assert_eq!(
            param_schema::<i64>("skip", Some(&0), &[Constraint::Ge(Bound::Int(0))], &mut registry),
            json!({"type": "integer", "format": "int64", "minimum": 0, "default": 0, "title": "Skip"})
        );
        assert_eq!(
            param_schema::<String>(
                "s",
                None,
                &[Constraint::MinLength(2), Constraint::MaxLength(3)],
                &mut registry
            ),
            json!({"type": "string", "minLength": 2, "maxLength": 3, "title": "S"})
        );
        assert_eq!(
            param_schema::<f64>(
                "b",
                Some(&1.5),
                &[Constraint::Lt(Bound::Float(2.5))],
                &mut registry
            ),
            json!({"type": "number", "format": "double", "exclusiveMaximum": 2.5, "default": 1.5, "title": "B"})
        );
    }

    #[test]
    fn model_fields_as_pydantic_writes_them() {
        let mut registry = SchemaRegistry::new();
        assert_eq!(
            field_schema::<String>("name", None, &[], None, &mut registry),
            json!({"type": "string", "title": "Name"})
        );
        assert_eq!(
            field_schema::<Option<f64>>("tax", None, &[], Some("The tax."), &mut registry),
            json!({
                "anyOf": [{"type": "number", "format": "double"}, {"type": "null"}],
                "default": null,
                "title": "Tax",
                "description": "The tax."
            })
        );
        assert_eq!(
            field_schema::<Option<i64>>("qty", None, &[Constraint::Gt(Bound::Int(0))], None, &mut registry),
            json!({
                "anyOf": [{"type": "integer", "format": "int64", "exclusiveMinimum": 0}, {"type": "null"}],
                "default": null,
                "title": "Qty"
            })
        );
        assert_eq!(
            field_schema::<u8>("retries", Some(json!(3)), &[], None, &mut registry),
            json!({"type": "integer", "format": "uint8", "default": 3, "title": "Retries"})
        );
        assert_eq!(
            field_schema::<Vec<String>>("tags", Some(json!([])), &[], None, &mut registry),
            json!({"type": "array", "items": {"type": "string"}, "default": [], "title": "Tags"})
        );
        assert_eq!(
            field_schema::<Value>("input", None, &[], None, &mut registry),
            json!({"title": "Input"})
        );
    }
}
