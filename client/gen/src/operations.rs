//! The document's operations as the generated methods see them: a name, parameters, a body, and
//! one answer per documented status.
//!
//! Rules enforced here:
//! - a method is named after the operation's function: FastAPI's operation ids are
//!   `{function}{path with non-word characters as _}_{method}` (`read_item_item__item_id__get`),
//!   and when an id has that form the function's name is taken (`read_item`); otherwise the whole
//!   id in snake case; without an id, the method and the path (`get_items_item_id`). Two
//!   operations that would share a name both take their whole id in snake case, then a number;
//! - parameters come from the path item and the operation (the operation's win, by name and
//!   place); a path template's parameter must be declared; a required parameter is an argument of
//!   the method, an optional one a method of its request;
//! - `Idempotency-Key` is sent on every call (a fresh key per call unless one is given), and
//!   `If-Match` / `If-None-Match` take an entity tag; an operation taking `If-Match` has a
//!   `PreconditionFailed` answer and one taking `If-None-Match` (a read) a `NotModified` answer,
//!   documented or not;
//! - the body is the first of JSON, a form, multipart, text, bytes that the operation accepts;
//!   an answer's content the first of JSON (problem details too), Server-Sent Events, JSON lines,
//!   text, bytes; an answer without content is nothing (`204`, `205`, `304`), a byte stream
//!   (other 1xx–3xx) or an error body (4xx, 5xx).

use serde_json::Value;

use crate::document::{child, Document, GenError};
use crate::names::{member, status_variant, type_name, Namer};
use crate::schema::{description, Schemas, Ty};

/// The HTTP methods an OpenAPI path item holds, in the order the generated code lists them.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Client method names the generated `Client` already has.
const CLIENT_METHODS: &[&str] = &["new", "from_client", "client"];

/// Names a request builder already has (fields and methods).
const BUILDER_NAMES: &[&str] = &[
    "client",
    "options",
    "body",
    "send",
    "into_future",
    "with_request_id",
    "with_header",
    "with_query",
    "with_timeout",
    "with_retry",
];

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A path segment.
    Path,
    /// The query string.
    Query,
    /// A header.
    Header,
    /// A cookie.
    Cookie,
}

/// What the client does with a parameter itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Special {
    /// Nothing: the caller gives it.
    None,
    /// `Idempotency-Key`: a fresh key per call unless one is given.
    IdempotencyKey,
    /// `If-Match` / `If-None-Match`: an entity tag.
    Precondition,
}

/// A parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name in the document.
    pub name: String,
    /// Its Rust name.
    pub rust: String,
    /// Where it goes.
    pub location: Location,
    /// Its type, without the `Option` of an optional parameter.
    pub ty: Ty,
    /// A required parameter is an argument of the method.
    pub required: bool,
    /// Its description.
    pub doc: Option<String>,
    /// Its default.
    pub default: Option<Value>,
    /// What the client does with it itself.
    pub special: Special,
}

/// How a body is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/json` (or another `+json`).
    Json,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// `multipart/form-data`.
    Multipart,
    /// `text/*`.
    Text,
    /// Anything else, as bytes.
    Bytes,
}

/// A request body.
#[derive(Clone, Debug)]
pub struct Body {
    /// How it is sent.
    pub kind: BodyKind,
    /// Its media type.
    pub media_type: String,
    /// Its type.
    pub ty: Ty,
    /// Whether the operation needs one.
    pub required: bool,
    /// Its description.
    pub doc: Option<String>,
}

/// What an answer of one status carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    /// Nothing (`204`, `304`).
    Unit,
    /// JSON of a type.
    Json(Ty),
    /// Text.
    Text,
    /// Bytes, streamed.
    Bytes,
    /// Server-Sent Events, their data JSON of a type (`None`: kept as text).
    Events(Option<Ty>),
    /// JSON lines, each of a type.
    Lines(Ty),
    /// An error answer the document describes only in words.
    HttpError,
    /// RFC 9457 problem details without a schema.
    Problem,
}

/// The answer of one status (or range).
#[derive(Clone, Debug)]
pub struct Response {
    /// `200`, `4XX`, `default`.
    pub status: String,
    /// The enum variant.
    pub variant: String,
    /// Its description.
    pub doc: Option<String>,
    /// What it carries.
    pub payload: Payload,
    /// Not in the document: added because of a parameter (`If-Match` → `412`).
    pub synthetic: bool,
    /// The headers the document declares for it.
    pub headers: Vec<String>,
}

/// An operation.
#[derive(Clone, Debug)]
pub struct Operation {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path template.
    pub path: String,
    /// The method's name.
    pub function: String,
    /// The request builder's name (the answer enum adds `Response`).
    pub type_name: String,
    /// `summary`.
    pub summary: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `deprecated: true`.
    pub deprecated: bool,
    /// The parameters: path ones in the template's order, then the others in the document's.
    pub params: Vec<Param>,
    /// The body.
    pub body: Option<Body>,
    /// The answers, in status order (exact codes, then ranges, then `default`).
    pub responses: Vec<Response>,
}

impl Operation {
    /// An answer is a stream that reconnects (Server-Sent Events).
    pub fn resumable(&self) -> bool {
        self.responses
            .iter()
            .any(|r| matches!(r.payload, Payload::Events(_)))
    }

    /// The template's parts: literal text and parameter names.
    pub fn template(&self) -> Vec<Segment> {
        template(&self.path)
    }
}

/// A part of a path template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Literal text.
    Literal(String),
    /// A parameter, by name.
    Param(String),
}

fn template(path: &str) -> Vec<Segment> {
    let mut parts = Vec::new();
    let mut rest = path;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            parts.push(Segment::Literal(rest[..open].to_owned()));
        }
        parts.push(Segment::Param(rest[open + 1..open + close].to_owned()));
        rest = &rest[open + close + 1..];
    }
    if !rest.is_empty() {
        parts.push(Segment::Literal(rest.to_owned()));
    }
    parts
}

/// The function FastAPI's default operation id names, if `id` is one for `method` and `path`.
pub fn fastapi_function<'a>(id: &'a str, method: &str, path: &str) -> Option<&'a str> {
    // FastAPI: re.sub(r"\W", "_", f"{route.name}{route.path_format}") + "_" + method.lower()
    let route: String = path
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '_' { c } else { '_' })
        .collect();
    let suffix = format!("{route}_{}", method.to_ascii_lowercase());
    id.strip_suffix(&suffix).filter(|function| !function.is_empty())
}

/// Every operation of `document`, in document order.
pub fn operations(document: &Document<'_>, schemas: &mut Schemas<'_>) -> Result<Vec<Operation>, GenError> {
    let mut found = Vec::new();
    let Some(paths) = document.get("#/paths").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    for (path, item) in paths {
        let item_pointer = child("#/paths", path);
        let (item, item_pointer) = document.resolve(item, &item_pointer)?;
        for method in METHODS {
            let Some(operation) = item.get(*method) else {
                continue;
            };
            found.push((
                path.clone(),
                method.to_ascii_uppercase(),
                item,
                operation,
                child(&item_pointer, method),
            ));
        }
    }
    let names = function_names(&found);
    let mut operations = Vec::new();
    let mut type_names = Namer::default();
    for ((path, method, item, operation, pointer), function) in found.into_iter().zip(names) {
        let type_base = type_name(&function);
        let type_name = type_names.claim(&type_base);
        type_names.claim(&format!("{type_name}Response"));
        operations.push(read(
            document, schemas, path, method, item, operation, pointer, function, type_name,
        )?);
    }
    Ok(operations)
}

/// Each operation's method name.
fn function_names(found: &[(String, String, &Value, &Value, String)]) -> Vec<String> {
    let base: Vec<(String, String)> = found
        .iter()
        .map(|(path, method, _, operation, _)| {
            let id = operation.get("operationId").and_then(Value::as_str);
            let whole = match id {
                Some(id) => member(id),
                None => member(&format!("{method}_{path}")),
            };
            let short = id
                .and_then(|id| fastapi_function(id, method, path))
                .map(member)
                .unwrap_or_else(|| whole.clone());
            (short, whole)
        })
        .collect();
    let mut namer = Namer::with(CLIENT_METHODS);
    base.iter()
        .map(|(short, whole)| {
            let shared = base.iter().filter(|(other, _)| other == short).count() > 1;
            namer.claim(if shared { whole } else { short })
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn read(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    path: String,
    method: String,
    item: &Value,
    operation: &Value,
    pointer: String,
    function: String,
    type_name: String,
) -> Result<Operation, GenError> {
    let context = type_name.clone();
    let params = parameters(document, schemas, &path, item, operation, &pointer, &context)?;
    let body = match operation.get("requestBody") {
        Some(body) => request_body(document, schemas, body, &child(&pointer, "requestBody"), &context)?,
        None => None,
    };
    let responses = responses(document, schemas, &method, operation, &pointer, &context, &params)?;
    Ok(Operation {
        method,
        path,
        summary: text(operation, "summary"),
        description: text(operation, "description"),
        deprecated: operation.get("deprecated").and_then(Value::as_bool) == Some(true),
        function,
        type_name,
        params,
        body,
        responses,
    })
}

fn text(value: &Value, key: &str) -> Option<String> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned)
}

fn parameters(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    path: &str,
    item: &Value,
    operation: &Value,
    pointer: &str,
    context: &str,
) -> Result<Vec<Param>, GenError> {
    // The path item's parameters, then the operation's, which replace one of the same name and place.
    let mut declared: Vec<(&Value, String)> = Vec::new();
    for (owner, owner_pointer) in [
        (item, pointer.rsplit_once('/').map_or(pointer, |(p, _)| p)),
        (operation, pointer),
    ] {
        let Some(list) = owner.get("parameters").and_then(Value::as_array) else {
            continue;
        };
        for (index, param) in list.iter().enumerate() {
            let param_pointer = child(&child(owner_pointer, "parameters"), &index.to_string());
            let (param, param_pointer) = document.resolve(param, &param_pointer)?;
            let key = |p: &Value| (p.get("name").cloned(), p.get("in").cloned());
            declared.retain(|(other, _)| key(other) != key(param));
            declared.push((param, param_pointer));
        }
    }
    let mut params = Vec::new();
    let mut names = Namer::with(BUILDER_NAMES);
    for (param, param_pointer) in &declared {
        let name = param.get("name").and_then(Value::as_str).unwrap_or_default();
        let location = match param.get("in").and_then(Value::as_str).unwrap_or_default() {
            "path" => Location::Path,
            "query" => Location::Query,
            "header" => Location::Header,
            "cookie" => Location::Cookie,
            other => return Err(GenError::at(param_pointer, format!("a parameter `in: {other}`"))),
        };
        if location == Location::Header
            && ["accept", "content-type", "authorization"].contains(&name.to_ascii_lowercase().as_str())
        {
            // OpenAPI: these header parameters are ignored (the media types and the security
            // scheme say them).
            continue;
        }
        let Some(schema) = param.get("schema") else {
            return Err(GenError::at(
                param_pointer,
                "a parameter without `schema` (`content` is not supported)",
            ));
        };
        let (ty, _) = schemas
            .ty(
                schema,
                &child(param_pointer, "schema"),
                &format!("{context}_{name}"),
            )?
            .unwrap_option();
        let required =
            location == Location::Path || param.get("required").and_then(Value::as_bool) == Some(true);
        let lower = name.to_ascii_lowercase();
        let special = match lower.as_str() {
            "idempotency-key" if location == Location::Header => Special::IdempotencyKey,
            "if-match" | "if-none-match" if location == Location::Header => Special::Precondition,
            _ => Special::None,
        };
        let base = member(name);
        let rust = if params.iter().any(|p: &Param| p.rust == base) {
            let place = match location {
                Location::Path => "path",
                Location::Query => "query",
                Location::Header => "header",
                Location::Cookie => "cookie",
            };
            names.claim(&format!("{base}_{place}"))
        } else if BUILDER_NAMES.contains(&base.as_str()) {
            names.claim(&format!("{base}_param"))
        } else {
            names.claim(&base)
        };
        params.push(Param {
            name: name.to_owned(),
            rust,
            location,
            ty,
            required: required && special == Special::None,
            doc: description(param).or_else(|| {
                schema
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            }),
            default: schema.get("default").cloned(),
            special,
        });
    }
    // Path parameters in the template's order, first.
    let mut ordered = Vec::new();
    for segment in template(path) {
        if let Segment::Param(name) = segment {
            let Some(index) = params
                .iter()
                .position(|p| p.location == Location::Path && p.name == name)
            else {
                return Err(GenError::at(
                    pointer,
                    format!("the path parameter `{name}` is not declared"),
                ));
            };
            ordered.push(params.remove(index));
        }
    }
    ordered.extend(params.into_iter().filter(|p| p.location != Location::Path));
    Ok(ordered)
}

fn request_body(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    body: &Value,
    pointer: &str,
    context: &str,
) -> Result<Option<Body>, GenError> {
    let (body, pointer) = document.resolve(body, pointer)?;
    let Some(content) = body.get("content").and_then(Value::as_object) else {
        return Ok(None);
    };
    let kind_of = |media: &str| -> BodyKind {
        let media = media.to_ascii_lowercase();
        if media == "application/json" || media.ends_with("+json") {
            BodyKind::Json
        } else if media == "application/x-www-form-urlencoded" {
            BodyKind::Form
        } else if media == "multipart/form-data" {
            BodyKind::Multipart
        } else if media.starts_with("text/") {
            BodyKind::Text
        } else {
            BodyKind::Bytes
        }
    };
    let preference = [
        BodyKind::Json,
        BodyKind::Form,
        BodyKind::Multipart,
        BodyKind::Text,
        BodyKind::Bytes,
    ];
    let Some((media, media_object)) = preference
        .iter()
        .find_map(|kind| content.iter().find(|(media, _)| kind_of(media) == *kind))
    else {
        return Ok(None);
    };
    let kind = kind_of(media);
    let schema_pointer = child(&child(&child(&pointer, "content"), media), "schema");
    let ty = match (kind, media_object.get("schema")) {
        (BodyKind::Text, _) => Ty::String,
        (BodyKind::Bytes, _) => Ty::File,
        (_, Some(schema)) => {
            schemas
                .ty(schema, &schema_pointer, &format!("{context}_body"))?
                .unwrap_option()
                .0
        }
        (BodyKind::Json, None) => Ty::Value,
        (_, None) => return Err(GenError::at(&schema_pointer, "a form body without a schema")),
    };
    if kind == BodyKind::Multipart || kind == BodyKind::Form {
        let struct_like = matches!(&ty, Ty::Named(name) if schemas.def(name).is_some_and(|d| matches!(d.kind, crate::schema::Kind::Struct { .. })));
        if !struct_like {
            return Err(GenError::at(
                &schema_pointer,
                "a form body whose schema is not an object",
            ));
        }
    }
    Ok(Some(Body {
        kind,
        media_type: media.clone(),
        ty,
        required: body.get("required").and_then(Value::as_bool) == Some(true),
        doc: description(body),
    }))
}

fn responses(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    method: &str,
    operation: &Value,
    pointer: &str,
    context: &str,
    params: &[Param],
) -> Result<Vec<Response>, GenError> {
    let mut responses = Vec::new();
    let responses_pointer = child(pointer, "responses");
    let empty = serde_json::Map::new();
    let documented = operation
        .get("responses")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (status, response) in documented {
        let response_pointer = child(&responses_pointer, status);
        let Some(variant) = status_variant(status) else {
            return Err(GenError::at(
                &response_pointer,
                format!("`{status}` is not a status"),
            ));
        };
        let (response, response_pointer) = document.resolve(response, &response_pointer)?;
        let payload = payload(
            schemas,
            status,
            response,
            &response_pointer,
            &format!("{context}_{variant}"),
        )?;
        let headers = response
            .get("headers")
            .and_then(Value::as_object)
            .map(|headers| headers.keys().cloned().collect())
            .unwrap_or_default();
        responses.push(Response {
            status: status.clone(),
            variant,
            doc: description(response),
            payload,
            synthetic: false,
            headers,
        });
    }
    let takes = |name: &str| params.iter().any(|p| p.name.eq_ignore_ascii_case(name));
    let has = |responses: &[Response], status: &str| responses.iter().any(|r| r.status == status);
    if takes("If-Match") && !has(&responses, "412") {
        responses.push(synthetic("412", "PreconditionFailed", Payload::HttpError));
    }
    if takes("If-None-Match") && matches!(method, "GET" | "HEAD") && !has(&responses, "304") {
        responses.push(synthetic("304", "NotModified", Payload::Unit));
    }
    responses.sort_by_key(|r| status_order(&r.status));
    let mut variants = Namer::with(&["Unexpected"]);
    for response in &mut responses {
        response.variant = variants.claim(&response.variant);
    }
    Ok(responses)
}

fn synthetic(status: &str, variant: &str, payload: Payload) -> Response {
    Response {
        status: status.to_owned(),
        variant: variant.to_owned(),
        doc: None,
        payload,
        synthetic: true,
        headers: Vec::new(),
    }
}

/// Exact codes first, in order; then ranges; then `default`.
fn status_order(status: &str) -> (u8, String) {
    match status {
        "default" => (2, String::new()),
        exact if exact.bytes().all(|b| b.is_ascii_digit()) => (0, exact.to_owned()),
        range => (1, range.to_owned()),
    }
}

fn payload(
    schemas: &mut Schemas<'_>,
    status: &str,
    response: &Value,
    pointer: &str,
    context: &str,
) -> Result<Payload, GenError> {
    let content = response
        .get("content")
        .and_then(Value::as_object)
        .filter(|c| !c.is_empty());
    let Some(content) = content else {
        return Ok(match status.as_bytes().first() {
            _ if matches!(status, "204" | "205" | "304") => Payload::Unit,
            Some(b'1') => Payload::Unit,
            Some(b'2' | b'3') => Payload::Bytes,
            _ => Payload::HttpError,
        });
    };
    let rank = |media: &str| -> u8 {
        let media = media.to_ascii_lowercase();
        if media == "application/json" {
            0
        } else if media.ends_with("+json") {
            1
        } else if media == "text/event-stream" {
            2
        } else if matches!(
            media.as_str(),
            "application/jsonl" | "application/x-ndjson" | "application/json-seq"
        ) {
            3
        } else if media.starts_with("text/") {
            4
        } else {
            5
        }
    };
    let Some((media, object)) = content.iter().min_by_key(|(media, _)| rank(media)) else {
        return Ok(Payload::Bytes);
    };
    let media_pointer = child(&child(pointer, "content"), media);
    Ok(match rank(media) {
        0 | 1 => match object.get("schema") {
            Some(schema) => Payload::Json(schemas.ty(schema, &child(&media_pointer, "schema"), context)?),
            None if media.ends_with("problem+json") => Payload::Problem,
            None => Payload::Json(Ty::Value),
        },
        2 => {
            let data = object
                .get("itemSchema")
                .and_then(|item| item.get("properties"))
                .and_then(|properties| properties.get("data"));
            let json = data.and_then(|data| {
                (data.get("contentMediaType").and_then(Value::as_str) == Some("application/json"))
                    .then(|| data.get("contentSchema").cloned().unwrap_or(Value::Bool(true)))
            });
            match json {
                Some(schema) => {
                    let pointer = child(
                        &child(&child(&child(&media_pointer, "itemSchema"), "properties"), "data"),
                        "contentSchema",
                    );
                    Payload::Events(Some(schemas.ty(
                        &schema,
                        &pointer,
                        &format!("{context}_event"),
                    )?))
                }
                None => Payload::Events(None),
            }
        }
        3 => match object.get("itemSchema") {
            Some(schema) => Payload::Lines(schemas.ty(
                schema,
                &child(&media_pointer, "itemSchema"),
                &format!("{context}_item"),
            )?),
            None => Payload::Lines(Ty::Value),
        },
        4 => Payload::Text,
        _ => Payload::Bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fastapi_operation_ids_give_the_function() {
        assert_eq!(
            fastapi_function("read_item_item__item_id__get", "GET", "/item/{item_id}"),
            Some("read_item")
        );
        assert_eq!(fastapi_function("root__get", "get", "/"), Some("root"));
        assert_eq!(
            fastapi_function("create_visit_visits_post", "POST", "/visits"),
            Some("create_visit")
        );
        assert_eq!(fastapi_function("read_item", "GET", "/item/{id}"), None);
        assert_eq!(fastapi_function("_item__id__get", "GET", "/item/{id}"), None);
    }

    /// The client's method names in `code`, in order.
    fn methods(code: &str) -> Vec<&str> {
        code.lines()
            .filter_map(|line| line.trim().strip_prefix("pub fn "))
            .filter(|rest| rest.contains("self"))
            .filter_map(|rest| rest.split(['(', '<']).next())
            .filter(|name| *name != "client")
            .collect()
    }

    #[test]
    fn methods_are_named_robustly_from_any_operation_id() {
        let answer = serde_json::json!({"200": {"description": "OK"}});
        let document = serde_json::json!({
            "openapi": "3.1.0",
            "info": {"title": "Names", "version": "1"},
            "paths": {
                // FastAPI's default ids: the function's name.
                "/users": {
                    "get": {"operationId": "list_users_users_get", "responses": answer},
                    "post": {"operationId": "create_user_users_post", "responses": answer}
                },
                "/users/{user_id}": {"get": {
                    "operationId": "read_user_users__user_id__get",
                    "parameters": [{"name": "user_id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                    "responses": answer
                }},
                // One function under two routers: both keep their whole ids.
                "/a/items": {"get": {"operationId": "read_items_a_items_get", "responses": answer}},
                "/b/items": {"get": {"operationId": "read_items_b_items_get", "responses": answer}},
                // A name the client already has, a keyword, camel case, no id at all.
                "/new": {"get": {"operationId": "new", "responses": answer}},
                "/type": {"get": {"operationId": "type", "responses": answer}},
                "/camel": {"get": {"operationId": "getCamelThing", "responses": answer}},
                "/legacy/{id}": {"get": {
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "responses": answer
                }}
            }
        });
        let generated = crate::generate(&document.to_string(), &crate::Settings::default()).unwrap();
        assert_eq!(
            methods(&generated.code),
            [
                "list_users",
                "create_user",
                "read_user",
                "read_items_a_items_get",
                "read_items_b_items_get",
                "new2",
                "type_",
                "get_camel_thing",
                "get_legacy_id",
            ]
        );
    }

    #[test]
    fn templates_split_into_literals_and_parameters() {
        assert_eq!(
            template("/user/{user_id}/item/{item_id}"),
            [
                Segment::Literal("/user/".into()),
                Segment::Param("user_id".into()),
                Segment::Literal("/item/".into()),
                Segment::Param("item_id".into())
            ]
        );
        assert_eq!(template("/"), [Segment::Literal("/".into())]);
    }
}
