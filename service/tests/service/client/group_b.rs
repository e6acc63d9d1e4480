//! Group B through the generated client: JSON, text and HTML answers, the `X-Message` header, the
//! birds in the store (their 404 is the text `Not Found`), the connection string; group B's
//! employee (shadowed by group A's in `--group all`, so outside the document) through the runtime.

use resource_api::config::Group;
use resource_api::group_b::{EMPLOYEES, X_MESSAGE};
use resource_api::store::{Store, StoreLocation};
use resource_api_client::operations::ReadBirdResponse;
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
    let bird = json!({"name": name, "wingspan": 1.50, "tags": ["small", "brown"]});
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
    match api.read_bird("nobody-of-that-name").await.unwrap().into_body() {
        ReadBirdResponse::NotFound(error) => assert_eq!(error.text(), "Not Found"),
        other => panic!("{other:?}"),
    }

    // The HTML form of /student/:username is shadowed by its JSON form in every mode.
    let student = raw_get(&api, "/student/ada").await;
    assert_eq!(student.text(), r#"{"student":"ada"}"#);
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
