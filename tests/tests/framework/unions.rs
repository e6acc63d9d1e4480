//! Discriminated unions (`#[derive(Model)]` on an enum with `#[serde(tag = "..")]`), replayed
//! against FastAPI 0.165 / pydantic 2.14's answers to the same app (`Pet = Annotated[Union[Cat,
//! Dog], Field(discriminator="kind")]`, probed with its TestClient: tests/fastapi/unions_probe.py,
//! its answers in unions_observed.json): the body, a model field, a
//! list of them, the response, and the schema; and the untagged union (`Union[Cat, Dog]`,
//! tests/fastapi/unions_untagged_probe.py, its answers in unions_untagged_observed.json).

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;

#[derive(Model, serde::Serialize)]
struct Cat {
    lives: i64,
}

#[derive(Model, serde::Serialize)]
struct Dog {
    name: String,
}

#[derive(Model, serde::Serialize)]
#[serde(tag = "kind")]
enum Pet {
    #[serde(rename = "cat")]
    Cat(Cat),
    #[serde(rename = "dog")]
    Dog(Dog),
}

#[derive(Model, serde::Serialize)]
struct Owner {
    pet: Pet,
    others: Vec<Pet>,
    spare: Option<Pet>,
}

#[post("/pets")]
async fn pets(pet: Pet) -> Json<Pet> {
    Json(pet)
}

#[post("/owners")]
async fn owners(o: Owner) -> Json<Owner> {
    Json(o)
}

#[derive(Model, serde::Serialize)]
#[serde(untagged)]
enum AnyPet {
    Cat(Cat),
    Dog(Dog),
}

#[derive(Model, serde::Serialize)]
struct AnyOwner {
    pet: AnyPet,
}

#[post("/any-pets")]
async fn any_pets(pet: AnyPet) -> Json<AnyPet> {
    Json(pet)
}

#[post("/any-owners")]
async fn any_owners(o: AnyOwner) -> Json<AnyOwner> {
    Json(o)
}

fn client() -> TestClient {
    TestClient::new(App::new().routes(routes![pets, owners, any_pets, any_owners]))
}

async fn post(client: &TestClient, path: &str, body: Value) -> (u16, Value) {
    let reply = client.post(path).json(&body).send().await;
    (reply.status().as_u16(), reply.json())
}

/// FastAPI's answers: (path, body, status, response).
fn observed() -> Vec<(&'static str, Value, u16, Value)> {
    vec![
        (
            "/pets",
            json!({"kind": "cat", "lives": 9}),
            200,
            json!({"kind": "cat", "lives": 9}),
        ),
        (
            "/pets",
            json!({"kind": "dog", "name": "Rex"}),
            200,
            json!({"kind": "dog", "name": "Rex"}),
        ),
        (
            "/pets",
            json!({"kind": "cow"}),
            422,
            json!({"detail": [{"type": "union_tag_invalid", "loc": ["body"], "msg": "Input tag 'cow' found using 'kind' does not match any of the expected tags: 'cat', 'dog'", "input": {"kind": "cow"}, "ctx": {"discriminator": "'kind'", "tag": "cow", "expected_tags": "'cat', 'dog'"}}]}),
        ),
        (
            "/pets",
            json!({"lives": 9}),
            422,
            json!({"detail": [{"type": "union_tag_not_found", "loc": ["body"], "msg": "Unable to extract tag using discriminator 'kind'", "input": {"lives": 9}, "ctx": {"discriminator": "'kind'"}}]}),
        ),
        (
            "/pets",
            json!([1]),
            422,
            json!({"detail": [{"type": "model_attributes_type", "loc": ["body"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": [1]}]}),
        ),
        (
            "/pets",
            json!("x"),
            422,
            json!({"detail": [{"type": "model_attributes_type", "loc": ["body"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": "x"}]}),
        ),
        (
            "/pets",
            json!({"kind": "cat", "lives": "many"}),
            422,
            json!({"detail": [{"type": "int_parsing", "loc": ["body", "cat", "lives"], "msg": "Input should be a valid integer, unable to parse string as an integer", "input": "many"}]}),
        ),
        (
            "/pets",
            json!({"kind": "dog"}),
            422,
            json!({"detail": [{"type": "missing", "loc": ["body", "dog", "name"], "msg": "Field required", "input": {"kind": "dog"}}]}),
        ),
        (
            "/pets",
            json!({"kind": 5}),
            422,
            json!({"detail": [{"type": "union_tag_invalid", "loc": ["body"], "msg": "Input tag '5' found using 'kind' does not match any of the expected tags: 'cat', 'dog'", "input": {"kind": 5}, "ctx": {"discriminator": "'kind'", "tag": "5", "expected_tags": "'cat', 'dog'"}}]}),
        ),
        (
            "/owners",
            json!({"pet": {"kind": "cat", "lives": 1}, "others": [{"kind": "dog", "name": "a"}, {"kind": "x"}, {"kind": "cat"}]}),
            422,
            json!({"detail": [
                {"type": "union_tag_invalid", "loc": ["body", "others", 1], "msg": "Input tag 'x' found using 'kind' does not match any of the expected tags: 'cat', 'dog'", "input": {"kind": "x"}, "ctx": {"discriminator": "'kind'", "tag": "x", "expected_tags": "'cat', 'dog'"}},
                {"type": "missing", "loc": ["body", "others", 2, "cat", "lives"], "msg": "Field required", "input": {"kind": "cat"}}
            ]}),
        ),
    ]
}

#[tokio::test]
async fn a_tagged_union_answers_as_fastapi_does() {
    let client = client();
    for (path, body, status, answer) in observed() {
        assert_eq!(
            post(&client, path, body.clone()).await,
            (status, answer),
            "{path} {body}"
        );
    }
}

#[tokio::test]
async fn a_union_is_a_field_an_element_and_an_option() {
    let body =
        json!({"pet": {"kind": "dog", "name": "a"}, "others": [{"kind": "cat", "lives": 3}], "spare": null});
    assert_eq!(post(&client(), "/owners", body.clone()).await, (200, body));
}

#[tokio::test]
async fn the_schema_is_one_of_with_a_discriminator() {
    let document: Value = client().get("/openapi.json").send().await.json();
    let schemas = &document["components"]["schemas"];
    // FastAPI's, key order included (but for the `format` ferrapi writes on integers).
    assert_eq!(
        schemas["Cat"].to_string(),
        json!({"properties": {"kind": {"type": "string", "const": "cat", "title": "Kind"}, "lives": {"type": "integer", "format": "int64", "title": "Lives"}}, "type": "object", "required": ["kind", "lives"], "title": "Cat"}).to_string()
    );
    assert_eq!(
        schemas["Dog"].to_string(),
        json!({"properties": {"kind": {"type": "string", "const": "dog", "title": "Kind"}, "name": {"type": "string", "title": "Name"}}, "type": "object", "required": ["kind", "name"], "title": "Dog"}).to_string()
    );
    let union = json!({
        "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "#/components/schemas/Cat", "dog": "#/components/schemas/Dog"}},
    });
    let mut field = union.clone();
    field["title"] = json!("Pet");
    assert_eq!(schemas["Owner"]["properties"]["pet"], field);
    assert_eq!(schemas["Owner"]["properties"]["others"]["items"], union);
    assert_eq!(
        document["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        union
    );
    assert!(
        schemas.get("Pet").is_none(),
        "a union is written inline, as pydantic does"
    );
}

/// FastAPI's answers for `Union[Cat, Dog]`: (path, body, status, response).
fn observed_untagged() -> Vec<(&'static str, Value, u16, Value)> {
    vec![
        ("/any-pets", json!({"lives": 9}), 200, json!({"lives": 9})),
        ("/any-pets", json!({"name": "Rex"}), 200, json!({"name": "Rex"})),
        ("/any-pets", json!({"lives": "9"}), 200, json!({"lives": 9})),
        (
            "/any-pets",
            json!({"lives": "x", "name": 5}),
            422,
            json!({"detail": [{"type": "int_parsing", "loc": ["body", "Cat", "lives"], "msg": "Input should be a valid integer, unable to parse string as an integer", "input": "x"}, {"type": "string_type", "loc": ["body", "Dog", "name"], "msg": "Input should be a valid string", "input": 5}]}),
        ),
        (
            "/any-pets",
            json!({}),
            422,
            json!({"detail": [{"type": "missing", "loc": ["body", "Cat", "lives"], "msg": "Field required", "input": {}}, {"type": "missing", "loc": ["body", "Dog", "name"], "msg": "Field required", "input": {}}]}),
        ),
        (
            "/any-pets",
            json!([1]),
            422,
            json!({"detail": [{"type": "model_attributes_type", "loc": ["body", "Cat"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": [1]}, {"type": "model_attributes_type", "loc": ["body", "Dog"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": [1]}]}),
        ),
        (
            "/any-pets",
            json!(3),
            422,
            json!({"detail": [{"type": "model_attributes_type", "loc": ["body", "Cat"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": 3}, {"type": "model_attributes_type", "loc": ["body", "Dog"], "msg": "Input should be a valid dictionary or object to extract fields from", "input": 3}]}),
        ),
        (
            "/any-owners",
            json!({"pet": {"x": 1}}),
            422,
            json!({"detail": [{"type": "missing", "loc": ["body", "pet", "Cat", "lives"], "msg": "Field required", "input": {"x": 1}}, {"type": "missing", "loc": ["body", "pet", "Dog", "name"], "msg": "Field required", "input": {"x": 1}}]}),
        ),
        (
            "/any-owners",
            json!({"pet": {"lives": 1, "name": "a"}}),
            200,
            json!({"pet": {"lives": 1}}),
        ),
    ]
}

#[tokio::test]
async fn an_untagged_union_answers_as_fastapi_does() {
    let client = client();
    for (path, body, status, answer) in observed_untagged() {
        assert_eq!(
            post(&client, path, body.clone()).await,
            (status, answer),
            "{path} {body}"
        );
    }
}

#[tokio::test]
async fn an_untagged_union_is_any_of() {
    let document: Value = client().get("/openapi.json").send().await.json();
    let any_of =
        json!({"anyOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]});
    assert_eq!(
        document["paths"]["/any-pets"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        any_of
    );
    // FastAPI's field, key order included.
    assert_eq!(
        document["components"]["schemas"]["AnyOwner"]["properties"]["pet"].to_string(),
        r##"{"anyOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"title":"Pet"}"##
    );
}

#[tokio::test]
async fn an_untagged_union_takes_the_first_variant_that_fits() {
    // A difference on purpose (the manual's "Differences from FastAPI"): pydantic's smart mode
    // answers `{"name": "a"}` here, the variant matched without conversion.
    let body = json!({"lives": "9", "name": "a"});
    assert_eq!(
        post(&client(), "/any-pets", body).await,
        (200, json!({"lives": 9}))
    );
}
