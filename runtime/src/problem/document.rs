//! The OpenAPI document of an app answering problem details: the `ProblemDetails` schema, and on
//! every operation each error response (4xx, 5xx, the validation error included) documented as
//! `application/problem+json` with it.
//!
//! Rules enforced here: only the error responses change (their description stays); the schema
//! names the five members of RFC 9457 and the `errors` extension (the validation items, each as
//! `ValidationError` describes them).

use serde_json::{json, Value};

use super::body::PROBLEM_JSON;

/// `document` with every operation's error responses documented as problem details.
pub(crate) fn document_problems(document: &mut Value) {
    if let Some(schemas) = document
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        schemas.insert("ProblemDetails".into(), schema());
    } else if let Some(root) = document.as_object_mut() {
        let components = root.entry("components").or_insert_with(|| json!({}));
        if let Some(components) = components.as_object_mut() {
            components.insert("schemas".into(), json!({ "ProblemDetails": schema() }));
        }
    }
    let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for operation in paths
        .values_mut()
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
    {
        let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else {
            continue;
        };
        for (status, response) in responses.iter_mut() {
            let error = status.starts_with('4') || status.starts_with('5');
            if let (true, Some(response)) = (error, response.as_object_mut()) {
                response.insert(
                    "content".into(),
                    json!({ PROBLEM_JSON: { "schema": { "$ref": "#/components/schemas/ProblemDetails" } } }),
                );
            }
        }
    }
}

/// The schema of a problem.
fn schema() -> Value {
    json!({
        "properties": {
            "type": { "type": "string", "title": "Type", "default": "about:blank" },
            "title": { "type": "string", "title": "Title" },
            "status": { "type": "integer", "title": "Status" },
            "detail": { "type": "string", "title": "Detail" },
            "instance": { "type": "string", "title": "Instance" },
            "errors": { "title": "Errors" }
        },
        "type": "object",
        "required": ["type", "title", "status"],
        "title": "ProblemDetails",
        "description": "RFC 9457 problem details; `errors` holds a validation error's items."
    })
}
