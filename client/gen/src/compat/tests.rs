//! One test per breaking kind (each checks the kind, the side and the pointer), one that a set
//! of compatible changes passes, and the blessed documents' rules.

use serde_json::{json, Value};

use super::*;

/// A document with `POST /item/{id}` taking `parameters` and a JSON body of `request`, answering
/// 200 with `response`; `schemas` its components.
fn document(parameters: Value, request: Value, response: Value, schemas: Value) -> Value {
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Items", "version": "1"},
        "paths": {"/item/{id}": {"post": {
            "parameters": parameters,
            "requestBody": {"required": true, "content": {"application/json": {"schema": request}}},
            "responses": {
                "200": {"description": "OK", "content": {"application/json": {"schema": response}}},
                "404": {"description": "Not found"}
            }
        }}},
        "components": {"schemas": schemas}
    })
}

fn id() -> Value {
    json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}])
}

/// A document whose request body and answer are both `schema` (a component, `Item`).
fn both(schema: Value) -> Value {
    let item = json!({"$ref": "#/components/schemas/Item"});
    document(id(), item.clone(), item, json!({"Item": schema}))
}

fn breaks_of(old: &Value, new: &Value) -> Vec<Break> {
    let old = Document::new(old).expect("old");
    let new = Document::new(new).expect("new");
    breaks(&old, &new)
}

/// The one break of `old` → `new`: its kind, side and pointer.
fn one(old: &Value, new: &Value) -> (Kind, Side, String) {
    let found = breaks_of(old, new);
    assert_eq!(found.len(), 1, "{found:#?}");
    (found[0].kind, found[0].side, found[0].pointer.clone())
}

const REQ: &str = "#/paths/~1item~1{id}/post/requestBody/content/application~1json/schema";
const RES: &str = "#/paths/~1item~1{id}/post/responses/200/content/application~1json/schema";
const ITEM: &str = "#/components/schemas/Item";

#[test]
fn an_operation_removed_breaks() {
    let old = both(json!({"type": "object"}));
    let mut new = old.clone();
    new["paths"] = json!({"/other": new["paths"]["/item/{id}"].clone()});
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].to_string(),
        "request of POST /item/{id}: the operation POST /item/{id} is gone (at #/paths/~1item~1{id}/post)"
    );
    assert_eq!(found[0].kind, Kind::OperationRemoved);
}

#[test]
fn a_status_removed_breaks() {
    let old = both(json!({"type": "object"}));
    let mut new = old.clone();
    let responses = &mut new["paths"]["/item/{id}"]["post"]["responses"];
    responses["201"] = responses["200"].clone();
    responses.as_object_mut().expect("responses").shift_remove("200");
    assert_eq!(
        one(&old, &new),
        (
            Kind::StatusRemoved,
            Side::Response,
            "#/paths/~1item~1{id}/post/responses/200".to_owned()
        )
    );
}

#[test]
fn a_parameter_made_required_or_a_new_required_one_breaks() {
    let query = |required: bool| json!({"name": "q", "in": "query", "required": required, "schema": {"type": "string"}});
    let with = |extra: Vec<Value>| {
        let mut parameters = vec![id()[0].clone()];
        parameters.extend(extra);
        document(Value::Array(parameters), json!(true), json!(true), json!({}))
    };
    let pointer = "#/paths/~1item~1{id}/post/parameters/1";
    assert_eq!(
        one(&with(vec![query(false)]), &with(vec![query(true)])),
        (
            Kind::ParameterRequired,
            Side::Request,
            format!("{pointer}/required")
        )
    );
    assert_eq!(
        one(&with(vec![]), &with(vec![query(true)])),
        (Kind::ParameterRequired, Side::Request, pointer.to_owned())
    );
}

#[test]
fn a_body_made_required_breaks() {
    let old = both(json!({"type": "object"}));
    let mut new = old.clone();
    old_body(&mut new)["required"] = json!(true);
    let mut optional = old.clone();
    old_body(&mut optional)["required"] = json!(false);
    assert_eq!(
        one(&optional, &new),
        (
            Kind::BodyRequired,
            Side::Request,
            "#/paths/~1item~1{id}/post/requestBody/required".to_owned()
        )
    );
}

fn old_body(document: &mut Value) -> &mut Value {
    &mut document["paths"]["/item/{id}"]["post"]["requestBody"]
}

#[test]
fn a_request_media_type_removed_or_an_answer_media_type_added_breaks() {
    let old = both(json!({"type": "object"}));
    let mut new = old.clone();
    let content = &mut old_body(&mut new)["content"];
    content["application/x-www-form-urlencoded"] = content["application/json"].clone();
    content
        .as_object_mut()
        .expect("content")
        .shift_remove("application/json");
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].kind, found[0].side),
        (Kind::MediaTypeRemoved, Side::Request)
    );

    let mut new = old.clone();
    let content = &mut new["paths"]["/item/{id}"]["post"]["responses"]["200"]["content"];
    content["text/plain"] = json!({"schema": {"type": "string"}});
    let (kind, side, pointer) = one(&old, &new);
    assert_eq!((kind, side), (Kind::MediaTypeAdded, Side::Response));
    assert!(
        pointer.ends_with("/responses/200/content/text~1plain"),
        "{pointer}"
    );
}

#[test]
fn a_request_type_narrowed_breaks() {
    let old = both(json!({"type": "object", "properties": {"price": {"type": "number"}}}));
    let new = both(json!({"type": "object", "properties": {"price": {"type": "integer"}}}));
    assert_eq!(
        one(&old, &new),
        (
            Kind::TypeNarrowed,
            Side::Request,
            format!("{ITEM}/properties/price/type")
        )
    );
    // `null` no longer accepted (pydantic's `anyOf` of an optional field).
    let old = both(
        json!({"type": "object", "properties": {"note": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}),
    );
    let new = both(json!({"type": "object", "properties": {"note": {"type": "string"}}}));
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].kind, Kind::TypeNarrowed);
    assert!(
        found[0].what.contains("null is no longer accepted"),
        "{}",
        found[0].what
    );
}

#[test]
fn a_response_type_widened_breaks_integer_to_number_and_null_added() {
    let old = both(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
    let new = both(json!({"type": "object", "properties": {"n": {"type": "number"}}}));
    assert_eq!(
        one(&old, &new),
        (
            Kind::TypeWidened,
            Side::Response,
            format!("{ITEM}/properties/n/type")
        )
    );
    let new = both(json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}}));
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].to_string(),
        format!(
            "response of POST /item/{{id}}: the type is wider: null may now be sent (it was integer) \
             (at {ITEM}/properties/n/type)"
        )
    );
}

#[test]
fn a_request_enum_value_removed_breaks() {
    let old = both(json!({"type": "object", "properties": {"size": {"enum": ["S", "M", "L"]}}}));
    let new = both(json!({"type": "object", "properties": {"size": {"enum": ["S", "M"]}}}));
    // The response side narrowed: compatible.
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].kind, found[0].side, found[0].pointer.as_str()),
        (
            Kind::EnumValueRemoved,
            Side::Request,
            format!("{ITEM}/properties/size/enum").as_str()
        )
    );
    assert!(
        found[0].what.contains("\"L\" is no longer accepted"),
        "{}",
        found[0].what
    );
}

#[test]
fn a_response_enum_value_added_breaks() {
    let old = both(json!({"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M"]}}}));
    let new =
        both(json!({"type": "object", "properties": {"size": {"type": "string", "enum": ["S", "M", "XL"]}}}));
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].kind, found[0].side),
        (Kind::EnumValueAdded, Side::Response)
    );
    assert!(
        found[0].what.contains("\"XL\" may now be sent"),
        "{}",
        found[0].what
    );
}

/// Each constraint keyword as (looser, tighter, the keyword that breaks).
fn constraint_cases() -> Vec<(Value, Value, &'static str)> {
    vec![
        (
            json!({"type": "string", "maxLength": 200}),
            json!({"type": "string", "maxLength": 100}),
            "maxLength",
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "minLength": 1}),
            "minLength",
        ),
        (
            json!({"type": "string"}),
            json!({"type": "string", "pattern": "^b"}),
            "pattern",
        ),
        (
            json!({"type": "integer", "maximum": 10}),
            json!({"type": "integer", "maximum": 9}),
            "maximum",
        ),
        (
            json!({"type": "integer", "maximum": 10}),
            json!({"type": "integer", "exclusiveMaximum": 10}),
            "exclusiveMaximum",
        ),
        (
            json!({"type": "number", "minimum": 0}),
            json!({"type": "number", "minimum": 1}),
            "minimum",
        ),
        (
            json!({"type": "number", "minimum": 0}),
            json!({"type": "number", "exclusiveMinimum": 0}),
            "exclusiveMinimum",
        ),
        (
            json!({"type": "number", "multipleOf": 0.5}),
            json!({"type": "number", "multipleOf": 1}),
            "multipleOf",
        ),
        (
            json!({"type": "array", "items": {}}),
            json!({"type": "array", "items": {}, "minItems": 1}),
            "minItems",
        ),
        (
            json!({"type": "array", "maxItems": 5}),
            json!({"type": "array", "maxItems": 4}),
            "maxItems",
        ),
        (
            json!({"type": "array"}),
            json!({"type": "array", "uniqueItems": true}),
            "uniqueItems",
        ),
    ]
}

/// Each constraint keyword: tightened breaks requests (`old` → `new`), loosened breaks
/// responses (`new` → `old`).
#[test]
fn a_constraint_tightened_breaks_requests_and_loosened_breaks_responses() {
    for (loose, tight, keyword) in constraint_cases() {
        let request = |field: Value| {
            document(
                id(),
                json!({"type": "object", "properties": {"f": field}}),
                json!(true),
                json!({}),
            )
        };
        let response = |field: Value| {
            document(
                id(),
                json!(true),
                json!({"type": "object", "properties": {"f": field}}),
                json!({}),
            )
        };
        assert_eq!(
            one(&request(loose.clone()), &request(tight.clone())),
            (
                Kind::ConstraintTightened,
                Side::Request,
                format!("{REQ}/properties/f/{keyword}")
            ),
            "{keyword}"
        );
        let (kind, side, pointer) = one(&response(tight.clone()), &response(loose.clone()));
        assert_eq!(
            (kind, side),
            (Kind::ConstraintLoosened, Side::Response),
            "{keyword}"
        );
        assert!(
            pointer.starts_with(&format!("{RES}/properties/f/")),
            "{keyword}: {pointer}"
        );
        // The other way round, each is compatible.
        assert_eq!(
            breaks_of(&request(tight.clone()), &request(loose.clone())),
            [],
            "{keyword}"
        );
        assert_eq!(breaks_of(&response(loose), &response(tight)), [], "{keyword}");
    }
}

#[test]
fn a_constraint_change_says_both_values() {
    let field = |field: Value| both(json!({"type": "object", "properties": {"f": field}}));
    let found = breaks_of(
        &field(json!({"type": "integer", "maximum": 10})),
        &field(json!({"type": "integer", "exclusiveMaximum": 10})),
    );
    let said: Vec<&str> = found.iter().map(|b| b.what.as_str()).collect();
    assert_eq!(
        said,
        ["the constraint is tighter: maximum 10 → exclusiveMaximum 10"],
        "{found:#?}"
    );
    let found = breaks_of(
        &field(json!({"type": "string", "maxLength": 200})),
        &field(json!({"type": "string"})),
    );
    let said: Vec<&str> = found.iter().map(|b| b.what.as_str()).collect();
    assert_eq!(said, ["the constraint is looser: maxLength 200 → none"]);
}

#[test]
fn a_pattern_changed_at_all_breaks_both_sides() {
    let field = |pattern: &str| json!({"type": "object", "properties": {"f": {"type": "string", "pattern": pattern}}});
    let found = breaks_of(&both(field("^a")), &both(field("^[ab]")));
    let kinds: Vec<(Kind, Side)> = found.iter().map(|b| (b.kind, b.side)).collect();
    assert_eq!(
        kinds,
        [
            (Kind::ConstraintTightened, Side::Request),
            (Kind::ConstraintLoosened, Side::Response)
        ]
    );
    assert!(
        found[0].what.contains("pattern `^a` → `^[ab]`"),
        "{}",
        found[0].what
    );
}

#[test]
fn a_request_field_made_required_or_a_new_required_one_breaks() {
    let old = both(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    let new = both(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}));
    // Made required: the request breaks; the response, which may now count on it, does not.
    assert_eq!(
        one(&old, &new),
        (Kind::PropertyRequired, Side::Request, format!("{ITEM}/required"))
    );
    let new = both(
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["b"]}),
    );
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].what, "field `b` is new and required");
}

#[test]
fn a_response_field_made_optional_or_removed_when_required_breaks() {
    let old = both(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}));
    let new = both(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
    assert_eq!(
        one(&old, &new),
        (
            Kind::PropertyOptional,
            Side::Response,
            format!("{ITEM}/properties/a")
        )
    );
    let new = both(json!({"type": "object", "properties": {}}));
    assert_eq!(
        one(&old, &new),
        (
            Kind::PropertyRemoved,
            Side::Response,
            format!("{ITEM}/properties/a")
        )
    );
}

#[test]
fn a_request_field_removed_breaks_where_no_other_is_allowed() {
    let closed = |properties: Value| {
        both(json!({"type": "object", "properties": properties, "additionalProperties": false}))
    };
    let old = closed(json!({"a": {"type": "string"}, "b": {"type": "string"}}));
    let new = closed(json!({"a": {"type": "string"}}));
    assert_eq!(
        one(&old, &new),
        (
            Kind::PropertyRemoved,
            Side::Request,
            format!("{ITEM}/properties/b")
        )
    );
    // Where other fields are allowed, the old field is still accepted: compatible.
    let open = |properties: Value| both(json!({"type": "object", "properties": properties}));
    assert_eq!(
        breaks_of(&open(json!({"a": {}, "b": {}})), &open(json!({"a": {}}))),
        []
    );
}

#[test]
fn a_ref_that_leads_nowhere_is_reported() {
    let old = both(json!({"type": "object"}));
    let mut new = old.clone();
    new["components"]["schemas"] = json!({});
    let found = breaks_of(&old, &new);
    assert!(!found.is_empty());
    assert!(found.iter().all(|b| b.kind == Kind::Unresolved), "{found:#?}");
}

#[test]
fn recursive_models_end_and_report_once_per_change() {
    let tree = |child: &str| {
        json!({"type": "object", "properties": {
            "name": {"type": child},
            "children": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}
        }, "required": ["name"]})
    };
    let found = breaks_of(&both(tree("integer")), &both(tree("number")));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].pointer, format!("{ITEM}/properties/name/type"));
    assert_eq!(found[0].operations, ["POST /item/{id}"]);
}

/// Everything the table calls compatible, in one new document: nothing breaks.
#[test]
fn compatible_changes_pass() {
    let old = document(
        json!([
            {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
            {"name": "q", "in": "query", "required": true, "schema": {"type": "string", "maxLength": 10}},
            {"name": "X-Token", "in": "header", "required": true, "schema": {"type": "string"}}
        ]),
        json!({"$ref": "#/components/schemas/In"}),
        json!({"$ref": "#/components/schemas/Out"}),
        json!({
            "In": {"type": "object", "properties": {
                "n": {"type": "integer", "maximum": 10},
                "size": {"enum": ["S", "M"]},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "gone": {"type": "string"}
            }, "required": ["n", "gone"]},
            "Out": {"title": "Out", "type": "object", "properties": {
                "n": {"type": "number", "minimum": 0},
                "size": {"type": "string", "enum": ["S", "M", "L"]},
                "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "extra": {"type": "string"}
            }, "required": ["n"]}
        }),
    );
    let mut new = document(
        json!([
            // A path parameter renamed (the wire is the same); header names are case-blind.
            {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
            // A required parameter made optional, its constraint loosened, its type widened.
            {"name": "q", "in": "query", "required": false, "schema": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            {"name": "x-token", "in": "header", "required": true, "schema": {"type": "string"}},
            // A new optional parameter.
            {"name": "page", "in": "query", "required": false, "schema": {"type": "integer"}}
        ]),
        // Request models widened (allOf wrapping a $ref, as pydantic writes it).
        json!({"allOf": [{"$ref": "#/components/schemas/In2"}], "description": "renamed component"}),
        json!({"$ref": "#/components/schemas/Out2"}),
        json!({
            "In2": {"type": "object", "properties": {
                "n": {"type": "number"},
                "size": {"enum": ["S", "M", "L"]},
                "tags": {"type": "array", "items": {"type": ["string", "null"]}},
                "added": {"type": "string"}
            }, "required": ["n"]},
            "Out2": {"title": "Output", "description": "described", "type": "object", "properties": {
                "n": {"type": "integer", "minimum": 1},
                "size": {"type": "string", "enum": ["S"]},
                "note": {"type": "string"},
                "added": {"type": "boolean"}
            }, "required": ["n", "size", "added"]}
        }),
    );
    // A new operation, a new status, a new optional body media type.
    new["paths"]["/new"] = json!({"get": {"responses": {"200": {"description": "OK"}}}});
    let responses = &mut new["paths"]["/item/{id}"]["post"]["responses"];
    responses["422"] = json!({"description": "Invalid"});
    responses["404"]["content"] = json!({"application/json": {"schema": {"type": "object"}}});
    old_body(&mut new)["content"]["multipart/form-data"] = json!({"schema": {"type": "object"}});
    assert_eq!(breaks_of(&old, &new), []);
    // A path parameter renamed: the same wire.
    let mut renamed = old.clone();
    renamed["paths"] = json!({"/item/{item_id}": old["paths"]["/item/{id}"].clone()});
    renamed["paths"]["/item/{item_id}"]["post"]["parameters"][0]["name"] = json!("item_id");
    assert_eq!(breaks_of(&renamed, &new), []);
    // And the same document against itself.
    assert_eq!(breaks_of(&old, &old), []);
}

/// A union of models: each member is compared with its own counterpart, not the first object.
#[test]
fn a_union_of_models_compares_member_with_member() {
    let pets = |dog_name: Value| {
        document(
            id(),
            json!({"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}),
            json!(true),
            json!({
                "Cat": {"type": "object", "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}}},
                "Dog": {"type": "object", "properties": {"kind": {"const": "dog"}, "name": dog_name}}
            }),
        )
    };
    let old = pets(json!({"type": "string"}));
    assert_eq!(breaks_of(&old, &old), []);
    let found = breaks_of(&old, &pets(json!({"type": "string", "maxLength": 5})));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].pointer,
        "#/components/schemas/Dog/properties/name/maxLength"
    );
}

#[test]
fn one_change_reached_from_two_operations_is_one_break() {
    let mut old = both(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
    old["paths"]["/copy"] = json!({"get": old["paths"]["/item/{id}"]["post"].clone()});
    let mut new = both(json!({"type": "object", "properties": {"n": {"type": "number"}}}));
    new["paths"]["/copy"] = json!({"get": new["paths"]["/item/{id}"]["post"].clone()});
    let found = breaks_of(&old, &new);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].operations, ["POST /item/{id}", "GET /copy"]);
}

/// A document answering `GET /feed` with JSON lines and `GET /events` with events, each item
/// of component `Item` (`item`), under `x-itemSchema` as ferrapi writes them.
fn streams(item: Value) -> Value {
    let of_item = json!({"$ref": "#/components/schemas/Item"});
    let answer =
        |content: Value| json!({"get": {"responses": {"200": {"description": "OK", "content": content}}}});
    json!({
        "openapi": "3.1.0",
        "info": {"title": "Feeds", "version": "1"},
        "paths": {
            "/feed": answer(json!({"application/jsonl": {"x-itemSchema": of_item}})),
            "/events": answer(json!({"text/event-stream": {
                "schema": {"type": "string"},
                "x-itemSchema": {"type": "object", "required": ["data"], "properties": {"data": {
                    "type": "string", "contentMediaType": "application/json", "contentSchema": of_item
                }}}
            }})),
        },
        "components": {"schemas": {"Item": item}}
    })
}

/// A streamed item is an answer: one that may now be wider (a new enum value) breaks both the
/// JSON lines' callers and the events' (reached through the data's `contentSchema`), once; one
/// that is narrower passes.
#[test]
fn a_streamed_item_widened_breaks_like_an_answer() {
    let item = |kinds: Value| json!({"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string", "enum": kinds}}});
    let old = streams(item(json!(["a", "b"])));
    let found = breaks_of(&old, &streams(item(json!(["a", "b", "c"]))));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].kind, found[0].side, found[0].pointer.as_str()),
        (
            Kind::EnumValueAdded,
            Side::Response,
            "#/components/schemas/Item/properties/kind/enum"
        )
    );
    assert_eq!(found[0].operations, ["GET /feed", "GET /events"]);
    assert!(breaks_of(&old, &streams(item(json!(["a"])))).is_empty());
}

/// An item schema read under either name (OpenAPI 3.2's `itemSchema`, as FastAPI writes it, or
/// ferrapi's `x-itemSchema`) is compared, the pointer naming the key each document used; an
/// event's data that may now be any JSON (no `contentSchema`) is wider.
#[test]
fn an_item_schema_is_read_under_either_key() {
    let old = streams(json!({"type": "integer"}));
    let mut new = old.clone();
    let feed = &mut new["paths"]["/feed"]["get"]["responses"]["200"]["content"]["application/jsonl"];
    *feed = json!({"itemSchema": {"type": "number"}});
    let events = &mut new["paths"]["/events"]["get"]["responses"]["200"]["content"]["text/event-stream"];
    events["x-itemSchema"]["properties"]["data"]
        .as_object_mut()
        .expect("data")
        .shift_remove("contentSchema");
    let found = breaks_of(&old, &new);
    let pointers: Vec<(Kind, &str)> = found.iter().map(|b| (b.kind, b.pointer.as_str())).collect();
    assert_eq!(
        pointers,
        [
            (
                Kind::TypeWidened,
                "#/paths/~1feed/get/responses/200/content/application~1jsonl/itemSchema/type"
            ),
            (
                Kind::TypeWidened,
                "#/paths/~1events/get/responses/200/content/text~1event-stream/x-itemSchema/properties/data/contentSchema"
            ),
        ],
        "{found:#?}"
    );
}

/// No false break: every document the repository keeps (ferrapi's, FastAPI's), against itself.
#[test]
fn the_repositorys_documents_do_not_break_themselves() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let mut compared = 0;
    for dir in ["tests/snapshots", "client/tests/documents", "service/openapi"] {
        let Ok(entries) = std::fs::read_dir(format!("{root}/{dir}")) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|ext| ext != "json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a document");
            let found = breaks_between(&text, &text).expect("a document");
            assert_eq!(found, [], "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 8, "{compared} documents");
}

#[test]
fn breaks_between_reads_json_text() {
    assert!(breaks_between("{", "{}").is_err());
    let old = both(json!({"type": "object"})).to_string();
    assert_eq!(breaks_between(&old, &old).expect("documents"), []);
}

mod blessed {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ferrapi-compat-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn text(value: &Value) -> String {
        value.to_string()
    }

    #[test]
    fn a_released_version_passes_compatible_changes_and_keeps_its_file() {
        let blessed = Blessed::new(scratch("released"));
        let old = both(json!({"type": "object", "properties": {"a": {"type": "string"}}}));
        let missing = blessed.check_with("2026-01-15", Release::Released, &text(&old), false);
        assert!(
            matches!(missing, Err(SnapshotError::Missing { .. })),
            "{missing:?}"
        );
        let first = blessed.check_with("2026-01-15", Release::Released, &text(&old), true);
        assert_eq!(first.expect("written"), Checked::Written);
        let written = std::fs::read_to_string(blessed.path("2026-01-15")).expect("file");
        assert!(
            written.ends_with("}\n") && written.contains("\n  \"paths\""),
            "{written}"
        );

        let compatible = both(json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {}}}));
        for update in [false, true] {
            let checked = blessed.check_with("2026-01-15", Release::Released, &text(&compatible), update);
            assert_eq!(checked.expect("compatible"), Checked::Compatible);
        }
        assert_eq!(
            std::fs::read_to_string(blessed.path("2026-01-15")).expect("file"),
            written,
            "a released version's file is never rewritten"
        );
        let same = blessed.check_with("2026-01-15", Release::Released, &text(&old), false);
        assert_eq!(same.expect("same"), Checked::Same);
    }

    #[test]
    fn a_released_version_refuses_a_break_and_its_reblessing() {
        let blessed = Blessed::new(scratch("refused"));
        let old =
            both(json!({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}));
        blessed
            .check_with("2026-01-15", Release::Released, &text(&old), true)
            .expect("first blessing");
        let new = both(json!({"type": "object", "properties": {"a": {"type": "number"}}}));
        let error = blessed
            .check_with("2026-01-15", Release::Released, &text(&new), true)
            .expect_err("breaks");
        let message = error.to_string();
        assert!(
            message.contains(&format!("{ITEM}/properties/a/type")),
            "{message}"
        );
        assert!(
            message.contains("field `a` may be missing now (it was required)"),
            "{message}"
        );
        assert!(message.contains("(2 changes)"), "{message}");
        assert!(
            message.contains("re-blessing it is a deliberate hand edit"),
            "{message}"
        );
        let without = blessed
            .check_with("2026-01-15", Release::Released, &text(&new), false)
            .expect_err("breaks")
            .to_string();
        assert!(!without.contains("hand edit"), "{without}");
        let kept: Value =
            serde_json::from_str(&std::fs::read_to_string(blessed.path("2026-01-15")).expect("file"))
                .expect("JSON");
        assert_eq!(kept, old, "refused: the file is as released");
    }

    #[test]
    fn the_unreleased_version_is_a_snapshot_rewritten_on_request() {
        let blessed = Blessed::new(scratch("unreleased"));
        let old = both(json!({"type": "object"}));
        blessed
            .check_with("2026-06-01", Release::Unreleased, &text(&old), true)
            .expect("written");
        // Even a compatible change must be re-blessed: the snapshot shows every change in review.
        let new = both(json!({"type": "object", "properties": {"b": {}}}));
        let changed = blessed.check_with("2026-06-01", Release::Unreleased, &text(&new), false);
        assert!(
            matches!(changed, Err(SnapshotError::Changed { .. })),
            "{changed:?}"
        );
        let rewritten = blessed.check_with("2026-06-01", Release::Unreleased, &text(&new), true);
        assert_eq!(rewritten.expect("rewritten"), Checked::Written);
        let now = blessed.check_with("2026-06-01", Release::Unreleased, &text(&new), false);
        assert_eq!(now.expect("same"), Checked::Same);
    }
}
