//! `#[examples(..)]` on a model field or a route argument: where the values go in the document,
//! as FastAPI 0.165 puts pydantic's `Field(examples=..)` and `Query/Path/Header/Cookie/Body/
//! Form(examples=..)` (tests/fastapi/examples_observed.json); `#[openapi_examples(..)]` on a
//! route argument is FastAPI's `openapi_examples`, written by [`Operation`](super::Operation).
//!
//! Rules enforced here:
//! - `openapi_examples` (named Example Objects) go to the parameter object itself, or the body's
//!   media type object, beside `schema`, as FastAPI writes them;
//! - the values become the JSON Schema keyword `examples` (a list) of the schema they describe:
//!   a field's property, a parameter's `schema`, a form field's property, and the request body's
//!   media-type schema (beside its `$ref`), never the parameter object itself;
//! - in a parameter's schema the keyword comes before `default` and `title`, as FastAPI writes
//!   it; elsewhere it comes last;
//! - only the document is touched, once when the app is built: a request never runs this.

use serde_json::{Map, Value};

/// Add `examples` to `schema`, before the first of the keys `before` it has (or last).
pub(crate) fn insert_examples(schema: &mut Value, examples: &Value, before: &[&str]) {
    let Value::Object(map) = schema else { return };
    let position = map.keys().position(|key| before.contains(&key.as_str()));
    match position {
        Some(index) => {
            map.shift_insert(index, "examples".to_owned(), examples.clone());
        }
        None => {
            map.insert("examples".to_owned(), examples.clone());
        }
    }
}

/// The schema of a model field with its `#[examples(..)]` (`examples`, a JSON array), which
/// pydantic writes after every other keyword of the property.
pub fn with_examples(mut schema: Value, examples: Value) -> Value {
    insert_examples(&mut schema, &examples, &[]);
    schema
}

/// The keys of a parameter's schema that `examples` precedes (FastAPI's order).
pub(crate) const PARAM_KEYS_AFTER: &[&str] = &["default", "title"];

/// A form field's property or a parameter's schema, given by the object holding it.
pub(crate) fn param_schema_mut(parameter: &mut Value) -> Option<&mut Value> {
    parameter
        .as_object_mut()
        .and_then(|p: &mut Map<String, Value>| p.get_mut("schema"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn examples_go_where_fastapi_writes_them() {
        // FastAPI's `limit: Annotated[int, Query(ge=1, examples=[10])] = 10`.
        let mut schema = json!({"type": "integer", "minimum": 1, "default": 10, "title": "Limit"});
        insert_examples(&mut schema, &json!([10]), PARAM_KEYS_AFTER);
        assert_eq!(
            schema.to_string(),
            r#"{"type":"integer","minimum":1,"examples":[10],"default":10,"title":"Limit"}"#
        );
        // A field: last.
        assert_eq!(
            with_examples(json!({"type": "string", "title": "Name"}), json!(["Foo", "Bar"])).to_string(),
            r#"{"type":"string","title":"Name","examples":["Foo","Bar"]}"#
        );
        // Not an object: left alone.
        assert_eq!(with_examples(json!(true), json!([1])), json!(true));
    }
}
