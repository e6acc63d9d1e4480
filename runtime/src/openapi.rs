//! The OpenAPI 3.1 document: operation fragments built by the route macros, assembled once when
//! the app is built and served as pre-serialized bytes.
//!
//! Rules enforced here (FastAPI's layout, `fastapi/openapi/utils.py`):
//! - operations carry `tags`, `summary` (first doc line, else the function name in Title Case),
//!   `description` (the rest of the doc comment), a unique `operationId` (the function name; a
//!   repeated name gets `_2`, `_3`, ...), `parameters` (path first, then query, in declaration
//!   order), `requestBody` (required, `application/json`), and `responses`: the success status
//!   with "Successful Response" and the response schema when the return type names one (no
//!   content at all for 204 and 304, which have no body, as FastAPI writes them), extra
//!   responses declared on the route, and `"422": "Validation Error"` only on operations that
//!   validate input (any parameter or body); operations with a body also document the answers
//!   the body reader gives before validation, `400` (not UTF-8, or not readable) and `413` (over
//!   the limit) — FastAPI gives them too but leaves them out, so clients and schemathesis would
//!   see undocumented statuses;
//! - `HTTPValidationError` and `ValidationError` are standard components, present when an
//!   operation refers to them;
//! - only served routes with `include_in_schema` appear (shadowed duplicates do not), under their
//!   path written with `{name}` parameters, also for routes declared with `:name`.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use crate::arg::{Arg, ArgDoc};
use crate::constraint::Constraint;
use crate::convert::FromParam;
use crate::schema::{param_schema, title_case, SchemaRegistry};
use crate::template::Template;

/// Builds one operation object; used by the code the route macros generate.
#[derive(Debug)]
pub struct Operation {
    operation_id: &'static str,
    summary: String,
    description: Option<&'static str>,
    tags: &'static [&'static str],
    parameters: Vec<Value>,
    body: Option<Value>,
    response: Option<(&'static str, Value)>,
    extra_responses: Vec<(u16, &'static str)>,
    success_status: u16,
}

impl Operation {
    /// A new operation for function `name` with its doc comment split into summary/description.
    pub fn new(
        name: &'static str,
        summary: Option<&'static str>,
        description: Option<&'static str>,
        tags: &'static [&'static str],
    ) -> Self {
        Operation {
            operation_id: name,
            summary: summary.map_or_else(|| title_case(name), str::to_owned),
            description,
            tags,
            parameters: Vec::new(),
            body: None,
            response: None,
            extra_responses: Vec::new(),
            success_status: 200,
        }
    }

    /// Document path parameter `name` of type `T`.
    pub fn path_param<T: FromParam + serde::Serialize>(
        &mut self,
        name: &'static str,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) {
        let schema = param_schema::<T>(name, None, constraints, registry);
        self.parameters
            .push(json!({ "name": name, "in": "path", "required": true, "schema": schema }));
    }

    /// Document a non-path argument (query parameter or body; injected ones are skipped).
    pub fn arg<T: Arg>(
        &mut self,
        name: &'static str,
        default: Option<fn() -> T>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) {
        match T::doc(name, default, constraints, registry) {
            ArgDoc::Query { schema, required } => self
                .parameters
                .push(json!({ "name": name, "in": "query", "required": required, "schema": schema })),
            ArgDoc::Body(schema) => self.body = Some(schema),
            ArgDoc::Hidden => {}
        }
    }

    /// Document the success response's media type and schema.
    pub fn response(&mut self, media_type: &'static str, schema: Value) {
        self.response = Some((media_type, schema));
    }

    /// Set the success status (default 200).
    pub fn success_status(&mut self, status: u16) {
        self.success_status = status;
    }

    /// Document another response, e.g. `404` "Employee not found".
    pub fn extra_response(&mut self, status: u16, description: &'static str) {
        self.extra_responses.push((status, description));
    }

    /// The operation object.
    pub fn finish(self) -> Value {
        let mut op = Map::new();
        if !self.tags.is_empty() {
            op.insert("tags".into(), json!(self.tags));
        }
        op.insert("summary".into(), json!(self.summary));
        if let Some(description) = self.description {
            op.insert("description".into(), json!(description));
        }
        op.insert("operationId".into(), json!(self.operation_id));
        let validates = !self.parameters.is_empty() || self.body.is_some();
        let reads_body = self.body.is_some();
        if !self.parameters.is_empty() {
            op.insert("parameters".into(), Value::Array(self.parameters));
        }
        if let Some(schema) = self.body {
            op.insert(
                "requestBody".into(),
                json!({ "required": true, "content": { "application/json": { "schema": schema } } }),
            );
        }
        let mut responses = Map::new();
        let success = if matches!(self.success_status, 204 | 304) {
            // These statuses have no body (RFC 9110), so no content is documented.
            json!({ "description": "Successful Response" })
        } else {
            let (media_type, schema) = self.response.unwrap_or(("application/json", json!({})));
            json!({ "description": "Successful Response", "content": { media_type: { "schema": schema } } })
        };
        responses.insert(self.success_status.to_string(), success);
        for (status, description) in self.extra_responses {
            responses.insert(status.to_string(), json!({ "description": description }));
        }
        if reads_body {
            for (status, description) in [
                ("400", "The request body could not be read or is not UTF-8"),
                ("413", "The request body is larger than the limit"),
            ] {
                responses
                    .entry(status)
                    .or_insert_with(|| json!({ "description": description }));
            }
        }
        if validates {
            responses.insert(
                "422".into(),
                json!({
                    "description": "Validation Error",
                    "content": { "application/json": { "schema": { "$ref": "#/components/schemas/HTTPValidationError" } } }
                }),
            );
        }
        op.insert("responses".into(), Value::Object(responses));
        Value::Object(op)
    }
}

/// Title, version and description of the API.
#[derive(Debug, Clone)]
pub struct Info {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`.
    pub description: Option<String>,
}

/// Add FastAPI's standard validation error components.
pub fn add_validation_components(registry: &mut SchemaRegistry) {
    registry.insert(
        "HTTPValidationError",
        json!({
            "properties": { "detail": { "items": { "$ref": "#/components/schemas/ValidationError" }, "type": "array", "title": "Detail" } },
            "type": "object",
            "title": "HTTPValidationError"
        }),
    );
    registry.insert(
        "ValidationError",
        json!({
            "properties": {
                "loc": { "items": { "anyOf": [{ "type": "string" }, { "type": "integer" }] }, "type": "array", "title": "Location" },
                "msg": { "type": "string", "title": "Message" },
                "type": { "type": "string", "title": "Error Type" },
                "input": { "title": "Input" },
                "ctx": { "type": "object", "title": "Context" }
            },
            "type": "object",
            "required": ["loc", "msg", "type"],
            "title": "ValidationError"
        }),
    );
}

/// The path of a route in the document: parameters written `{name}` (also when declared
/// `:name`), with the trailing slash the route was declared with.
pub fn document_path(template: &Template, declared: &str) -> String {
    let path = template.openapi_path();
    if declared.len() > 1 && declared.ends_with('/') && path != "/" {
        path + "/"
    } else {
        path
    }
}

/// Assemble the document from `(method, openapi path, operation)` triples in declaration order.
pub fn document(
    info: &Info,
    operations: Vec<(String, String, Value)>,
    mut registry: SchemaRegistry,
) -> Value {
    let mut paths: Map<String, Value> = Map::new();
    let mut validates = false;
    let mut ids: HashSet<String> = HashSet::new();
    for (method, path, mut operation) in operations {
        validates |= operation["responses"].get("422").is_some();
        if let Some(Value::String(id)) = operation.get_mut("operationId") {
            let mut unique = id.clone();
            let mut n = 1;
            while ids.contains(&unique) {
                n += 1;
                unique = format!("{id}_{n}");
            }
            ids.insert(unique.clone());
            *id = unique;
        }
        let item = paths.entry(path).or_insert_with(|| json!({}));
        if let Value::Object(item) = item {
            item.insert(method.to_ascii_lowercase(), operation);
        }
    }
    if validates {
        add_validation_components(&mut registry);
    }
    let mut info_obj = Map::new();
    info_obj.insert("title".into(), json!(info.title));
    if let Some(description) = &info.description {
        info_obj.insert("description".into(), json!(description));
    }
    info_obj.insert("version".into(), json!(info.version));
    let mut doc = Map::new();
    doc.insert("openapi".into(), json!("3.1.0"));
    doc.insert("info".into(), Value::Object(info_obj));
    doc.insert("paths".into(), Value::Object(paths));
    let components = registry.into_components();
    if !components.is_empty() {
        doc.insert("components".into(), json!({ "schemas": components }));
    }
    Value::Object(doc)
}
