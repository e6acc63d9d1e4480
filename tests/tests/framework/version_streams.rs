//! API versions, item 3 (issue 44), "streamed items included", over real HTTP: the items of a
//! streamed answer (JSON lines through `StreamingResponse`, Server-Sent Events through `Sse`)
//! are written after the handler returned, yet each versioned model in them takes the shape of
//! the request's version, items produced after the stream waited included; an `HttpError`
//! whose detail is a versioned model is written at the version too; without a header, or in an
//! app without versions, the newest shape. The typed streams (`JsonLines<T>`, `Sse<T>`) write
//! the same shapes, and each version's document gives their items that version's schema.

use std::convert::Infallible;

use ferrapi::prelude::*;
use ferrapi::streaming::{Event, JsonEvent, JsonLines, Sse, StreamingResponse};
use ferrapi::versions::Versions;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};
use futures_util::{stream, StreamExt};

/// A part: `label` was `title` before 2026-03-01.
#[derive(Model, Debug, Clone)]
pub struct Part {
    /// Its label (`title` before 2026-03-01).
    #[since("2026-03-01", renamed_from = "title")]
    pub label: String,
}

fn parts() -> Vec<Part> {
    ["bolt", "nut"]
        .map(|label| Part {
            label: label.to_owned(),
        })
        .into()
}

/// The parts as JSON lines, each written when the client reads it, the second after the stream
/// waited (another poll, on a later wake-up).
#[get("/parts.jsonl")]
async fn parts_lines() -> StreamingResponse {
    let lines = stream::unfold(parts().into_iter(), |mut rest| async move {
        tokio::task::yield_now().await;
        let part = rest.next()?;
        let mut line = serde_json::to_vec(&part).map_err(std::io::Error::other);
        if let Ok(line) = &mut line {
            line.push(b'\n');
        }
        Some((line, rest))
    });
    StreamingResponse::new(lines).content_type(ferrapi::http::header::HeaderValue::from_static(
        "application/x-ndjson",
    ))
}

/// The parts as server-sent events.
#[get("/parts/events")]
async fn parts_events() -> Sse {
    let events = stream::iter(parts()).map(|part| Event::default().event("part").json_data(&part));
    Sse::new(events)
}

/// The parts as typed JSON lines, the second after the stream waited.
#[get("/parts/lines")]
async fn parts_typed_lines() -> JsonLines<Part> {
    JsonLines::new(stream::unfold(parts().into_iter(), |mut rest| async move {
        tokio::task::yield_now().await;
        rest.next().map(|part| (part, rest))
    }))
}

/// The parts as typed events, each with its number as its id.
#[get("/parts/typed-events")]
async fn parts_typed_events() -> Sse<Part> {
    let events = stream::iter(parts())
        .enumerate()
        .map(|(n, part)| Ok::<_, Infallible>(JsonEvent::new(part).event("part").id(n.to_string())));
    Sse::json_events(events)
}

/// A conflict whose detail is the part that is in the way.
#[post("/parts/{label}")]
async fn add_part(label: String) -> Result<Json<Part>, HttpError> {
    let taken = parts().into_iter().find(|part| part.label == label);
    match taken.map(|part| serde_json::to_value(&part)) {
        Some(Ok(detail)) => Err(HttpError::new(409, detail)),
        Some(Err(_)) => Err(HttpError::new(500, json!("unwritable"))),
        None => Ok(Json(Part { label })),
    }
}

fn app() -> App {
    App::new()
        .versions(Versions::released(["2026-01-15", "2026-03-01"]))
        .routes(routes![
            parts_lines,
            parts_events,
            add_part,
            parts_typed_lines,
            parts_typed_events
        ])
}

/// `method path` at `version` (none: no header).
async fn at(addr: std::net::SocketAddr, method: &str, path: &str, version: Option<&str>) -> Reply {
    let headers: Vec<(&str, &str)> = version
        .map(|version| ("API-Version", version))
        .into_iter()
        .collect();
    send(addr, method, path, &headers, None).await
}

fn body(reply: &Reply) -> String {
    String::from_utf8(reply.dechunked()).unwrap_or_else(|error| panic!("{error}"))
}

#[tokio::test]
async fn json_lines_are_written_in_the_shape_of_the_requests_version() {
    let addr = spawn(app()).await;
    let old = at(addr, "GET", "/parts.jsonl", Some("2026-01-15")).await;
    assert_eq!(old.header("transfer-encoding"), Some("chunked"));
    assert_eq!(body(&old), "{\"title\":\"bolt\"}\n{\"title\":\"nut\"}\n");
    let new = at(addr, "GET", "/parts.jsonl", Some("2026-03-01")).await;
    assert_eq!(body(&new), "{\"label\":\"bolt\"}\n{\"label\":\"nut\"}\n");
    let default = at(addr, "GET", "/parts.jsonl", None).await;
    assert_eq!(body(&default), body(&new));
}

#[tokio::test]
async fn server_sent_events_are_written_in_the_shape_of_the_requests_version() {
    let addr = spawn(app()).await;
    let old = at(addr, "GET", "/parts/events", Some("2026-01-15")).await;
    assert_eq!(old.header("content-type"), Some("text/event-stream"));
    assert_eq!(
        body(&old),
        "event: part\ndata: {\"title\":\"bolt\"}\n\nevent: part\ndata: {\"title\":\"nut\"}\n\n"
    );
    let new = at(addr, "GET", "/parts/events", Some("2026-03-01")).await;
    assert_eq!(
        body(&new),
        "event: part\ndata: {\"label\":\"bolt\"}\n\nevent: part\ndata: {\"label\":\"nut\"}\n\n"
    );
}

#[tokio::test]
async fn an_http_errors_model_detail_is_written_at_the_version() {
    let addr = spawn(app()).await;
    let old = at(addr, "POST", "/parts/bolt", Some("2026-01-15")).await;
    assert_eq!(
        (old.status, old.text()),
        (409, r#"{"detail":{"title":"bolt"}}"#.to_owned())
    );
    let new = at(addr, "POST", "/parts/bolt", Some("2026-03-01")).await;
    assert_eq!(
        (new.status, new.text()),
        (409, r#"{"detail":{"label":"bolt"}}"#.to_owned())
    );
    let created = at(addr, "POST", "/parts/washer", Some("2026-01-15")).await;
    assert_eq!(created.text(), r#"{"title":"washer"}"#);
}

#[tokio::test]
async fn without_versions_a_stream_writes_the_newest_shape() {
    let addr = spawn(App::new().routes(routes![parts_lines, parts_events])).await;
    let lines = at(addr, "GET", "/parts.jsonl", None).await;
    assert_eq!(body(&lines), "{\"label\":\"bolt\"}\n{\"label\":\"nut\"}\n");
    let events = at(addr, "GET", "/parts/events", None).await;
    assert_eq!(
        body(&events),
        "event: part\ndata: {\"label\":\"bolt\"}\n\nevent: part\ndata: {\"label\":\"nut\"}\n\n"
    );
}

#[tokio::test]
async fn typed_json_lines_and_events_are_written_in_the_shape_of_the_requests_version() {
    let addr = spawn(app()).await;
    let old = at(addr, "GET", "/parts/lines", Some("2026-01-15")).await;
    assert_eq!(old.header("content-type"), Some("application/jsonl"));
    assert_eq!(body(&old), "{\"title\":\"bolt\"}\n{\"title\":\"nut\"}\n");
    let new = at(addr, "GET", "/parts/lines", None).await;
    assert_eq!(body(&new), "{\"label\":\"bolt\"}\n{\"label\":\"nut\"}\n");

    let old = at(addr, "GET", "/parts/typed-events", Some("2026-01-15")).await;
    assert_eq!(old.header("content-type"), Some("text/event-stream"));
    assert_eq!(
        body(&old),
        "event: part\nid: 0\ndata: {\"title\":\"bolt\"}\n\nevent: part\nid: 1\ndata: {\"title\":\"nut\"}\n\n"
    );
    let new = at(addr, "GET", "/parts/typed-events", Some("2026-03-01")).await;
    assert_eq!(
        body(&new),
        "event: part\nid: 0\ndata: {\"label\":\"bolt\"}\n\nevent: part\nid: 1\ndata: {\"label\":\"nut\"}\n\n"
    );
}

/// Each version's document (served at `/openapi/{version}.json`) gives the typed streams' items
/// as a `$ref` to its own `Part`: `title` in the older, `label` in the newer; the untyped
/// streams stay as they were (a string of events, bytes).
#[tokio::test]
async fn each_versions_document_gives_the_stream_items_in_its_shape() {
    let addr = spawn(app()).await;
    for (version, field) in [("2026-01-15", "title"), ("2026-03-01", "label")] {
        let doc = at(addr, "GET", &format!("/openapi/{version}.json"), None)
            .await
            .json();
        let part = json!({"$ref": "#/components/schemas/Part"});
        let ok = |path: &str| doc["paths"][path]["get"]["responses"]["200"]["content"].clone();
        assert_eq!(
            ok("/parts/lines"),
            json!({"application/jsonl": {"x-itemSchema": part}}),
            "{version}"
        );
        let events = ok("/parts/typed-events");
        let events = &events["text/event-stream"];
        assert_eq!(events["schema"], json!({"type": "string"}), "{version}");
        let item = &events["x-itemSchema"];
        assert_eq!(item["required"], json!(["data"]), "{version}");
        assert_eq!(
            item["properties"]["data"],
            json!({"type": "string", "contentMediaType": "application/json", "contentSchema": part}),
            "{version}"
        );
        assert_eq!(
            ok("/parts/events"),
            json!({"text/event-stream": {"schema": {"type": "string"}}}),
            "{version}"
        );
        let properties = &doc["components"]["schemas"]["Part"]["properties"];
        let keys: Vec<&String> = properties
            .as_object()
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        assert_eq!(keys, [field], "{version}");
    }
}
