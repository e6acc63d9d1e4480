//! JSON Schema (2020-12, as OpenAPI 3.1 uses) of the types that cross the API, laid out as
//! pydantic v2 and FastAPI write it.
//!
//! Rules enforced here:
//! - named types (models, string enums) are registered once under `components.schemas` and
//!   referenced with `$ref`, so the document stays small and client generators name them;
//! - `Option<T>` is `anyOf: [T, {"type": "null"}]` (null joins `T`'s branches when `T` is an
//!   `anyOf`, as pydantic flattens it); as a model field it is optional (not `required`, and
//!   without a `default`: FastAPI drops every null); `Vec<T>` is an array, a map with string
//!   keys an object with
//!   `additionalProperties`;
//! - titles are pydantic's (`user_id` → "User Id", Python's `str.title()`); a field or parameter
//!   whose schema is a reference to a named type (alone or as `anyOf` with null) gets no title,
//!   as pydantic omits it; constraints go on the non-null branch of an `anyOf`;
//! - integers carry their `format` (`int64`, `uint8`, ...), floats none, as pydantic writes them;
//! - a named type is registered per [`SchemaMode`] it is built in (input for what the API reads,
//!   output for what it writes); `schema_modes` names them once all are built.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

pub use super::schema_modes::SchemaMode;
use super::schema_modes::{self, base_name, provisional_ref};
use crate::versions::FieldChange;

/// A type that can describe itself as JSON Schema.
///
/// An extension point: implement it for a type of your own, as the manual's
/// [custom types chapter](crate#custom-parameter-and-field-types) shows with a compiled example.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no JSON Schema for the OpenAPI document",
    label = "a type in the API without `JsonSchema`",
    note = "derive `Model` for a struct or `StrEnum` for a string enum; return `Json<Value>` to leave a response undocumented"
)]
pub trait JsonSchema {
    /// The schema of the type; named types register themselves and return a `$ref`. A type read
    /// one way and written another (a decimal) gives the schema of the registry's
    /// [`SchemaRegistry::mode`].
    fn schema(registry: &mut SchemaRegistry) -> Value;

    /// The name pydantic gives the type where it names a generic model's parametrisation (`int`
    /// in `Page[int]`, whose schema is `Page_int_`). The default is the Rust type's own name
    /// without its module path, which is the class name for a type deriving `Model` or `StrEnum`;
    /// a type standing for a Python one (a date, a list) gives that one's name.
    fn python_name() -> String {
        let full = std::any::type_name::<Self>();
        let bare = full.split('<').next().unwrap_or(full);
        bare.rsplit("::").next().unwrap_or(bare).to_owned()
    }
}

/// The `components.schemas` being built for one document.
///
/// Schemas are built in a [`SchemaMode`]: input for what the API reads (bodies, parameters),
/// output for what it writes (responses). A named type is registered once per mode it is used
/// in, and the document shows it as pydantic does: under its own name when used one way only or
/// the same both ways, else as `Name-Input` and `Name-Output`.
#[derive(Debug, Clone)]
pub struct SchemaRegistry {
    /// Keyed by name and mode; named when the document is assembled (`schema_modes`).
    components: BTreeMap<(String, SchemaMode), Value>,
    mode: SchemaMode,
    /// False when every schema is built in input mode (FastAPI's
    /// `separate_input_output_schemas=False`).
    separate: bool,
    /// `components.securitySchemes`, in the order the routes first name them (FastAPI's).
    security_schemes: Vec<(&'static str, Value)>,
    /// The versioned models the schemas built so far show, each once, in the order met (what
    /// the app checks against its versions and writes its changelog from).
    versioned: Vec<(&'static str, &'static [FieldChange])>,
}

impl Default for SchemaRegistry {
    fn default() -> Self {
        SchemaRegistry {
            components: BTreeMap::new(),
            mode: SchemaMode::Input,
            separate: true,
            security_schemes: Vec::new(),
            versioned: Vec::new(),
        }
    }
}

impl SchemaRegistry {
    /// An empty registry, in input mode, separating input and output schemas.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether output schemas are built in their own mode (the default), or every schema is built
    /// as the input one (FastAPI's `separate_input_output_schemas=False`).
    pub fn separate_input_output(&mut self, separate: bool) {
        self.separate = separate;
    }

    /// The mode the schemas are being built in: a type whose schema differs between what is read
    /// and what is written (a decimal) asks it.
    pub fn mode(&self) -> SchemaMode {
        self.mode
    }

    /// Build with `build` in `mode` (always input when the registry does not separate them), then
    /// go back to the mode before.
    pub fn in_mode<R>(&mut self, mode: SchemaMode, build: impl FnOnce(&mut Self) -> R) -> R {
        let before = self.mode;
        if self.separate {
            self.mode = mode;
        }
        let built = build(self);
        self.mode = before;
        built
    }

    /// Register the named schema built by `build` (once per mode) and return its `$ref`.
    ///
    /// The reference is provisional until the document is assembled, which decides the name
    /// (`Name`, or `Name-Input` / `Name-Output`) and rewrites it: keep it as a value, do not
    /// build other references from its text.
    pub fn named(&mut self, name: &str, build: impl FnOnce(&mut Self) -> Value) -> Value {
        let key = (name.to_owned(), self.mode);
        if !self.components.contains_key(&key) {
            // A placeholder first, so a recursive type refers to itself instead of looping.
            self.components.insert(key.clone(), Value::Null);
            let schema = build(self);
            self.components.insert(key, schema);
        }
        json!({ "$ref": provisional_ref(name, self.mode) })
    }

    /// Note that the schemas show the versioned model `model`, which changed as `changes` say
    /// (its derive calls it each time its schema is asked for, in whichever version's shape).
    pub fn versioned_model(&mut self, model: &'static str, changes: &'static [FieldChange]) {
        if !self.versioned.iter().any(|(name, _)| *name == model) {
            self.versioned.push((model, changes));
        }
    }

    /// The versioned models noted so far ([`SchemaRegistry::versioned_model`]), in the order met.
    pub(crate) fn versioned_models(&self) -> &[(&'static str, &'static [FieldChange])] {
        &self.versioned
    }

    /// Add a schema under `name` in the current mode, replacing any earlier one.
    pub fn insert(&mut self, name: &str, schema: Value) {
        self.components.insert((name.to_owned(), self.mode), schema);
    }

    /// Change the schema `name` registered in the current mode, in place (nothing when it is not
    /// registered). `name` may be the last segment of a reference [`SchemaRegistry::named`]
    /// returned.
    pub fn update(&mut self, name: &str, change: impl FnOnce(&mut Value)) {
        if let Some(schema) = self.components.get_mut(&(base_name(name).to_owned(), self.mode)) {
            change(schema);
        }
    }

    /// Register security scheme `name` (`components.securitySchemes`); the first registration of
    /// a name wins.
    pub fn security_scheme(&mut self, name: &'static str, scheme: Value) {
        if !self.security_schemes.iter().any(|(n, _)| *n == name) {
            self.security_schemes.push((name, scheme));
        }
    }

    /// The registered security schemes, in registration order (taken out of the registry).
    pub(crate) fn take_security_schemes(&mut self) -> Map<String, Value> {
        std::mem::take(&mut self.security_schemes)
            .into_iter()
            .map(|(name, scheme)| (name.to_owned(), scheme))
            .collect()
    }

    /// The registered schemas under their final names, sorted by name, and the references of
    /// `operations` (the document's other parts) rewritten to those names.
    pub(crate) fn finish<'a>(
        self,
        operations: impl IntoIterator<Item = &'a mut Value>,
    ) -> Map<String, Value> {
        let (components, names) = schema_modes::resolve(self.components);
        for operation in operations {
            names.rewrite(operation);
        }
        components
    }

    /// The registered schemas under their final names, sorted by name.
    pub fn into_components(self) -> Map<String, Value> {
        self.finish([])
    }
}

impl<T: JsonSchema> JsonSchema for Option<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        nullable(T::schema(registry))
    }

    fn python_name() -> String {
        format!("Union[{}, NoneType]", T::python_name())
    }
}

/// `schema` or null: `anyOf: [schema, {"type": "null"}]`, or, when `schema` is itself only an
/// `anyOf` (a decimal's `[number, string]`), null added to its branches, as pydantic flattens
/// a nullable union.
pub(crate) fn nullable(schema: Value) -> Value {
    let null_branch = json!({ "type": "null" });
    match schema {
        Value::Object(mut map) if map.len() == 1 && map.contains_key("anyOf") => {
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                if !branches.contains(&null_branch) {
                    branches.push(null_branch);
                }
            }
            Value::Object(map)
        }
        other => json!({ "anyOf": [other, null_branch] }),
    }
}

impl<T: JsonSchema> JsonSchema for Vec<T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "array", "items": T::schema(registry) })
    }

    fn python_name() -> String {
        format!("list[{}]", T::python_name())
    }
}

impl<T: JsonSchema, S> JsonSchema for HashMap<String, T, S> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": T::schema(registry) })
    }

    fn python_name() -> String {
        format!("dict[str, {}]", T::python_name())
    }
}

impl<T: JsonSchema> JsonSchema for BTreeMap<String, T> {
    fn schema(registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": T::schema(registry) })
    }

    fn python_name() -> String {
        format!("dict[str, {}]", T::python_name())
    }
}

impl JsonSchema for Value {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({})
    }

    fn python_name() -> String {
        "Any".to_owned()
    }
}

impl JsonSchema for Map<String, Value> {
    fn schema(_registry: &mut SchemaRegistry) -> Value {
        json!({ "type": "object", "additionalProperties": true })
    }

    fn python_name() -> String {
        "dict[str, Any]".to_owned()
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(schema_of::<f32>(), json!({"type": "number"}));
        assert_eq!(schema_of::<f64>(), json!({"type": "number"}));
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
            json!({"type": "object", "additionalProperties": {"type": "number"}})
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
    fn a_mode_holds_for_what_is_built_in_it_then_the_mode_before_returns() {
        let mut registry = SchemaRegistry::new();
        assert_eq!(registry.mode(), SchemaMode::Input);
        let seen = registry.in_mode(SchemaMode::Output, |registry| {
            let inner = registry.in_mode(SchemaMode::Input, |registry| registry.mode());
            (inner, registry.mode())
        });
        assert_eq!(seen, (SchemaMode::Input, SchemaMode::Output));
        assert_eq!(registry.mode(), SchemaMode::Input);
        // Without the split, everything is built as input.
        registry.separate_input_output(false);
        assert_eq!(
            registry.in_mode(SchemaMode::Output, |registry| registry.mode()),
            SchemaMode::Input
        );
    }

    #[test]
    fn a_type_is_registered_once_per_mode_and_named_at_the_end() {
        let mut registry = SchemaRegistry::new();
        let build = |registry: &mut SchemaRegistry| {
            let mode = registry.mode();
            registry.named("Price", |_| json!({ "mode": format!("{mode:?}") }))
        };
        let input = build(&mut registry);
        let output = registry.in_mode(SchemaMode::Output, build);
        assert_ne!(input, output);
        let mut operation = json!([input, output]);
        let components = registry.finish([&mut operation]);
        assert_eq!(
            Value::Object(components),
            json!({ "Price-Input": { "mode": "Input" }, "Price-Output": { "mode": "Output" } })
        );
        assert_eq!(
            operation,
            json!([
                { "$ref": "#/components/schemas/Price-Input" },
                { "$ref": "#/components/schemas/Price-Output" }
            ])
        );
    }

    #[test]
    fn update_finds_the_schema_a_reference_of_either_mode_names() {
        let mut registry = SchemaRegistry::new();
        registry.in_mode(SchemaMode::Output, |registry| {
            let reference = registry.named("Cat", |_| json!({}));
            let target = reference["$ref"].as_str().unwrap_or_default();
            let name = target.rsplit('/').next().unwrap_or_default().to_owned();
            registry.update(&name, |schema| schema["seen"] = json!(true));
        });
        assert_eq!(registry.into_components()["Cat"], json!({ "seen": true }));
    }

    #[test]
    fn a_nullable_union_is_flattened_as_pydantic_writes_it() {
        let union = json!({ "anyOf": [{ "type": "number" }, { "type": "string" }] });
        assert_eq!(
            nullable(union),
            json!({ "anyOf": [{ "type": "number" }, { "type": "string" }, { "type": "null" }] })
        );
        // Anything else beside `anyOf` keeps it whole.
        let titled = json!({ "anyOf": [{ "type": "number" }], "title": "T" });
        assert_eq!(
            nullable(titled.clone()),
            json!({ "anyOf": [titled, { "type": "null" }] })
        );
        let nullable_once = nullable(json!({ "type": "string" }));
        assert_eq!(nullable(nullable_once.clone()), nullable_once);
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
}
