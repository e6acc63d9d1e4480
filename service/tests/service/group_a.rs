//! Group A of the Resource API over real HTTP on 127.0.0.1 (`--group a`, embedded store): every
//! row of the spec's group A table, each example of its "Errors" section with its exact body,
//! the bool truthy set on `short`, the limits, and the API description. (The clinic's rows are
//! in `clinic`; the comparison with FastAPI itself is `scripts/fastapi-compare.sh`.)

use std::net::SocketAddr;

use ferrapi::testing::{TestClient, TestResponse};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, send_json, Reply};
use resource_api::config::Group;
use resource_api::group_a::{self, DEFAULT_QUOTE, INSTRUMENTS, PERSONS};
use resource_api::{app, Db};
use serde_json::{json, Value};

use crate::support::{sqlite_store, TempDir};

const LONG: &str = "This is an amazing item that has a long description";

async fn serve() -> (SocketAddr, TempDir) {
    let (store, conn, dir) = sqlite_store("group_a").await;
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    (spawn(app(Group::A, Some(db))).await, dir)
}

fn ok(reply: &Reply) -> Value {
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/json"));
    reply.json()
}

fn int_parsing(loc: &str, name: &str, input: &str) -> Value {
    json!({"type": "int_parsing", "loc": [loc, name],
           "msg": "Input should be a valid integer, unable to parse string as an integer", "input": input})
}

#[tokio::test]
async fn root_greets() {
    let (addr, _dir) = serve().await;
    assert_eq!(ok(&get(addr, "/").await), json!({"message": "Hello World"}));
}

#[tokio::test]
async fn the_simple_item_form_is_served_and_errors_are_the_specs() {
    let (addr, _dir) = serve().await;
    // The id comes back as an integer, not a string.
    let reply = get(addr, "/item/42").await;
    assert_eq!(reply.text(), r#"{"id":42}"#);
    assert_eq!(ok(&get(addr, "/item/-7").await), json!({"id": -7}));
    // Errors, rule 1: `foo` and `4.2` are both `int_parsing` at ["path", "id"]; the status is 422.
    for input in ["foo", "4.2"] {
        let reply = get(addr, &format!("/item/{input}")).await;
        assert_eq!(reply.status, 422, "{input}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(
            reply.text(),
            format!(
                r#"{{"detail":[{{"type":"int_parsing","loc":["path","id"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"{input}"}}]}}"#
            ),
            "{input}"
        );
    }
    // The extended and required-parameter forms are shadowed: their parameters change nothing.
    assert_eq!(ok(&get(addr, "/item/5?q=x&short=true").await), json!({"id": 5}));
    assert_eq!(ok(&get(addr, "/item/5?needy=x&skip=2").await), json!({"id": 5}));
    assert_eq!(
        get(addr, "/item/foo?q=x&needy=n").await.json(),
        json!({"detail": [int_parsing("path", "id", "foo")]})
    );
}

/// [`ok`] for an answer of the in-process client.
fn ok_in_process(response: &TestResponse) -> Value {
    assert_eq!(response.status(), 200, "{}", response.text());
    assert_eq!(response.header("content-type"), Some("application/json"));
    response.json()
}

#[tokio::test]
async fn the_shadowed_item_forms_answer_their_shapes_when_served_alone() {
    // Each shadowed form is a real route: served alone (in-process: what is checked is the
    // route's answer, not the wire), it answers as the spec's row says.
    let client = TestClient::new(App::new().routes(ferrapi::routes![group_a::read_item_extended]));
    let get = |uri: &'static str| client.get(uri).send();
    assert_eq!(
        ok_in_process(&get("/item/foo?q=bar").await),
        json!({"id": "foo", "q": "bar", "description": LONG})
    );
    assert_eq!(
        ok_in_process(&get("/item/foo?q=&short=yes").await),
        json!({"id": "foo"})
    );

    let client = TestClient::new(App::new().routes(ferrapi::routes![group_a::read_item_needy]));
    let get = |uri: &'static str| client.get(uri).send();
    assert_eq!(
        ok_in_process(&get("/item/abc?needy=x").await),
        json!({"item_id": "abc", "needy": "x", "skip": 0, "limit": null})
    );
    assert_eq!(
        ok_in_process(&get("/item/abc?needy=x&skip=3&limit=7").await),
        json!({"item_id": "abc", "needy": "x", "skip": 3, "limit": 7})
    );
    // Errors, rule 2: a missing `needy`.
    let reply = get("/item/abc").await;
    assert_eq!(reply.status(), 422);
    assert_eq!(
        reply.text(),
        r#"{"detail":[{"type":"missing","loc":["query","needy"],"msg":"Field required","input":null}]}"#
    );
    assert_eq!(
        get("/item/abc?skip=x&limit=4.5").await.json::<Value>(),
        json!({"detail": [
            {"type": "missing", "loc": ["query", "needy"], "msg": "Field required", "input": null},
            int_parsing("query", "skip", "x"),
            int_parsing("query", "limit", "4.5"),
        ]})
    );
}

#[tokio::test]
async fn users_me_first_then_by_id() {
    let (addr, _dir) = serve().await;
    assert_eq!(
        ok(&get(addr, "/user/me").await),
        json!({"user_id": "the current user"})
    );
    assert_eq!(ok(&get(addr, "/user/alice").await), json!({"id": "alice"}));
    assert_eq!(ok(&get(addr, "/user/42").await), json!({"id": "42"}));
    assert_eq!(
        ok(&get(addr, "/user/caf%C3%A9%20au%20lait").await),
        json!({"id": "café au lait"})
    );
}

#[tokio::test]
async fn a_users_item_with_q_and_the_bool_truthy_set_on_short() {
    let (addr, _dir) = serve().await;
    assert_eq!(
        ok(&get(addr, "/user/3/item/hammer?q=blue").await),
        json!({"item_id": "hammer", "owner_id": 3, "q": "blue", "description": LONG})
    );
    // `q` only when given and not empty.
    assert_eq!(
        ok(&get(addr, "/user/3/item/hammer?q=").await),
        json!({"item_id": "hammer", "owner_id": 3, "description": LONG})
    );
    // Rule 4: `1`, `true`, `on`, `yes` in any letter case are true; anything else is false.
    for truthy in ["1", "true", "on", "yes", "TRUE", "True", "ON", "On", "YES", "yEs"] {
        assert_eq!(
            ok(&get(addr, &format!("/user/3/item/x?short={truthy}")).await),
            json!({"item_id": "x", "owner_id": 3}),
            "{truthy}"
        );
    }
    for falsy in [
        "0", "false", "off", "no", "maybe", "", "2", "t", "y", "tru", "%20yes", "yes%20",
    ] {
        assert_eq!(
            ok(&get(addr, &format!("/user/3/item/x?short={falsy}")).await),
            json!({"item_id": "x", "owner_id": 3, "description": LONG}),
            "{falsy}"
        );
    }
    let reply = get(addr, "/user/abc/item/x?short=1").await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [int_parsing("path", "user_id", "abc")]})
    );
}

#[tokio::test]
async fn stock_quotes_by_order_type() {
    let (addr, _dir) = serve().await;
    for (symbol, bid, ask) in INSTRUMENTS {
        let buy = ok(&get(addr, &format!("/stock/{symbol}/buy")).await);
        let sell = ok(&get(addr, &format!("/stock/{symbol}/sell")).await);
        assert_eq!(buy, json!({"symbol": symbol, "price": ask, "type": "buy"}));
        assert_eq!(sell, json!({"symbol": symbol, "price": bid, "type": "sell"}));
        assert_ne!(buy["price"], sell["price"]);
    }
    // Any other symbol: echoed, with the documented default quote.
    assert_eq!(
        ok(&get(addr, "/stock/XYZ/buy").await),
        json!({"symbol": "XYZ", "price": DEFAULT_QUOTE.1, "type": "buy"})
    );
    assert_eq!(ok(&get(addr, "/stock/msft/sell").await)["price"], json!(414.90));
    // A type outside `buy`/`sell` (exact, case-sensitive) is a 422 `enum` error.
    for bad in ["hold", "BUY", "Sell"] {
        let reply = get(addr, &format!("/stock/AAPL/{bad}")).await;
        assert_eq!(reply.status, 422, "{bad}");
        assert_eq!(
            reply.json(),
            json!({"detail": [{"type": "enum", "loc": ["path", "type"], "msg": "Input should be 'buy' or 'sell'",
                               "input": bad, "ctx": {"expected": "'buy' or 'sell'"}}]}),
            "{bad}"
        );
    }
}

#[tokio::test]
async fn persons_are_sliced_from_the_fixed_list() {
    let (addr, _dir) = serve().await;
    let names = |value: Value| -> Vec<String> {
        value
            .as_array()
            .expect("an array")
            .iter()
            .map(|p| p["name"].as_str().expect("a name").to_owned())
            .collect()
    };
    // Defaults: skip 0, limit 5.
    assert_eq!(names(ok(&get(addr, "/person").await)), PERSONS[..5]);
    assert_eq!(
        names(ok(&get(addr, "/person?skip=2&limit=3").await)),
        PERSONS[2..5]
    );
    assert_eq!(names(ok(&get(addr, "/person?skip=8").await)), PERSONS[8..]);
    assert_eq!(names(ok(&get(addr, "/person?limit=100").await)), PERSONS);
    assert_eq!(ok(&get(addr, "/person?skip=10").await), json!([]));
    assert_eq!(ok(&get(addr, "/person?skip=1000000&limit=0").await), json!([]));
    assert_eq!(ok(&get(addr, "/person?limit=0").await), json!([]));
    let reply = get(addr, "/person?skip=-1&limit=-3").await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "greater_than_equal", "loc": ["query", "skip"], "msg": "Input should be greater than or equal to 0",
             "input": "-1", "ctx": {"ge": 0}},
            {"type": "greater_than_equal", "loc": ["query", "limit"], "msg": "Input should be greater than or equal to 0",
             "input": "-3", "ctx": {"ge": 0}}
        ]})
    );
    assert_eq!(
        get(addr, "/person?skip=1.5").await.json(),
        json!({"detail": [int_parsing("query", "skip", "1.5")]})
    );
}

#[tokio::test]
async fn post_and_put_items() {
    let (addr, _dir) = serve().await;
    // A body without `description` and `tax` is valid; `price_with_tax` only with a tax.
    let reply = send_json(addr, "POST", "/item", r#"{"name":"Foo","price":12.5}"#).await;
    assert_eq!(
        ok(&reply),
        json!({"name": "Foo", "description": null, "price": 12.5, "tax": null})
    );
    let reply = send_json(
        addr,
        "POST",
        "/item",
        r#"{"name":"Foo","description":"d","price":10,"tax":2.5}"#,
    )
    .await;
    assert_eq!(
        ok(&reply),
        json!({"name": "Foo", "description": "d", "price": 10.0, "tax": 2.5, "price_with_tax": 12.5})
    );
    let reply = send_json(addr, "POST", "/item", r#"{"description":"d"}"#).await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [
            {"type": "missing", "loc": ["body", "name"], "msg": "Field required", "input": {"description": "d"}},
            {"type": "missing", "loc": ["body", "price"], "msg": "Field required", "input": {"description": "d"}}
        ]})
    );
    let reply = send_json(addr, "POST", "/item", r#"{"name":"Foo","price":"abc"}"#).await;
    assert_eq!(
        reply.json(),
        json!({"detail": [{"type": "float_parsing", "loc": ["body", "price"],
                           "msg": "Input should be a valid number, unable to parse string as a number", "input": "abc"}]})
    );
    let reply = send(addr, "POST", "/item", &[], None).await;
    assert_eq!(
        reply.json(),
        json!({"detail": [{"type": "missing", "loc": ["body"], "msg": "Field required", "input": null}]})
    );

    let reply = send_json(addr, "PUT", "/item/5?q=x", r#"{"name":"Saw","price":3}"#).await;
    assert_eq!(
        ok(&reply),
        json!({"item_id": 5, "name": "Saw", "description": null, "price": 3.0, "tax": null, "q": "x"})
    );
    let reply = send_json(addr, "PUT", "/item/5?q=", r#"{"name":"Saw","price":3}"#).await;
    assert!(ok(&reply).get("q").is_none());
    let reply = send_json(addr, "PUT", "/item/abc", r#"{"name":1}"#).await;
    assert_eq!(
        reply.json(),
        json!({"detail": [
            int_parsing("path", "item_id", "abc"),
            {"type": "string_type", "loc": ["body", "name"], "msg": "Input should be a valid string", "input": 1},
            {"type": "missing", "loc": ["body", "price"], "msg": "Field required", "input": {"name": 1}}
        ]})
    );
}

#[tokio::test]
async fn employees_by_id_and_the_specs_not_found() {
    let (addr, _dir) = serve().await;
    assert_eq!(
        ok(&get(addr, "/employee/1").await),
        json!({"name": "Ada Lovelace", "job": "analyst"})
    );
    for missing in ["/employee/0", "/employee/999", "/employee/-1"] {
        let reply = get(addr, missing).await;
        assert_eq!(reply.status, 404, "{missing}");
        assert_eq!(reply.header("content-type"), Some("application/json"));
        assert_eq!(reply.text(), r#"{"detail":"Employee not found"}"#);
    }
    assert_eq!(
        get(addr, "/employee/abc").await.json(),
        json!({"detail": [int_parsing("path", "id", "abc")]})
    );
}

#[tokio::test]
async fn the_api_description_and_the_docs_pages() {
    let (addr, _dir) = serve().await;
    let doc = ok(&get(addr, "/openapi.json").await);
    assert_eq!(doc["openapi"], "3.1.0");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    for path in [
        "/",
        "/item/{id}",
        "/user/me",
        "/user/{id}",
        "/user/{user_id}/item/{item_id}",
        "/stock/{symbol}/{type}",
        "/person",
        "/item",
        "/item/{item_id}",
        "/employee/{id}",
        "/doctors",
        "/patients/{patient_id}",
        "/visits",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path}");
    }
    for page in ["/docs", "/redoc"] {
        let reply = get(addr, page).await;
        assert_eq!(reply.status, 200, "{page}");
        assert!(
            reply
                .header("content-type")
                .is_some_and(|ct| ct.starts_with("text/html")),
            "{page}"
        );
    }
}
