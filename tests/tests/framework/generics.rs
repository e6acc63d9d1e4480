//! Generic models (`#[derive(Model)] struct Page<T>`), replayed against FastAPI 0.165 / pydantic
//! 2.14's answers to the same app (`class Page(BaseModel, Generic[T])`, probed with its
//! TestClient: tests/fastapi/generics_probe.py, its answers in generics_observed.json): as a
//! body and a response, with a scalar, a model, a list, an `Option` and another parametrisation
//! as the argument, with two parameters, and as a field, a list element and an `Option` of
//! another model; and the schemas, each parametrisation named as pydantic names it
//! (`Page_Item_`, titled `Page[Item]`), compared keyword by keyword.

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;
use ferrapi_tests::observed::without_format;

#[derive(Model, serde::Serialize)]
struct Item {
    name: String,
}

#[derive(Model, serde::Serialize)]
struct Page<T> {
    items: Vec<T>,
    total: i64,
}

#[derive(Model, serde::Serialize)]
struct Pair<T, U> {
    first: T,
    second: U,
}

#[derive(Model, serde::Serialize)]
struct Catalog {
    pages: Vec<Page<Item>>,
    counts: Option<Page<i64>>,
}

#[post("/pages")]
async fn pages(page: Page<Item>) -> Json<Page<Item>> {
    Json(page)
}

#[post("/int-pages")]
async fn int_pages(page: Page<i64>) -> Json<Page<i64>> {
    Json(page)
}

#[post("/nested")]
async fn nested(page: Page<Page<Item>>) -> Json<Page<Page<Item>>> {
    Json(page)
}

#[post("/pairs")]
async fn pairs(pair: Pair<String, Option<Item>>) -> Json<Pair<String, Option<Item>>> {
    Json(pair)
}

#[post("/catalogs")]
async fn catalogs(catalog: Catalog) -> Json<Catalog> {
    Json(catalog)
}

#[post("/lists")]
async fn lists(page: Page<Vec<i64>>) -> Json<Page<Vec<i64>>> {
    Json(page)
}

#[post("/maybe")]
async fn maybe(page: Page<Option<Item>>) -> Json<Page<Option<Item>>> {
    Json(page)
}

#[post("/strs")]
async fn strs(page: Page<String>) -> Json<Page<String>> {
    Json(page)
}

/// A field validator generic over the element type (a validator takes `&FieldType`).
#[allow(clippy::ptr_arg)]
fn not_empty<T>(values: &Vec<T>) -> Result<(), String> {
    match values.is_empty() {
        true => Err("no values".to_owned()),
        false => Ok(()),
    }
}

#[derive(Model, serde::Serialize)]
struct Labelled<T> {
    #[pattern("^[a-z]+$")]
    label: String,
    #[validate(not_empty)]
    values: Vec<T>,
    #[default(0)]
    #[ge(0)]
    offset: i64,
}

#[post("/labelled")]
async fn labelled(body: Labelled<f64>) -> Json<Labelled<f64>> {
    Json(body)
}

fn client() -> TestClient {
    TestClient::new(App::new().routes(routes![
        pages, int_pages, nested, pairs, catalogs, lists, maybe, strs
    ]))
}

/// What FastAPI answered and wrote (tests/fastapi/generics_observed.json).
fn observed() -> Value {
    let observed: Value = serde_json::from_str(include_str!("../../fastapi/generics_observed.json"))
        .expect("generics_observed.json parses");
    assert_eq!(
        (observed["fastapi"].as_str(), observed["pydantic"].as_str()),
        (Some("0.165.0"), Some("2.14.4"))
    );
    observed
}

#[tokio::test]
async fn a_generic_model_answers_as_fastapi_does() {
    let client = client();
    let observed = observed();
    let calls = observed["calls"].as_array().expect("the probe recorded calls");
    assert_eq!(calls.len(), 16);
    replay(&client, calls).await;
}

/// Post each recorded call's body; its status and JSON answer must be what FastAPI answered.
async fn replay(client: &TestClient, calls: &[Value]) {
    for call in calls {
        let path = call["path"].as_str().unwrap_or_default();
        let reply = client.post(path).json(&call["body"]).send().await;
        let (status, body): (u16, Value) = (reply.status().as_u16(), reply.json());
        assert_eq!(
            (status, &body),
            (
                call["status"].as_u64().unwrap_or_default() as u16,
                &call["response"]
            ),
            "{path} {}",
            call["body"]
        );
    }
}

#[derive(Model, serde::Serialize)]
struct Note {
    text: String,
}

/// FastAPI's `Union[Page[Item], Note]`.
#[derive(Model, serde::Serialize)]
#[serde(untagged)]
enum Found {
    Paged(Page<Item>),
    Noted(Note),
}

#[post("/found")]
async fn found(found: Found) -> Json<Found> {
    Json(found)
}

#[tokio::test]
async fn a_parametrised_variant_of_an_untagged_union_is_spelled_as_pydantic_spells_it() {
    // tests/fastapi/generics_union_probe.py: the variant's errors sit under `Page[Item]`.
    let observed: Value = serde_json::from_str(include_str!("../../fastapi/generics_union_observed.json"))
        .expect("generics_union_observed.json parses");
    let calls = observed["calls"].as_array().expect("the probe recorded calls");
    assert_eq!(calls.len(), 5);
    assert!(observed
        .to_string()
        .contains(r#""loc":["body","Page[Item]","total"]"#));
    replay(&TestClient::new(App::new().routes(routes![found])), calls).await;
}

#[tokio::test]
async fn each_parametrisation_is_one_schema_named_as_pydantic_names_it() {
    let document: Value = client().get("/openapi.json").send().await.json();
    let ours = &document["components"]["schemas"];
    let observed = observed();
    let theirs = &observed["openapi"]["components"]["schemas"];
    for name in [
        "Item",
        "Page_Item_",
        "Page_Page_Item__",
        "Page_Union_Item__NoneType__",
        "Page_int_",
        "Page_list_int__",
        "Page_str_",
        "Pair_str_Union_Item__NoneType__",
    ] {
        // As values: ferrapi writes an array's `type` before its `items`, for every list.
        assert_eq!(without_format(ours[name].clone()), theirs[name], "{name}");
    }
    // The same key set: no parametrisation missing or registered twice (FastAPI's own two
    // validation-error schemas aside).
    let keys = |schemas: &Value| {
        let mut keys: Vec<String> = schemas
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        keys.retain(|k| k != "HTTPValidationError" && k != "ValidationError");
        keys
    };
    assert_eq!(keys(ours), keys(theirs));
}

#[tokio::test]
async fn a_parametrisation_is_referenced_as_a_body_a_response_and_a_field() {
    let document: Value = client().get("/openapi.json").send().await.json();
    let observed = observed();
    for path in [
        "/pages",
        "/int-pages",
        "/nested",
        "/pairs",
        "/lists",
        "/maybe",
        "/strs",
    ] {
        let ours = &document["paths"][path]["post"];
        let theirs = &observed["openapi"]["paths"][path]["post"];
        assert_eq!(
            ours["requestBody"]["content"], theirs["requestBody"]["content"],
            "{path} body"
        );
        assert_eq!(
            ours["responses"]["200"]["content"], theirs["responses"]["200"]["content"],
            "{path} response"
        );
    }
    let catalog = &document["components"]["schemas"]["Catalog"]["properties"];
    let theirs = &observed["openapi"]["components"]["schemas"]["Catalog"]["properties"];
    assert_eq!(catalog["pages"], theirs["pages"]);
    // No `default: null` for an optional field: FastAPI drops every null from its document.
    assert_eq!(catalog["counts"], theirs["counts"]);
}

#[tokio::test]
async fn a_generic_model_takes_constraints_defaults_and_validators() {
    let client = TestClient::new(App::new().routes(routes![labelled]));
    let reply = client
        .post("/labelled")
        .json(&json!({"label": "ab", "values": [1.5]}))
        .send()
        .await;
    assert_eq!(
        reply.json::<Value>(),
        json!({"label": "ab", "values": [1.5], "offset": 0})
    );
    let reply = client
        .post("/labelled")
        .json(&json!({"label": "A1", "values": [], "offset": -1}))
        .send()
        .await;
    let detail = reply.json::<Value>()["detail"].clone();
    let found: Vec<(Value, Value)> = detail
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|e| (e["type"].clone(), e["loc"].clone()))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        found,
        vec![
            (json!("string_pattern_mismatch"), json!(["body", "label"])),
            (json!("value_error"), json!(["body", "values"])),
            (json!("greater_than_equal"), json!(["body", "offset"])),
        ]
    );
    let document: Value = client.get("/openapi.json").send().await.json();
    let schema = &document["components"]["schemas"]["Labelled_float_"];
    assert_eq!(schema["title"], "Labelled[float]");
    assert_eq!(schema["properties"]["label"]["pattern"], "^[a-z]+$");
    assert_eq!(schema["required"], json!(["label", "values"]));
}
