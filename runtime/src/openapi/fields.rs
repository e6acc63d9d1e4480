//! The schemas of parameters (path, query, header, cookie: a scalar, an `Option` of one, a `Vec`
//! of them) and of model fields, as pydantic and FastAPI write them.
//!
//! Rules enforced here:
//! - a parameter or field gets pydantic's title (`user_id` → "User Id"), unless its schema is a
//!   reference to a named type (alone or as `anyOf` with null), where pydantic omits it;
//! - constraints become their JSON Schema keywords (`minimum`, `maxLength`, ...), on the non-null
//!   branch of an `anyOf`;
//! - a default is shown as `default`; a null one is not (FastAPI drops every null), so an
//!   optional model field without a default has none.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::validate::{nullable, title_case, Constraint, FromJson, FromParam, SchemaRegistry};

/// True when `schema` refers to a named type: `{"$ref"}`, or `anyOf` of one `$ref` and null.
fn is_reference(schema: &Map<String, Value>) -> bool {
    // `Option<Model>` (one `$ref` and null) is a reference; a union of models has its title.
    schema.contains_key("$ref")
        || matches!(schema.get("anyOf"), Some(Value::Array(branches))
            if branches.len() == 2 && branches.iter().any(|b| b.get("$ref").is_some())
                && branches.iter().any(|b| b.get("type") == Some(&Value::from("null"))))
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

/// True for a decimal's input schema, `anyOf: [number, string, ..]` (what no other type of a
/// parameter or field reads).
fn is_decimal(schema: &Map<String, Value>) -> bool {
    matches!(schema.get("anyOf"), Some(Value::Array(branches))
        if branches.len() >= 2
            && branches[0] == json!({ "type": "number" })
            && branches[1] == json!({ "type": "string" }))
}

/// Add the keywords of `constraints` to `schema`, on its first `anyOf` branch if it has one.
/// A bound or multiple is not written on a string: a decimal's output schema (`type: string`)
/// has none, as pydantic's serialization schema has none. A decimal's bounds are floats
/// (`minimum: 0.0`), as pydantic writes a Decimal's.
fn annotate(schema: &mut Map<String, Value>, constraints: &[Constraint]) {
    let decimal = is_decimal(schema);
    let target = match schema.get_mut("anyOf") {
        Some(Value::Array(branches)) => match branches.first_mut() {
            Some(Value::Object(first)) => first,
            _ => return,
        },
        _ => schema,
    };
    let string = target.get("type").and_then(Value::as_str) == Some("string");
    for constraint in constraints {
        let numeric = matches!(
            constraint,
            Constraint::Ge(_)
                | Constraint::Gt(_)
                | Constraint::Le(_)
                | Constraint::Lt(_)
                | Constraint::MultipleOf(_)
        );
        if !(string && numeric) {
            constraint.annotate(target);
        }
    }
    if decimal {
        for key in [
            "multipleOf",
            "minimum",
            "exclusiveMinimum",
            "maximum",
            "exclusiveMaximum",
        ] {
            if let Some(bound) = target.get_mut(key) {
                if let Some(float) = bound.as_f64().filter(|_| !bound.is_f64()) {
                    *bound = json!(float);
                }
            }
        }
    }
}

/// The schema of a scalar path or query parameter with its constraints, default and title.
pub(crate) fn param_schema<T: FromParam>(
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

/// The schema of an optional scalar parameter (query, header or cookie) `name`: the scalar's, with
/// its constraints, or null.
pub(crate) fn option_param_schema<T: FromParam>(
    name: &str,
    constraints: &[Constraint],
    registry: &mut SchemaRegistry,
) -> Value {
    let mut inner = into_object(T::schema(registry));
    // The title is the parameter's, on the whole `anyOf`.
    inner.remove("title");
    let mut schema = into_object(nullable(Value::Object(inner)));
    annotate(&mut schema, constraints);
    schema.insert("title".into(), Value::String(title_case(name)));
    Value::Object(schema)
}

/// The schema of a repeated scalar parameter (query or header) `name`, `default` when absent.
pub(crate) fn vec_param_schema<T: FromParam + Serialize>(
    name: &str,
    default: Vec<T>,
    constraints: &[Constraint],
    registry: &mut SchemaRegistry,
) -> Value {
    let mut items = param_schema::<T>(name, None, constraints, registry);
    if let Value::Object(map) = &mut items {
        map.remove("title");
    }
    json!({
        "type": "array",
        "items": items,
        "default": serde_json::to_value(&default).unwrap_or(Value::Array(Vec::new())),
        "title": title_case(name),
    })
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
    // No `default: null` for an optional field without one: FastAPI drops every null from its
    // document (the field is optional by its absence from `required`).
    if let Some(value) = default.filter(|value| !value.is_null()) {
        schema.insert("default".into(), value);
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
    use crate::validate::Bound;
    use serde_json::json;

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
            json!({"type": "number", "exclusiveMaximum": 2.5, "default": 1.5, "title": "B"})
        );
    }

    #[cfg(feature = "decimal")]
    #[test]
    fn a_decimals_bounds_are_floats_read_and_absent_written() {
        use crate::validate::SchemaMode;
        use rust_decimal::Decimal;
        let constraints = [
            Constraint::Ge(Bound::Int(0)),
            Constraint::MultipleOf(Bound::Float(0.5)),
        ];
        let mut registry = SchemaRegistry::new();
        let read = field_schema::<Option<Decimal>>("d", None, &constraints, None, &mut registry);
        // `0.0`, not `0`: serde_json keeps the difference, as Python's json writes it.
        assert_eq!(
            serde_json::to_string(&read).unwrap_or_default(),
            r#"{"anyOf":[{"type":"number","minimum":0.0,"multipleOf":0.5},{"type":"string"},{"type":"null"}],"title":"D"}"#
        );
        let written = registry.in_mode(SchemaMode::Output, |registry| {
            field_schema::<Decimal>("d", None, &constraints, None, registry)
        });
        assert_eq!(written, json!({"type": "string", "title": "D"}));
        assert_eq!(
            option_param_schema::<Decimal>("q", &[Constraint::Le(Bound::Int(10))], &mut registry),
            json!({"anyOf": [{"type": "number", "maximum": 10.0}, {"type": "string"}, {"type": "null"}], "title": "Q"})
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
                "anyOf": [{"type": "number"}, {"type": "null"}],
                "title": "Tax",
                "description": "The tax."
            })
        );
        assert_eq!(
            field_schema::<Option<i64>>("qty", None, &[Constraint::Gt(Bound::Int(0))], None, &mut registry),
            json!({
                "anyOf": [{"type": "integer", "format": "int64", "exclusiveMinimum": 0}, {"type": "null"}],
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
