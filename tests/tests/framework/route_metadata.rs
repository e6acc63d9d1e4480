//! Route metadata options (issue 23, item 5): `deprecated`, `operation_id`, `summary`,
//! `response_description`, against the operation FastAPI 0.165 writes for
//! `@app.get("/things", deprecated=True, operation_id="list_things", summary="List the things",
//! response_description="The things")` with the doc comment "Every thing there is.".

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
    assert_eq!(plain["operationId"], "plain");
    assert_eq!(plain["summary"], "Still here.");
    assert!(plain.get("deprecated").is_none());
    assert_eq!(plain["responses"]["200"]["description"], "Successful Response");
}
