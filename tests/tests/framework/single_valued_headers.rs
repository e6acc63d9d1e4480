//! The header fields the framework reads itself, sent more than once, over real HTTP (issue 34):
//! a credential (`Authorization` of HTTP bearer, HTTP basic and OAuth2, an API key's header) is
//! a 422 naming both values, as `Idempotency-Key` is (tests in `idempotency.rs`); a repeated
//! `X-Request-Id` is replaced by a new id; a repeated `Sec-WebSocket-Key` or
//! `Sec-WebSocket-Version` refuses the handshake; a file's repeated `Range`, `If-Range` or
//! `If-Modified-Since` is ignored (the whole file); the lists keep RFC 9110's rule: `If-Match`
//! and `If-None-Match` sent on two lines are one list.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use ferrapi::conditional::{ETag, Preconditions, Write};
use ferrapi::files::FileResponse;
use ferrapi::prelude::*;
use ferrapi::ws::WebSocketUpgrade;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{send, Reply};
use ferrapi_tests::inputs::{sec_basic, sec_bearer, sec_key_header, sec_oauth2};

/// Answers an upgrade (never used: the handshakes here are refused).
#[get("/ws")]
async fn socket(ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(|_socket| async {})
}

/// A 1,000-byte file, answering the request's conditions and range.
#[get("/file")]
async fn file(headers: HeaderMap, path: State<PathBuf>) -> Result<Response, HttpError> {
    let file = FileResponse::open(&*path)
        .await
        .map_err(|_| HttpError::not_found("no file"))?;
    Ok(file.respond(&headers).await)
}

/// A resource at version 7: a write honours `If-Match`.
#[put("/doc")]
async fn write_doc(pre: Preconditions<Write>) -> Result<&'static str, Response> {
    pre.evaluate(Some(&ETag::from_version(7)))
        .map_err(IntoResponse::into_response)?;
    Ok("written")
}

/// A read at version 7 (304 for a matching `If-None-Match`).
#[get("/doc")]
async fn read_doc(pre: Preconditions) -> Result<&'static str, Response> {
    pre.evaluate(Some(&ETag::from_version(7)))
        .map_err(IntoResponse::into_response)?;
    Ok("read")
}

#[get("/hello")]
async fn hello() -> &'static str {
    "hello"
}

async fn serve() -> (SocketAddr, PathBuf) {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "ferrapi-single-valued-{}-{}.bin",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, vec![b'x'; 1000]).unwrap();
    let app = App::new().state(path.clone()).request_ids(true).routes(routes![
        sec_bearer,
        sec_basic,
        sec_key_header,
        sec_oauth2,
        socket,
        file,
        write_doc,
        read_doc,
        hello
    ]);
    (spawn(app).await, path)
}

fn repeated(name: &str, shown: &str, values: &[&str]) -> Value {
    json!({"detail": [{
        "type": "value_error",
        "loc": ["header", name],
        "msg": format!("Value error, {shown} must be sent once: the request has more than one value"),
        "input": values,
    }]})
}

#[tokio::test]
async fn a_credential_sent_twice_is_a_validation_error() {
    let (addr, file) = serve().await;
    let _ = std::fs::remove_file(file);
    let cases = [
        ("/sec/bearer", ["Bearer alice", "Bearer mallory"]),
        ("/sec/basic", ["Basic YWxpY2U6cHc=", "Basic bWFsbG9yeTpwdw=="]),
        ("/sec/oauth2", ["Bearer alice", "Bearer mallory"]),
    ];
    for (path, [one, two]) in cases {
        // Once: the credential (the route echoes it).
        let reply = send(addr, "GET", path, &[("Authorization", one)], None).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        let reply = send(
            addr,
            "GET",
            path,
            &[("Authorization", one), ("Authorization", two)],
            None,
        )
        .await;
        assert_eq!(
            (reply.status, reply.json()),
            (422, repeated("authorization", "Authorization", &[one, two])),
            "{path}"
        );
    }
    let reply = send(
        addr,
        "GET",
        "/sec/key-header",
        &[("X-API-Key", "k1"), ("x-api-key", "k2")],
        None,
    )
    .await;
    assert_eq!(
        (reply.status, reply.json()),
        (422, repeated("X-API-Key", "X-API-Key", &["k1", "k2"]))
    );
    let reply = send(addr, "GET", "/sec/key-header", &[("X-API-Key", "k1")], None).await;
    assert_eq!((reply.status, reply.json()), (200, json!({"key": "k1"})));
}

#[tokio::test]
async fn a_request_id_sent_twice_is_replaced_by_a_new_one() {
    let (addr, file) = serve().await;
    let _ = std::fs::remove_file(file);
    let once = send(addr, "GET", "/hello", &[("X-Request-Id", "id-1")], None).await;
    assert_eq!(once.header("x-request-id"), Some("id-1"));
    let twice = send(
        addr,
        "GET",
        "/hello",
        &[("X-Request-Id", "id-1"), ("X-Request-Id", "id-2")],
        None,
    )
    .await;
    assert_eq!(twice.status, 200);
    let id = twice.header("x-request-id").unwrap_or_default();
    assert!(id.len() == 32 && id != "id-1" && id != "id-2", "{id}");
}

#[tokio::test]
async fn a_websocket_key_or_version_sent_twice_refuses_the_handshake() {
    let (addr, file) = serve().await;
    let _ = std::fs::remove_file(file);
    let upgrade = [("Connection", "Upgrade"), ("Upgrade", "websocket")];
    let key = ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
    let version = ("Sec-WebSocket-Version", "13");
    let mut two_keys = upgrade.to_vec();
    two_keys.extend([version, key, ("Sec-WebSocket-Key", "b3RoZXIga2V5IGhlcmUhIQ==")]);
    let reply = send(addr, "GET", "/ws", &two_keys, None).await;
    assert_eq!(
        (reply.status, reply.json()["detail"].clone()),
        (400, json!("Missing or invalid Sec-WebSocket-Key"))
    );
    let mut two_versions = upgrade.to_vec();
    two_versions.extend([version, version, key]);
    let reply = send(addr, "GET", "/ws", &two_versions, None).await;
    assert_eq!(reply.status, 426);
    assert_eq!(reply.header("sec-websocket-version"), Some("13"));
}

/// `GET /file` with `headers`.
async fn get_file(addr: SocketAddr, headers: &[(&str, &str)]) -> Reply {
    send(addr, "GET", "/file", headers, None).await
}

#[tokio::test]
async fn a_files_range_conditions_sent_twice_are_ignored() {
    let (addr, path) = serve().await;
    let whole = get_file(addr, &[]).await;
    let (etag, modified) = (
        whole.header("etag").unwrap_or_default().to_owned(),
        whole.header("last-modified").unwrap_or_default().to_owned(),
    );
    // Once, each applies: a part, a part under a matching If-Range, a 304.
    assert_eq!(get_file(addr, &[("Range", "bytes=0-9")]).await.status, 206);
    assert_eq!(
        get_file(addr, &[("Range", "bytes=0-9"), ("If-Range", &etag)])
            .await
            .status,
        206
    );
    assert_eq!(
        get_file(addr, &[("If-Modified-Since", &modified)]).await.status,
        304
    );
    // Twice, none does: the whole file.
    for headers in [
        &[("Range", "bytes=0-9"), ("Range", "bytes=10-19")][..],
        &[("Range", "bytes=0-9"), ("If-Range", &etag), ("If-Range", &etag)],
        &[("If-Modified-Since", &modified), ("If-Modified-Since", &modified)],
    ] {
        let reply = get_file(addr, headers).await;
        assert_eq!((reply.status, reply.body.len()), (200, 1000), "{headers:?}");
    }
    // If-None-Match is a list: its lines are read together.
    let lines = [("If-None-Match", "\"other\""), ("If-None-Match", etag.as_str())];
    assert_eq!(get_file(addr, &lines).await.status, 304);
    let _ = std::fs::remove_file(path);
}

#[tokio::test]
async fn if_match_and_if_none_match_on_two_lines_are_one_list() {
    let (addr, file) = serve().await;
    let _ = std::fs::remove_file(file);
    let current = ETag::from_version(7).to_string();
    let lines = [("If-Match", "\"v1\""), ("If-Match", current.as_str())];
    let reply = send(addr, "PUT", "/doc", &lines, None).await;
    assert_eq!((reply.status, reply.text()), (200, "written".to_owned()));
    let stale = [("If-Match", "\"v1\""), ("If-Match", "\"v2\"")];
    assert_eq!(send(addr, "PUT", "/doc", &stale, None).await.status, 412);
    let lines = [("If-None-Match", "\"v1\""), ("If-None-Match", current.as_str())];
    assert_eq!(send(addr, "GET", "/doc", &lines, None).await.status, 304);
}
