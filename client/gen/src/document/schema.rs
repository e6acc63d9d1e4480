//! A JSON Schema (2020-12, as OpenAPI 3.1 writes it) as read: the keywords the generator maps.
//!
//! Rules enforced here: a schema is `true`, `false` or an object (anything else is an error at
//! its pointer); `$ref` keeps its siblings (3.1 allows a `description` or `default` beside it);
//! `type` is one name or a list of names, kept as written (`"null"` alone and `["null"]` mean
//! different things to the mapping); `additionalProperties`, `items` and `contentSchema` are
//! schemas (`false` and `true` included); `enum`, `const` and `default` are any JSON.

use indexmap::IndexMap;
use serde_json::Value;

use super::read::Object;
use super::GenError;

/// A schema.
#[derive(Clone, Debug, PartialEq)]
pub enum Schema {
    /// `true` (any value) or `false` (no value).
    Bool(bool),
    /// A schema object.
    Object(Box<SchemaObject>),
}

/// One of JSON Schema's type names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Type {
    /// `string`.
    String,
    /// `integer`.
    Integer,
    /// `number`.
    Number,
    /// `boolean`.
    Boolean,
    /// `null`.
    Null,
    /// `array`.
    Array,
    /// `object`.
    Object,
    /// A name JSON Schema does not have (an error when mapped: the mapping says where).
    Other(String),
}

impl Type {
    fn named(name: &str) -> Type {
        match name {
            "string" => Type::String,
            "integer" => Type::Integer,
            "number" => Type::Number,
            "boolean" => Type::Boolean,
            "null" => Type::Null,
            "array" => Type::Array,
            "object" => Type::Object,
            other => Type::Other(other.to_owned()),
        }
    }
}

/// `type`, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Types {
    /// `"type": "string"`.
    One(Type),
    /// `"type": ["string", "null"]`.
    Many(Vec<Type>),
}

/// `discriminator`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discriminator {
    /// `propertyName`: the tag property.
    pub property_name: Option<String>,
    /// `mapping`: tag value → `$ref`, in the document's order.
    pub mapping: IndexMap<String, String>,
}

/// A schema object: the keywords the generator maps, and what makes two inline schemas one type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SchemaObject {
    /// `$ref`.
    pub reference: Option<String>,
    /// `type`.
    pub types: Option<Types>,
    /// `format`.
    pub format: Option<String>,
    /// `properties`, in the document's order.
    pub properties: Option<IndexMap<String, Schema>>,
    /// `required`.
    pub required: Vec<String>,
    /// `additionalProperties`.
    pub additional_properties: Option<Schema>,
    /// `items`.
    pub items: Option<Schema>,
    /// `prefixItems`.
    pub prefix_items: Option<Vec<Schema>>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
    /// `maxLength`.
    pub max_length: Option<u64>,
    /// `minLength`.
    pub min_length: Option<u64>,
    /// `pattern`.
    pub pattern: Option<String>,
    /// `maximum` (any JSON number, as written).
    pub maximum: Option<Value>,
    /// `exclusiveMaximum` (a number in 3.1; as written).
    pub exclusive_maximum: Option<Value>,
    /// `minimum` (as written).
    pub minimum: Option<Value>,
    /// `exclusiveMinimum` (a number in 3.1; as written).
    pub exclusive_minimum: Option<Value>,
    /// `multipleOf` (as written).
    pub multiple_of: Option<Value>,
    /// `anyOf`.
    pub any_of: Option<Vec<Schema>>,
    /// `oneOf`.
    pub one_of: Option<Vec<Schema>>,
    /// `allOf`.
    pub all_of: Option<Vec<Schema>>,
    /// `not`.
    pub not: Option<Schema>,
    /// `enum`.
    pub enum_values: Option<Vec<Value>>,
    /// `const`.
    pub const_value: Option<Value>,
    /// `discriminator`.
    pub discriminator: Option<Discriminator>,
    /// `description`.
    pub description: Option<String>,
    /// `default`.
    pub default: Option<Value>,
    /// `contentMediaType`.
    pub content_media_type: Option<String>,
    /// `contentEncoding`.
    pub content_encoding: Option<String>,
    /// `contentSchema`.
    pub content_schema: Option<Schema>,
    /// The schema's JSON without the annotations on top (`title`, `description`, `default`,
    /// `examples`, `deprecated`), which pydantic writes differently at each use of one schema:
    /// two inline schemas of the same identity are one type.
    pub identity: String,
}

impl Schema {
    /// The schema at `pointer`.
    pub fn read(value: &Value, pointer: &str) -> Result<Schema, GenError> {
        match value {
            Value::Bool(value) => Ok(Schema::Bool(*value)),
            Value::Object(_) => Ok(Schema::Object(Box::new(SchemaObject::read(value, pointer)?))),
            _ => Err(GenError::at(pointer, "a schema must be an object or a boolean")),
        }
    }

    /// The schema object, if it is one.
    pub fn object(&self) -> Option<&SchemaObject> {
        match self {
            Schema::Object(object) => Some(object),
            Schema::Bool(_) => None,
        }
    }

    /// `$ref`, if it is a reference.
    pub fn reference(&self) -> Option<&str> {
        self.object()?.reference.as_deref()
    }

    /// The schema's `description`, trimmed, if not empty.
    pub fn description(&self) -> Option<String> {
        self.object()?.description()
    }

    /// `default`.
    pub fn default(&self) -> Option<&Value> {
        self.object()?.default.as_ref()
    }

    /// `type: null` alone.
    pub fn is_null(&self) -> bool {
        matches!(
            self.object().and_then(|o| o.types.as_ref()),
            Some(Types::One(Type::Null))
        )
    }
}

impl SchemaObject {
    fn read(value: &Value, pointer: &str) -> Result<SchemaObject, GenError> {
        let object = Object::new(value, pointer, "a schema")?;
        let schemas = |key: &str| object.list(key, Schema::read);
        let schema = |key: &str| object.with(key, Schema::read);
        Ok(SchemaObject {
            reference: object.string("$ref")?,
            types: object.with("type", read_types)?,
            format: object.string("format")?,
            properties: object.map("properties", Schema::read)?,
            required: object.strings("required")?.unwrap_or_default(),
            additional_properties: schema("additionalProperties")?,
            items: schema("items")?,
            prefix_items: schemas("prefixItems")?,
            max_items: object.count("maxItems")?,
            min_items: object.count("minItems")?,
            unique_items: object.boolean("uniqueItems")? == Some(true),
            max_length: object.count("maxLength")?,
            min_length: object.count("minLength")?,
            pattern: object.string("pattern")?,
            maximum: object.value("maximum").cloned(),
            exclusive_maximum: object.value("exclusiveMaximum").cloned(),
            minimum: object.value("minimum").cloned(),
            exclusive_minimum: object.value("exclusiveMinimum").cloned(),
            multiple_of: object.value("multipleOf").cloned(),
            any_of: schemas("anyOf")?,
            one_of: schemas("oneOf")?,
            all_of: schemas("allOf")?,
            not: schema("not")?,
            enum_values: object.array("enum")?.cloned(),
            const_value: object.value("const").cloned(),
            discriminator: object.with("discriminator", read_discriminator)?,
            description: object.string("description")?,
            default: object.value("default").cloned(),
            content_media_type: object.string("contentMediaType")?,
            content_encoding: object.string("contentEncoding")?,
            content_schema: schema("contentSchema")?,
            identity: identity(object.map),
        })
    }

    /// `description`, trimmed, if not empty.
    pub fn description(&self) -> Option<String> {
        super::text(self.description.as_ref())
    }

    /// `anyOf` or `oneOf` (the first present), with its keyword.
    pub fn union_members(&self) -> Option<(&'static str, &[Schema])> {
        match (&self.any_of, &self.one_of) {
            (Some(members), _) => Some(("anyOf", members)),
            (None, Some(members)) => Some(("oneOf", members)),
            (None, None) => None,
        }
    }

    /// The string values of an `enum` (of strings, `null` aside) or a string `const`.
    pub fn string_values(&self) -> Option<Vec<String>> {
        if let Some(value) = &self.const_value {
            return value.as_str().map(|value| vec![value.to_owned()]);
        }
        let values = self.enum_values.as_ref()?;
        let strings: Vec<String> = values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        let nulls = values.iter().filter(|v| v.is_null()).count();
        (!strings.is_empty() && strings.len() + nulls == values.len()).then_some(strings)
    }

    /// `enum` lists `null`.
    pub fn enum_has_null(&self) -> bool {
        self.enum_values
            .as_ref()
            .is_some_and(|values| values.iter().any(Value::is_null))
    }

    /// The property `name`'s schema.
    pub fn property(&self, name: &str) -> Option<&Schema> {
        self.properties.as_ref()?.get(name)
    }
}

fn read_types(value: &Value, pointer: &str) -> Result<Types, GenError> {
    let error = || GenError::at(pointer, "`type` must be a string or an array of strings");
    match value {
        Value::String(name) => Ok(Types::One(Type::named(name))),
        Value::Array(names) => names
            .iter()
            .map(|name| name.as_str().map(Type::named).ok_or_else(error))
            .collect::<Result<_, _>>()
            .map(Types::Many),
        _ => Err(error()),
    }
}

fn read_discriminator(value: &Value, pointer: &str) -> Result<Discriminator, GenError> {
    let object = Object::new(value, pointer, "a discriminator")?;
    let mapping = object.map("mapping", |target, pointer| {
        target
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| GenError::at(pointer, "a discriminator's mapping must name a `$ref`"))
    })?;
    Ok(Discriminator {
        property_name: object.string("propertyName")?,
        mapping: mapping.unwrap_or_default(),
    })
}

fn identity(object: &serde_json::Map<String, Value>) -> String {
    let mut object = object.clone();
    for annotation in ["title", "description", "default", "examples", "deprecated"] {
        object.remove(annotation);
    }
    Value::Object(object).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Result<Schema, GenError> {
        Schema::read(&value, "#/s")
    }

    #[test]
    fn the_keywords_of_3_1_are_read() {
        let schema = read(json!({
            "$ref": "#/components/schemas/A", "description": " beside the reference ",
            "type": ["integer", "null"], "const": 3, "examples": [1],
            "prefixItems": [{"type": "string"}, true], "items": false,
            "additionalProperties": {"type": "integer"},
            "properties": {"b": {}, "a": false}, "required": ["a"],
            "discriminator": {"propertyName": "kind", "mapping": {"x": "#/components/schemas/X"}}
        }))
        .unwrap();
        let object = schema.object().unwrap();
        assert_eq!(schema.reference(), Some("#/components/schemas/A"));
        assert_eq!(schema.description().as_deref(), Some("beside the reference"));
        assert_eq!(object.types, Some(Types::Many(vec![Type::Integer, Type::Null])));
        assert_eq!(object.const_value, Some(json!(3)));
        assert_eq!(object.prefix_items.as_ref().unwrap()[1], Schema::Bool(true));
        assert_eq!(object.items, Some(Schema::Bool(false)));
        assert!(object.additional_properties.as_ref().unwrap().object().is_some());
        let keys: Vec<&String> = object.properties.as_ref().unwrap().keys().collect();
        assert_eq!(keys, ["b", "a"]);
        let discriminator = object.discriminator.as_ref().unwrap();
        assert_eq!(discriminator.property_name.as_deref(), Some("kind"));
        assert_eq!(discriminator.mapping["x"], "#/components/schemas/X");
        assert!(read(json!({"type": "null"})).unwrap().is_null());
        assert!(!read(json!({"type": ["null"]})).unwrap().is_null());
    }

    #[test]
    fn annotations_are_not_part_of_the_identity() {
        let a = read(json!({"anyOf": [{"type": "string"}], "title": "A", "description": "a"})).unwrap();
        let b = read(json!({"anyOf": [{"type": "string"}], "title": "B", "examples": ["x"]})).unwrap();
        let c = read(json!({"anyOf": [{"type": "integer"}]})).unwrap();
        let identity = |s: &Schema| s.object().unwrap().identity.clone();
        assert_eq!(identity(&a), identity(&b));
        assert_ne!(identity(&a), identity(&c));
    }

    #[test]
    fn a_malformed_schema_names_its_pointer() {
        assert_eq!(
            read(json!(3)).unwrap_err(),
            GenError::at("#/s", "a schema must be an object or a boolean")
        );
        assert_eq!(
            read(json!({"properties": {"a": {"type": 5}}})).unwrap_err(),
            GenError::at(
                "#/s/properties/a/type",
                "`type` must be a string or an array of strings"
            )
        );
        assert_eq!(
            read(json!({"anyOf": [{}, "x"]})).unwrap_err().pointer,
            "#/s/anyOf/1"
        );
        assert_eq!(
            read(json!({"required": "a"})).unwrap_err().pointer,
            "#/s/required"
        );
    }

    #[test]
    fn string_values_of_enums_and_constants() {
        let values = |v: Value| read(v).unwrap().object().unwrap().string_values();
        assert_eq!(values(json!({"const": "x"})), Some(vec!["x".to_owned()]));
        assert_eq!(values(json!({"const": 1, "enum": ["a"]})), None);
        assert_eq!(values(json!({"enum": ["a", null]})), Some(vec!["a".to_owned()]));
        assert_eq!(values(json!({"enum": ["a", 1]})), None);
    }
}
