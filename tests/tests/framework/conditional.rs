//! Conditional requests over real HTTP (RFC 9110 §13.1–13.2): a small app of versioned notes whose
//! routes take `Preconditions` and answer `Tagged`, served on 127.0.0.1 and spoken to with the raw
//! client, so what is checked is what goes over the wire (a 304 without a body, its headers).
//! The comparison rules themselves are unit-tested in `runtime/src/conditional/`.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Mutex;

use ferrapi::conditional::{ETag, IfMatchRequired, Preconditions, Tagged, Write};
use ferrapi::http::header::{HeaderName, HeaderValue, CACHE_CONTROL};
use ferrapi::prelude::*;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};

/// Notes by id: text and version.
#[derive(Default)]
struct Notes(Mutex<HashMap<i64, (String, u64)>>);

impl Notes {
    fn current(&self, id: i64) -> Option<(String, u64)> {
        self.0.lock().ok()?.get(&id).cloned()
    }
}

#[derive(Model)]
struct NoteIn {
    text: String,
}

/// A note, tagged by its version; evaluated before the answer is made.
#[get("/notes/{id}")]
async fn read_note(
    notes: State<Notes>,
    id: i64,
    pre: Preconditions,
) -> Result<Tagged<([(HeaderName, HeaderValue); 1], Json<Value>)>, Response> {
    let Some((text, version)) = notes.current(id) else {
        return Err(HttpError::not_found("Note not found").into_response());
    };
    let etag = ETag::from_version(version);
    // The version is known before the answer is made: a 304 or 412 costs no serialization.
    pre.evaluate(Some(&etag)).map_err(IntoResponse::into_response)?;
    let cache = [(CACHE_CONTROL, HeaderValue::from_static("max-age=60"))];
    Ok(pre.respond(etag, (cache, Json(json!({ "id": id, "text": text })))))
}

/// Replace a note if the client's copy is current.
#[put("/notes/{id}")]
async fn replace_note(
    notes: State<Notes>,
    id: i64,
    note: NoteIn,
    pre: Preconditions<Write>,
) -> Result<Tagged<Json<Value>>, Response> {
    let Ok(mut all) = notes.0.lock() else {
        return Err(HttpError::new(500, "poisoned").into_response());
    };
    let current = all.get(&id).map(|(_, version)| ETag::from_version(*version));
    pre.evaluate(current.as_ref())
        .map_err(IntoResponse::into_response)?;
    let version = current.and_then(|tag| tag.version()).unwrap_or(0) + 1;
    all.insert(id, (note.text.clone(), version));
    Ok(Tagged::new(
        ETag::from_version(version),
        Json(json!({ "id": id, "text": note.text })),
    ))
}

/// Delete a note: only with `If-Match`.
#[delete("/notes/{id}", status = 204)]
async fn delete_note(
    notes: State<Notes>,
    id: i64,
    pre: Preconditions<IfMatchRequired>,
) -> Result<StatusCode, Response> {
    let Ok(mut all) = notes.0.lock() else {
        return Err(HttpError::new(500, "poisoned").into_response());
    };
    let current = all.get(&id).map(|(_, version)| ETag::from_version(*version));
    pre.evaluate(current.as_ref())
        .map_err(IntoResponse::into_response)?;
    all.remove(&id);
    Ok(StatusCode::NO_CONTENT)
}

/// A representation whose tag is its body's hash, evaluated after it is made.
#[get("/report")]
async fn report(
    pre: Preconditions,
    weak: Option<bool>,
) -> Tagged<([(HeaderName, HeaderValue); 2], Json<Value>)> {
    let headers = [
        (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            HeaderName::from_static("x-report"),
            HeaderValue::from_static("yes"),
        ),
    ];
    let tagged = pre.respond_hashed((headers, Json(json!({ "total": 3 }))));
    if weak == Some(true) {
        tagged.weak()
    } else {
        tagged
    }
}

/// An unconditional route, for comparison.
#[get("/plain")]
async fn plain() -> Json<Value> {
    Json(json!({ "plain": true }))
}

fn app() -> App {
    let notes = Notes::default();
    if let Ok(mut all) = notes.0.lock() {
        all.insert(1, ("first".to_owned(), 1));
    }
    App::new()
        .state(notes)
        .routes(routes![read_note, replace_note, delete_note, report, plain])
}

async fn server() -> SocketAddr {
    spawn(app()).await
}

async fn with(addr: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
    send(addr, method, path, headers, None).await
}

async fn put(addr: SocketAddr, headers: &[(&str, &str)], text: &str) -> Reply {
    let body = format!(r#"{{"text":"{text}"}}"#);
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    send(addr, "PUT", "/notes/1", &all, Some(body.as_bytes())).await
}

#[tokio::test]
async fn a_read_carries_its_etag_and_a_matching_if_none_match_gets_304_without_a_body() {
    let addr = server().await;
    let reply = with(addr, "GET", "/notes/1", &[]).await;
    assert_eq!((reply.status, reply.header("etag")), (200, Some("\"1\"")));
    assert_eq!(reply.text(), r#"{"id":1,"text":"first"}"#);

    for sent in ["\"1\"", "W/\"1\"", "\"0\", \"1\"", "*"] {
        let reply = with(addr, "GET", "/notes/1", &[("If-None-Match", sent)]).await;
        assert_eq!(reply.status, 304, "{sent}");
        assert_eq!(reply.header("etag"), Some("\"1\""), "{sent}");
        assert!(reply.body.is_empty(), "{sent}: {}", reply.text());
        assert_eq!(reply.header("content-type"), None, "{sent}");
    }
    let reply = with(addr, "HEAD", "/notes/1", &[("If-None-Match", "\"1\"")]).await;
    assert_eq!((reply.status, reply.header("etag")), (304, Some("\"1\"")));
    let reply = with(addr, "GET", "/notes/1", &[("If-None-Match", "\"2\"")]).await;
    assert_eq!(
        (reply.status, reply.text()),
        (200, r#"{"id":1,"text":"first"}"#.to_owned())
    );
}

#[tokio::test]
async fn a_304_made_from_the_answer_keeps_cache_control() {
    let addr = server().await;
    let reply = with(addr, "GET", "/report", &[]).await;
    let etag = reply.header("etag").unwrap_or_default().to_owned();
    assert_eq!(etag, ETag::of_bytes(br#"{"total":3}"#).to_string());
    assert_eq!(reply.header("cache-control"), Some("no-cache"));
    let reply = with(addr, "GET", "/report", &[("If-None-Match", &etag)]).await;
    assert_eq!((reply.status, reply.body.len()), (304, 0));
    assert_eq!(reply.header("etag"), Some(etag.as_str()));
    assert_eq!(reply.header("cache-control"), Some("no-cache"), "kept by the 304");
    assert_eq!(reply.header("x-report"), None, "other headers are not");

    let weak = with(addr, "GET", "/report?weak=true", &[]).await;
    assert_eq!(weak.header("etag"), Some(format!("W/{etag}").as_str()));
    // The weak comparison: a strong tag sent matches the weak current one.
    let reply = with(addr, "GET", "/report?weak=true", &[("If-None-Match", &etag)]).await;
    assert_eq!(reply.status, 304);
}

#[tokio::test]
async fn a_write_on_a_stale_copy_is_412_and_on_the_current_one_succeeds() {
    let addr = server().await;
    let reply = put(addr, &[("If-Match", "\"1\"")], "second").await;
    assert_eq!((reply.status, reply.header("etag")), (200, Some("\"2\"")));
    // The other client still holds version 1.
    let reply = put(addr, &[("If-Match", "\"1\"")], "lost").await;
    assert_eq!(
        (reply.status, reply.text()),
        (412, r#"{"detail":"Precondition Failed"}"#.to_owned())
    );
    assert_eq!(
        with(addr, "GET", "/notes/1", &[]).await.text(),
        r#"{"id":1,"text":"second"}"#
    );
    // A list holds when one of its tags matches; `*` when the note exists.
    assert_eq!(
        put(addr, &[("If-Match", "\"7\", \"2\"")], "third").await.status,
        200
    );
    assert_eq!(put(addr, &[("If-Match", "*")], "fourth").await.status, 200);
    // If-Match uses the strong comparison: a weak tag never matches.
    assert_eq!(put(addr, &[("If-Match", "W/\"4\"")], "fifth").await.status, 412);
    // Without a precondition the write is unconditional, as before.
    assert_eq!(put(addr, &[], "sixth").await.status, 200);
}

#[tokio::test]
async fn if_match_is_evaluated_before_if_none_match() {
    let addr = server().await;
    // If-Match false: 412, although If-None-Match alone would be a 304.
    let headers = [("If-Match", "\"9\""), ("If-None-Match", "\"1\"")];
    assert_eq!(with(addr, "GET", "/notes/1", &headers).await.status, 412);
    // If-Match true, If-None-Match false on a read: 304.
    let headers = [("If-Match", "\"1\""), ("If-None-Match", "\"1\"")];
    assert_eq!(with(addr, "GET", "/notes/1", &headers).await.status, 304);
    // If-None-Match false on a write: 412, not 304.
    assert_eq!(put(addr, &[("If-None-Match", "*")], "x").await.status, 412);
    // If-None-Match: * on a write to a missing note: it may be created.
    let body = br#"{"text":"new"}"#;
    let headers = [("Content-Type", "application/json"), ("If-None-Match", "*")];
    let reply = send(addr, "PUT", "/notes/5", &headers, Some(body)).await;
    assert_eq!((reply.status, reply.header("etag")), (200, Some("\"1\"")));
    // If-Match: * on a missing note: 412.
    let headers = [("Content-Type", "application/json"), ("If-Match", "*")];
    assert_eq!(
        send(addr, "PUT", "/notes/6", &headers, Some(body)).await.status,
        412
    );
}

#[tokio::test]
async fn a_required_if_match_is_428_when_absent() {
    let addr = server().await;
    let reply = with(addr, "DELETE", "/notes/1", &[]).await;
    assert_eq!(
        (reply.status, reply.text()),
        (428, r#"{"detail":"Precondition Required"}"#.to_owned())
    );
    assert_eq!(
        with(addr, "DELETE", "/notes/1", &[("If-Match", "\"2\"")])
            .await
            .status,
        412
    );
    assert_eq!(
        with(addr, "DELETE", "/notes/1", &[("If-Match", "\"1\"")])
            .await
            .status,
        204
    );
    assert_eq!(with(addr, "GET", "/notes/1", &[]).await.status, 404);
}

#[tokio::test]
async fn a_field_that_is_no_entity_tag_list_is_a_validation_error() {
    let addr = server().await;
    let reply = with(addr, "GET", "/notes/1", &[("If-None-Match", "v1")]).await;
    assert_eq!(reply.status, 422);
    assert_eq!(
        reply.json(),
        json!({"detail": [{
            "type": "value_error",
            "loc": ["header", "if-none-match"],
            "msg": "Value error, expected `*` or a list of entity tags such as \"v1\", W/\"v2\"",
            "input": "v1"
        }]})
    );
    let reply = put(addr, &[("If-Match", "*, \"1\"")], "x").await;
    assert_eq!(reply.status, 422);
    assert_eq!(reply.json()["detail"][0]["loc"], json!(["header", "if-match"]));
}

#[tokio::test]
async fn routes_without_preconditions_are_untouched() {
    let addr = server().await;
    let reply = with(
        addr,
        "GET",
        "/plain",
        &[("If-None-Match", "*"), ("If-Match", "\"x\"")],
    )
    .await;
    assert_eq!((reply.status, reply.header("etag")), (200, None));
    assert_eq!(reply.text(), r#"{"plain":true}"#);
}

#[tokio::test]
async fn the_document_shows_the_headers_and_the_answers() {
    let service = app().build().expect("the app builds");
    let document: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let read = &document["paths"]["/notes/{id}"]["get"];
    let headers: Vec<(Value, Value)> = read["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["in"] == "header")
        .map(|p| (p["name"].clone(), p["required"].clone()))
        .collect();
    assert_eq!(
        headers,
        vec![
            (json!("If-Match"), json!(false)),
            (json!("If-None-Match"), json!(false))
        ]
    );
    let statuses = |op: &Value| -> Vec<String> {
        op["responses"]
            .as_object()
            .map(|r| r.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(statuses(read), ["200", "304", "412", "422"]);
    assert_eq!(read["responses"]["304"], json!({"description": "Not Modified"}));
    let write = &document["paths"]["/notes/{id}"]["put"];
    assert_eq!(statuses(write), ["200", "412", "422"]);
    let delete = &document["paths"]["/notes/{id}"]["delete"];
    assert_eq!(statuses(delete), ["204", "412", "428", "422"]);
    assert_eq!(delete["parameters"][1]["required"], json!(true));
    assert_eq!(
        document["paths"]["/plain"]["get"]["parameters"],
        Value::Null,
        "a route without preconditions documents none"
    );
}
