//! `#[examples(..)]` on model fields and route arguments, compared with where FastAPI 0.165 puts
//! pydantic's `Field(examples=..)` and `Path/Query/Header/Cookie/Body/Form(examples=..)` in its
//! document (tests/fastapi/examples_probe.py, its document in examples_observed.json): the
//! property's schema, the parameter's `schema`, the body's media-type schema beside its `$ref`,
//! the form field's property.

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;
use ferrapi_tests::observed::without_format;

#[derive(Model, serde::Serialize)]
struct Item {
    #[examples("Foo", "Bar")]
    name: String,
    #[examples(35.4)]
    price: f64,
    #[default(Vec::new())]
    #[examples(["a", "b"])]
    tags: Vec<String>,
    #[examples("fragile")]
    note: Option<String>,
    #[default(1)]
    #[ge(1)]
    #[examples(3)]
    size: i64,
}

#[get("/items/{item_id}")]
async fn read_item(
    #[examples(42)] item_id: i64,
    #[examples("foo", "bar")] q: Option<String>,
    #[default(10)]
    #[ge(1)]
    #[examples(10)]
    limit: i64,
    #[examples(["x", "y"])] tags: Vec<String>,
    #[examples("secret")] x_token: Header<Option<String>>,
    #[examples("abc")] session: Cookie<Option<String>>,
) -> Json<Value> {
    let _ = (item_id, q, limit, tags, x_token, session);
    Json(json!({}))
}

#[get("/openapi-examples")]
async fn openapi_examples(
    #[openapi_examples(normal = {"summary": "A normal one", "value": "foo"}, empty = {"value": ""})]
    q: String,
) -> Json<Value> {
    Json(json!({ "q": q }))
}

#[post("/openapi-examples/{item_id}")]
async fn openapi_examples_body(
    #[openapi_examples(one = {"value": 1})] item_id: i64,
    #[openapi_examples(
        normal = {"summary": "A normal item", "description": "Works.", "value": {"name": "Foo", "price": 1.5}},
        "bad" = {"value": {"name": 1}},
    )]
    item: Item,
) -> Json<Item> {
    let _ = item_id;
    Json(item)
}

#[post("/items")]
async fn create_item(item: Item) -> Json<Item> {
    Json(item)
}

#[post("/bodies")]
async fn create_body(#[examples({"name": "Foo", "price": 1.5})] item: Item) -> Json<Item> {
    Json(item)
}

#[post("/forms")]
async fn forms(
    #[examples("ann")] username: Form<String>,
    #[default(18)]
    #[examples(30)]
    age: Form<i64>,
) -> Json<Value> {
    let _ = (username, age);
    Json(json!({}))
}

fn client() -> TestClient {
    TestClient::new(App::new().routes(routes![
        read_item,
        openapi_examples,
        openapi_examples_body,
        create_item,
        create_body,
        forms
    ]))
}

async fn documents() -> (Value, Value) {
    let client = client();
    let ours: Value = client.get("/openapi.json").send().await.json();
    let theirs: Value = serde_json::from_str(include_str!("../../fastapi/examples_observed.json"))
        .expect("examples_observed.json parses");
    assert_eq!(
        (theirs["fastapi"].as_str(), theirs["pydantic"].as_str()),
        (Some("0.165.0"), Some("2.14.4"))
    );
    (ours, theirs["openapi"].clone())
}

#[tokio::test]
async fn field_examples_are_in_the_property() {
    let (ours, theirs) = documents().await;
    let (ours, theirs) = (
        &ours["components"]["schemas"]["Item"]["properties"],
        &theirs["components"]["schemas"]["Item"]["properties"],
    );
    for field in ["name", "price", "tags"] {
        assert_eq!(without_format(ours[field].clone()), theirs[field], "{field}");
    }
    // pydantic writes `ge=1` on this field as `minimum: 1.0`; the examples are what is compared.
    assert_eq!(ours["size"]["examples"], theirs["size"]["examples"]);
    assert_eq!(
        ours["size"]
            .as_object()
            .and_then(|s| s.keys().next_back().cloned())
            .as_deref(),
        Some("examples")
    );
    // No `default: null` for an optional field: FastAPI drops every null from its document.
    assert_eq!(ours["note"].to_string(), theirs["note"].to_string());
    // Byte for byte where the key order is pydantic's own.
    assert_eq!(ours["name"].to_string(), theirs["name"].to_string());
}

#[tokio::test]
async fn parameter_examples_are_in_the_parameters_schema() {
    let (ours, theirs) = documents().await;
    let (ours, theirs) = (
        &ours["paths"]["/items/{item_id}"]["get"]["parameters"],
        &theirs["paths"]["/items/{item_id}"]["get"]["parameters"],
    );
    assert_eq!(ours.as_array().map(Vec::len), Some(6));
    for index in 0..6 {
        let ours = without_format(ours[index].clone());
        // Key order included: `examples` before `default` and `title`, as FastAPI writes them.
        assert_eq!(
            ours.to_string(),
            theirs[index].to_string(),
            "{}",
            theirs[index]["name"]
        );
    }
}

#[tokio::test]
async fn body_examples_are_beside_the_reference() {
    let (ours, theirs) = documents().await;
    for path in ["/items", "/bodies"] {
        assert_eq!(
            ours["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"].to_string(),
            theirs["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"].to_string(),
            "{path}"
        );
    }
}

#[tokio::test]
async fn form_field_examples_are_in_the_forms_property() {
    let (ours, theirs) = documents().await;
    let (ours, theirs) = (
        &ours["components"]["schemas"]["Body_forms_forms_post"],
        &theirs["components"]["schemas"]["Body_forms_forms_post"],
    );
    // As values: ferrapi writes a form field's `default` before its `title`, whatever its
    // examples; `examples` comes last in both.
    assert_eq!(without_format(ours.clone()), *theirs);
    assert_eq!(
        ours["properties"]["age"]
            .as_object()
            .and_then(|s| s.keys().next_back().cloned())
            .as_deref(),
        Some("examples")
    );
}

#[tokio::test]
async fn examples_change_no_answer() {
    let client = client();
    let reply = client
        .post("/bodies")
        .json(&json!({"name": "x", "price": 2}))
        .send()
        .await;
    assert_eq!(
        reply.json::<Value>(),
        json!({"name": "x", "price": 2.0, "tags": [], "note": null, "size": 1})
    );
    let reply = client.get("/items/7?limit=0").send().await;
    assert_eq!(reply.status().as_u16(), 422);
}

#[tokio::test]
async fn openapi_examples_are_on_the_parameter_and_the_media_type() {
    let (ours, theirs) = documents().await;
    assert_eq!(
        ours["paths"]["/openapi-examples"]["get"]["parameters"].to_string(),
        theirs["paths"]["/openapi-examples"]["get"]["parameters"].to_string()
    );
    let (ours, theirs) = (
        &ours["paths"]["/openapi-examples/{item_id}"]["post"],
        &theirs["paths"]["/openapi-examples/{item_id}"]["post"],
    );
    assert_eq!(
        without_format(ours["parameters"].clone()).to_string(),
        theirs["parameters"].to_string()
    );
    // Key order included (FastAPI writes `required` first here, an object all the same).
    let media = &ours["requestBody"]["content"]["application/json"];
    assert_eq!(
        media.to_string(),
        theirs["requestBody"]["content"]["application/json"].to_string()
    );
}
