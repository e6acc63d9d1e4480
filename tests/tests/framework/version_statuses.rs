//! API versions, item 3 (issue 44), "a status changed", over real HTTP: the route option
//! `status_before("date" = N)` gives a route's success answers at versions before `date` the
//! status `N` (Cadwyn's `endpoint(..).had(status_code=N)`), and each version's document names
//! the status of its answers; an error, or a status the handler chose itself, is left as it is;
//! a date the app does not declare, or an app without versions, does not build.

use ferrapi::prelude::*;
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::send;

use crate::support::versions::route_version_mistakes;

/// 200 before 2026-03-01, 202 from 2026-03-01 until 2026-06-01, 201 since.
#[post("/orders", status = 201, status_before("2026-06-01" = 202, "2026-03-01" = 200))]
async fn create_order(fail: bool) -> Result<Json<Value>, HttpError> {
    match fail {
        true => Err(HttpError::new(409, json!("taken"))),
        false => Ok(Json(json!({"id": 1}))),
    }
}

/// 200 now (the default), 201 before 2026-03-01; the handler may choose 203 itself.
#[put("/orders/{id}", status_before("2026-03-01" = 201))]
async fn replace_order(id: i64, other: bool) -> (StatusCode, Json<Value>) {
    match other {
        true => (StatusCode::NON_AUTHORITATIVE_INFORMATION, Json(json!({"id": id}))),
        false => (StatusCode::OK, Json(json!({"id": id}))),
    }
}

fn app() -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01"))
        .routes(routes![create_order, replace_order])
}

/// `method path` at `version`: its status and body.
async fn at(addr: std::net::SocketAddr, method: &str, path: &str, version: &str) -> (u16, String) {
    let reply = send(addr, method, path, &[("API-Version", version)], None).await;
    (reply.status, reply.text())
}

#[tokio::test]
async fn each_version_answers_with_its_status() {
    let addr = spawn(app()).await;
    let post = |version| async move { at(addr, "POST", "/orders?fail=false", version).await.0 };
    assert_eq!(post("2026-01-15").await, 200);
    assert_eq!(post("2026-03-01").await, 202);
    assert_eq!(post("2026-06-01").await, 201);
    // No header: the default (the newest released, 2026-03-01).
    let reply = send(addr, "POST", "/orders?fail=false", &[], None).await;
    assert_eq!((reply.status, reply.text()), (202, r#"{"id":1}"#.to_owned()));
    // Without `status = N` the newest is 200.
    let put = |version| async move { at(addr, "PUT", "/orders/1?other=false", version).await.0 };
    assert_eq!(put("2026-01-15").await, 201);
    assert_eq!(put("2026-03-01").await, 200);
}

#[tokio::test]
async fn an_error_or_a_status_the_handler_chose_is_left_as_it_is() {
    let addr = spawn(app()).await;
    let old = "2026-01-15";
    let taken = at(addr, "POST", "/orders?fail=true", old).await;
    assert_eq!(taken, (409, r#"{"detail":"taken"}"#.to_owned()));
    let (status, body) = at(addr, "PUT", "/orders/x?other=false", old).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(at(addr, "PUT", "/orders/1?other=true", old).await.0, 203);
}

#[tokio::test]
async fn each_versions_document_names_its_status() {
    let addr = spawn(app()).await;
    for (version, post, put) in [
        ("2026-01-15", "200", "201"),
        ("2026-03-01", "202", "200"),
        ("2026-06-01", "201", "200"),
    ] {
        let path = format!("/openapi/{version}.json");
        let document = send(addr, "GET", &path, &[], None).await.json();
        let responses = |path: &str, method: &str| -> Vec<String> {
            let object = document["paths"][path][method]["responses"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            object.keys().cloned().collect()
        };
        assert_eq!(responses("/orders", "post"), [post, "422"], "{version}");
        assert_eq!(responses("/orders/{id}", "put"), [put, "422"], "{version}");
    }
}

#[test]
fn a_date_not_a_version_or_an_app_without_versions_does_not_build() {
    let problems = route_version_mistakes;
    let unknown = App::new()
        .versions(Versions::released(["2026-01-15", "2026-06-01"]))
        .routes(routes![create_order]);
    assert_eq!(
        problems(unknown),
        [(
            "the route's status changes at `2026-03-01` (`status_before`), which is not a version of the app; its versions are 2026-01-15, 2026-06-01 (default)".to_owned(),
            "create_order"
        )]
    );
    assert_eq!(
        problems(App::new().routes(routes![replace_order])),
        [(
            "the route's status changes at a version (`status_before`), but the app declares no versions; declare them with `App::versions`".to_owned(),
            "replace_order"
        )]
    );
}
