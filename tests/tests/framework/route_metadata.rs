//! Route metadata options (issue 23, item 5): `deprecated`, `operation_id`, `summary`,
//! `response_description`, against the operation FastAPI 0.165 writes for
//! `@app.get("/things", deprecated=True, operation_id="list_things", summary="List the things",
//! response_description="The things")` with the doc comment "Every thing there is."; and the app's
//! tag descriptions (`App::tag`), against FastAPI's `openapi_tags`.

use ferrapi::prelude::*;
use ferrapi::testing::TestClient;

/// Every thing there is.
#[get(
    "/things",
    deprecated = true,
    operation_id = "list_things",
    summary = "List the things",
    response_description = "The things"
)]
async fn things() -> Json<Value> {
    Json(json!([]))
}

/// Still here.
#[get("/plain")]
async fn plain() -> Json<Value> {
    Json(json!([]))
}

#[tokio::test]
async fn the_options_write_fastapis_operation() {
    let client = TestClient::new(App::new().routes(routes![things, plain]));
    let document: Value = client.get("/openapi.json").send().await.json();
    let operation = &document["paths"]["/things"]["get"];
    // FastAPI's operation, as it printed it (keys in its order).
    let fastapi = r#"{"summary": "List the things", "description": "Every thing there is.", "operationId": "list_things", "responses": {"200": {"description": "The things", "content": {"application/json": {"schema": {}}}}}, "deprecated": true}"#;
    let fastapi: Value = serde_json::from_str(fastapi).unwrap_or_default();
    assert_eq!(operation.to_string(), fastapi.to_string());
    let plain = &document["paths"]["/plain"]["get"];
    assert_eq!(plain["operationId"], "plain_plain_get");
    assert_eq!(plain["summary"], "Still here.");
    assert!(plain.get("deprecated").is_none());
    assert_eq!(plain["responses"]["200"]["description"], "Successful Response");
}

/// A route with a described tag.
#[get("/items/{id}", tags("items"))]
async fn get_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

#[tokio::test]
async fn tag_descriptions_are_fastapis_openapi_tags() {
    use ferrapi::schema::Tag;
    let app = App::new()
        .routes(routes![get_item])
        .tag(
            Tag::new("items")
                .description("Manage *items*.")
                .external_docs("https://example.com/items", Some("More")),
        )
        .tag(Tag::new("unused"))
        .tag(Tag::new("users").external_docs("https://example.com/u", None));
    let client = TestClient::new(app);
    let document: Value = client.get("/openapi.json").send().await.json();
    // FastAPI 0.165's `tags`, as it printed them for `FastAPI(openapi_tags=[{"name": "items",
    // "description": "Manage *items*.", "externalDocs": {"url": "https://example.com/items",
    // "description": "More"}}, {"name": "unused"}, {"name": "users", "externalDocs": {"url":
    // "https://example.com/u"}}])`: pydantic's key order, `description` before `url`.
    let fastapi = r#"[{"name": "items", "description": "Manage *items*.", "externalDocs": {"description": "More", "url": "https://example.com/items"}}, {"name": "unused"}, {"name": "users", "externalDocs": {"url": "https://example.com/u"}}]"#;
    let fastapi: Value = serde_json::from_str(fastapi).unwrap_or_default();
    assert_eq!(document["tags"].to_string(), fastapi.to_string());
    // After `components`, the last key, as FastAPI writes it.
    let keys: Vec<&String> = document
        .as_object()
        .map(|o| o.keys().collect())
        .unwrap_or_default();
    assert_eq!(keys, ["openapi", "info", "paths", "components", "tags"]);

    let untagged = TestClient::new(App::new().routes(routes![get_item]));
    let document: Value = untagged.get("/openapi.json").send().await.json();
    assert!(document.get("tags").is_none());
}
