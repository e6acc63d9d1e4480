//! JSON bodies: FastAPI's (pydantic v2 lax mode) behaviour, byte for byte, as measured in
//! tests/fastapi/observed.json; plus the cases where FastAPI fails with a 500 and we answer 4xx.
//! In-process, through the test client (reading a body over HTTP is `http_routing`'s and
//! `server_limits`' subject).

use ferrapi::testing::{TestClient, TestResponse};
use ferrapi_tests::app::app;
use serde_json::Value;

/// `method path` with the `headers` as given and an optional body, sent as it is.
async fn send(
    client: &TestClient,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> TestResponse {
    let method = method.parse().expect("a method");
    let mut request = client.request(method, path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(body) = body {
        request = request.body(body.to_vec());
    }
    request.send().await
}

/// `method path` with `body` as JSON text (`Content-Type: application/json`), sent as it is,
/// also when it is not JSON.
async fn send_json(client: &TestClient, method: &str, path: &str, body: &str) -> TestResponse {
    send(
        client,
        method,
        path,
        &[("Content-Type", "application/json")],
        Some(body.as_bytes()),
    )
    .await
}

#[tokio::test]
async fn valid_item_is_echoed_with_price_with_tax() {
    let client = TestClient::new(app());
    let reply = send_json(
        &client,
        "POST",
        "/item",
        r#"{"name":"Foo","price":12.5,"tax":1.5}"#,
    )
    .await;
    assert_eq!(reply.status(), 200);
    assert_eq!(
        reply.text(),
        r#"{"name":"Foo","description":null,"price":12.5,"tax":1.5,"price_with_tax":14.0}"#
    );
    // Optional fields may be omitted; an int is accepted for a float and echoed as a float.
    let reply = send_json(&client, "POST", "/item", r#"{"name":"a","price":3}"#).await;
    assert_eq!(
        reply.text(),
        r#"{"name":"a","description":null,"price":3.0,"tax":null}"#
    );
    // Lax mode: a numeric string for a float; unknown fields are ignored.
    let reply = send_json(
        &client,
        "POST",
        "/item",
        r#"{"name":"a","price":"12.5","extra":[1]}"#,
    )
    .await;
    assert_eq!(
        reply.text(),
        r#"{"name":"a","description":null,"price":12.5,"tax":null}"#
    );
}

#[tokio::test]
async fn missing_fields_report_the_model_input() {
    let client = TestClient::new(app());
    assert_eq!(
        send_json(&client, "POST", "/item", "{}").await.text(),
        r#"{"detail":[{"type":"missing","loc":["body","name"],"msg":"Field required","input":{}},{"type":"missing","loc":["body","price"],"msg":"Field required","input":{}}]}"#
    );
    assert_eq!(
        send_json(&client, "POST", "/item", r#"{"name":"Foo"}"#)
            .await
            .text(),
        r#"{"detail":[{"type":"missing","loc":["body","price"],"msg":"Field required","input":{"name":"Foo"}}]}"#
    );
}

#[tokio::test]
async fn wrong_field_types() {
    let client = TestClient::new(app());
    assert_eq!(
        send_json(&client, "POST", "/item", r#"{"name":12,"price":1}"#)
            .await
            .text(),
        r#"{"detail":[{"type":"string_type","loc":["body","name"],"msg":"Input should be a valid string","input":12}]}"#
    );
    assert_eq!(
        send_json(&client, "POST", "/item", r#"{"name":"Foo","price":null}"#)
            .await
            .text(),
        r#"{"detail":[{"type":"float_type","loc":["body","price"],"msg":"Input should be a valid number","input":null}]}"#
    );
    assert_eq!(
        send_json(&client, "POST", "/item", r#"{"name":"Foo","price":"abc"}"#)
            .await
            .text(),
        r#"{"detail":[{"type":"float_parsing","loc":["body","price"],"msg":"Input should be a valid number, unable to parse string as a number","input":"abc"}]}"#
    );
}

#[tokio::test]
async fn a_body_that_is_not_an_object() {
    let client = TestClient::new(app());
    for body in ["[]", "\"str\"", "42", "null"] {
        let reply = send_json(&client, "POST", "/item", body).await;
        assert_eq!(reply.status(), 422);
        assert_eq!(
            reply.text(),
            format!(
                r#"{{"detail":[{{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":{body}}}]}}"#
            )
        );
    }
}

#[tokio::test]
async fn invalid_json_is_the_only_error_reported() {
    let client = TestClient::new(app());
    let cases = [
        (r#"{"name":"#, 8, "Expecting value"),
        (
            "{name: 1}",
            1,
            "Expecting property name enclosed in double quotes",
        ),
        (r#"{"name":"a","price":1} x"#, 23, "Extra data"),
        (r#"{"name":"é","price":}"#, 20, "Expecting value"),
    ];
    for (body, offset, error) in cases {
        let reply = send_json(&client, "POST", "/item", body).await;
        assert_eq!(reply.status(), 422);
        assert_eq!(
            reply.text(),
            format!(
                r#"{{"detail":[{{"type":"json_invalid","loc":["body",{offset}],"msg":"JSON decode error","input":{{}},"ctx":{{"error":"{error}"}}}}]}}"#
            )
        );
    }
    // The path error is not reported when the body is not JSON (FastAPI parses the body first).
    let reply = send_json(&client, "PUT", "/item/abc?q=1", r#"{"name":"#).await;
    assert_eq!(reply.json::<Value>()["detail"].as_array().map(Vec::len), Some(1));
    assert_eq!(reply.json::<Value>()["detail"][0]["type"], "json_invalid");
}

#[tokio::test]
async fn path_then_body_errors_in_one_response() {
    let client = TestClient::new(app());
    assert_eq!(
        send_json(&client, "PUT", "/item/abc", r#"{"name":1}"#)
            .await
            .text(),
        r#"{"detail":[{"type":"int_parsing","loc":["path","item_id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"},{"type":"string_type","loc":["body","name"],"msg":"Input should be a valid string","input":1},{"type":"missing","loc":["body","price"],"msg":"Field required","input":{"name":1}}]}"#
    );
}

#[tokio::test]
async fn missing_body_and_content_types() {
    let client = TestClient::new(app());
    let missing = r#"{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}"#;
    assert_eq!(send(&client, "POST", "/item", &[], None).await.text(), missing);
    assert_eq!(send_json(&client, "POST", "/item", "").await.text(), missing);
    // Not declared as JSON: the raw text is validated (and is not an object), as current FastAPI does.
    let body = r#"{"name":"Foo","price":12.5}"#;
    for headers in [&[("Content-Type", "text/plain")][..], &[][..]] {
        let reply = send(&client, "POST", "/item", headers, Some(body.as_bytes())).await;
        assert_eq!(
            reply.text(),
            r#"{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"{\"name\":\"Foo\",\"price\":12.5}"}]}"#
        );
    }
    for content_type in [
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/vnd.api+json",
    ] {
        let reply = send(
            &client,
            "POST",
            "/item",
            &[("Content-Type", content_type)],
            Some(body.as_bytes()),
        )
        .await;
        assert_eq!(reply.status(), 200, "{content_type}");
    }
}

#[tokio::test]
async fn nested_models_lists_and_maps_report_every_error_with_its_location() {
    let client = TestClient::new(app());
    let body = r#"{"title":"x","count":"nope","qty":-1,"inner":{"label":5,"weight":"heavy"},"ids":[1,"two",3,null],"scores":{"a":1,"b":"bee","c":2.5}}"#;
    assert_eq!(
        send_json(&client, "POST", "/nested", body).await.text(),
        r#"{"detail":[{"type":"string_too_short","loc":["body","title"],"msg":"String should have at least 2 characters","input":"x","ctx":{"min_length":2}},{"type":"int_parsing","loc":["body","count"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"nope"},{"type":"greater_than_equal","loc":["body","qty"],"msg":"Input should be greater than or equal to 0","input":-1,"ctx":{"ge":0}},{"type":"string_type","loc":["body","inner","label"],"msg":"Input should be a valid string","input":5},{"type":"float_parsing","loc":["body","inner","weight"],"msg":"Input should be a valid number, unable to parse string as a number","input":"heavy"},{"type":"int_parsing","loc":["body","ids",1],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"two"},{"type":"int_type","loc":["body","ids",3],"msg":"Input should be a valid integer","input":null},{"type":"int_parsing","loc":["body","scores","b"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"bee"},{"type":"int_from_float","loc":["body","scores","c"],"msg":"Input should be a valid integer, got a number with a fractional part","input":2.5}]}"#
    );
    let body = r#"{"title":"ok","count":1,"qty":0,"inner":"str","ids":"notalist","scores":[]}"#;
    assert_eq!(
        send_json(&client, "POST", "/nested", body).await.text(),
        r#"{"detail":[{"type":"model_attributes_type","loc":["body","inner"],"msg":"Input should be a valid dictionary or object to extract fields from","input":"str"},{"type":"list_type","loc":["body","ids"],"msg":"Input should be a valid list","input":"notalist"},{"type":"dict_type","loc":["body","scores"],"msg":"Input should be a valid dictionary","input":[]}]}"#
    );
}

#[tokio::test]
async fn lax_integers_renames_defaults_and_enums_in_bodies() {
    let client = TestClient::new(app());
    let body = r#"{"title":"ok","count":"12","qty":12.0,"inner":{"label":"l","weight":1},"ids":[],"scores":{},"kind":"buy"}"#;
    let reply = send_json(&client, "POST", "/nested", body).await;
    assert_eq!(reply.status(), 200, "{}", reply.text());
    assert_eq!(
        reply.text(),
        r#"{"title":"ok","count":12,"qty":12,"inner":{"label":"l","weight":1.0},"ids":[],"scores":{},"kind":"buy","retries":3}"#
    );
    let body = r#"{"title":"ok","count":1,"qty":1,"inner":{"label":"l","weight":1},"ids":[],"scores":{},"kind":"hold"}"#;
    let reply = send_json(&client, "POST", "/nested", body).await;
    assert_eq!(reply.json::<Value>()["detail"][0]["type"], "enum");
    assert_eq!(
        reply.json::<Value>()["detail"][0]["loc"],
        serde_json::json!(["body", "kind"])
    );
}

#[tokio::test]
async fn bodies_fastapi_fails_on_get_a_clear_4xx() {
    let client = TestClient::new(app());
    for body in [
        r#"{"name":"a","price":NaN}"#,
        r#"{"name":"a","price":Infinity}"#,
        r#"{"name":"a","price":1e400}"#,
    ] {
        let reply = send_json(&client, "POST", "/item", body).await;
        assert_eq!(reply.status(), 422, "{body}");
        assert_eq!(
            reply.json::<Value>()["detail"][0]["type"],
            "json_invalid",
            "{body}"
        );
    }
    let deep = format!(
        r#"{{"name":"a","price":1,"x":{}{}}}"#,
        "[".repeat(2000),
        "]".repeat(2000)
    );
    let reply = send_json(&client, "POST", "/item", &deep).await;
    assert_eq!(reply.status(), 422);
    assert!(reply.text().contains("nested too deeply"), "{}", reply.text());
    let reply = send(
        &client,
        "POST",
        "/item",
        &[("Content-Type", "application/json")],
        Some(b"{\"name\":\"\xff\",\"price\":1}"),
    )
    .await;
    assert_eq!(reply.status(), 400);
    assert_eq!(
        reply.text(),
        r#"{"detail":"There was an error parsing the body"}"#
    );
}

#[tokio::test]
async fn json_of_a_map_takes_any_object_and_refuses_other_bodies() {
    let client = TestClient::new(app());
    let reply = send_json(
        &client,
        "POST",
        "/any",
        r#"{"name":"Tweety","wings":{"span":[1,2.5]},"ü":"ñ"}"#,
    )
    .await;
    assert_eq!(reply.status(), 200);
    assert_eq!(
        reply.text(),
        r#"{"keys":3,"body":{"name":"Tweety","wings":{"span":[1,2.5]},"ü":"ñ"}}"#
    );
    let reply = send_json(&client, "POST", "/any", "[1]").await;
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"dict_type","loc":["body"],"msg":"Input should be a valid dictionary","input":[1]}]}"#
    );
    assert_eq!(
        send_json(&client, "POST", "/any", "").await.json::<Value>()["detail"][0]["type"],
        "missing"
    );
}
