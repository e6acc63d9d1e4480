//! The service's OpenAPI document (group A): every served operation documented with the JSON
//! Schema of its response, shadowed forms left out, the models as components. (The document is
//! also validated and used to generate a client by `scripts/docs-checks.sh`.)

use resource_api::config::Group;
use serde_json::{json, Value};

fn document() -> Value {
    let service = resource_api::app(Group::A, None).build().expect("group A builds");
    serde_json::from_slice(service.openapi_json()).expect("JSON")
}

#[test]
fn info_and_version() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Resource API");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn every_group_a_operation_has_a_typed_response() {
    let doc = document();
    let expected = [
        ("/", "get", json!({"$ref": "#/components/schemas/Message"})),
        (
            "/item/{id}",
            "get",
            json!({"$ref": "#/components/schemas/ItemId"}),
        ),
        (
            "/user/me",
            "get",
            json!({"$ref": "#/components/schemas/CurrentUser"}),
        ),
        (
            "/user/{id}",
            "get",
            json!({"$ref": "#/components/schemas/UserId"}),
        ),
        (
            "/user/{user_id}/item/{item_id}",
            "get",
            json!({"$ref": "#/components/schemas/UserItem"}),
        ),
        (
            "/stock/{symbol}/{type}",
            "get",
            json!({"$ref": "#/components/schemas/Quote"}),
        ),
        (
            "/person",
            "get",
            json!({"type": "array", "items": {"$ref": "#/components/schemas/Person"}}),
        ),
        (
            "/item",
            "post",
            json!({"$ref": "#/components/schemas/ItemWithTax"}),
        ),
        (
            "/item/{item_id}",
            "put",
            json!({"$ref": "#/components/schemas/UpdatedItem"}),
        ),
        (
            "/employee/{id}",
            "get",
            json!({"$ref": "#/components/schemas/Employee"}),
        ),
    ];
    let mut count = 0;
    for (path, method, schema) in expected {
        let op = &doc["paths"][path][method];
        let ok = &op["responses"]["200"];
        assert_eq!(ok["description"], "Successful Response", "{method} {path}");
        assert_eq!(
            ok["content"]["application/json"]["schema"], schema,
            "{method} {path}"
        );
        count += 1;
    }
    let documented: usize = doc["paths"]
        .as_object()
        .map(|paths| {
            paths
                .values()
                .filter_map(Value::as_object)
                .map(|item| item.len())
                .sum()
        })
        .unwrap_or_default();
    assert_eq!(documented, count, "only the served routes are documented");
    assert_eq!(
        doc["paths"]["/employee/{id}"]["get"]["responses"]["404"],
        json!({"description": "Employee not found"})
    );
}

#[test]
fn the_shadowed_item_forms_are_not_documented() {
    let doc = document();
    let item = doc["paths"]["/item/{id}"].as_object().expect("a path item");
    assert_eq!(item.len(), 1);
    assert_eq!(item["get"]["operationId"], "read_item");
    assert!(doc["paths"]
        .get("/item/{item_id}")
        .is_some_and(|p| p.get("get").is_none()));
}

#[test]
fn response_models_leave_out_absent_keys() {
    let doc = document();
    let user_item = &doc["components"]["schemas"]["UserItem"];
    assert_eq!(user_item["required"], json!(["item_id", "owner_id"]));
    assert_eq!(
        user_item["properties"]["q"],
        json!({
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "default": null,
            "title": "Q",
            "description": "The query `q`, when given and not empty."
        })
    );
    assert_eq!(
        doc["components"]["schemas"]["Quote"]["properties"]["type"],
        json!({"$ref": "#/components/schemas/OrderType", "description": "The side quoted."})
    );
}
