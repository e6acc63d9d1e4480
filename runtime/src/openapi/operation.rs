//! One OpenAPI operation, built by the code the route macros generate.
//!
//! Rules enforced here (FastAPI's layout, `fastapi/openapi/utils.py`):
//! - operations carry `tags`, `summary` (the doc comment's first paragraph, else the function
//!   name in Title Case), `description` (the rest of the doc comment), `operationId` (FastAPI's
//!   default, `generate_unique_id`: the function name and the path with every character that is
//!   not a letter, digit or `_` replaced by `_`, then `_` and the method, as in
//!   `read_item_items__item_id__get`; the route's `operation_id = ".."` in its place; made unique
//!   when the document is assembled), `parameters` (path first, then query, then header, then
//!   cookie, each in declaration order, a dependency's parameters where the dependency is
//!   declared, each name and location once),
//!   `requestBody` (required, `application/json`), and `responses`: the success status
//!   with "Successful Response" and the response schema when the return type names one (no
//!   content at all for 204 and 304, which have no body, as FastAPI writes them), extra
//!   responses declared on the route, then those its dependencies may answer (the route's own
//!   description wins for a status both name), and `"422": "Validation Error"` only on operations that
//!   validate input (any parameter or body); the answers the body reader gives before validation,
//!   `400` (not UTF-8, or not readable) and `413` (over the limit), and a security scheme's
//!   `401`, are left out as FastAPI leaves them out, unless the app asks for them
//!   (`App::document_implicit_responses`); `security`,
//!   one entry per scheme a dependency requires (the key order is `layout`'s);
//! - in a route group, the groups' tags come before the route's own (outermost group first, each
//!   tag once), the groups' `responses(..)` follow the route's own for the statuses the route
//!   does not document itself (the innermost group's words for a status two groups state), and
//!   the groups' dependencies document their parameters after the path parameters and before the
//!   route's other ones, the order their validation errors take.

use serde_json::{json, Map, Value};

use super::examples::{insert_examples, param_schema_mut, PARAM_KEYS_AFTER};
use super::fields::param_schema;
use super::items;
use crate::validate::{title_case, Constraint, FromParam, SchemaRegistry};

/// FastAPI's default `operationId` (`fastapi.utils.generate_unique_id`): `{function}{path}`
/// with every character that is not a word character (a letter, a digit or `_`, Unicode ones
/// included, as Python's `\W`) replaced by `_`, then `_` and the method in lower case:
/// `read_item_items__item_id__get`.
pub(crate) fn unique_id(function: &str, path: &str, method: &str) -> String {
    let mut id: String = function
        .chars()
        .chain(path.chars())
        .map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    id.push('_');
    id.push_str(&method.to_ascii_lowercase());
    id
}

/// Register form schema `name` of `fields` (`(name, schema, required)`, in order) as FastAPI
/// writes one (`properties`, `type`, `required` when any is, `title`) and return its `$ref`.
pub(crate) fn form_schema(
    name: &str,
    fields: impl IntoIterator<Item = (&'static str, Value, bool)>,
    registry: &mut SchemaRegistry,
) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (field, schema, is_required) in fields {
        properties.insert(field.to_owned(), schema);
        if is_required {
            required.push(field);
        }
    }
    let mut schema = json!({ "properties": properties, "type": "object" });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema["title"] = json!(name);
    registry.named(name, |_| schema)
}

/// The OpenAPI operation object of one route, as it is being built: the route macros write its
/// path parameters, summary and responses, and each other argument adds what it documents in
/// [`Extract::doc`](crate::arg::Extract::doc) or [`Dependency::doc`](crate::Dependency::doc) (a
/// query parameter, the body, or a dependency's parameters and responses).
#[derive(Debug)]
pub struct Operation {
    /// The function's name.
    function: &'static str,
    /// The route's `operation_id = ".."`, if it has one.
    operation_id: Option<&'static str>,
    /// The `operationId`: the explicit one, or FastAPI's generated one once the operation is
    /// placed at its method and path.
    unique_id: String,
    summary: String,
    description: Option<&'static str>,
    tags: Vec<&'static str>,
    parameters: Vec<Value>,
    body: Option<Value>,
    body_media_type: &'static str,
    /// The body's `#[openapi_examples(..)]`: the media type's `examples` map.
    body_examples: Option<Value>,
    /// The form fields the route takes as arguments: `(name, schema, required)`, in order.
    form_fields: Vec<(&'static str, Value, bool)>,
    /// True when a form field is a file: the form is `multipart/form-data`.
    multipart_form: bool,
    /// False for a multipart form none of whose fields is required (FastAPI then leaves out the
    /// body's `required`).
    body_required: bool,
    /// The success answer's media type and its media type object (`schema`, or a stream's item
    /// schema: `items`).
    response: Option<(&'static str, Value)>,
    extra_responses: Vec<(u16, &'static str)>,
    dependency_responses: Vec<(u16, &'static str)>,
    /// Headers a dependency answers with at a status (`Retry-After` on an idempotency key's 409),
    /// each its header object: written on whichever response the document has at that status.
    response_headers: Vec<(u16, &'static str, Value)>,
    /// Answers FastAPI gives but leaves out of its document (a security scheme's `401`),
    /// documented when the app asks (`App::document_implicit_responses`).
    implicit_responses: Vec<(u16, &'static str)>,
    security: Vec<&'static str>,
    success_status: u16,
    extensions: Vec<(&'static str, Value)>,
    deprecated: bool,
    response_description: &'static str,
}

impl Operation {
    /// A new operation for function `name`, summarized by its title until its doc comment says
    /// otherwise ([`Operation::summary`], [`Operation::description`]).
    #[doc(hidden)]
    pub fn new(name: &'static str, tags: &'static [&'static str]) -> Self {
        Operation {
            function: name,
            operation_id: None,
            unique_id: name.to_owned(),
            summary: title_case(name),
            description: None,
            tags: tags.to_vec(),
            parameters: Vec::new(),
            body: None,
            body_media_type: "application/json",
            body_examples: None,
            form_fields: Vec::new(),
            multipart_form: false,
            body_required: true,
            response: None,
            extra_responses: Vec::new(),
            dependency_responses: Vec::new(),
            response_headers: Vec::new(),
            implicit_responses: Vec::new(),
            security: Vec::new(),
            success_status: 200,
            extensions: Vec::new(),
            deprecated: false,
            response_description: "Successful Response",
        }
    }

    /// Mark the operation `deprecated` (the route's `deprecated = true`).
    pub fn deprecated(&mut self) {
        self.deprecated = true;
    }

    /// The `operationId` (the route's `operation_id = ".."`), in place of FastAPI's generated
    /// one (`{function}{path}_{method}`).
    pub fn operation_id(&mut self, id: &'static str) {
        self.operation_id = Some(id);
        self.unique_id = id.to_owned();
    }

    /// The `summary`: the doc comment's first paragraph, or the route's `summary = ".."` in its
    /// place.
    pub fn summary(&mut self, summary: &'static str) {
        self.summary = summary.to_owned();
    }

    /// The `description`: the rest of the doc comment (all of it with `summary = ".."`).
    #[doc(hidden)]
    pub fn description(&mut self, description: &'static str) {
        self.description = Some(description);
    }

    /// [`Operation::summary`] and [`Operation::description`]: a doc comment of more than one
    /// paragraph.
    #[doc(hidden)]
    pub fn doc(&mut self, summary: &'static str, description: &'static str) {
        self.summary(summary);
        self.description(description);
    }

    /// The success response's description (the route's `response_description = ".."`).
    pub fn response_description(&mut self, description: &'static str) {
        self.response_description = description;
    }

    /// Document path parameter `name` of type `T`.
    #[doc(hidden)]
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

    /// Document query parameter `name` with its JSON Schema (built with
    /// [`SchemaRegistry`]); `required` when the client must send it. A parameter already
    /// documented under that name (a dependency used twice) is not repeated: OpenAPI forbids two
    /// parameters of one name and location.
    pub fn query_param(&mut self, name: &'static str, schema: Value, required: bool) {
        if self
            .parameters
            .iter()
            .any(|p| p["name"] == name && p["in"] == "query")
        {
            return;
        }
        self.parameters
            .push(json!({ "name": name, "in": "query", "required": required, "schema": schema }));
    }

    /// Document header parameter `name` (as the client writes it) with its JSON Schema; `required`
    /// when the client must send it. Documented after the query parameters, as FastAPI does.
    pub fn header_param(&mut self, name: &str, schema: Value, required: bool) {
        self.located_param("header", name, schema, required);
    }

    /// Document cookie parameter `name` with its JSON Schema; `required` when the client must send
    /// it. Documented after the header parameters, as FastAPI does.
    pub fn cookie_param(&mut self, name: &str, schema: Value, required: bool) {
        self.located_param("cookie", name, schema, required);
    }

    /// A parameter `in` a header or cookie, once per name and location.
    fn located_param(&mut self, location: &'static str, name: &str, schema: Value, required: bool) {
        if self
            .parameters
            .iter()
            .any(|p| p["name"] == name && p["in"] == location)
        {
            return;
        }
        self.parameters
            .push(json!({ "name": name, "in": location, "required": required, "schema": schema }));
    }

    /// Require security scheme `name` (registered with [`SchemaRegistry::security_scheme`]) on this
    /// operation; each scheme once.
    pub fn security(&mut self, name: &'static str) {
        if !self.security.contains(&name) {
            self.security.push(name);
        }
    }

    /// Document the JSON request body's schema.
    pub fn request_body(&mut self, schema: Value) {
        self.request_body_as("application/json", schema);
    }

    /// Document the request body's schema under `media_type` (a form, multipart).
    pub fn request_body_as(&mut self, media_type: &'static str, schema: Value) {
        self.body = Some(schema);
        self.body_media_type = media_type;
    }

    /// Document form field `name` (a route argument): the fields together are the body, one
    /// object schema named as FastAPI names it (`Body_<route>_<path>_<method>`).
    pub fn form_field(&mut self, name: &'static str, schema: Value, required: bool) {
        if !self.form_fields.iter().any(|(known, ..)| *known == name) {
            self.form_fields.push((name, schema, required));
        }
    }

    /// Document file field `name` (an `UploadFile` argument): a form field, and the form is then
    /// `multipart/form-data`, as FastAPI documents a route that takes files.
    pub fn file_field(&mut self, name: &'static str, schema: Value, required: bool) {
        self.form_field(name, schema, required);
        self.multipart_form = true;
    }

    /// Place the operation at `method` and `path` (as the document writes it): its `operationId`
    /// becomes FastAPI's default, [`unique_id`], unless the route gives its own; and its form
    /// fields, if any, are registered as one schema `Body_<operationId>`, FastAPI's name for it,
    /// documented as the urlencoded body (multipart, with a file among them).
    pub(crate) fn place(&mut self, method: &str, path: &str, registry: &mut SchemaRegistry) {
        if self.operation_id.is_none() {
            self.unique_id = unique_id(self.function, path, method);
        }
        if self.form_fields.is_empty() {
            return;
        }
        let name = format!("Body_{}", self.unique_id);
        let fields = std::mem::take(&mut self.form_fields);
        self.body_required = !self.multipart_form || fields.iter().any(|(_, _, required)| *required);
        let reference = form_schema(&name, fields, registry);
        let media_type = if self.multipart_form {
            "multipart/form-data"
        } else {
            "application/x-www-form-urlencoded"
        };
        self.request_body_as(media_type, reference);
    }

    /// Run `document` (an argument documenting itself) and add `examples` (the argument's
    /// `#[examples(..)]`, a JSON array) to what it documented: the schema of each parameter or
    /// form field it added, or the body's schema (see `examples.rs`).
    #[doc(hidden)]
    pub fn with_examples(&mut self, examples: Value, document: impl FnOnce(&mut Self)) {
        let (parameters, form_fields, body) =
            (self.parameters.len(), self.form_fields.len(), self.body.is_some());
        document(self);
        for parameter in &mut self.parameters[parameters..] {
            if let Some(schema) = param_schema_mut(parameter) {
                insert_examples(schema, &examples, PARAM_KEYS_AFTER);
            }
        }
        for (_, schema, _) in &mut self.form_fields[form_fields..] {
            insert_examples(schema, &examples, &[]);
        }
        if let (false, Some(schema)) = (body, &mut self.body) {
            insert_examples(schema, &examples, &[]);
        }
    }

    /// Run `document` (an argument documenting itself) and add `examples` (the argument's
    /// `#[openapi_examples(..)]`, a map of named Example Objects) to what it documented: each
    /// parameter object it added, or the body's media type object (see `examples.rs`).
    #[doc(hidden)]
    pub fn with_openapi_examples(&mut self, examples: Value, document: impl FnOnce(&mut Self)) {
        let (parameters, body) = (self.parameters.len(), self.body.is_some());
        document(self);
        for parameter in &mut self.parameters[parameters..] {
            parameter["examples"] = examples.clone();
        }
        if !body && self.body.is_some() {
            self.body_examples = Some(examples);
        }
    }

    /// Document a response a dependency may answer (`401` "Not authenticated"), unless the route
    /// declares that status itself in `responses(..)`, whose description wins.
    pub fn dependency_response(&mut self, status: u16, description: &'static str) {
        if !self.dependency_responses.iter().any(|(s, _)| *s == status) {
            self.dependency_responses.push((status, description));
        }
    }

    /// Document header `name` of the response a dependency answers at `status` (its header object:
    /// `description`, `schema`), on whichever response the document has at that status: the
    /// dependency's own ([`Operation::dependency_response`]) or the one the route declares. A
    /// header documented twice for a status is written once, as first documented.
    pub fn dependency_response_header(&mut self, status: u16, name: &'static str, header: Value) {
        if !self
            .response_headers
            .iter()
            .any(|(s, n, _)| *s == status && n.eq_ignore_ascii_case(name))
        {
            self.response_headers.push((status, name, header));
        }
    }

    /// Document a response the framework answers for an argument but FastAPI leaves out of its
    /// document (a security scheme's `401` "Not authenticated"): written only when the app asks
    /// for them (`App::document_implicit_responses`), and never over a status the route states.
    pub fn implicit_response(&mut self, status: u16, description: &'static str) {
        if !self.implicit_responses.iter().any(|(s, _)| *s == status) {
            self.implicit_responses.push((status, description));
        }
    }

    /// Document the success response's media type and schema.
    #[doc(hidden)]
    pub fn response(&mut self, media_type: &'static str, schema: Value) {
        self.response = Some((media_type, json!({ "schema": schema })));
    }

    /// Document the success response as JSON lines (`application/jsonl`) whose items have
    /// schema `item` (none: any JSON), the route's `JsonLines<T>`.
    #[doc(hidden)]
    pub fn json_lines_response(&mut self, item: Option<Value>) {
        self.response = Some((items::JSON_LINES, items::json_lines(item)));
    }

    /// Document the success response as Server-Sent Events whose data is the JSON of a value of
    /// schema `data` (none: any text), the route's `Sse<T>`.
    #[doc(hidden)]
    pub fn json_events_response(&mut self, data: Option<Value>) {
        self.response = Some(("text/event-stream", items::json_events(data)));
    }

    /// Set the success status (default 200).
    #[doc(hidden)]
    pub fn success_status(&mut self, status: u16) {
        self.success_status = status;
    }

    /// The success status documented (at the version the operation was made at).
    pub(crate) fn status(&self) -> u16 {
        self.success_status
    }

    /// Document another response, e.g. `404` "Employee not found".
    #[doc(hidden)]
    pub fn extra_response(&mut self, status: u16, description: &'static str) {
        self.extra_responses.push((status, description));
    }

    /// Mark the operation as paged by its query parameters `offset` and `limit` (the route's
    /// `paged` option): its `x-paging` extension, which the app checks when it is built.
    #[doc(hidden)]
    pub fn paged(&mut self, offset: &'static str, limit: &'static str) {
        self.extension(super::paging::EXTENSION, super::paging::extension(offset, limit));
    }

    /// Add a specification extension (`x-websocket`, ...) to the operation object; a name given
    /// twice keeps its last value.
    pub fn extension(&mut self, name: &'static str, value: Value) {
        self.extensions.retain(|(n, _)| *n != name);
        self.extensions.push((name, value));
    }

    /// Whether the operation is a WebSocket route's (it carries `x-websocket: true`, which
    /// `WebSocketUpgrade`'s documentation adds): the route table marks those.
    pub(crate) fn is_websocket(&self) -> bool {
        self.extensions
            .iter()
            .any(|(name, value)| *name == "x-websocket" && *value == Value::Bool(true))
    }

    /// Add what the route's groups state for all their routes, outermost group first: `tags`
    /// before the route's own (each once) and `responses` for the statuses the route does not
    /// document itself (its success status included), a nested group's description winning over
    /// an enclosing one's for the same status.
    pub(crate) fn in_groups(&mut self, tags: &[&'static str], responses: &[(u16, &'static str)]) {
        let mut all: Vec<&'static str> = Vec::with_capacity(tags.len() + self.tags.len());
        for tag in tags.iter().chain(&self.tags) {
            if !all.contains(tag) {
                all.push(tag);
            }
        }
        self.tags = all;
        let own = self.extra_responses.len();
        for &(status, description) in responses {
            let (route_s, groups_s) = self.extra_responses.split_at_mut(own);
            if status == self.success_status || route_s.iter().any(|(s, _)| *s == status) {
                continue;
            }
            // A status two groups state keeps the outer one's place and the inner one's words.
            match groups_s.iter_mut().find(|(s, _)| *s == status) {
                Some(stated) => stated.1 = description,
                None => self.extra_responses.push((status, description)),
            }
        }
    }

    /// Document the route's groups' dependencies with `document`: their parameters go after the
    /// path parameters and before the route's others (a name both document is listed once, where
    /// the groups put it).
    pub(crate) fn group_parameters(&mut self, document: impl FnOnce(&mut Self)) {
        let first_other = self
            .parameters
            .iter()
            .position(|p| p["in"] != "path")
            .unwrap_or(self.parameters.len());
        let others = self.parameters.split_off(first_other);
        document(self);
        for parameter in others {
            let twice = self
                .parameters
                .iter()
                .any(|p| p["name"] == parameter["name"] && p["in"] == parameter["in"]);
            if !twice {
                self.parameters.push(parameter);
            }
        }
    }

    /// The operation object; with `implicit`, also the answers FastAPI leaves out of its document:
    /// `400` and `413` of a route with a body, and the [`Operation::implicit_response`]s
    /// (`App::document_implicit_responses`).
    pub(crate) fn finish(self, implicit: bool) -> Value {
        let mut op = Map::new();
        if !self.tags.is_empty() {
            op.insert("tags".into(), json!(self.tags));
        }
        op.insert("summary".into(), json!(self.summary));
        if let Some(description) = self.description {
            op.insert("description".into(), json!(description));
        }
        op.insert("operationId".into(), json!(self.unique_id));
        let validates = !self.parameters.is_empty() || self.body.is_some();
        let reads_body = self.body.is_some();
        if !self.parameters.is_empty() {
            let mut parameters = self.parameters;
            // Path and query first, then headers, then cookies (FastAPI's order); a stable sort
            // keeps declaration order within each.
            parameters.sort_by_key(|p| match p["in"].as_str() {
                Some("header") => 1,
                Some("cookie") => 2,
                _ => 0,
            });
            op.insert("parameters".into(), Value::Array(parameters));
        }
        if let Some(schema) = self.body {
            let mut media = json!({ "schema": schema });
            if let Some(examples) = self.body_examples {
                media["examples"] = examples;
            }
            op.insert(
                "requestBody".into(),
                if self.body_required {
                    json!({ "required": true, "content": { self.body_media_type: media } })
                } else {
                    json!({ "content": { self.body_media_type: media } })
                },
            );
        }
        let mut responses = Map::new();
        let success = if matches!(self.success_status, 204 | 304) {
            // These statuses have no body (RFC 9110), so no content is documented.
            json!({ "description": self.response_description })
        } else {
            let (media_type, media) = self
                .response
                .unwrap_or(("application/json", json!({ "schema": {} })));
            json!({ "description": self.response_description, "content": { media_type: media } })
        };
        responses.insert(self.success_status.to_string(), success);
        for (status, description) in self.extra_responses {
            responses.insert(status.to_string(), json!({ "description": description }));
        }
        for (status, description) in self.dependency_responses {
            responses
                .entry(status.to_string())
                .or_insert_with(|| json!({ "description": description }));
        }
        if implicit {
            let body_errors = [
                (400, "The request body could not be read or is not UTF-8"),
                (413, "The request body is larger than the limit"),
            ];
            let body_errors = body_errors.into_iter().filter(|_| reads_body);
            for (status, description) in self.implicit_responses.into_iter().chain(body_errors) {
                responses
                    .entry(status.to_string())
                    .or_insert_with(|| json!({ "description": description }));
            }
        }
        for (status, name, header) in self.response_headers {
            if let Some(Value::Object(response)) = responses.get_mut(&status.to_string()) {
                if let Value::Object(headers) = response.entry("headers").or_insert_with(|| json!({})) {
                    headers.entry(name).or_insert(header);
                }
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
        // After the responses, where FastAPI writes it.
        if self.deprecated {
            op.insert("deprecated".into(), json!(true));
        }
        if !self.security.is_empty() {
            // Each scheme is enough on its own (OpenAPI: alternatives), as FastAPI writes them.
            let security: Vec<Value> = self.security.iter().map(|name| json!({ *name: [] })).collect();
            op.insert("security".into(), Value::Array(security));
        }
        for (name, value) in self.extensions {
            op.insert(name.into(), value);
        }
        Value::Object(op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operation_id_is_fastapis_default() {
        // Recorded from FastAPI 0.165 (tests/fastapi/document_observed.json).
        assert_eq!(
            unique_id("read_item", "/items/{item_id}", "GET"),
            "read_item_items__item_id__get"
        );
        assert_eq!(unique_id("search", "/items", "GET"), "search_items_get");
        assert_eq!(unique_id("create", "/", "POST"), "create__post");
        assert_eq!(unique_id("café", "/a-b/é", "PUT"), "café_a_b_é_put");
    }
}
