//! The OpenAPI 3.1 document: the operations of the served routes, assembled once when the app is
//! built (and served as pre-serialized bytes).
//!
//! Rules enforced here (FastAPI's layout, `fastapi/openapi/utils.py`):
//! - `openapi` is `3.1.0`; `info` has `title`, `description` when set, and `version`;
//! - operations appear under their path written with `{name}` parameters (also for routes declared
//!   with `:name`), with the trailing slash they were declared with, in declaration order; a
//!   repeated `operationId` gets `_2`, `_3`, ...;
//! - `HTTPValidationError` and `ValidationError` are standard components, present when an
//!   operation refers to them; other components are the named schemas of the operations' types,
//!   sorted by name; a type used both in what is read and in what is written whose two schemas
//!   differ (a decimal in it) is `Name-Input` and `Name-Output`, every reference rewritten to
//!   the right one (the registry's `schema_modes` decides);
//! - an app that answers validation errors its own way ([`ErrorBody`]) has its status and schema
//!   in every operation's `422` place (the entry moves to that status, replacing what was there),
//!   and the standard components are left out;
//! - only served routes with `include_in_schema` are given to [`document`] (shadowed duplicates
//!   are not): the app decides, this module lays out;
//! - in an app with versions, `info.version` is the documented version's date and
//!   `info.x-api-version` tells a generator what to send (`{"header", "version", "released"}`,
//!   with `"deprecated": true` for a deprecated version, [`name_version`]); an app without versions keeps its own `info.version` and no extension;
//! - the app's tag descriptions ([`Tag`], FastAPI's `openapi_tags`) are the top-level `tags` list,
//!   after `components`, in the order given; without any, there is no `tags` key.

use std::collections::HashSet;

use ferrapi_template::Template;
use serde_json::{json, Map, Value};

use crate::validate::{SchemaMode, SchemaRegistry};

/// Title, version and description of the API.
#[derive(Debug, Clone)]
pub(crate) struct Info {
    /// `info.title`.
    pub title: String,
    /// `info.version`.
    pub version: String,
    /// `info.description`.
    pub description: Option<String>,
    /// The top-level `tags` list.
    pub tags: Vec<Tag>,
    /// Whether responses get their own (output) schemas: FastAPI's
    /// `separate_input_output_schemas`, on by default.
    pub separate_schemas: bool,
    /// Whether operations document the answers FastAPI leaves out (`400`, `413`, a security
    /// scheme's `401`: `App::document_implicit_responses`).
    pub implicit_responses: bool,
}

/// The description of one tag, for the document's top-level `tags` list (FastAPI's
/// `openapi_tags`): `App::new().tag(Tag::new("items").description("Manage items."))`. Swagger UI
/// and ReDoc show it over the tag's operations, and list the tags in the order the app gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    name: String,
    description: Option<String>,
    external_docs: Option<(String, Option<String>)>,
}

impl Tag {
    /// The tag `name`, as routes and groups name it in their `tags`.
    pub fn new(name: impl Into<String>) -> Self {
        Tag {
            name: name.into(),
            description: None,
            external_docs: None,
        }
    }

    /// Its `description` (CommonMark).
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// A link to more about it (`externalDocs`): its `url`, and the link's own `description`.
    pub fn external_docs(mut self, url: impl Into<String>, description: Option<&str>) -> Self {
        self.external_docs = Some((url.into(), description.map(str::to_owned)));
        self
    }

    /// The tag object, keys in FastAPI's order (`name`, `description`, `externalDocs`, which has
    /// `description` before `url`).
    fn to_json(&self) -> Value {
        let mut tag = Map::new();
        tag.insert("name".into(), json!(self.name));
        if let Some(description) = &self.description {
            tag.insert("description".into(), json!(description));
        }
        if let Some((url, description)) = &self.external_docs {
            let mut docs = Map::new();
            if let Some(description) = description {
                docs.insert("description".into(), json!(description));
            }
            docs.insert("url".into(), json!(url));
            tag.insert("externalDocs".into(), Value::Object(docs));
        }
        Value::Object(tag)
    }
}

/// The API version a document describes, for its `info` (issue 44, item 4).
#[derive(Debug, Clone, Copy)]
pub(crate) struct DocumentVersion<'a> {
    /// The header a request names its version in, as the app spelled it (`API-Version`).
    pub header: &'static str,
    /// The version's date (`2026-01-15`).
    pub date: &'static str,
    /// Whether the version is released (the unreleased one may still change).
    pub released: bool,
    /// Whether the version is deprecated: every operation of its document says so.
    pub deprecated: bool,
    /// What changed at the version, in Markdown (empty when nothing did): added to
    /// `info.description`, after the app's own.
    pub changes: &'a str,
}

/// Name `version` in the document's `info`: its date as `info.version` (what a reader and a
/// generated client's header show) and `x-api-version`, what a generator needs to send it: the
/// header's name, the date, whether it is released, and (only when it is) that it is deprecated;
/// what changed at it ends `info.description`.
pub(crate) fn name_version(doc: &mut Value, version: DocumentVersion<'_>) {
    if let Some(Value::Object(info)) = doc.get_mut("info") {
        info.insert("version".into(), json!(version.date));
        if !version.changes.is_empty() {
            let description = match info.get("description").and_then(Value::as_str) {
                Some(own) => format!("{own}\n\n{}", version.changes),
                None => version.changes.to_owned(),
            };
            info.insert("description".into(), json!(description));
        }
        let mut named =
            json!({ "header": version.header, "version": version.date, "released": version.released });
        // Only a deprecated version's says so: the others' documents are as they were blessed.
        if let (true, Value::Object(named)) = (version.deprecated, &mut named) {
            named.insert("deprecated".into(), Value::Bool(true));
        }
        info.insert("x-api-version".into(), named);
    }
}

/// Mark every operation of `doc` `deprecated: true` (the document of a deprecated version).
pub(crate) fn deprecate_operations(doc: &mut Value) {
    let Some(Value::Object(paths)) = doc.get_mut("paths") else {
        return;
    };
    for item in paths.values_mut() {
        let Value::Object(item) = item else { continue };
        for (key, operation) in item.iter_mut() {
            const METHODS: [&str; 8] = [
                "get", "put", "post", "delete", "options", "head", "patch", "trace",
            ];
            if let (true, Value::Object(operation)) = (METHODS.contains(&key.as_str()), operation) {
                operation.insert("deprecated".into(), Value::Bool(true));
            }
        }
    }
}

/// How the app answers validation errors, when not with FastAPI's 422 `HTTPValidationError`.
#[derive(Clone, Copy)]
pub(crate) struct ErrorBody {
    /// The status of the answer.
    pub status: u16,
    /// The schema of its body.
    pub schema: fn(&mut SchemaRegistry) -> Value,
}

/// Add FastAPI's standard validation error components.
pub(super) fn add_validation_components(registry: &mut SchemaRegistry) {
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
pub(crate) fn document_path(template: &Template, declared: &str) -> String {
    let path = template.openapi_path();
    if declared.len() > 1 && declared.ends_with('/') && path != "/" {
        path + "/"
    } else {
        path
    }
}

/// Assemble the document from `(method, openapi path, operation)` triples in declaration order.
pub(crate) fn document(
    info: &Info,
    operations: Vec<(String, String, Value)>,
    mut registry: SchemaRegistry,
    validation_error: Option<ErrorBody>,
) -> Value {
    let mut paths: Map<String, Value> = Map::new();
    let mut validates = false;
    let mut ids: HashSet<String> = HashSet::new();
    // The app's own validation error response, built when the first operation needs it.
    let mut own_error: Option<(String, Value)> = None;
    for (method, path, mut operation) in operations {
        validates |= operation["responses"].get("422").is_some();
        if let (Some(body), Some(Value::Object(responses))) =
            (validation_error, operation.get_mut("responses"))
        {
            if responses.shift_remove("422").is_some() {
                let (status, response) = own_error.get_or_insert_with(|| {
                    // A response: its schema is what the app writes, as FastAPI builds
                    // `responses={..: {"model": ..}}`.
                    let schema = registry.in_mode(SchemaMode::Output, body.schema);
                    (
                        body.status.to_string(),
                        json!({ "description": "Validation Error", "content": { "application/json": { "schema": schema } } }),
                    )
                });
                responses.insert(status.clone(), response.clone());
            }
        }
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
    if validates && validation_error.is_none() {
        add_validation_components(&mut registry);
    }
    let mut info_obj = Map::new();
    info_obj.insert("title".into(), json!(info.title));
    if let Some(description) = &info.description {
        info_obj.insert("description".into(), json!(description));
    }
    info_obj.insert("version".into(), json!(info.version));
    let mut doc = Map::new();
    let security_schemes = registry.take_security_schemes();
    let mut paths = Value::Object(paths);
    let components = registry.finish([&mut paths]);
    doc.insert("openapi".into(), json!("3.1.0"));
    doc.insert("info".into(), Value::Object(info_obj));
    doc.insert("paths".into(), paths);
    let mut components_obj = Map::new();
    if !components.is_empty() {
        components_obj.insert("schemas".into(), Value::Object(components));
    }
    if !security_schemes.is_empty() {
        components_obj.insert("securitySchemes".into(), Value::Object(security_schemes));
    }
    if !components_obj.is_empty() {
        doc.insert("components".into(), Value::Object(components_obj));
    }
    if !info.tags.is_empty() {
        doc.insert("tags".into(), info.tags.iter().map(Tag::to_json).collect());
    }
    Value::Object(doc)
}
