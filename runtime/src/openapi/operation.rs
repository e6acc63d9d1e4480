//! One OpenAPI operation, built by the code the route macros generate.
//!
//! Rules enforced here (FastAPI's layout, `fastapi/openapi/utils.py`):
//! - operations carry `tags`, `summary` (first doc line, else the function name in Title Case),
//!   `description` (the rest of the doc comment), `operationId` (the function name; made unique
//!   when the document is assembled), `parameters` (path first, then query, in declaration
//!   order), `requestBody` (required, `application/json`), and `responses`: the success status
//!   with "Successful Response" and the response schema when the return type names one (no
//!   content at all for 204 and 304, which have no body, as FastAPI writes them), extra
//!   responses declared on the route, and `"422": "Validation Error"` only on operations that
//!   validate input (any parameter or body); operations with a body also document the answers
//!   the body reader gives before validation, `400` (not UTF-8, or not readable) and `413` (over
//!   the limit) — FastAPI gives them too but leaves them out, so clients and schemathesis would
//!   see undocumented statuses.

use serde_json::{json, Map, Value};

use super::fields::param_schema;
use crate::validate::{title_case, Constraint, FromParam, SchemaRegistry};

/// An argument's contribution to the OpenAPI operation.
#[derive(Debug, Clone, PartialEq)]
pub enum ArgDoc {
    /// A query parameter with its schema.
    Query {
        /// The parameter schema (with `default` and constraints).
        schema: Value,
        /// Whether the client must send it.
        required: bool,
    },
    /// The request body schema.
    Body(Value),
    /// Not documented.
    Hidden,
}

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

    /// Add what a non-path argument documents (a query parameter or the body; injected ones
    /// document nothing).
    pub fn arg_doc(&mut self, name: &'static str, doc: ArgDoc) {
        match doc {
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
