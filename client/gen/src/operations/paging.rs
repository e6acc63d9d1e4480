//! Which operations page, and how: the one place that reads the `x-paging` extension or infers
//! paging from a FastAPI-like list, for the Rust client and the TypeScript table alike.
//!
//! Rules enforced here (the paging contract):
//! - `x-paging: {"style": "offset", "offset": NAME, "limit": NAME}` first: the operation pages
//!   when it is a `GET`, both names are integer query parameters and its `200` JSON answer is an
//!   array; an extension that cannot be used (another style, a name that is no integer query
//!   parameter, another method or answer) leaves the operation unpaged with a warning, and is
//!   never inferred over (the server said how it pages);
//! - without it, a `GET` with integer query parameters `skip` and `limit` (else `offset` and
//!   `limit`) whose `200` `application/json` answer is an array (inline or by `$ref`) pages;
//!   anything short of that is simply not paged;
//! - the page size is the limit's `maximum`, else its `default`, else 100; the maximum offset the
//!   offset's `maximum`, when it has one.

use std::borrow::Cow;

use serde_json::Value;

use crate::document::model::Parameter;
use crate::document::schema::{Schema, SchemaObject, Type, Types};
use crate::document::{child, Document, GenError};

use super::params::declared;
use super::Found;

/// The page size when the limit parameter has neither a `maximum` nor a `default`.
pub const DEFAULT_PAGE_SIZE: u64 = 100;

/// Where the page size comes from (the generated documentation says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageSizeFrom {
    /// The limit parameter's `maximum`.
    Maximum,
    /// The limit parameter's `default`.
    Default,
    /// Neither: [`DEFAULT_PAGE_SIZE`].
    Fallback,
}

/// How an operation pages.
#[derive(Clone, Debug, PartialEq)]
pub struct Paging {
    /// The offset parameter's name (`skip`, `offset`).
    pub offset: String,
    /// The limit parameter's name.
    pub limit: String,
    /// The limit asked when the caller sets none.
    pub page_size: u64,
    /// Where [`Paging::page_size`] comes from.
    pub page_size_from: PageSizeFrom,
    /// The largest offset the server serves, when the document says one.
    pub max_offset: Option<u64>,
    /// The schema of one item of the answer's array.
    pub item: Schema,
    /// The item schema's pointer.
    pub item_pointer: String,
    /// Said by `x-paging` (else inferred).
    pub declared: bool,
}

/// The parameter names that page, in the order inference tries them.
const INFERRED: &[(&str, &str)] = &[("skip", "limit"), ("offset", "limit")];

/// How the operation `found` pages, if it does; what an `x-paging` it cannot use says is pushed
/// on `warnings`.
pub(super) fn detect(
    document: &Document<'_>,
    found: &Found<'_>,
    warnings: &mut Vec<GenError>,
) -> Result<Option<Paging>, GenError> {
    let pointer = child(&found.pointer, "x-paging");
    let params = declared(document, found)?;
    let query = |name: &str| {
        params.iter().find(|(param, _)| {
            param.name.as_deref() == Some(name) && param.location.as_deref() == Some("query")
        })
    };
    let Some(extension) = &found.operation.paging else {
        if found.method != "GET" {
            return Ok(None);
        }
        let Some((offset, limit)) = INFERRED
            .iter()
            .find_map(|(offset, limit)| Some((query(offset)?, query(limit)?)))
        else {
            return Ok(None);
        };
        return paging(document, found, offset, limit, false);
    };
    let mut warn = |why: String| {
        warnings.push(GenError::at(
            &pointer,
            format!("{why}: the operation is not paged"),
        ));
        Ok(None)
    };
    let (offset, limit) = match names(extension) {
        Ok(names) => names,
        Err(why) => return warn(why),
    };
    if found.method != "GET" {
        return warn(format!("only a GET pages (this is a {})", found.method));
    }
    let (Some(offset), Some(limit)) = (query(&offset), query(&limit)) else {
        return warn(format!("`{offset}` and `{limit}` must both be query parameters"));
    };
    match paging(document, found, offset, limit, true)? {
        Some(paging) => Ok(Some(paging)),
        None => warn(format!(
            "`{}` and `{}` must be integers and the 200 answer a JSON array",
            offset.0.name.as_deref().unwrap_or_default(),
            limit.0.name.as_deref().unwrap_or_default()
        )),
    }
}

/// The offset and limit parameters' names an `x-paging` gives, or why it cannot be used.
fn names(extension: &Value) -> Result<(String, String), String> {
    let Some(object) = extension.as_object() else {
        return Err("`x-paging` must be an object".to_owned());
    };
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    match text("style") {
        Some("offset") => {}
        Some(style) => return Err(format!("the paging style `{style}` is not known (only `offset`)")),
        None => return Err("`x-paging` has no `style`".to_owned()),
    }
    match (text("offset"), text("limit")) {
        (Some(offset), Some(limit)) => Ok((offset.to_owned(), limit.to_owned())),
        _ => Err("`x-paging` must name its `offset` and `limit` parameters".to_owned()),
    }
}

/// The paging of `found` by the parameters `offset` and `limit`, when both are integers and the
/// `200` answer is a JSON array.
fn paging(
    document: &Document<'_>,
    found: &Found<'_>,
    (offset, offset_pointer): &(Cow<'_, Parameter>, String),
    (limit, limit_pointer): &(Cow<'_, Parameter>, String),
    declared: bool,
) -> Result<Option<Paging>, GenError> {
    let (Some(offset_bounds), Some(limit_bounds)) = (
        integer(document, offset, offset_pointer)?,
        integer(document, limit, limit_pointer)?,
    ) else {
        return Ok(None);
    };
    let Some((item, item_pointer)) = array_item(document, found)? else {
        return Ok(None);
    };
    let (page_size, page_size_from) = match (limit_bounds.maximum, limit_bounds.default) {
        (Some(maximum), _) => (maximum, PageSizeFrom::Maximum),
        (None, Some(default)) => (default, PageSizeFrom::Default),
        (None, None) => (DEFAULT_PAGE_SIZE, PageSizeFrom::Fallback),
    };
    Ok(Some(Paging {
        offset: offset.name.clone().unwrap_or_default(),
        limit: limit.name.clone().unwrap_or_default(),
        page_size,
        page_size_from,
        max_offset: offset_bounds.maximum,
        item,
        item_pointer,
        declared,
    }))
}

/// What an integer parameter's schema says of its values.
#[derive(Clone, Copy)]
struct Bounds {
    /// `maximum`.
    maximum: Option<u64>,
    /// `default`.
    default: Option<u64>,
}

/// An integer parameter's `maximum` and `default` (`None` when it is not an integer): its schema
/// `type: integer`, or `integer` with `null` (a list of types, or `anyOf`/`oneOf` of the two, as
/// pydantic writes an optional one).
fn integer(document: &Document<'_>, param: &Parameter, pointer: &str) -> Result<Option<Bounds>, GenError> {
    let Some(schema) = &param.schema else {
        return Ok(None);
    };
    let (schema, pointer) = document.resolve(schema, &child(pointer, "schema"))?;
    let Some(object) = schema.object() else {
        return Ok(None);
    };
    let default = object.default.as_ref().and_then(count);
    if is_integer(object) {
        let maximum = object.maximum.as_ref().and_then(count);
        return Ok(Some(Bounds { maximum, default }));
    }
    let Some((keyword, members)) = object.union_members() else {
        return Ok(None);
    };
    let keyword_pointer = child(&pointer, keyword);
    let mut integer_member = None;
    for (index, member) in members.iter().enumerate() {
        let (member, _) = document.resolve(member, &child(&keyword_pointer, &index.to_string()))?;
        match member.object() {
            Some(member) if is_integer(member) && integer_member.is_none() => {
                integer_member = Some(member.maximum.as_ref().and_then(count));
            }
            Some(_) if member.is_null() => {}
            _ => return Ok(None),
        }
    }
    Ok(integer_member.map(|maximum| Bounds {
        maximum: maximum.or_else(|| object.maximum.as_ref().and_then(count)),
        default,
    }))
}

/// `type: integer`, or a list of `integer` and `null`.
fn is_integer(object: &SchemaObject) -> bool {
    match &object.types {
        Some(Types::One(Type::Integer)) => true,
        Some(Types::Many(types)) => {
            types.contains(&Type::Integer) && types.iter().all(|t| matches!(t, Type::Integer | Type::Null))
        }
        _ => false,
    }
}

/// A non-negative whole JSON number (`100`, `100.0`) as a count.
fn count(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let float = value.as_f64()?;
        // Exact below 2^53, which any page size or offset is; larger floats are not counts.
        (float >= 0.0 && float.fract() == 0.0 && float < 9_007_199_254_740_992.0).then_some(float as u64)
    })
}

/// The schema (and pointer) of one item of the `200` answer's `application/json` array.
fn array_item(document: &Document<'_>, found: &Found<'_>) -> Result<Option<(Schema, String)>, GenError> {
    let Some(answer) = found.operation.responses.get("200") else {
        return Ok(None);
    };
    let responses = child(&found.pointer, "responses");
    let (answer, answer_pointer) = document.resolve(answer, &child(&responses, "200"))?;
    let Some(media) = answer
        .content
        .as_ref()
        .and_then(|content| content.get("application/json"))
    else {
        return Ok(None);
    };
    let Some(schema) = &media.schema else {
        return Ok(None);
    };
    let media_pointer = child(&child(&answer_pointer, "content"), "application/json");
    let (schema, pointer) = document.resolve(schema, &child(&media_pointer, "schema"))?;
    let Some(object) = schema.object() else {
        return Ok(None);
    };
    let array = matches!(object.types, Some(Types::One(Type::Array)));
    match (&object.items, &object.prefix_items) {
        (Some(item), None) if array => Ok(Some((item.clone(), child(&pointer, "items")))),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::operations::paged_paths;

    /// A document of one `GET /things` with `parameters` and the `200` answer `answer`, and the
    /// components `schemas`; `extension` is its `x-paging`, when not null.
    fn document(parameters: Value, answer: Value, extension: Value, schemas: Value) -> Value {
        let mut operation = json!({
            "parameters": parameters,
            "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": answer}}}}
        });
        if !extension.is_null() {
            operation["x-paging"] = extension;
        }
        json!({
            "openapi": "3.1.0", "info": {"title": "Things", "version": "1"},
            "paths": {"/things": {"get": operation}},
            "components": {"schemas": schemas}
        })
    }

    fn query(name: &str, schema: Value) -> Value {
        json!({"name": name, "in": "query", "required": false, "schema": schema})
    }

    /// FastAPI's `skip: int = Query(0, ge=0, le=max)`.
    fn skip(name: &str, maximum: Option<u64>) -> Value {
        let mut schema = json!({"type": "integer", "minimum": 0, "default": 0});
        if let Some(maximum) = maximum {
            schema["maximum"] = json!(maximum);
        }
        query(name, schema)
    }

    fn things() -> Value {
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Thing"}})
    }

    fn thing() -> Value {
        json!({"Thing": {"type": "object", "properties": {"n": {"type": "integer"}}}})
    }

    /// The paging of the document's one operation, and the warnings.
    fn detected(root: &Value) -> (Option<Paging>, Vec<GenError>) {
        let document = Document::new(root).unwrap();
        let mut warnings = Vec::new();
        let mut paged = paged_paths(&document, &mut warnings).unwrap();
        assert!(paged.len() <= 1);
        (
            paged.pop().map(|(path, paging)| {
                assert_eq!(path, "/things");
                paging
            }),
            warnings,
        )
    }

    #[test]
    fn the_extension_names_the_parameters() {
        let root = document(
            json!([
                skip("from", Some(500)),
                query("size", json!({"type": "integer", "maximum": 50, "default": 10}))
            ]),
            things(),
            json!({"style": "offset", "offset": "from", "limit": "size"}),
            thing(),
        );
        let (paging, warnings) = detected(&root);
        assert_eq!(warnings, []);
        let paging = paging.unwrap();
        assert_eq!(
            (
                paging.offset.as_str(),
                paging.limit.as_str(),
                paging.page_size,
                paging.page_size_from
            ),
            ("from", "size", 50, PageSizeFrom::Maximum)
        );
        assert_eq!((paging.max_offset, paging.declared), (Some(500), true));
        assert_eq!(paging.item.reference(), Some("#/components/schemas/Thing"));
        assert_eq!(
            paging.item_pointer,
            "#/paths/~1things/get/responses/200/content/application~1json/schema/items"
        );
    }

    #[test]
    fn skip_and_limit_or_offset_and_limit_are_inferred() {
        // FastAPI: `skip` at most 10,000, `limit` with a default and no maximum.
        let limit = query("limit", json!({"type": "integer", "default": 20}));
        let root = document(
            json!([skip("skip", Some(10_000)), limit.clone()]),
            things(),
            Value::Null,
            thing(),
        );
        let paging = detected(&root).0.unwrap();
        assert_eq!(
            (
                paging.offset.as_str(),
                paging.page_size,
                paging.page_size_from,
                paging.max_offset,
                paging.declared
            ),
            ("skip", 20, PageSizeFrom::Default, Some(10_000), false)
        );
        // `offset`/`limit`, nothing bounded: pages of 100, no maximum offset.
        let limit = query("limit", json!({"type": "integer"}));
        let root = document(
            json!([skip("offset", None), limit]),
            things(),
            Value::Null,
            thing(),
        );
        let paging = detected(&root).0.unwrap();
        assert_eq!(
            (
                paging.offset.as_str(),
                paging.page_size,
                paging.page_size_from,
                paging.max_offset
            ),
            ("offset", DEFAULT_PAGE_SIZE, PageSizeFrom::Fallback, None)
        );
        // pydantic's optional integer: `anyOf` of an integer (its maximum inside) and null.
        let optional = json!({"anyOf": [{"type": "integer", "maximum": 30}, {"type": "null"}], "default": 5});
        let root = document(
            json!([skip("skip", None), query("limit", optional)]),
            things(),
            Value::Null,
            thing(),
        );
        let paging = detected(&root).0.unwrap();
        assert_eq!(
            (paging.page_size, paging.page_size_from),
            (30, PageSizeFrom::Maximum)
        );
    }

    #[test]
    fn an_array_by_reference_pages() {
        let mut schemas = thing();
        schemas["Things"] = things();
        let root = document(
            json!([
                skip("skip", None),
                query("limit", json!({"type": "integer", "maximum": 100.0}))
            ]),
            json!({"$ref": "#/components/schemas/Things"}),
            Value::Null,
            schemas,
        );
        let paging = detected(&root).0.unwrap();
        assert_eq!(paging.page_size, 100, "a whole float is a count");
        assert_eq!(paging.item_pointer, "#/components/schemas/Things/items");
    }

    #[test]
    fn an_answer_that_is_no_array_does_not_page() {
        let params = json!([skip("skip", None), query("limit", json!({"type": "integer"}))]);
        for answer in [
            json!({"$ref": "#/components/schemas/Thing"}),
            json!({"type": "array", "prefixItems": [{"type": "integer"}]}),
            json!({"type": "object", "properties": {"items": things()}}),
        ] {
            assert_eq!(
                detected(&document(params.clone(), answer, Value::Null, thing())),
                (None, vec![])
            );
        }
        // The same operation as a POST: only a GET pages.
        let mut root = document(params, things(), Value::Null, thing());
        let operation = root["paths"]["/things"]["get"].take();
        root["paths"]["/things"] = json!({"post": operation});
        assert_eq!(detected(&root), (None, vec![]));
    }

    #[test]
    fn parameters_that_are_no_integers_do_not_page() {
        let limit = query("limit", json!({"type": "integer"}));
        for offset in [
            query("skip", json!({"type": "string"})),
            query("skip", json!({"type": "number"})),
            query(
                "skip",
                json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            ),
            json!({"name": "skip", "in": "header", "schema": {"type": "integer"}}),
        ] {
            let root = document(json!([offset, limit.clone()]), things(), Value::Null, thing());
            assert_eq!(detected(&root), (None, vec![]));
        }
        // Only one of the two.
        let root = document(json!([limit]), things(), Value::Null, thing());
        assert_eq!(detected(&root), (None, vec![]));
    }

    #[test]
    fn an_extension_that_cannot_be_used_is_a_warning_and_no_paging() {
        let params = json!([skip("skip", None), query("limit", json!({"type": "integer"}))]);
        let cases = [
            (
                json!({"style": "cursor", "cursor": "next"}),
                "the paging style `cursor` is not known (only `offset`)",
            ),
            (json!("offset"), "`x-paging` must be an object"),
            (
                json!({"style": "offset", "offset": "skip"}),
                "`x-paging` must name its `offset` and `limit` parameters",
            ),
            (
                json!({"style": "offset", "offset": "from", "limit": "limit"}),
                "`from` and `limit` must both be query parameters",
            ),
        ];
        for (extension, why) in cases {
            // `skip` and `limit` would be inferred: the server's word wins, and it is not inferred over.
            let root = document(params.clone(), things(), extension, thing());
            let (paging, warnings) = detected(&root);
            assert_eq!(paging, None);
            assert_eq!(
                warnings,
                [GenError::at(
                    "#/paths/~1things/get/x-paging",
                    format!("{why}: the operation is not paged")
                )]
            );
        }
        let root = document(
            json!([
                query("skip", json!({"type": "string"})),
                query("limit", json!({"type": "integer"}))
            ]),
            things(),
            json!({"style": "offset", "offset": "skip", "limit": "limit"}),
            thing(),
        );
        assert_eq!(
            detected(&root).1[0].message,
            "`skip` and `limit` must be integers and the 200 answer a JSON array: the operation is not paged"
        );
    }

    #[test]
    fn generation_reports_the_warning_and_still_generates() {
        let root = document(
            json!([skip("skip", None), query("limit", json!({"type": "integer"}))]),
            things(),
            json!({"style": "cursor"}),
            thing(),
        );
        let generated = crate::generate_value(&root, &crate::Settings::default()).unwrap();
        assert_eq!(generated.warnings.len(), 1);
        assert!(!generated.code.contains("pub fn pages("));
    }

    #[test]
    fn a_paged_request_has_pages_and_items_that_keep_its_other_parameters() {
        let root = document(
            json!([
                query("name", json!({"type": "string"})),
                skip("skip", Some(10_000)),
                query("limit", json!({"type": "integer", "maximum": 100, "default": 20}))
            ]),
            things(),
            Value::Null,
            thing(),
        );
        let code = crate::generate_value(&root, &crate::Settings::default())
            .unwrap()
            .code;
        for expected in [
            "pub fn pages(self) -> rt::Pages<'a, types::Thing> {",
            "pub fn items(self) -> rt::Items<'a, types::Thing> {",
            "page_size: 100,",
            "max_offset: Some(10000),",
            "name: Clone::clone(&name),",
            "skip: Some(page_offset),",
            "limit: Some(page_limit),",
            "options: Clone::clone(&options),",
            "The server serves no page past offset 10000",
        ] {
            assert!(code.contains(expected), "{expected}\n{code}");
        }
        // An operation that does not page has neither.
        let mut root = root;
        root["paths"]["/things"]["get"]["parameters"] = json!([]);
        let code = crate::generate_value(&root, &crate::Settings::default())
            .unwrap()
            .code;
        assert!(!code.contains("fn pages(") && !code.contains("fn items("));
    }

    #[test]
    fn the_extension_and_inference_generate_the_same_client() {
        // The service's lists are inferred today and will say `x-paging` later: no change.
        let params = json!([
            skip("skip", Some(10_000)),
            query("limit", json!({"type": "integer", "maximum": 100}))
        ]);
        let inferred = document(params.clone(), things(), Value::Null, thing());
        let extension = json!({"style": "offset", "offset": "skip", "limit": "limit"});
        let declared = document(params, things(), extension, thing());
        let code = |root: &Value| {
            crate::generate_value(root, &crate::Settings::default())
                .unwrap()
                .code
        };
        assert!(code(&inferred).contains("pub fn pages("));
        assert_eq!(code(&inferred), code(&declared));
    }

    #[test]
    fn the_typescript_table_of_the_services_shape() {
        // The clinic's lists: `skip` 0..=10,000, `limit` 1..=100 (default 20); a list of visits
        // without a maximum skip, an item read, and a POST beside them.
        let limit = query(
            "limit",
            json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 20}),
        );
        let list = |offset: Value| {
            json!({"parameters": [query("specialty", json!({"type": "string"})), offset, limit.clone()],
                   "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": things()}}}}})
        };
        let root = json!({
            "openapi": "3.1.0", "info": {"title": "Resource API", "version": "0.1.0"},
            "paths": {
                "/doctors": {"get": list(skip("skip", Some(10_000))), "post": {"responses": {"201": {"description": "made"}}}},
                "/doctors/{id}": {"get": {
                    "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}
                }},
                "/odd \"path\"": {"get": list(skip("skip", None))}
            },
            "components": {"schemas": thing()}
        });
        let (table, warnings) = crate::typescript_paging(&root.to_string()).unwrap();
        assert_eq!(warnings, []);
        assert_eq!(
            table,
            "// Generated by ferrapi-client from Resource API 0.1.0: the GET operations that page.\n\
             export const paging = {\n  \
             \"/doctors\": { offset: \"skip\", limit: \"limit\", pageSize: 100, maxOffset: 10000 },\n  \
             \"/odd \\\"path\\\"\": { offset: \"skip\", limit: \"limit\", pageSize: 100, maxOffset: null },\n\
             } as const;\n"
        );
    }
}
