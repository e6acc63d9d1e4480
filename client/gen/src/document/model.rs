//! The OpenAPI 3.1 objects the generator maps, as read: the document, its paths and operations,
//! parameters, bodies, answers and the components they refer to.
//!
//! Rules enforced here: a reference (`$ref`) is kept where it is written and followed by
//! [`Document::resolve`](super::Document::resolve); maps keep the document's order; an object
//! of the wrong JSON type is an error at its pointer.

use indexmap::IndexMap;
use serde_json::Value;

use super::read::Object;
use super::schema::Schema;
use super::GenError;

/// The HTTP methods a path item holds, in the order the generated code lists them.
pub const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// The document's root.
#[derive(Clone, Debug, Default)]
pub struct OpenApi {
    /// `info`.
    pub info: Info,
    /// `paths`: template → path item, in the document's order.
    pub paths: IndexMap<String, PathItem>,
    /// `components`.
    pub components: Components,
}

/// `info`.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// `title`.
    pub title: Option<String>,
    /// `version`.
    pub version: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `x-api-version`: the API version the document describes and the header that names it, as
    /// a ferrapi app with versions writes it; a generated client sends it on every request.
    pub api_version: Option<ApiVersion>,
}

/// `info.x-api-version`: `{"header": "API-Version", "version": "2026-01-15", "released": true}`,
/// with `"deprecated": true` for a deprecated version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApiVersion {
    /// The header a request names its version in (`API-Version`).
    pub header: String,
    /// The version (`2026-01-15`).
    pub version: String,
    /// Whether the version is released (an unreleased one may still change).
    pub released: bool,
    /// Whether the version is deprecated (`"deprecated": true`; absent: not deprecated).
    pub deprecated: bool,
}

/// `components`: the parts a `$ref` may name.
#[derive(Clone, Debug, Default)]
pub struct Components {
    /// `schemas`.
    pub schemas: IndexMap<String, Schema>,
    /// `parameters`.
    pub parameters: IndexMap<String, Parameter>,
    /// `requestBodies`.
    pub request_bodies: IndexMap<String, RequestBody>,
    /// `responses`.
    pub responses: IndexMap<String, Response>,
    /// `pathItems`.
    pub path_items: IndexMap<String, PathItem>,
}

/// A path item.
#[derive(Clone, Debug, Default)]
pub struct PathItem {
    /// `$ref`.
    pub reference: Option<String>,
    /// `parameters`: those of every operation of the path.
    pub parameters: Vec<Parameter>,
    /// Its operations by method (lower case), in [`METHODS`]' order.
    pub operations: Vec<(&'static str, Operation)>,
}

/// An operation.
#[derive(Clone, Debug, Default)]
pub struct Operation {
    /// `operationId`.
    pub operation_id: Option<String>,
    /// `summary`.
    pub summary: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `deprecated`.
    pub deprecated: bool,
    /// `parameters`.
    pub parameters: Vec<Parameter>,
    /// `requestBody`.
    pub request_body: Option<RequestBody>,
    /// `responses`: status → answer, in the document's order.
    pub responses: IndexMap<String, Response>,
    /// `x-paging`: how the operation pages, as written (read by `operations::paging`, which
    /// ignores, with a warning, what it cannot read: an extension never fails a document).
    pub paging: Option<Value>,
}

/// A parameter.
#[derive(Clone, Debug, Default)]
pub struct Parameter {
    /// `$ref`.
    pub reference: Option<String>,
    /// `name`.
    pub name: Option<String>,
    /// `in`.
    pub location: Option<String>,
    /// `required`.
    pub required: bool,
    /// `description`.
    pub description: Option<String>,
    /// `schema`.
    pub schema: Option<Schema>,
}

/// A request body.
#[derive(Clone, Debug, Default)]
pub struct RequestBody {
    /// `$ref`.
    pub reference: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// `content`: media type → its schema, in the document's order.
    pub content: Option<IndexMap<String, MediaType>>,
    /// `required`.
    pub required: bool,
}

/// An answer of one status.
#[derive(Clone, Debug, Default)]
pub struct Response {
    /// `$ref`.
    pub reference: Option<String>,
    /// `description`.
    pub description: Option<String>,
    /// The names of its `headers`.
    pub headers: Vec<String>,
    /// `content`: media type → its schema, in the document's order.
    pub content: Option<IndexMap<String, MediaType>>,
}

/// A media type's object.
#[derive(Clone, Debug, Default)]
pub struct MediaType {
    /// `schema`.
    pub schema: Option<Schema>,
    /// A stream's item schema: OpenAPI 3.2's `itemSchema` (which FastAPI writes in its 3.1
    /// documents), else `x-itemSchema` (the extension ferrapi writes it as, for a 3.1 media type
    /// object admits no other key).
    pub item_schema: Option<Schema>,
    /// The key the item schema was read from (`itemSchema` or `x-itemSchema`), for pointers.
    pub item_key: &'static str,
}

/// The keys a stream's item schema is read from, first found first.
const ITEM_KEYS: [&str; 2] = ["itemSchema", "x-itemSchema"];

impl OpenApi {
    /// The document at `root`, whose `openapi` is already checked.
    pub fn read(root: &Value) -> Result<OpenApi, GenError> {
        let object = Object::new(root, "#", "an OpenAPI document")?;
        Ok(OpenApi {
            info: object.with("info", Info::read)?.unwrap_or_default(),
            paths: object.map("paths", PathItem::read)?.unwrap_or_default(),
            components: object.with("components", Components::read)?.unwrap_or_default(),
        })
    }
}

impl Info {
    fn read(value: &Value, pointer: &str) -> Result<Info, GenError> {
        let object = Object::new(value, pointer, "`info`")?;
        Ok(Info {
            title: object.string("title")?,
            version: object.string("version")?,
            description: object.string("description")?,
            api_version: object.with("x-api-version", ApiVersion::read)?,
        })
    }
}

impl ApiVersion {
    /// Unlike `x-paging`, a version that cannot be read fails the document: a client that
    /// silently sent no version would be served another one.
    fn read(value: &Value, pointer: &str) -> Result<ApiVersion, GenError> {
        let object = Object::new(value, pointer, "`x-api-version`")?;
        let required = |key: &str, found: Option<String>| {
            found.ok_or_else(|| GenError::at(&object.at(key), format!("`x-api-version` needs `{key}`")))
        };
        let header = required("header", object.string("header")?)?;
        let version = required("version", object.string("version")?)?;
        // What the generated code sends as a header: a token for the name (RFC 9110), visible
        // ASCII for the value, so the client's constant header cannot be refused when it is built.
        let token = |c: u8| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c);
        if header.is_empty() || !header.bytes().all(token) {
            return Err(GenError::at(
                &object.at("header"),
                format!("`{header}` is not a header name"),
            ));
        }
        if version.is_empty() || !version.bytes().all(|c| c.is_ascii_graphic()) {
            return Err(GenError::at(
                &object.at("version"),
                format!("`{version}` cannot be sent in a header"),
            ));
        }
        Ok(ApiVersion {
            header,
            version,
            released: object.boolean("released")?.unwrap_or(true),
            deprecated: object.boolean("deprecated")?.unwrap_or(false),
        })
    }
}

impl Components {
    fn read(value: &Value, pointer: &str) -> Result<Components, GenError> {
        let object = Object::new(value, pointer, "`components`")?;
        Ok(Components {
            schemas: object.map("schemas", Schema::read)?.unwrap_or_default(),
            parameters: object.map("parameters", Parameter::read)?.unwrap_or_default(),
            request_bodies: object
                .map("requestBodies", RequestBody::read)?
                .unwrap_or_default(),
            responses: object.map("responses", Response::read)?.unwrap_or_default(),
            path_items: object.map("pathItems", PathItem::read)?.unwrap_or_default(),
        })
    }
}

impl PathItem {
    /// The path item at `pointer`.
    pub fn read(value: &Value, pointer: &str) -> Result<PathItem, GenError> {
        let object = Object::new(value, pointer, "a path item")?;
        let mut operations = Vec::new();
        for method in METHODS {
            if let Some(operation) = object.with(method, Operation::read)? {
                operations.push((*method, operation));
            }
        }
        Ok(PathItem {
            reference: object.string("$ref")?,
            parameters: object.list("parameters", Parameter::read)?.unwrap_or_default(),
            operations,
        })
    }
}

impl Operation {
    fn read(value: &Value, pointer: &str) -> Result<Operation, GenError> {
        let object = Object::new(value, pointer, "an operation")?;
        Ok(Operation {
            operation_id: object.string("operationId")?,
            summary: object.string("summary")?,
            description: object.string("description")?,
            deprecated: object.boolean("deprecated")? == Some(true),
            parameters: object.list("parameters", Parameter::read)?.unwrap_or_default(),
            request_body: object.with("requestBody", RequestBody::read)?,
            responses: object.map("responses", Response::read)?.unwrap_or_default(),
            paging: object.value("x-paging").cloned(),
        })
    }
}

impl Parameter {
    /// The parameter at `pointer`.
    pub fn read(value: &Value, pointer: &str) -> Result<Parameter, GenError> {
        let object = Object::new(value, pointer, "a parameter")?;
        Ok(Parameter {
            reference: object.string("$ref")?,
            name: object.string("name")?,
            location: object.string("in")?,
            required: object.boolean("required")? == Some(true),
            description: object.string("description")?,
            schema: object.with("schema", Schema::read)?,
        })
    }
}

impl RequestBody {
    /// The request body at `pointer`.
    pub fn read(value: &Value, pointer: &str) -> Result<RequestBody, GenError> {
        let object = Object::new(value, pointer, "a request body")?;
        Ok(RequestBody {
            reference: object.string("$ref")?,
            description: object.string("description")?,
            content: object.map("content", MediaType::read)?,
            required: object.boolean("required")? == Some(true),
        })
    }
}

impl Response {
    /// The answer at `pointer`.
    pub fn read(value: &Value, pointer: &str) -> Result<Response, GenError> {
        let object = Object::new(value, pointer, "a response")?;
        Ok(Response {
            reference: object.string("$ref")?,
            description: object.string("description")?,
            headers: object
                .object("headers")?
                .map(|headers| headers.keys().cloned().collect())
                .unwrap_or_default(),
            content: object.map("content", MediaType::read)?,
        })
    }
}

impl MediaType {
    fn read(value: &Value, pointer: &str) -> Result<MediaType, GenError> {
        let object = Object::new(value, pointer, "a media type")?;
        let mut item = None;
        for key in ITEM_KEYS {
            if let Some(schema) = object.with(key, Schema::read)? {
                item = Some((schema, key));
                break;
            }
        }
        Ok(MediaType {
            schema: object.with("schema", Schema::read)?,
            item_key: item.as_ref().map_or(ITEM_KEYS[0], |(_, key)| key),
            item_schema: item.map(|(schema, _)| schema),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_document_is_read_in_its_order() {
        let root = json!({
            "openapi": "3.1.0",
            "info": {"title": "T", "version": "1"},
            "paths": {
                "/b": {"post": {"responses": {"201": {"description": "made"}}}, "get": {"operationId": "x", "deprecated": true}},
                "/a": {"$ref": "#/components/pathItems/A"}
            },
            "components": {"parameters": {"p": {"name": "p", "in": "query", "required": true, "schema": {"type": "string"}}}}
        });
        let api = OpenApi::read(&root).unwrap();
        assert_eq!(api.info.title.as_deref(), Some("T"));
        assert_eq!(api.paths.keys().collect::<Vec<_>>(), ["/b", "/a"]);
        let methods: Vec<&str> = api.paths["/b"].operations.iter().map(|(m, _)| *m).collect();
        assert_eq!(methods, ["get", "post"], "METHODS' order");
        assert!(api.paths["/b"].operations[0].1.deprecated);
        assert_eq!(
            api.paths["/a"].reference.as_deref(),
            Some("#/components/pathItems/A")
        );
        let parameter = &api.components.parameters["p"];
        assert!(parameter.required && parameter.schema.is_some());
    }

    #[test]
    fn a_malformed_part_names_its_pointer() {
        let root = json!({"openapi": "3.1.0", "paths": {"/a": {"get": {"parameters": [{"name": 5}]}}}});
        assert_eq!(
            OpenApi::read(&root).unwrap_err(),
            GenError::at("#/paths/~1a/get/parameters/0/name", "`name` must be a string")
        );
        let root = json!({"openapi": "3.1.0", "paths": {"/a": {"get": []}}});
        assert_eq!(
            OpenApi::read(&root).unwrap_err(),
            GenError::at("#/paths/~1a/get", "an operation must be an object")
        );
    }
}
