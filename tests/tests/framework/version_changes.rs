//! API versions, item 3 (issue 44) over real HTTP: a model declares how its fields were before a
//! version (`#[since("date", ..)]`: added, renamed, retyped); one handler serves every version.
//! An old request is validated by its version's shape (its 422s name its fields), moved forward
//! (the handler sees the newest model), and the answer is written back in the old shape; a
//! forward step's refusal is a 422 at the old field; a versioned model nested in an unversioned
//! one moves too; at the newest version and in an app without versions the model is a plain one.
//! A date no version of the app has does not build.

use ferrapi::build::{Declared, MistakeKind};
use ferrapi::prelude::*;
use ferrapi::versions::{Versioned, Versions};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};

/// An item, as the newest version (2026-06-01) has it.
#[derive(Model, Debug, Clone, PartialEq)]
#[model(removed("2026-03-01", legacy_code: String, backward = legacy_code_of))]
pub struct Item {
    /// Its name (`title` before 2026-03-01).
    #[since("2026-03-01", renamed_from = "title")]
    #[min_length(1)]
    pub name: String,
    /// Its price in units (a whole number of cents before 2026-03-01).
    #[since("2026-03-01", was = i64, forward = cents_to_price, backward = price_to_cents)]
    #[ge(0.0)]
    pub price: f64,
    /// Its tags (none before 2026-06-01).
    #[since("2026-06-01", default = vec!["untagged".to_owned()])]
    pub tags: Vec<String>,
    /// Its note: up to 10 characters since 2026-06-01, up to 20 before.
    #[since("2026-06-01", was_constraints(max_length = 20))]
    #[max_length(10)]
    #[default(String::new())]
    pub note: String,
}

/// The code an older answer has in the field removed at 2026-03-01.
fn legacy_code_of(item: &Item) -> String {
    format!("L-{}", item.name)
}

fn cents_to_price(cents: i64) -> Result<f64, String> {
    match cents {
        ..0 => Err("a price in cents is not negative".to_owned()),
        // Exactly representable for the amounts of these tests.
        cents => Ok(cents as f64 / 100.0),
    }
}

fn price_to_cents(price: &f64) -> i64 {
    (price * 100.0).round() as i64
}

/// An unversioned model holding versioned ones.
#[derive(Model, Debug, serde::Serialize)]
pub struct Order {
    pub items: Vec<Item>,
    pub note: String,
}

/// Echoes the item: the answer is written in the request's version's shape.
#[post("/items")]
async fn create_item(item: Item) -> Json<Item> {
    Json(item)
}

/// What the handler saw: always the newest model.
#[post("/items/seen")]
async fn seen_item(item: Item) -> String {
    format!("{item:?}")
}

/// An answer built by the handler, not from a request: written back per version.
#[get("/items/1")]
async fn read_item() -> Json<Item> {
    tokio::task::yield_now().await;
    Json(Item {
        name: "Foo".to_owned(),
        price: 12.5,
        tags: vec!["a".to_owned()],
        note: String::new(),
    })
}

/// An error whose detail is a model: serialized while the handler runs, so in the version's shape.
#[get("/items/taken")]
async fn taken() -> Result<Json<Item>, HttpError> {
    let existing = Item {
        name: "Foo".to_owned(),
        price: 1.0,
        tags: Vec::new(),
        note: String::new(),
    };
    Err(HttpError::new(
        409,
        serde_json::to_value(&existing).unwrap_or_default(),
    ))
}

#[post("/orders")]
async fn create_order(order: Order) -> Json<Order> {
    Json(order)
}

fn app() -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01"))
        .routes(routes![create_item, seen_item, read_item, create_order, taken])
}

async fn post_at(addr: std::net::SocketAddr, path: &str, version: &str, body: &str) -> Reply {
    let headers = [("API-Version", version), ("Content-Type", "application/json")];
    send(addr, "POST", path, &headers, Some(body.as_bytes())).await
}

#[tokio::test]
async fn an_old_request_is_moved_forward_and_answered_in_its_shape() {
    let addr = spawn(app()).await;
    let body = r#"{"title": "Foo", "price": 1250, "legacy_code": "X"}"#;
    let reply = post_at(addr, "/items/seen", "2026-01-15", body).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.text(),
        r#"Item { name: "Foo", price: 12.5, tags: ["untagged"], note: "" }"#
    );
    let reply = post_at(addr, "/items", "2026-01-15", body).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    // The removed field is back in the old answer, from the newest model.
    assert_eq!(
        reply.text(),
        r#"{"title":"Foo","price":1250,"note":"","legacy_code":"L-Foo"}"#
    );
    assert_eq!(reply.header("api-version"), Some("2026-01-15"));
    // The middle version: renamed and retyped already, no tags yet.
    let reply = post_at(addr, "/items", "2026-03-01", r#"{"name": "Foo", "price": 12.5}"#).await;
    assert_eq!(reply.text(), r#"{"name":"Foo","price":12.5,"note":""}"#);
    // The newest: the model as written.
    let newest = r#"{"name":"Foo","price":12.5,"tags":["x"],"note":""}"#;
    let reply = post_at(addr, "/items", "2026-06-01", newest).await;
    assert_eq!(reply.text(), newest);
}

#[tokio::test]
async fn an_answer_the_handler_builds_is_written_in_each_versions_shape() {
    let addr = spawn(app()).await;
    let at = |version: &'static str| async move {
        send(addr, "GET", "/items/1", &[("API-Version", version)], None)
            .await
            .text()
    };
    assert_eq!(
        at("2026-01-15").await,
        r#"{"title":"Foo","price":1250,"note":"","legacy_code":"L-Foo"}"#
    );
    assert_eq!(at("2026-03-01").await, r#"{"name":"Foo","price":12.5,"note":""}"#);
    assert_eq!(
        at("2026-06-01").await,
        r#"{"name":"Foo","price":12.5,"tags":["a"],"note":""}"#
    );
    // No header: the default, the newest released version.
    let reply = send(addr, "GET", "/items/1", &[], None).await;
    assert_eq!(reply.text(), r#"{"name":"Foo","price":12.5,"note":""}"#);
}

#[tokio::test]
async fn an_error_detail_serialized_by_the_handler_is_in_the_versions_shape() {
    let addr = spawn(app()).await;
    let reply = send(
        addr,
        "GET",
        "/items/taken",
        &[("API-Version", "2026-01-15")],
        None,
    )
    .await;
    assert_eq!(reply.status, 409);
    assert_eq!(
        reply.text(),
        r#"{"detail":{"title":"Foo","price":100,"note":"","legacy_code":"L-Foo"}}"#
    );
}

#[tokio::test]
async fn an_old_requests_422s_are_its_versions() {
    let addr = spawn(app()).await;
    // The newest names are unknown to the old version: `title` is missing, `price` an integer.
    let reply = post_at(addr, "/items", "2026-01-15", r#"{"name": "Foo", "price": 12.5}"#).await;
    assert_eq!(reply.status, 422, "{}", reply.text());
    let detail = reply.json()["detail"].clone();
    let locs: Vec<&Value> = detail
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| &e["loc"])
        .collect();
    assert_eq!(
        locs,
        [
            &json!(["body", "title"]),
            &json!(["body", "price"]),
            &json!(["body", "legacy_code"])
        ]
    );
    assert_eq!(detail[0]["type"], "missing");
    assert_eq!(detail[1]["type"], "int_from_float");
    assert_eq!(detail[2]["type"], "missing");
    // The old version's constraint: the kept `min_length` at the old name.
    let reply = post_at(
        addr,
        "/items",
        "2026-01-15",
        r#"{"title": "", "price": 5, "legacy_code": "x"}"#,
    )
    .await;
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "title"]));
    assert_eq!(reply.json()["detail"][0]["type"], "string_too_short");
    // The newest version refuses the old names.
    let reply = post_at(addr, "/items", "2026-06-01", r#"{"title": "Foo", "price": 1250}"#).await;
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "name"]));
    // A constraint changed: 15 characters were fine before 2026-06-01, not since.
    let long = r#"{"name": "Foo", "price": 1, "note": "fifteen chars.."}"#;
    let reply = post_at(addr, "/items", "2026-03-01", long).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let long = r#"{"name": "Foo", "price": 1, "tags": [], "note": "fifteen chars.."}"#;
    let reply = post_at(addr, "/items", "2026-06-01", long).await;
    assert_eq!(reply.json()["detail"][0]["type"], "string_too_long");
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["body", "note"]));
}

#[tokio::test]
async fn a_refused_forward_step_is_a_422_at_the_old_field() {
    let addr = spawn(app()).await;
    let reply = post_at(
        addr,
        "/items",
        "2026-01-15",
        r#"{"title": "Foo", "price": -5, "legacy_code": "x"}"#,
    )
    .await;
    assert_eq!(reply.status, 422, "{}", reply.text());
    assert_eq!(
        reply.json()["detail"],
        json!([{
            "type": "value_error",
            "loc": ["body", "price"],
            "msg": "Value error, a price in cents is not negative",
            "input": -5,
            "ctx": {"error": {}},
        }])
    );
}

#[tokio::test]
async fn a_versioned_model_nested_in_an_unversioned_one_moves_too() {
    let addr = spawn(app()).await;
    let body = r#"{"items": [{"title": "A", "price": 100, "legacy_code": "a"}, {"title": "B", "price": 250, "legacy_code": "b"}], "note": "n"}"#;
    let reply = post_at(addr, "/orders", "2026-01-15", body).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.text(),
        r#"{"items":[{"title":"A","price":100,"note":"","legacy_code":"L-A"},{"title":"B","price":250,"note":"","legacy_code":"L-B"}],"note":"n"}"#
    );
    let reply = post_at(
        addr,
        "/orders",
        "2026-01-15",
        r#"{"items": [{"name": "A", "price": 1}], "note": "n"}"#,
    )
    .await;
    assert_eq!(
        reply.json()["detail"][0]["loc"],
        json!(["body", "items", 0, "title"])
    );
    // The middle version: renamed and retyped, the tags added by the step to the newest.
    let reply = post_at(
        addr,
        "/orders",
        "2026-03-01",
        r#"{"items": [{"name": "A", "price": 1.5}], "note": "n"}"#,
    )
    .await;
    assert_eq!(
        reply.text(),
        r#"{"items":[{"name":"A","price":1.5,"note":""}],"note":"n"}"#
    );
    // The newest version asks for the tags: the default is an older request's, not the newest's.
    let reply = post_at(
        addr,
        "/orders",
        "2026-06-01",
        r#"{"items": [{"name": "A", "price": 1.5}], "note": "n"}"#,
    )
    .await;
    assert_eq!(
        reply.json()["detail"][0]["loc"],
        json!(["body", "items", 0, "tags"])
    );
}

#[tokio::test]
async fn in_an_app_without_versions_a_versioned_model_is_its_newest_shape() {
    let addr = spawn(App::new().routes(routes![create_item])).await;
    let newest = r#"{"name":"Foo","price":12.5,"tags":["x"],"note":""}"#;
    let headers = [("Content-Type", "application/json")];
    let reply = send(addr, "POST", "/items", &headers, Some(newest.as_bytes())).await;
    assert_eq!(reply.text(), newest);
}

#[test]
fn the_model_says_its_changes_and_writes_each_shape() {
    assert_eq!(<Item as Versioned>::CHANGES, ["2026-06-01", "2026-03-01"]);
    let item = Item {
        name: "Foo".to_owned(),
        price: 0.5,
        tags: Vec::new(),
        note: "n".to_owned(),
    };
    let at = |version| String::from_utf8(item.write_at(version).expect("writes")).expect("utf-8");
    assert_eq!(
        at("2026-01-15"),
        r#"{"title":"Foo","price":50,"note":"n","legacy_code":"L-Foo"}"#
    );
    assert_eq!(at("2026-03-01"), r#"{"name":"Foo","price":0.5,"note":"n"}"#);
    assert_eq!(
        serde_json::to_string(&item).expect("writes"),
        r#"{"name":"Foo","price":0.5,"tags":[],"note":"n"}"#
    );
}

#[test]
fn a_change_at_a_date_that_is_no_version_does_not_build() {
    #[derive(Model, Debug)]
    pub struct Odd {
        #[since("2026-02-01", renamed_from = "old")]
        pub new: String,
    }
    #[post("/odd")]
    async fn odd(body: Odd) -> String {
        body.new
    }
    let error = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![odd])
        .build()
        .map(drop)
        .expect_err("an undeclared date");
    let found = change_mistakes(&error);
    assert_eq!(
        found,
        [(
            "model `Odd` changes at `2026-02-01`, which is not a version of the app; its versions are 2026-01-15, 2026-03-01".to_owned(),
            "odd"
        )]
    );
}

#[test]
fn a_bad_date_in_a_model_a_route_only_writes_or_nests_does_not_build() {
    /// Only returned.
    #[derive(Model, Debug)]
    pub struct Returned {
        #[since("2026-02-01", renamed_from = "old")]
        pub new: String,
    }
    /// A field of an unversioned model.
    #[derive(Model, Debug)]
    pub struct Inner {
        #[since("2026-02-02", default = 0)]
        pub count: i64,
    }
    /// In a `Vec`, in a model a route reads.
    #[derive(Model, Debug)]
    pub struct Listed {
        #[since("2026-02-03", was = i32, forward = widen, backward = narrow)]
        pub amount: i64,
    }
    /// In an `Option`, in a model a route left out of the document writes.
    #[derive(Model, Debug)]
    #[model(removed("2026-02-04", code: String, backward = code_of))]
    pub struct Maybe {
        pub name: String,
    }
    fn widen(value: i32) -> Result<i64, String> {
        Ok(value.into())
    }
    fn narrow(value: &i64) -> i32 {
        i32::try_from(*value).unwrap_or(i32::MAX)
    }
    fn code_of(maybe: &Maybe) -> String {
        maybe.name.clone()
    }
    #[derive(Model, Debug, serde::Serialize)]
    pub struct Holder {
        pub inner: Inner,
    }
    #[derive(Model, Debug, serde::Serialize)]
    pub struct Many {
        pub listed: Vec<Listed>,
    }
    #[derive(Model, Debug, serde::Serialize)]
    pub struct Perhaps {
        pub maybe: Option<Maybe>,
    }
    #[get("/returned")]
    async fn returned() -> Json<Returned> {
        Json(Returned { new: "x".to_owned() })
    }
    #[get("/held")]
    async fn held() -> Result<Json<Holder>, HttpError> {
        Err(HttpError::new(404, "none"))
    }
    #[post("/many")]
    async fn many(body: Many) -> String {
        body.listed.len().to_string()
    }
    #[get("/perhaps", include_in_schema = false)]
    async fn perhaps() -> Json<Perhaps> {
        Json(Perhaps { maybe: None })
    }
    let error = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![returned, held, many, perhaps])
        .build()
        .map(drop)
        .expect_err("undeclared dates");
    let found = change_mistakes(&error);
    let problem = |model: &str, date: &str| {
        format!("model `{model}` changes at `{date}`, which is not a version of the app; its versions are 2026-01-15, 2026-03-01")
    };
    assert_eq!(
        found,
        [
            (problem("Returned", "2026-02-01"), "returned"),
            (problem("Inner", "2026-02-02"), "held"),
            (problem("Listed", "2026-02-03"), "many"),
            (problem("Maybe", "2026-02-04"), "perhaps"),
        ]
    );
    // The message as the build prints it, naming the route.
    let printed = error.to_string();
    assert!(
        printed.contains("model `Inner` changes at `2026-02-02`"),
        "{printed}"
    );
    assert!(printed.contains("held"), "{printed}");
}

#[test]
fn a_model_a_route_reads_twice_is_one_mistake() {
    #[derive(Model, Debug)]
    pub struct Twice {
        #[since("2026-02-01", renamed_from = "old")]
        pub new: String,
    }
    #[post("/twice")]
    async fn twice(body: Twice) -> Json<Twice> {
        Json(body)
    }
    #[put("/twice")]
    async fn again(body: Twice) -> Json<Twice> {
        Json(body)
    }
    let error = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![twice, again])
        .build()
        .map(drop)
        .expect_err("an undeclared date");
    assert_eq!(error.errors().count(), 1, "{error}");
}

/// Each mistake of `error` as `(problem, route)`: every one must be a version change at a route.
fn change_mistakes(error: &ferrapi::BuildError) -> Vec<(String, &'static str)> {
    error
        .errors()
        .map(|mistake| match (mistake.kind(), mistake.declared()) {
            (MistakeKind::VersionChange { problem }, Declared::Route { name, .. }) => {
                (problem.clone(), *name)
            }
            other => panic!("{other:?}"),
        })
        .collect()
}
