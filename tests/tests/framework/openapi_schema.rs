//! Schema generation of `#[derive(Model)]` and `#[derive(StrEnum)]` for every supported field
//! shape, and the operation layout of the route macros, each compared with what FastAPI and
//! pydantic v2 write for the same declaration (`tests/fastapi/reference_app.py` and friends).

use std::collections::{BTreeMap, HashMap};

use ferrapi::prelude::*;
use ferrapi::schema::{JsonSchema, SchemaRegistry};
use serde::Serialize;
use serde_json::Map;

/// A string enumeration.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Buying.
    Buy,
    /// Selling.
    #[value("sell-now")]
    SellNow,
}

/// No doc comment on the fields.
#[derive(Model, Serialize)]
pub struct Leaf {
    pub label: String,
}

/// Every field shape a model supports.
///
/// A second paragraph.
#[derive(Model, Serialize)]
pub struct Shapes {
    /// A required string.
    pub name: String,
    pub int8: i8,
    pub int32: i32,
    pub int64: i64,
    pub unsigned: u64,
    pub float32: f32,
    pub float64: f64,
    pub flag: bool,
    pub maybe: Option<String>,
    pub list: Vec<i64>,
    pub nested_list: Vec<Vec<String>>,
    pub hash_map: HashMap<String, f64>,
    pub tree_map: BTreeMap<String, Vec<bool>>,
    pub any: Value,
    pub object: Map<String, Value>,
    /// A nested model.
    pub leaf: Leaf,
    pub maybe_leaf: Option<Leaf>,
    pub leaves: Vec<Leaf>,
    pub leaf_map: BTreeMap<String, Leaf>,
    pub side: Side,
    pub maybe_side: Option<Side>,
    #[default(Side::Buy)]
    pub default_side: Side,
    #[serde(rename = "renamedKey")]
    pub renamed: i64,
    #[default(3)]
    #[ge(1)]
    #[le(10)]
    pub bounded: u8,
    #[min_length(1)]
    #[max_length(5)]
    pub short: Option<String>,
    #[default(vec!["a".to_owned()])]
    pub tags: Vec<String>,
}

/// A model referring to itself through a list.
#[derive(Model, Serialize)]
pub struct Tree {
    pub children: Vec<Tree>,
}

fn components<T: JsonSchema>() -> (Value, Map<String, Value>) {
    let mut registry = SchemaRegistry::new();
    let reference = T::schema(&mut registry);
    (reference, registry.into_components())
}

#[test]
fn a_model_is_a_component_with_pydantic_layout() {
    let (reference, components) = components::<Shapes>();
    assert_eq!(reference, json!({"$ref": "#/components/schemas/Shapes"}));
    let shapes = &components["Shapes"];
    let properties = &shapes["properties"];
    let expect = |key: &str, schema: Value| {
        assert_eq!(properties[key], schema, "property `{key}`");
    };
    expect(
        "name",
        json!({"type": "string", "title": "Name", "description": "A required string."}),
    );
    expect(
        "int8",
        json!({"type": "integer", "format": "int8", "title": "Int8"}),
    );
    expect(
        "int32",
        json!({"type": "integer", "format": "int32", "title": "Int32"}),
    );
    expect(
        "int64",
        json!({"type": "integer", "format": "int64", "title": "Int64"}),
    );
    expect(
        "unsigned",
        json!({"type": "integer", "format": "uint64", "title": "Unsigned"}),
    );
    expect("float32", json!({"type": "number", "title": "Float32"}));
    expect("float64", json!({"type": "number", "title": "Float64"}));
    expect("flag", json!({"type": "boolean", "title": "Flag"}));
    expect(
        "maybe",
        json!({"anyOf": [{"type": "string"}, {"type": "null"}], "title": "Maybe"}),
    );
    expect(
        "list",
        json!({"type": "array", "items": {"type": "integer", "format": "int64"}, "title": "List"}),
    );
    expect(
        "nested_list",
        json!({"type": "array", "items": {"type": "array", "items": {"type": "string"}}, "title": "Nested List"}),
    );
    expect(
        "hash_map",
        json!({"additionalProperties": {"type": "number"}, "type": "object", "title": "Hash Map"}),
    );
    expect(
        "tree_map",
        json!({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "boolean"}}, "title": "Tree Map"}),
    );
    expect("any", json!({"title": "Any"}));
    expect(
        "object",
        json!({"type": "object", "additionalProperties": true, "title": "Object"}),
    );
    // A required nested model is a bare `$ref` (pydantic sets no title on references).
    expect(
        "leaf",
        json!({"$ref": "#/components/schemas/Leaf", "description": "A nested model."}),
    );
    expect(
        "maybe_leaf",
        json!({"anyOf": [{"$ref": "#/components/schemas/Leaf"}, {"type": "null"}]}),
    );
    expect(
        "leaves",
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Leaf"}, "title": "Leaves"}),
    );
    expect(
        "leaf_map",
        json!({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Leaf"}, "title": "Leaf Map"}),
    );
    expect("side", json!({"$ref": "#/components/schemas/Side"}));
    expect(
        "maybe_side",
        json!({"anyOf": [{"$ref": "#/components/schemas/Side"}, {"type": "null"}]}),
    );
    expect(
        "default_side",
        json!({"$ref": "#/components/schemas/Side", "default": "buy"}),
    );
    expect(
        "renamedKey",
        json!({"type": "integer", "format": "int64", "title": "Renamedkey"}),
    );
    assert!(properties.get("renamed").is_none(), "the Rust name is not a key");
    expect(
        "bounded",
        json!({"type": "integer", "format": "uint8", "minimum": 1, "maximum": 10, "default": 3, "title": "Bounded"}),
    );
    expect(
        "short",
        json!({"anyOf": [{"type": "string", "minLength": 1, "maxLength": 5}, {"type": "null"}], "title": "Short"}),
    );
    expect(
        "tags",
        json!({"type": "array", "items": {"type": "string"}, "default": ["a"], "title": "Tags"}),
    );
    // Fields with a natural absence (Option) or a default are not required.
    assert_eq!(
        shapes["required"],
        json!([
            "name",
            "int8",
            "int32",
            "int64",
            "unsigned",
            "float32",
            "float64",
            "flag",
            "list",
            "nested_list",
            "hash_map",
            "tree_map",
            "any",
            "object",
            "leaf",
            "leaves",
            "leaf_map",
            "side",
            "renamedKey"
        ])
    );
    assert_eq!(shapes["type"], "object");
    assert_eq!(shapes["title"], "Shapes");
    assert_eq!(
        shapes["description"],
        "Every field shape a model supports.\n\nA second paragraph."
    );
    // The key order of pydantic's output.
    let keys: Vec<&str> = shapes
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(keys, ["properties", "type", "required", "title", "description"]);
    // Referenced types are registered too.
    assert_eq!(
        components["Leaf"],
        json!({
            "properties": {"label": {"type": "string", "title": "Label"}},
            "type": "object",
            "required": ["label"],
            "title": "Leaf",
            "description": "No doc comment on the fields."
        })
    );
    assert_eq!(
        components["Side"],
        json!({"type": "string", "enum": ["buy", "sell-now"], "title": "Side", "description": "A string enumeration."})
    );
}

#[test]
fn a_recursive_model_refers_to_itself() {
    let (_, components) = components::<Tree>();
    assert_eq!(
        components["Tree"]["properties"]["children"]["items"],
        json!({"$ref": "#/components/schemas/Tree"})
    );
}

#[test]
fn option_vec_and_maps_of_models() {
    assert_eq!(
        components::<Option<Leaf>>().0,
        json!({"anyOf": [{"$ref": "#/components/schemas/Leaf"}, {"type": "null"}]})
    );
    assert_eq!(
        components::<Vec<Side>>().0,
        json!({"type": "array", "items": {"$ref": "#/components/schemas/Side"}})
    );
    assert_eq!(
        components::<HashMap<String, Leaf>>().0,
        json!({"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Leaf"}})
    );
}

// ---- operations

/// Read one thing.
///
/// With a longer description
/// over two lines.
#[get("/thing/:thing_id", tags("things", "reads"), responses(404 = "No such thing"))]
async fn read_thing(thing_id: i64, side: Option<Side>, #[default(Side::SellNow)] other: Side) -> Json<Leaf> {
    let _ = (thing_id, side, other);
    Json(Leaf { label: "x".into() })
}

#[post("/things/", status = 201)]
async fn create_thing(body: Shapes) -> Json<Vec<Leaf>> {
    let _ = body;
    Json(Vec::new())
}

#[get("/page")]
async fn page() -> Html<String> {
    Html("<h1>page</h1>".into())
}

#[get("/text")]
async fn text() -> Result<String, HttpError> {
    Ok("text".into())
}

#[get("/state")]
async fn no_input(headers: HeaderMap) -> Json<Value> {
    Json(json!({"n": headers.len()}))
}

#[get("/secret", include_in_schema = false)]
async fn secret() -> &'static str {
    "secret"
}

#[get("/thing/{other_name}")]
async fn shadowed(other_name: String) -> String {
    other_name
}

mod v2 {
    use ferrapi::prelude::*;

    /// The same `operationId` as `/page`'s, given explicitly.
    #[get("/v2/page", operation_id = "page_page_get")]
    pub async fn page() -> &'static str {
        "v2"
    }
}

fn document() -> Value {
    let service = App::new()
        .title("shapes")
        .version("2.0.0")
        .description("Every shape.")
        .routes(ferrapi::routes![
            read_thing,
            create_thing,
            page,
            text,
            no_input,
            secret,
            shadowed,
            v2::page
        ])
        .build()
        .expect("the app builds");
    serde_json::from_slice(service.openapi_json()).expect("JSON")
}

#[test]
fn info_is_configurable() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(
        doc["info"],
        json!({"title": "shapes", "description": "Every shape.", "version": "2.0.0"})
    );
    let defaults: Value =
        serde_json::from_slice(ferrapi::app_info!().build().expect("builds").openapi_json()).expect("JSON");
    assert_eq!(
        defaults["info"],
        json!({"title": "ferrapi-tests", "version": env!("CARGO_PKG_VERSION")})
    );
    assert!(
        defaults.get("components").is_none(),
        "no components without schemas"
    );
}

#[test]
fn only_served_documented_routes_appear_with_brace_paths() {
    let doc = document();
    let paths: Vec<&str> = doc["paths"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    // `:thing_id` is written `{thing_id}`; the trailing slash of `/things/` is kept; `/secret`
    // opted out; the second `GET /thing/{..}` is shadowed by the first and left out.
    assert_eq!(
        paths,
        [
            "/thing/{thing_id}",
            "/things/",
            "/page",
            "/text",
            "/state",
            "/v2/page"
        ]
    );
    assert_eq!(
        doc["paths"]["/thing/{thing_id}"].as_object().map(Map::len),
        Some(1)
    );
}

#[test]
fn an_operation_has_fastapis_fields_in_fastapis_order() {
    let doc = document();
    let op = &doc["paths"]["/thing/{thing_id}"]["get"];
    let keys: Vec<&str> = op
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "tags",
            "summary",
            "description",
            "operationId",
            "parameters",
            "responses"
        ]
    );
    assert_eq!(op["tags"], json!(["things", "reads"]));
    assert_eq!(op["summary"], "Read one thing.");
    assert_eq!(op["description"], "With a longer description\nover two lines.");
    assert_eq!(op["operationId"], "read_thing_thing__thing_id__get");
    assert_eq!(
        op["parameters"],
        json!([
            {"name": "thing_id", "in": "path", "required": true,
             "schema": {"type": "integer", "format": "int64", "title": "Thing Id"}},
            {"name": "side", "in": "query", "required": false,
             "schema": {"anyOf": [{"$ref": "#/components/schemas/Side"}, {"type": "null"}], "title": "Side"}},
            {"name": "other", "in": "query", "required": false,
             "schema": {"$ref": "#/components/schemas/Side", "default": "sell-now"}}
        ])
    );
    assert_eq!(
        op["responses"],
        json!({
            "200": {"description": "Successful Response",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Leaf"}}}},
            "404": {"description": "No such thing"},
            "422": {"description": "Validation Error",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/HTTPValidationError"}}}}
        })
    );
}

#[test]
fn a_body_route_has_a_required_json_request_body() {
    let doc = document();
    let op = &doc["paths"]["/things/"]["post"];
    assert_eq!(
        op["summary"], "Create Thing",
        "no doc comment: the name in Title Case"
    );
    assert_eq!(
        op["requestBody"],
        json!({"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Shapes"}}}})
    );
    assert_eq!(
        op["responses"]["201"],
        json!({"description": "Successful Response",
               "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Leaf"}}}}})
    );
    assert!(op["responses"].get("200").is_none());
    assert!(op["responses"].get("422").is_some());
}

#[test]
fn html_and_text_routes_have_their_media_types_and_no_422() {
    let doc = document();
    assert_eq!(
        doc["paths"]["/page"]["get"]["responses"],
        json!({"200": {"description": "Successful Response", "content": {"text/html": {"schema": {"type": "string"}}}}})
    );
    assert_eq!(
        doc["paths"]["/text"]["get"]["responses"],
        json!({"200": {"description": "Successful Response", "content": {"text/plain": {"schema": {"type": "string"}}}}})
    );
    // Injected arguments are not parameters, so nothing is validated.
    let state = &doc["paths"]["/state"]["get"];
    assert!(state.get("parameters").is_none());
    assert_eq!(
        state["responses"],
        json!({"200": {"description": "Successful Response", "content": {"application/json": {"schema": {}}}}})
    );
}

#[test]
fn operation_ids_are_unique() {
    let doc = document();
    // FastAPI's: the function's name, the path and the method.
    assert_eq!(doc["paths"]["/page"]["get"]["operationId"], "page_page_get");
    // An id given twice is made unique.
    assert_eq!(doc["paths"]["/v2/page"]["get"]["operationId"], "page_page_get_2");
}

#[test]
fn standard_validation_components_are_fastapis() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["HTTPValidationError"],
        json!({
            "properties": {"detail": {"items": {"$ref": "#/components/schemas/ValidationError"}, "type": "array", "title": "Detail"}},
            "type": "object",
            "title": "HTTPValidationError"
        })
    );
    assert_eq!(
        schemas["ValidationError"]["required"],
        json!(["loc", "msg", "type"])
    );
    let names: Vec<&str> = schemas
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        names,
        ["HTTPValidationError", "Leaf", "Shapes", "Side", "ValidationError"]
    );
}

/// Delete a thing.
#[delete("/thing/{thing_id}", status = 204, responses(404 = "No such thing"))]
async fn delete_thing(thing_id: i64) -> Result<StatusCode, HttpError> {
    let _ = thing_id;
    Ok(StatusCode::NO_CONTENT)
}

#[test]
fn a_204_response_documents_no_content() {
    let service = App::new()
        .routes(ferrapi::routes![delete_thing])
        .build()
        .expect("the app builds");
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    assert_eq!(
        doc["paths"]["/thing/{thing_id}"]["delete"]["responses"]["204"],
        json!({"description": "Successful Response"})
    );
}
