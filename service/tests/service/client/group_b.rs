//! Group B through the generated client: JSON, text and HTML answers, the `X-Message` header, the
//! birds in the store (their 404 is the text `Not Found`), the connection string; group B's
//! employee (shadowed by group A's in `--group all`, so outside the document) through the runtime.

use ferrapi_client::{Json, JsonObject, Nullable};
use resource_api::config::Group;
use resource_api::group_b::{EMPLOYEES, X_MESSAGE};
use resource_api::store::{Store, StoreLocation};
use resource_api_client::operations::{CreateBirdResponse, ReadBirdResponse};
use serde_json::json;

use super::{raw_get, serve};

async fn every_route(store: Store, conn: StoreLocation) {
    let effective = conn.effective().to_owned();
    let api = serve(Group::All, store, &conn).await;

    let hello = api.hello().await.unwrap().into_ok().unwrap();
    assert_eq!(
        hello,
        json!({"ok": true, "message": "Hello from the Resource API"})
    );
    assert_eq!(
        api.read_student("ada").await.unwrap().into_ok().unwrap(),
        json!({"student": "ada"})
    );

    let page = api.page().await.unwrap();
    assert_eq!(page.header("content-type"), Some("text/html; charset=utf-8"));
    assert!(page.into_ok().unwrap().contains("<h1>"));

    let post = api.read_post("p1").page("3").await.unwrap();
    assert_eq!(post.header("x-message"), Some(X_MESSAGE));
    assert_eq!(post.into_ok().unwrap(), "You want to see 3 of p1");
    assert_eq!(
        api.read_post("p1").await.unwrap().into_ok().unwrap(),
        "You want to see 1 of p1"
    );
    assert_eq!(
        api.delete_post("p1").await.unwrap().into_ok().unwrap(),
        "p1 is deleted!"
    );
    let created = api.create_post().await.unwrap();
    assert_eq!(created.status(), 201);

    let env = api.read_env().await.unwrap().into_ok().unwrap();
    assert_eq!(env, json!({ "DB_CONN_STRING": effective }));

    // Birds: stored as sent, found by name, numbers as sent; an unknown name is a 404 whose body
    // is the text `Not Found`.
    let name = crate::support::unique("wren");
    let bird = Json::from(json!({"name": name, "wingspan": 1.50, "tags": ["small", "brown"]}));
    let created = api
        .create_bird(bird.as_object().unwrap())
        .await
        .unwrap()
        .into_ok()
        .unwrap();
    let id = created["id"].as_str().expect("an id").to_owned();
    assert_eq!(id.len(), 24);
    let found = api.read_bird(&name).await.unwrap().into_ok().unwrap();
    assert_eq!(
        found,
        json!({"_id": id, "name": name, "wingspan": 1.50, "tags": ["small", "brown"]})
    );
    exact_numbers(&api).await;
    match api.read_bird("nobody-of-that-name").await.unwrap().into_body() {
        ReadBirdResponse::NotFound(error) => assert_eq!(error.text(), "Not Found"),
        other => panic!("{other:?}"),
    }

    // The HTML form of /student/:username is shadowed by its JSON form in every mode.
    let student = raw_get(&api, "/student/ada").await;
    assert_eq!(student.text(), r#"{"student":"ada"}"#);
}

/// 2^64 and 1e400 go through the client and the service and come back as they were written
/// (issue 43, item 1); a 40-digit decimal, which no store keeps exactly (34 significant digits at
/// most), is refused with a 422 whose `input` is the number as the client sent it.
async fn exact_numbers(api: &resource_api_client::Client) {
    let name = crate::support::unique("exact");
    let bird: JsonObject = [
        ("name", Json::from(name.as_str())),
        ("big", Json::Number("18446744073709551616".parse().unwrap())),
        ("huge", Json::Number("1e400".parse().unwrap())),
        ("nested", "[0.1000,{\"x\":-0.0}]".parse::<Json>().unwrap()),
    ]
    .into_iter()
    .collect();
    let created = api.create_bird(&bird).await.unwrap().into_ok().unwrap();
    let id = created["id"].as_str().expect("an id").to_owned();
    let found = api.read_bird(&name).await.unwrap().into_ok().unwrap();
    assert_eq!(
        found.to_string(),
        format!(
            r#"{{"_id":"{id}","name":"{name}","big":18446744073709551616,"huge":1e400,"nested":[0.1000,{{"x":-0.0}}]}}"#
        )
    );
    assert_eq!(found["big"].as_number().unwrap().parse::<u128>(), Ok(1u128 << 64));

    let forty_digits = "1234567890123456789012345678901234.567891";
    let refused: JsonObject = [
        ("name", Json::from(crate::support::unique("precise").as_str())),
        ("v", Json::Number(forty_digits.parse().unwrap())),
    ]
    .into_iter()
    .collect();
    match api.create_bird(&refused).await.unwrap().into_body() {
        CreateBirdResponse::UnprocessableEntity(error) => {
            let items = error.detail.unwrap_or_default();
            assert_eq!(items.len(), 1, "{items:?}");
            assert_eq!(items[0].type_, "number_too_precise");
            assert_eq!(
                items[0].input,
                Nullable::Value(Json::from(forty_digits)),
                "sent exactly"
            );
        }
        other => panic!("{other:?}"),
    }
}

async fn group_b_alone(store: Store, conn: StoreLocation) {
    let api = serve(Group::B, store, &conn).await;
    // Group B's employee route: a zero-based index; the generated client's `read_employee` is
    // group A's (`{name, job}`), so a group B answer is a decoding error, never a wrong value.
    let error = api.read_employee(0).await.unwrap_err();
    assert!(error.to_string().contains("missing field `job`"), "{error}");
    let first = raw_get(&api, "/employee/0").await;
    assert_eq!(
        first.json::<serde_json::Value>().unwrap(),
        json!({"name": EMPLOYEES[0]})
    );
    let missing = raw_get(&api, "/employee/9").await;
    assert_eq!(
        (missing.status.as_u16(), missing.text().as_ref()),
        (404, r#""Empleat no trobat""#)
    );
    assert_eq!(api.hello().await.unwrap().into_ok().unwrap()["ok"], true);
}

both_stores![every_route, group_b_alone];
