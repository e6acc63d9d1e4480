//! The document as FastAPI writes it: one rule, applied once to the assembled document, for the
//! order of every object's keys and for nulls.
//!
//! FastAPI builds its document as Python dicts and dumps them through its pydantic models of
//! OpenAPI (`fastapi.openapi.models`) with `exclude_none=True`. The dump decides the layout, and
//! this module writes it the same way (measured: tests/fastapi/document_observed.json).
//!
//! Rules enforced here:
//! - every member whose value is null is dropped, at any depth, examples and defaults included
//!   (`exclude_none`): an optional field has no `default: null`; an array's null items stay;
//! - an object's keys are in the order of the model FastAPI dumps it through: the model's fields
//!   in declaration order, then any other key as it came (extensions, `x-websocket`);
//! - a path item with an operation that has parameters is not made that model (pydantic's smart
//!   union keeps it a dict, since a parameter's `in` is an enum, which strict validation
//!   refuses): its objects keep the order FastAPI builds them in (`parameters` after
//!   `security`, `required` before `content`), and its JSON Schemas pydantic's own order
//!   (`type` before `items`, `default` before `title`, bounds as written);
//! - every other JSON Schema is dumped through FastAPI's `Schema` model: `items` before `type`,
//!   `title` before `default`, and its numeric bounds (`minimum`, `multipleOf`, ...) floats, as
//!   the model declares them (`minimum: 1.0` for `#[ge(1)]`).

use serde_json::{Map, Value};

/// The top-level document (`OpenAPI`).
const DOCUMENT: &[&str] = &[
    "openapi",
    "info",
    "jsonSchemaDialect",
    "servers",
    "paths",
    "webhooks",
    "components",
    "security",
    "tags",
    "externalDocs",
];
const INFO: &[&str] = &[
    "title",
    "summary",
    "description",
    "termsOfService",
    "contact",
    "license",
    "version",
];
const COMPONENTS: &[&str] = &[
    "schemas",
    "responses",
    "parameters",
    "examples",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "callbacks",
    "pathItems",
];
const TAG: &[&str] = &["name", "description", "externalDocs"];
const EXTERNAL_DOCS: &[&str] = &["description", "url"];
/// The security scheme models (`APIKey`, `HTTPBase`, `HTTPBearer`, `OAuth2`, `OpenIdConnect`):
/// `SecurityBase`'s fields, then each one's own.
const SECURITY_SCHEME: &[&str] = &[
    "type",
    "description",
    "in",
    "name",
    "scheme",
    "bearerFormat",
    "flows",
    "openIdConnectUrl",
];
const OAUTH_FLOWS: &[&str] = &["implicit", "password", "clientCredentials", "authorizationCode"];
const OAUTH_FLOW: &[&str] = &["refreshUrl", "scopes", "authorizationUrl", "tokenUrl"];
const PATH_ITEM: &[&str] = &[
    "$ref",
    "summary",
    "description",
    "get",
    "put",
    "post",
    "delete",
    "options",
    "head",
    "patch",
    "trace",
    "servers",
    "parameters",
];
const OPERATION: &[&str] = &[
    "tags",
    "summary",
    "description",
    "externalDocs",
    "operationId",
    "parameters",
    "requestBody",
    "responses",
    "callbacks",
    "deprecated",
    "security",
    "servers",
];
/// The order FastAPI builds an operation in (`get_openapi_path`), kept in a path item that stays
/// a dict.
const OPERATION_BUILT: &[&str] = &[
    "tags",
    "summary",
    "description",
    "operationId",
    "deprecated",
    "security",
    "parameters",
    "requestBody",
    "callbacks",
    "responses",
];
/// The order FastAPI builds a parameter in (`_get_openapi_operation_parameters`).
const PARAMETER_BUILT: &[&str] = &[
    "name",
    "in",
    "required",
    "schema",
    "description",
    "examples",
    "example",
    "deprecated",
];
const REQUEST_BODY: &[&str] = &["description", "content", "required"];
const REQUEST_BODY_BUILT: &[&str] = &["required", "content"];
const MEDIA_TYPE: &[&str] = &["schema", "example", "examples", "encoding"];
const RESPONSE: &[&str] = &["description", "headers", "content", "links"];
/// FastAPI's `Schema` model, its fields in declaration order.
const SCHEMA: &[&str] = &[
    "$schema",
    "$vocabulary",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$ref",
    "$dynamicRef",
    "$defs",
    "$comment",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "discriminator",
    "xml",
    "externalDocs",
    "example",
];
/// The order pydantic builds a JSON Schema in (`GenerateJsonSchema`: the type's keywords, its
/// constraints in pydantic's mapping order, then what the field adds), kept in a path item that
/// stays a dict.
const SCHEMA_BUILT: &[&str] = &[
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "type",
    "format",
    "enum",
    "const",
    "items",
    "properties",
    "additionalProperties",
    "required",
    "multipleOf",
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "contentMediaType",
    "discriminator",
    "examples",
    "default",
    "title",
    "description",
];
const DISCRIMINATOR: &[&str] = &["propertyName", "mapping"];
/// The keywords FastAPI's `Schema` model declares `float`.
const FLOAT_KEYWORDS: &[&str] = &[
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
];
/// Keywords whose value is a schema, a list of schemas, or a map of schemas.
const SUBSCHEMA: &[&str] = &[
    "not",
    "if",
    "then",
    "else",
    "items",
    "contains",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];
const SUBSCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
const SUBSCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "$defs", "dependentSchemas"];

/// How a part of the document is written: dumped through FastAPI's models, or kept as FastAPI
/// built it (a path item with parameters).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dump {
    Model,
    Built,
}

/// Lay `document` out as FastAPI writes it (see the module's rules).
pub(crate) fn fastapi_layout(document: &mut Value) {
    drop_nulls(document);
    order(document, DOCUMENT);
    let Value::Object(doc) = document else { return };
    if let Some(info) = doc.get_mut("info") {
        order(info, INFO);
    }
    if let Some(Value::Object(paths)) = doc.get_mut("paths") {
        paths.values_mut().for_each(path_item);
    }
    if let Some(components) = doc.get_mut("components") {
        order(components, COMPONENTS);
        if let Some(Value::Object(schemas)) = components.get_mut("schemas") {
            schemas.values_mut().for_each(|s| schema(s, Dump::Model));
        }
        if let Some(Value::Object(schemes)) = components.get_mut("securitySchemes") {
            schemes.values_mut().for_each(security_scheme);
        }
    }
    if let Some(Value::Array(tags)) = doc.get_mut("tags") {
        for tag in tags {
            order(tag, TAG);
            if let Some(docs) = tag.get_mut("externalDocs") {
                order(docs, EXTERNAL_DOCS);
            }
        }
    }
}

/// Drop every object member whose value is null, at any depth.
fn drop_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(drop_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// Sort `value`'s keys (an object's) by their place in `fields`; keys not in it keep their order,
/// after those that are.
fn order(value: &mut Value, fields: &[&str]) {
    if let Value::Object(map) = value {
        order_map(map, fields);
    }
}

fn order_map(map: &mut Map<String, Value>, fields: &[&str]) {
    let rank = |key: &str| fields.iter().position(|f| *f == key).unwrap_or(fields.len());
    let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
    // Stable: unknown keys (ranked last) keep the order they came in.
    entries.sort_by_key(|(key, _)| rank(key));
    map.extend(entries);
}

fn path_item(item: &mut Value) {
    let Value::Object(map) = item else { return };
    let has_parameters = map.values().any(|op| {
        op.get("parameters")
            .and_then(Value::as_array)
            .is_some_and(|p| !p.is_empty())
    });
    let dump = if has_parameters { Dump::Built } else { Dump::Model };
    if dump == Dump::Model {
        order_map(map, PATH_ITEM);
    }
    for operation in map.values_mut() {
        operation_object(operation, dump);
    }
}

fn operation_object(operation: &mut Value, dump: Dump) {
    order(
        operation,
        if dump == Dump::Model {
            OPERATION
        } else {
            OPERATION_BUILT
        },
    );
    if let Some(Value::Array(parameters)) = operation.get_mut("parameters") {
        for parameter in parameters {
            order(parameter, PARAMETER_BUILT);
            if let Some(s) = parameter.get_mut("schema") {
                schema(s, dump);
            }
        }
    }
    if let Some(body) = operation.get_mut("requestBody") {
        order(
            body,
            if dump == Dump::Model {
                REQUEST_BODY
            } else {
                REQUEST_BODY_BUILT
            },
        );
        content(body, dump);
    }
    if let Some(Value::Object(responses)) = operation.get_mut("responses") {
        for response in responses.values_mut() {
            order(response, RESPONSE);
            content(response, dump);
        }
    }
}

/// The media types of a request body or a response, and their schemas. A stream's item schema
/// (`x-itemSchema`) is an extension, kept as it was built: FastAPI writes its `itemSchema` as
/// built too (`type`, `properties`, `required`; `minimum: 0`), not through its `Schema` model.
fn content(holder: &mut Value, dump: Dump) {
    if let Some(Value::Object(media_types)) = holder.get_mut("content") {
        for media in media_types.values_mut() {
            order(media, MEDIA_TYPE);
            if let Some(s) = media.get_mut("schema") {
                schema(s, dump);
            }
        }
    }
}

/// A JSON Schema and the schemas in it.
fn schema(value: &mut Value, dump: Dump) {
    let Value::Object(map) = value else { return };
    match dump {
        Dump::Model => {
            order_map(map, SCHEMA);
            for key in FLOAT_KEYWORDS {
                if let Some(bound) = map.get_mut(*key) {
                    if let Some(float) = bound.as_f64().filter(|_| !bound.is_f64()) {
                        *bound = Value::from(float);
                    }
                }
            }
        }
        Dump::Built => order_map(map, SCHEMA_BUILT),
    }
    if let Some(discriminator) = map.get_mut("discriminator") {
        order(discriminator, DISCRIMINATOR);
    }
    for (key, sub) in map.iter_mut() {
        let key = key.as_str();
        if SUBSCHEMA.contains(&key) {
            schema(sub, dump);
        } else if SUBSCHEMA_LISTS.contains(&key) {
            if let Value::Array(items) = sub {
                items.iter_mut().for_each(|s| schema(s, dump));
            }
        } else if SUBSCHEMA_MAPS.contains(&key) {
            if let Value::Object(entries) = sub {
                entries.values_mut().for_each(|s| schema(s, dump));
            }
        }
    }
}

fn security_scheme(scheme: &mut Value) {
    order(scheme, SECURITY_SCHEME);
    if let Some(flows) = scheme.get_mut("flows") {
        order(flows, OAUTH_FLOWS);
        if let Value::Object(flows) = flows {
            for flow in flows.values_mut() {
                order(flow, OAUTH_FLOW);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn laid_out(mut document: Value) -> String {
        fastapi_layout(&mut document);
        document.to_string()
    }

    #[test]
    fn a_schema_dumped_through_the_model_has_its_order_and_float_bounds() {
        let document = json!({
            "components": { "schemas": { "Item": {
                "properties": {
                    "tags": { "type": "array", "items": { "type": "string" }, "default": [], "title": "Tags" },
                    "n": { "type": "integer", "minimum": 1, "maximum": 9, "default": null, "title": "N" }
                },
                "type": "object", "title": "Item"
            } } },
            "info": { "version": "1", "title": "T" },
            "openapi": "3.1.0"
        });
        assert_eq!(
            laid_out(document),
            concat!(
                r#"{"openapi":"3.1.0","info":{"title":"T","version":"1"},"components":{"schemas":{"Item":{"properties":{"#,
                r#""tags":{"items":{"type":"string"},"type":"array","title":"Tags","default":[]},"#,
                r#""n":{"type":"integer","maximum":9.0,"minimum":1.0,"title":"N"}},"type":"object","title":"Item"}}}}"#
            )
        );
    }

    #[test]
    fn a_path_item_with_parameters_keeps_the_order_fastapi_built_it_in() {
        let operation = |parameters: Value| {
            json!({ "responses": {}, "parameters": parameters, "security": [], "operationId": "x",
                    "requestBody": { "content": {}, "required": true }, "deprecated": true })
        };
        let document = json!({ "paths": {
            "/a": { "get": operation(json!([{ "schema": { "title": "Q", "default": 1, "maximum": 9, "type": "integer" },
                                              "required": false, "in": "query", "name": "q" }])) },
            "/b": { "post": operation(json!([])), "get": operation(json!([])) }
        } });
        assert_eq!(
            laid_out(document),
            concat!(
                r#"{"paths":{"/a":{"get":{"operationId":"x","deprecated":true,"security":[],"parameters":[{"name":"q","in":"query","required":false,"#,
                r#""schema":{"type":"integer","maximum":9,"default":1,"title":"Q"}}],"requestBody":{"required":true,"content":{}},"responses":{}}},"#,
                r#""/b":{"get":{"operationId":"x","parameters":[],"requestBody":{"content":{},"required":true},"responses":{},"deprecated":true,"security":[]},"#,
                r#""post":{"operationId":"x","parameters":[],"requestBody":{"content":{},"required":true},"responses":{},"deprecated":true,"security":[]}}}}"#
            )
        );
    }

    #[test]
    fn nulls_are_dropped_everywhere_but_in_arrays() {
        assert_eq!(
            laid_out(json!({ "a": null, "b": { "examples": [{ "x": null, "y": 1 }, null] } })),
            r#"{"b":{"examples":[{"y":1},null]}}"#
        );
    }
}
