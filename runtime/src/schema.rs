//! JSON Schema (2020-12, as OpenAPI 3.1 uses) of the types that cross the API.
//!
//! Rules enforced here:
//! - named types (models, string enums) are registered once under `components.schemas` and
//!   referenced with `$ref`, so the document stays small and client generators name them;
//! - `Option<T>` is `anyOf: [T, {"type": "null"}]`, as FastAPI writes it.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

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
        json!({ "type": "object" })
    }
}

impl<T: JsonSchema> JsonSchema for crate::response::Json<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        T::schema(registry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_is_any_of_null() {
        let mut registry = SchemaRegistry::new();
        assert_eq!(
            Option::<i64>::schema(&mut registry),
            json!({"anyOf": [{"type": "integer", "format": "int64"}, {"type": "null"}]})
        );
    }

    #[test]
    fn containers() {
        let mut registry = SchemaRegistry::new();
        assert_eq!(
            Vec::<String>::schema(&mut registry),
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert_eq!(
            HashMap::<String, f64>::schema(&mut registry),
            json!({"type": "object", "additionalProperties": {"type": "number", "format": "double"}})
        );
        assert_eq!(Value::schema(&mut registry), json!({}));
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
}
