//! A client generated from an old version's document keeps working against the newest server
//! (issue 44, item 5): an app with two released versions, 2026-01-15 and 2026-03-01; the client
//! `versions_2026_01_15` is generated (build.rs) from the document the app serves for 2026-01-15,
//! recorded in documents/ferrapi_versions_2026-01-15.json (kept equal to what the app serves by
//! the first test; `UPDATE_SNAPSHOTS=1` rewrites it). Against the server whose default is the
//! newest version, the old client gets the old version's answers: the widget with its old
//! `title`, a route that exists only in the old version, and the echoed `API-Version`; and the
//! typed streams (`JsonLines<Gadget>`, `Sse<Gadget>`), whose items the old document gives as its
//! `Gadget` (`x-itemSchema`), are typed streams of that old `Gadget` in the client.

// Test code: a failed expectation is a test failure, reported with its message.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use ferrapi::prelude::*;
use ferrapi::streaming::{JsonEvent, JsonLines, Sse};
use ferrapi::versions::{ApiVersion, Versions};
use ferrapi_client::{Call as _, Client as Runtime};
use ferrapi_client_tests::versions_2026_01_15::operations::{LegacyResponse, ReadWidgetV1Response};
use ferrapi_client_tests::versions_2026_01_15::{Client, API_VERSION, API_VERSION_HEADER};
use ferrapi_tests::app::spawn;
use futures_util::StreamExt;
use serde::Serialize;

const RECORDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/documents/ferrapi_versions_2026-01-15.json"
);

/// A widget as version 2026-01-15 wrote it.
#[derive(Model, Serialize)]
struct WidgetV1 {
    id: i64,
    title: String,
}

/// A widget since 2026-03-01: `title` renamed `name`.
#[derive(Model, Serialize)]
struct Widget {
    id: i64,
    name: String,
}

#[get("/widget/{id}", versions = .."2026-03-01")]
async fn read_widget_v1(id: i64) -> Json<WidgetV1> {
    Json(WidgetV1 {
        id,
        title: "Foo".into(),
    })
}

#[get("/widget/{id}", versions = "2026-03-01"..)]
async fn read_widget(id: i64) -> Json<Widget> {
    Json(Widget {
        id,
        name: "Foo".into(),
    })
}

/// Gone in 2026-03-01.
#[get("/legacy", versions = .."2026-03-01")]
async fn legacy(version: ApiVersion) -> String {
    version.date().to_owned()
}

/// A gadget: `label` was `title` before 2026-03-01 (one model, its old shape declared).
#[derive(Model, Debug, Clone)]
struct Gadget {
    #[since("2026-03-01", renamed_from = "title")]
    label: String,
}

fn gadgets() -> Vec<Gadget> {
    ["bolt", "nut"]
        .map(|label| Gadget {
            label: label.to_owned(),
        })
        .into()
}

/// The gadgets as JSON lines, in every version.
#[get("/gadgets.jsonl")]
async fn gadget_lines() -> JsonLines<Gadget> {
    JsonLines::new(futures_util::stream::iter(gadgets()))
}

/// The gadgets as events, each with its number as its id, in every version.
#[get("/gadgets/events")]
async fn gadget_events() -> Sse<Gadget> {
    let events = gadgets().into_iter().enumerate().map(|(n, gadget)| {
        Ok::<_, std::convert::Infallible>(JsonEvent::new(gadget).event("gadget").id(n.to_string()))
    });
    Sse::json_events(futures_util::stream::iter(events))
}

/// The app; `default` pins the version a request naming none gets (its document's version).
fn app(default: &'static str) -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]).default_version(default))
        .routes(routes![
            read_widget_v1,
            read_widget,
            legacy,
            gadget_lines,
            gadget_events
        ])
}

#[test]
fn the_recorded_document_is_what_the_app_serves_for_its_old_version() {
    let service = app("2026-01-15").build().expect("the app builds");
    let served: serde_json::Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    assert_eq!(served["info"]["x-api-version"]["version"], "2026-01-15");
    let text = serde_json::to_string_pretty(&served).expect("JSON") + "\n";
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(RECORDED, &text).expect("write the recorded document");
    }
    let recorded = std::fs::read_to_string(RECORDED).expect("the recorded document");
    assert!(
        recorded == text,
        "{RECORDED} is stale: rerun with UPDATE_SNAPSHOTS=1 and read the diff"
    );
}

#[tokio::test]
async fn a_client_of_the_old_version_gets_the_old_version_from_the_newest_server() {
    assert_eq!((API_VERSION, API_VERSION_HEADER), ("2026-01-15", "API-Version"));
    // The server as it is deployed now: a request naming no version gets 2026-03-01.
    let addr = spawn(app("2026-03-01")).await;
    let base = format!("http://{addr}");
    let api = Client::new(&base).unwrap();

    let answer = api.read_widget_v1(3).await.unwrap();
    assert_eq!(answer.header("api-version"), Some("2026-01-15"));
    match answer.into_body() {
        ReadWidgetV1Response::Ok(widget) => assert_eq!((widget.id, widget.title.as_str()), (3, "Foo")),
        other => panic!("{other:?}"),
    }
    // A route the newest version no longer has.
    let answer = api.legacy().await.unwrap();
    assert_eq!(answer.header("api-version"), Some("2026-01-15"));
    match answer.into_body() {
        LegacyResponse::Ok(version) => assert_eq!(version, "2026-01-15"),
        other => panic!("{other:?}"),
    }

    // A client of the generated API built on the caller's runtime client sends the version too.
    let wrapped = Client::from_client(Runtime::new(&base).unwrap());
    assert_eq!(
        wrapped.legacy().await.unwrap().header("api-version"),
        Some("2026-01-15")
    );

    // The caller's own header wins over the generated one, for the client and for one call:
    // the newest version has no `/legacy` (its 404 is the newest router's), and its widget has
    // no `title` (the old client's decoding says so).
    let newest = Runtime::builder(&base)
        .header("API-Version", "2026-03-01")
        .build()
        .unwrap();
    let newest = Client::from_client(newest);
    assert_eq!(newest.legacy().await.unwrap().status().as_u16(), 404);
    let answer = api
        .legacy()
        .with_header("API-Version", "2026-03-01")
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 404);
    let error = newest.read_widget_v1(3).await.unwrap_err();
    assert!(error.to_string().contains("title"), "{error}");
}

/// The old client's streams: typed by the old document's item schemas, so each item is the old
/// `Gadget` (a `title`), as the newest server writes it for the old version.
#[tokio::test]
async fn a_client_of_the_old_version_reads_typed_streams_of_its_items() {
    let addr = spawn(app("2026-03-01")).await;
    let api = Client::new(&format!("http://{addr}")).unwrap();
    let lines: Vec<String> = api
        .gadget_lines()
        .await
        .unwrap()
        .into_ok()
        .unwrap()
        .map(|gadget| gadget.unwrap().title)
        .collect()
        .await;
    assert_eq!(lines, ["bolt", "nut"]);
    let events: Vec<(String, Option<String>, Option<String>)> = api
        .gadget_events()
        .await
        .unwrap()
        .into_ok()
        .unwrap()
        .map(|event| {
            let event = event.unwrap();
            (event.data.title, event.id, event.event)
        })
        .collect()
        .await;
    let event = |title: &str, id: &str| (title.to_owned(), Some(id.to_owned()), Some("gadget".to_owned()));
    assert_eq!(events, [event("bolt", "0"), event("nut", "1")]);
}
