//! API versions, item 3 (issue 44), a change of a whole model, over real HTTP:
//! `#[model(changed("date", was = Older, forward = f, backward = g))]` says the model was another
//! model (`Older`, with older changes of its own) before `date`. An old request is read as
//! `Older` at its version (its 422s are `Older`'s, in that version's shape), moved to the model by
//! `f` (a refusal is a 422 at the body), handled once; the answer goes back through `g` and is
//! written as `Older` at the version. Field changes newer than the whole-model change walk as
//! usual; each version's document shows the model's shape then; the changelog says so.

use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};
use serde_json::json;

/// A person before 2026-06-01: one name (`full_name` before 2026-03-01).
#[derive(Model, Debug, PartialEq)]
pub struct PersonBeforeSplit {
    /// The whole name.
    #[since("2026-03-01", renamed_from = "full_name")]
    #[min_length(1)]
    pub name: String,
}

/// A person: the name split in two at 2026-06-01; an age since 2026-09-01.
#[derive(Model, Debug, Clone, PartialEq)]
#[model(changed("2026-06-01", was = PersonBeforeSplit, forward = split_name, backward = join_name))]
pub struct Person {
    pub first: String,
    pub last: String,
    /// Unknown (0) before 2026-09-01.
    #[since("2026-09-01", default = 0)]
    pub age: u8,
}

fn split_name(old: PersonBeforeSplit) -> Result<Person, String> {
    match old.name.split_once(' ') {
        Some((first, last)) => Ok(Person {
            first: first.to_owned(),
            last: last.to_owned(),
            age: 0,
        }),
        None => Err("a name has a first and a last part".to_owned()),
    }
}

fn join_name(person: &Person) -> PersonBeforeSplit {
    PersonBeforeSplit {
        name: format!("{} {}", person.first, person.last),
    }
}

/// The handler sees the newest model whatever the version; it answers with it.
#[post("/people")]
async fn create_person(person: Person) -> Json<Person> {
    Json(person)
}

fn app() -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01", "2026-06-01"]).unreleased("2026-09-01"))
        .routes(routes![create_person])
}

async fn post(addr: std::net::SocketAddr, version: &str, body: &str) -> Reply {
    let headers = [("API-Version", version), ("Content-Type", "application/json")];
    send(addr, "POST", "/people", &headers, Some(body.as_bytes())).await
}

#[tokio::test]
async fn an_old_request_is_read_as_the_older_model_and_answered_as_it() {
    let addr = spawn(app()).await;
    let oldest = post(addr, "2026-01-15", r#"{"full_name": "Ada Lovelace"}"#).await;
    assert_eq!(
        (oldest.status, oldest.text()),
        (200, r#"{"full_name":"Ada Lovelace"}"#.to_owned())
    );
    let middle = post(addr, "2026-03-01", r#"{"name": "Ada Lovelace"}"#).await;
    assert_eq!(middle.text(), r#"{"name":"Ada Lovelace"}"#);
    let split = post(addr, "2026-06-01", r#"{"first": "Ada", "last": "Lovelace"}"#).await;
    assert_eq!(split.text(), r#"{"first":"Ada","last":"Lovelace"}"#);
    let newest = post(
        addr,
        "2026-09-01",
        r#"{"first": "Ada", "last": "Lovelace", "age": 36}"#,
    )
    .await;
    assert_eq!(newest.text(), r#"{"first":"Ada","last":"Lovelace","age":36}"#);
}

#[tokio::test]
async fn an_old_requests_422s_are_the_older_models() {
    let addr = spawn(app()).await;
    let empty = post(addr, "2026-03-01", r#"{"name": ""}"#).await;
    assert_eq!(empty.status, 422);
    assert_eq!(empty.json()["detail"][0]["type"], "string_too_short");
    assert_eq!(empty.json()["detail"][0]["loc"], json!(["body", "name"]));
    // The newest shape's fields are not the old version's.
    let newest_shape = post(addr, "2026-01-15", r#"{"first": "Ada", "last": "Lovelace"}"#).await;
    assert_eq!(newest_shape.status, 422);
    assert_eq!(
        newest_shape.json()["detail"][0]["loc"],
        json!(["body", "full_name"])
    );
    // The step refuses: a 422 at the body, the object as input.
    let refused = post(addr, "2026-03-01", r#"{"name": "Ada"}"#).await;
    assert_eq!(refused.status, 422);
    assert_eq!(
        refused.json()["detail"],
        json!([{"type": "value_error", "loc": ["body"], "msg": "Value error, a name has a first and a last part",
                "input": {"name": "Ada"}, "ctx": {"error": {}}}])
    );
}

#[tokio::test]
async fn each_version_documents_its_shape_and_the_changelog_says_so() {
    let addr = spawn(app()).await;
    let document = |version: &'static str| async move {
        send(addr, "GET", &format!("/openapi/{version}.json"), &[], None)
            .await
            .json()
    };
    let oldest = document("2026-01-15").await;
    let schemas = &oldest["components"]["schemas"];
    let old_person = schemas.as_object().and_then(|schemas| {
        schemas
            .values()
            .find(|schema| schema["properties"]["full_name"].is_object())
    });
    assert!(old_person.is_some(), "{schemas}");
    let split = document("2026-06-01").await;
    assert_eq!(
        split["components"]["schemas"]["Person"]["required"],
        json!(["first", "last"])
    );
    let changes = send(addr, "GET", "/openapi/changes.json", &[], None).await.json();
    let kinds = |at: usize| -> Vec<(String, String)> {
        changes["versions"][at]["changes"]
            .as_array()
            .map(|changes| {
                changes
                    .iter()
                    .map(|change| {
                        (
                            change["kind"].as_str().unwrap_or("").to_owned(),
                            change["summary"].as_str().unwrap_or("").to_owned(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    assert_eq!(
        kinds(1),
        [(
            "field_renamed".to_owned(),
            "`full_name` renamed `name` in PersonBeforeSplit".to_owned()
        )]
    );
    assert_eq!(
        kinds(2),
        [(
            "model_changed".to_owned(),
            "Person changed as a whole (was `PersonBeforeSplit`)".to_owned()
        )]
    );
    assert_eq!(
        kinds(3),
        [("field_added".to_owned(), "`age` added to Person".to_owned())]
    );
}

#[test]
fn the_older_models_dates_are_checked_too() {
    /// Its own change at a date the app does not declare.
    #[derive(Model, Debug)]
    pub struct OddBefore {
        #[since("2026-02-01", renamed_from = "old")]
        pub name: String,
    }
    #[derive(Model, Debug)]
    #[model(changed("2026-03-01", was = OddBefore, forward = forward, backward = backward))]
    pub struct Odd {
        pub first: String,
    }
    fn forward(old: OddBefore) -> Result<Odd, String> {
        Ok(Odd { first: old.name })
    }
    fn backward(new: &Odd) -> OddBefore {
        OddBefore {
            name: new.first.clone(),
        }
    }
    #[get("/odd")]
    async fn odd() -> Json<Odd> {
        Json(Odd {
            first: "x".to_owned(),
        })
    }
    let error = App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![odd])
        .build()
        .map(drop)
        .expect_err("an undeclared date of the older model");
    let problems: Vec<String> = error.errors().map(|mistake| mistake.to_string()).collect();
    assert_eq!(problems.len(), 1, "{error}");
    assert!(
        problems[0].contains("model `OddBefore` changes at `2026-02-01`, which is not a version of the app"),
        "{error}"
    );
}
