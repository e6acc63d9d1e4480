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
//!   (other 1xx–3xx) or an error body (4xx, 5xx);
//! - an operation pages as [`paging`] says, when its request can send the offset and limit (both
//!   integer query parameters) and its one success is the `200` array (else a warning).

mod answers;
mod body;
pub mod emit;
mod emit_answers;
pub mod paging;
mod params;

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::Value;

use crate::document::model::{self, PathItem};
use crate::document::{child, text, Document, GenError};
use crate::names::{member, type_name, Namer};
use crate::types::{Schemas, Ty};

/// Client method names the generated `Client` already has.
const CLIENT_METHODS: &[&str] = &["new", "from_client", "client"];

/// Names a request builder already has (fields and methods).
pub(crate) const BUILDER_NAMES: &[&str] = &[
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

impl Location {
    /// The place's word: `path`, `query`, `header`, `cookie`.
    pub fn word(self) -> &'static str {
        match self {
            Location::Path => "path",
            Location::Query => "query",
            Location::Header => "header",
            Location::Cookie => "cookie",
        }
    }
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

impl Payload {
    /// The type of the JSON it carries (a whole answer, an event's data, a line), if it has one.
    pub fn ty(&self) -> Option<&Ty> {
        match self {
            Payload::Json(ty) | Payload::Events(Some(ty)) | Payload::Lines(ty) => Some(ty),
            _ => None,
        }
    }
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
    /// The operation's type name: its request builder is `{type_name}Request`, its enum of
    /// answers `{type_name}Response` (neither is a schema's name).
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
    /// How it pages, when it does.
    pub paging: Option<Paged>,
}

/// How an operation's request pages: the rules, and the items' type.
#[derive(Clone, Debug)]
pub struct Paged {
    /// The document's rules.
    pub rules: paging::Paging,
    /// The type of one item.
    pub item: Ty,
}

impl Operation {
    /// An answer is a stream that reconnects (Server-Sent Events).
    pub fn resumable(&self) -> bool {
        self.responses
            .iter()
            .any(|r| matches!(r.payload, Payload::Events(_)))
    }

    /// The operation's items name a declared type (`types::X`): as a parameter the caller gives,
    /// its body, or what an answer carries.
    pub fn names_types(&self) -> bool {
        let params = self
            .params
            .iter()
            .filter(|param| param.special == Special::None)
            .any(|param| param.ty.names_a_type());
        let body = self.body.as_ref().is_some_and(|body| body.ty.names_a_type());
        let answers = self
            .responses
            .iter()
            .any(|response| response.payload.ty().is_some_and(Ty::names_a_type));
        params || body || answers
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

/// An operation where the document has it.
struct Found<'a> {
    /// Its path template.
    path: &'a str,
    /// `GET`, `POST`, …
    method: String,
    /// Its path item (its `$ref` followed), and the item's pointer.
    item: (&'a PathItem, &'a str),
    /// The operation.
    operation: &'a model::Operation,
    /// The operation's pointer.
    pointer: String,
}

/// A path item (its `$ref` followed) with its path and pointer.
type Located<'d> = (&'d str, Cow<'d, PathItem>, String);

/// The path items of `document` (their `$ref`s followed) with their paths and pointers.
fn path_items<'d>(document: &'d Document<'_>) -> Result<Vec<Located<'d>>, GenError> {
    let mut items = Vec::new();
    for (path, item) in &document.api().paths {
        let (item, pointer) = document.resolve(item, &child("#/paths", path))?;
        items.push((path.as_str(), item, pointer));
    }
    Ok(items)
}

/// Every operation of the path items `items`, in document order.
fn found<'a>(items: &'a [Located<'a>]) -> Vec<Found<'a>> {
    items
        .iter()
        .flat_map(|(path, item, item_pointer)| {
            item.operations.iter().map(move |(method, operation)| Found {
                path,
                method: method.to_ascii_uppercase(),
                item: (item, item_pointer),
                operation,
                pointer: child(item_pointer, method),
            })
        })
        .collect()
}

/// Every operation of `document`, in document order; what the generator leaves aside (an
/// `x-paging` it cannot use) is pushed on `warnings`.
pub fn operations(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    warnings: &mut Vec<GenError>,
) -> Result<Vec<Operation>, GenError> {
    let items = path_items(document)?;
    let found = found(&items);
    let names = function_names(&found);
    let mut operations = Vec::new();
    // The schemas' names are taken: under `use types::*; use operations::*;` an operation's items
    // must not name a schema's type (`types::Signup` and the request of `signup`).
    let mut used: HashSet<String> = schemas.defs.iter().map(|def| def.name.clone()).collect();
    for (found, function) in found.iter().zip(names) {
        let type_name = claim_operation(&mut used, &type_name(&function));
        operations.push(read(document, schemas, found, function, type_name, warnings)?);
    }
    Ok(operations)
}

/// The `GET` operations of `document` that page, by path, in document order (what the
/// TypeScript client's paging table lists); warnings as [`operations`] gives them.
pub fn paged_paths(
    document: &Document<'_>,
    warnings: &mut Vec<GenError>,
) -> Result<Vec<(String, paging::Paging)>, GenError> {
    let items = path_items(document)?;
    let mut paged = Vec::new();
    for found in found(&items) {
        if let Some(rules) = paging::detect(document, &found, warnings)? {
            if found.method == "GET" {
                paged.push((found.path.to_owned(), rules));
            }
        }
    }
    Ok(paged)
}

/// The first of `base`, `base2`, … whose request (`{name}Request`) and answers
/// (`{name}Response`) are both unused; now used.
fn claim_operation(used: &mut HashSet<String>, base: &str) -> String {
    let mut name = base.to_owned();
    let mut n = 2;
    while used.contains(&format!("{name}Request")) || used.contains(&format!("{name}Response")) {
        name = format!("{base}{n}");
        n += 1;
    }
    used.insert(format!("{name}Request"));
    used.insert(format!("{name}Response"));
    name
}

/// Each operation's method name.
fn function_names(found: &[Found<'_>]) -> Vec<String> {
    let base: Vec<(String, String)> = found
        .iter()
        .map(|found| {
            let (path, method) = (found.path, found.method.as_str());
            let id = found.operation.operation_id.as_deref();
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

fn read(
    document: &Document<'_>,
    schemas: &mut Schemas<'_>,
    found: &Found<'_>,
    function: String,
    type_name: String,
    warnings: &mut Vec<GenError>,
) -> Result<Operation, GenError> {
    let context = type_name.clone();
    let operation = found.operation;
    let params = params::parameters(document, schemas, found, &context)?;
    let body = match &operation.request_body {
        Some(body) => body::request_body(
            document,
            schemas,
            body,
            &child(&found.pointer, "requestBody"),
            &context,
        )?,
        None => None,
    };
    let responses = answers::responses(document, schemas, found, &context, &params)?;
    let paging = match paging::detect(document, found, warnings)? {
        Some(rules) => paged(schemas, rules, &params, &responses, found, &context, warnings)?,
        None => None,
    };
    Ok(Operation {
        method: found.method.clone(),
        path: found.path.to_owned(),
        summary: text(operation.summary.as_ref()),
        description: text(operation.description.as_ref()),
        deprecated: operation.deprecated,
        function,
        type_name,
        params,
        body,
        responses,
        paging,
    })
}

/// The paging `rules` of an operation, when its request can follow them: the offset and limit
/// are integer query parameters of its request, and its one success the `200` JSON answer.
fn paged(
    schemas: &mut Schemas<'_>,
    rules: paging::Paging,
    params: &[Param],
    responses: &[Response],
    found: &Found<'_>,
    context: &str,
    warnings: &mut Vec<GenError>,
) -> Result<Option<Paged>, GenError> {
    let integer = |name: &str| {
        params
            .iter()
            .any(|p| p.name == name && p.location == Location::Query && matches!(p.ty, Ty::Int(_)))
    };
    let successes: Vec<&Response> = responses.iter().filter(|r| r.status.starts_with('2')).collect();
    let answers_array = matches!(successes.as_slice(), [only] if only.status == "200" && matches!(only.payload, Payload::Json(_)));
    if !(integer(&rules.offset) && integer(&rules.limit) && answers_array) {
        warnings.push(GenError::at(
            &found.pointer,
            "it pages, but its request cannot: the offset and limit must be integer query parameters, and the 200 JSON array its one success; the operation is not paged",
        ));
        return Ok(None);
    }
    let item = schemas.ty(&rules.item, &rules.item_pointer, &format!("{context}_item"))?;
    Ok(Some(Paged { rules, item }))
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

    /// The client's method names in `code`, in order (a signature may be wrapped over lines).
    fn methods(code: &str) -> Vec<&str> {
        let client = &code[..code.find("pub mod types").unwrap_or(code.len())];
        client
            .lines()
            .filter_map(|line| line.trim().strip_prefix("pub fn "))
            .filter_map(|rest| rest.split(['(', '<']).next())
            .filter(|name| !["new", "from_client", "client"].contains(name))
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
    fn an_operation_is_read_from_its_path_item_and_its_own_parts() {
        let item = serde_json::json!({"$ref": "#/components/schemas/Item"});
        let root = serde_json::json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/items/{item_id}": {
                "parameters": [
                    {"name": "q", "in": "query", "schema": {"type": "integer"}},
                    {"name": "item_id", "in": "path", "required": true, "schema": {"type": "integer"}}
                ],
                "put": {
                    "parameters": [
                        {"name": "q", "in": "query", "required": true, "schema": {"type": "string"}},
                        {"name": "Accept", "in": "header", "schema": {"type": "string"}},
                        {"name": "If-Match", "in": "header", "required": true, "schema": {"type": "string"}}
                    ],
                    "requestBody": {"required": true, "content": {"text/plain": {}, "application/json": {"schema": item}}},
                    "responses": {
                        "default": {"description": "other"},
                        "4XX": {"description": "refused"},
                        "200": {"description": "events", "content": {"text/event-stream": {"itemSchema": {
                            "properties": {"data": {"contentMediaType": "application/json", "contentSchema": item}}
                        }}}}
                    }
                }
            }},
            "components": {"schemas": {"Item": {"type": "object", "properties": {"a": {"type": "integer"}}}}}
        });
        let document = Document::new(&root).unwrap();
        let mut schemas = Schemas::new(&document, true).unwrap();
        let [operation] = operations(&document, &mut schemas, &mut Vec::new())
            .unwrap()
            .try_into()
            .unwrap();
        let params: Vec<(&str, &Ty, bool, Special)> = operation
            .params
            .iter()
            .map(|p| (p.name.as_str(), &p.ty, p.required, p.special))
            .collect();
        // The path's parameter first; the operation's `q` replaces the item's; `Accept` is left out.
        assert_eq!(
            params,
            [
                ("item_id", &Ty::Int("i64"), true, Special::None),
                ("q", &Ty::String, true, Special::None),
                ("If-Match", &Ty::String, false, Special::Precondition),
            ]
        );
        let body = operation.body.as_ref().unwrap();
        assert_eq!((body.kind, &body.ty), (BodyKind::Json, &Ty::Named("Item".into())));
        let answers: Vec<(&str, &str, bool)> = operation
            .responses
            .iter()
            .map(|r| (r.status.as_str(), r.variant.as_str(), r.synthetic))
            .collect();
        assert_eq!(
            answers,
            [
                ("200", "Ok", false),
                ("412", "PreconditionFailed", true),
                ("4XX", "ClientError", false),
                ("default", "Default", false)
            ]
        );
        assert_eq!(
            operation.responses[0].payload,
            Payload::Events(Some(Ty::Named("Item".into())))
        );
        assert!(operation.resumable() && operation.names_types());
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

    #[test]
    fn an_operations_items_never_take_a_schemas_name() {
        // `signup` beside a schema `Signup` (the glob-import clash) and one named `SignupRequest`.
        let answer = serde_json::json!({"200": {"description": "OK"}});
        let object = serde_json::json!({"type": "object", "properties": {"a": {"type": "integer"}}});
        let document = serde_json::json!({
            "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {
                "/signup": {"post": {"operationId": "signup", "responses": answer}},
                "/profile": {"get": {"operationId": "profile", "responses": answer}}
            },
            "components": {"schemas": {"Signup": object, "SignupRequest": object, "Profile": object}}
        });
        let generated = crate::generate(&document.to_string(), &crate::Settings::default()).unwrap();
        let code = &generated.code;
        for item in [
            "pub struct Signup2Request<",
            "pub enum Signup2Response {",
            "pub struct ProfileRequest<",
            "pub enum ProfileResponse {",
            "pub struct Signup {",
            "pub struct SignupRequest {",
            "pub struct Profile {",
        ] {
            assert!(code.contains(item), "{item}");
        }
        assert!(!code.contains("pub struct Signup<"));
    }
}
