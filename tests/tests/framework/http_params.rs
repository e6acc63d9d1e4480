//! Parameter inference, conversion and validation, in-process through the test client (the
//! answers are the app's; the server only carries them).
//! Expected bodies are FastAPI's, byte for byte, as measured in tests/fastapi/observed.json,
//! except where the spec deliberately differs (the bool rule, integer grammar and range).

use ferrapi::testing::TestClient;
use ferrapi_tests::app::app;
use serde_json::Value;

const INT_MSG: &str = "Input should be a valid integer, unable to parse string as an integer";

fn int_error(loc: &str, input: &str) -> String {
    format!(r#"{{"type":"int_parsing","loc":{loc},"msg":"{INT_MSG}","input":"{input}"}}"#)
}

fn detail(items: &[String]) -> String {
    format!(r#"{{"detail":[{}]}}"#, items.join(","))
}

#[tokio::test]
async fn path_int_parameter_converts_and_returns_an_integer() {
    let client = TestClient::new(app());
    let reply = client.get("/item/42").send().await;
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.text(), r#"{"id":42}"#);
    assert_eq!(client.get("/item/-5").send().await.text(), r#"{"id":-5}"#);
    assert_eq!(client.get("/item/+5").send().await.text(), r#"{"id":5}"#);
}

#[tokio::test]
async fn non_integer_path_values_are_int_parsing_errors() {
    let client = TestClient::new(app());
    for (path, input) in [
        ("/item/foo", "foo"),
        ("/item/4.2", "4.2"),
        ("/item/1e3", "1e3"),
        ("/item/%20", " "),
        ("/item/0x10", "0x10"),
    ] {
        let reply = client.get(path).send().await;
        assert_eq!(reply.status(), 422, "{path}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(
            reply.text(),
            detail(&[int_error(r#"["path","id"]"#, input)]),
            "{path}"
        );
    }
    // Percent-decoded before conversion; the input shows the decoded text (FastAPI does the same).
    assert_eq!(
        client.get("/item/%D9%A3").send().await.text(),
        detail(&[int_error(r#"["path","id"]"#, "٣")])
    );
}

#[tokio::test]
async fn integers_out_of_the_rust_range_have_their_own_error() {
    let client = TestClient::new(app());
    let reply = client.get("/small/256").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"int_out_of_range","loc":["path","v"],"msg":"Input should be an integer between 0 and 255","input":"256","ctx":{"min":0,"max":255}}]}"#
    );
    let reply = client.get("/item/99999999999999999999999").send().await;
    assert_eq!(reply.json::<Value>()["detail"][0]["type"], "int_out_of_range");
    assert_eq!(client.get("/small/255").send().await.text(), r#"{"v":255}"#);
}

#[tokio::test]
async fn required_query_parameter_missing_is_field_required() {
    let client = TestClient::new(app());
    let reply = client.get("/items/abc").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"missing","loc":["query","needy"],"msg":"Field required","input":null}]}"#
    );
}

#[tokio::test]
async fn defaults_and_optionals() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/items/abc?needy=x").send().await.text(),
        r#"{"item_id":"abc","needy":"x","skip":0,"limit":null}"#
    );
    assert_eq!(
        client
            .get("/items/abc?needy=x&skip=3&limit=7")
            .send()
            .await
            .text(),
        r#"{"item_id":"abc","needy":"x","skip":3,"limit":7}"#
    );
}

#[tokio::test]
async fn all_errors_are_reported_together_in_path_query_order() {
    let client = TestClient::new(app());
    let reply = client.get("/items/abc?needy=x&skip=foo&limit=bar").send().await;
    assert_eq!(
        reply.text(),
        detail(&[
            int_error(r#"["query","skip"]"#, "foo"),
            int_error(r#"["query","limit"]"#, "bar")
        ])
    );
    // An empty value is not an absent one.
    assert_eq!(
        client.get("/items/abc?needy=x&limit=").send().await.text(),
        detail(&[int_error(r#"["query","limit"]"#, "")])
    );
    // Path errors come before query errors whatever the argument order.
    let reply = client.get("/user/abc/item/x?q=1").send().await;
    assert_eq!(reply.text(), detail(&[int_error(r#"["path","user_id"]"#, "abc")]));
}

#[tokio::test]
async fn bool_query_follows_the_spec_truthy_set() {
    let client = TestClient::new(app());
    for truthy in ["1", "true", "TRUE", "True", "on", "ON", "yes", "YeS"] {
        let body = client
            .get(&format!("/user/1/item/x?short={truthy}"))
            .send()
            .await
            .json::<Value>();
        assert!(
            body.get("description").is_none(),
            "{truthy} should be true: {body}"
        );
    }
    for falsy in ["0", "false", "off", "no", "maybe", "", "2"] {
        let body = client
            .get(&format!("/user/1/item/x?short={falsy}"))
            .send()
            .await
            .json::<Value>();
        assert!(
            body.get("description").is_some(),
            "{falsy:?} should be false: {body}"
        );
    }
    assert_eq!(
        client.get("/user/7/item/abc?q=x&short=yes").send().await.text(),
        r#"{"item_id":"abc","owner_id":7,"q":"x"}"#
    );
    assert_eq!(
        client.get("/user/7/item/abc").send().await.text(),
        r#"{"item_id":"abc","owner_id":7,"description":"This is an amazing item that has a long description"}"#
    );
}

#[tokio::test]
async fn string_enum_in_path_query_and_default() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/stock/AAPL/buy").send().await.text(),
        r#"{"symbol":"AAPL","price":101.5,"type":"buy"}"#
    );
    let reply = client.get("/stock/AAPL/BUY").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"enum","loc":["path","type"],"msg":"Input should be 'buy' or 'sell'","input":"BUY","ctx":{"expected":"'buy' or 'sell'"}}]}"#
    );
    assert_eq!(
        client.get("/orders").send().await.text(),
        r#"{"kind":null,"side":"sell"}"#
    );
    assert_eq!(
        client.get("/orders?kind=buy&side=buy").send().await.text(),
        r#"{"kind":"buy","side":"buy"}"#
    );
    assert_eq!(
        client.get("/orders?kind=hold").send().await.json::<Value>()["detail"][0]["loc"],
        serde_json::json!(["query", "kind"])
    );
}

#[tokio::test]
async fn numeric_constraints_match_pydantic() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/person?limit=-3&skip=-1").send().await.text(),
        r#"{"detail":[{"type":"greater_than_equal","loc":["query","skip"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}},{"type":"greater_than_equal","loc":["query","limit"],"msg":"Input should be greater than or equal to 0","input":"-3","ctx":{"ge":0}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=0").send().await.text(),
        r#"{"detail":[{"type":"greater_than","loc":["query","a"],"msg":"Input should be greater than 0","input":"0","ctx":{"gt":0}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=11").send().await.text(),
        r#"{"detail":[{"type":"less_than_equal","loc":["query","a"],"msg":"Input should be less than or equal to 10","input":"11","ctx":{"le":10}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=1&b=2.5").send().await.text(),
        r#"{"detail":[{"type":"less_than","loc":["query","b"],"msg":"Input should be less than 2.5","input":"2.5","ctx":{"lt":2.5}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=1&b=0.1").send().await.text(),
        r#"{"detail":[{"type":"greater_than_equal","loc":["query","b"],"msg":"Input should be greater than or equal to 0.5","input":"0.1","ctx":{"ge":0.5}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=10").send().await.text(),
        r#"{"a":10,"b":1.5,"s":"xy"}"#
    );
}

#[tokio::test]
async fn string_length_constraints_match_pydantic() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/constrained?a=1&s=abcd").send().await.text(),
        r#"{"detail":[{"type":"string_too_long","loc":["query","s"],"msg":"String should have at most 3 characters","input":"abcd","ctx":{"max_length":3}}]}"#
    );
    assert_eq!(
        client.get("/constrained?a=1&s=a").send().await.text(),
        r#"{"detail":[{"type":"string_too_short","loc":["query","s"],"msg":"String should have at least 2 characters","input":"a","ctx":{"min_length":2}}]}"#
    );
}

#[tokio::test]
async fn floats_parse_and_refuse_non_finite_values() {
    let client = TestClient::new(app());
    assert_eq!(client.get("/floats?f=4.5").send().await.text(), r#"{"f":4.5}"#);
    assert_eq!(
        client.get("/floats?f=abc").send().await.text(),
        r#"{"detail":[{"type":"float_parsing","loc":["query","f"],"msg":"Input should be a valid number, unable to parse string as a number","input":"abc"}]}"#
    );
    for non_finite in ["nan", "inf", "1e400", "-infinity"] {
        let reply = client.get(&format!("/floats?f={non_finite}")).send().await;
        assert_eq!(
            reply.status(),
            422,
            "FastAPI answers 500 here; we refuse with 422"
        );
        assert_eq!(
            reply.text(),
            format!(
                r#"{{"detail":[{{"type":"finite_number","loc":["query","f"],"msg":"Input should be a finite number","input":"{non_finite}"}}]}}"#
            )
        );
    }
}

#[tokio::test]
async fn repeated_query_parameters() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/tags?tag=a&tag=b&n=1&n=3").send().await.text(),
        r#"{"tag":["a","b"],"n":[1,3]}"#
    );
    assert_eq!(client.get("/tags").send().await.text(), r#"{"tag":[],"n":[]}"#);
    assert_eq!(
        client.get("/tags?n=1&n=x&n=3").send().await.text(),
        detail(&[int_error(r#"["query","n",1]"#, "x")])
    );
    // A repeated scalar takes the last value, as Starlette does.
    assert_eq!(
        client.get("/person?skip=1&skip=8").send().await.text(),
        r#"[{"name":"person 8"},{"name":"person 9"}]"#
    );
}

#[tokio::test]
async fn query_values_are_form_decoded() {
    let client = TestClient::new(app());
    assert_eq!(
        client.get("/items/a%20b?needy=x+y%26z").send().await.text(),
        r#"{"item_id":"a b","needy":"x y&z","skip":0,"limit":null}"#
    );
}

#[tokio::test]
async fn invalid_utf8_in_a_path_value_is_a_validation_error() {
    let client = TestClient::new(app());
    let reply = client.get("/user/%FF").send().await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"string_unicode","loc":["path","id"],"msg":"Input should be a valid string, unable to parse raw data as a unicode string","input":"%FF"}]}"#
    );
}

#[tokio::test]
async fn injected_state_headers_and_method_are_not_parameters() {
    let client = TestClient::new(app());
    assert_eq!(client.get("/count").send().await.text(), r#"{"count":1}"#);
    assert_eq!(client.get("/count?count=9").send().await.text(), r#"{"count":2}"#);
    let reply = client.get("/agent").header("User-Agent", "probe/1").send().await;
    assert_eq!(reply.text(), r#"{"agent":"probe/1","method":"GET"}"#);
}
