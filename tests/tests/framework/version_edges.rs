//! API versions at the edges of a request (issue 44, item 1), over real HTTP on 127.0.0.1: the
//! version named as the path's first segment where the app allows it (the header still works,
//! the two must agree); an `ETag` that differs per version, so a conditional GET at one version
//! never 304s against another version's tag; an `Idempotency-Key` whose fingerprint includes the
//! version; and, in a process with ferrapi's own log (`versions-log-server`), the access line
//! ending with the version served and where it came from, an app without versions writing the
//! line it wrote before.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use ferrapi::conditional::{ETag, Preconditions, Tagged};
use ferrapi::idempotency::{IdempotencyKey, IdempotencyKeys, Kept};
use ferrapi::prelude::*;
use ferrapi::versions::{ApiVersion, VersionSource, Versions};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send, Reply};
use ferrapi_tests::log_process::LogProcess;

#[get("/items/{id}")]
async fn read_item(id: i64, version: ApiVersion) -> Json<Value> {
    let source = match version.source() {
        VersionSource::Header => "header",
        VersionSource::Path => "path",
        VersionSource::Default => "default",
    };
    Json(json!({ "id": id, "version": version.date(), "source": source }))
}

#[get("/")]
async fn root(version: ApiVersion) -> String {
    format!("root at {version}")
}

/// The same resource version (7) at every API version: only the API version tells the
/// representations apart.
#[get("/notes/1")]
async fn read_note(pre: Preconditions, version: ApiVersion) -> Result<Tagged<Json<Value>>, Response> {
    let etag = ETag::from_version(7);
    pre.evaluate(Some(&etag)).map_err(IntoResponse::into_response)?;
    let body = if version >= "2026-03-01" {
        json!({ "name": "note" })
    } else {
        json!({ "title": "note" })
    };
    Ok(pre.respond(etag, Json(body)))
}

#[derive(Default)]
struct Booked(AtomicU64);

#[post("/orders")]
async fn book(booked: State<Booked>, key: IdempotencyKey, version: ApiVersion) -> Kept<Json<Value>> {
    let n = booked.0.fetch_add(1, Ordering::SeqCst) + 1;
    key.keep(Json(json!({ "n": n, "version": version.date() }))).await
}

fn versions() -> Versions {
    Versions::released(["2026-01-15", "2026-03-01"]).unreleased("2026-06-01")
}

fn app(versions: Versions) -> App {
    App::new()
        .versions(versions)
        .state(Booked::default())
        .state(IdempotencyKeys::in_memory(Duration::from_secs(60)))
        .routes(routes![read_item, root, read_note, book])
}

async fn with_header(addr: std::net::SocketAddr, path: &str, version: &str) -> Reply {
    send(addr, "GET", path, &[("API-Version", version)], None).await
}

#[tokio::test]
async fn the_version_may_be_the_paths_first_segment() {
    let addr = spawn(app(versions().path_prefix())).await;
    let reply = get(addr, "/2026-01-15/items/42").await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(
        reply.json(),
        json!({"id": 42, "version": "2026-01-15", "source": "path"})
    );
    assert_eq!(reply.header("api-version"), Some("2026-01-15"));
    // The unreleased version too, when named; the bare prefix is the root.
    let reply = get(addr, "/2026-06-01").await;
    assert_eq!(reply.text(), "root at 2026-06-01");
    // The header still works, and a path without a prefix is routed as it is.
    let reply = with_header(addr, "/items/1", "2026-01-15").await;
    assert_eq!(reply.json()["source"], "header");
    let reply = get(addr, "/items/1").await;
    assert_eq!(
        (reply.json()["version"].clone(), reply.json()["source"].clone()),
        (json!("2026-03-01"), json!("default"))
    );
    // Both, agreeing: served, from the path.
    let reply = with_header(addr, "/2026-01-15/items/1", "2026-01-15").await;
    assert_eq!(reply.json()["source"], "path");
}

#[tokio::test]
async fn a_prefix_not_served_or_disagreeing_with_the_header_is_a_400() {
    let addr = spawn(app(versions().path_prefix())).await;
    let reply = get(addr, "/2025-01-01/items/1").await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json(),
        json!({"detail": "API version '2025-01-01' (the path's prefix) is not served; name one of these: 2026-01-15, 2026-03-01 (default), 2026-06-01 (unreleased)"})
    );
    let reply = with_header(addr, "/2026-01-15/items/1", "2026-03-01").await;
    assert_eq!(reply.status, 400);
    assert_eq!(
        reply.json(),
        json!({"detail": "the path names API version '2026-01-15' but the API-Version header names '2026-03-01'; name one, or the same in both"})
    );
    assert_eq!(reply.header("vary"), Some("API-Version"));
}

#[tokio::test]
async fn without_the_setting_a_prefix_is_only_a_path() {
    let addr = spawn(app(versions())).await;
    let reply = get(addr, "/2026-01-15/items/1").await;
    assert_eq!(reply.status, 404);
    assert_eq!(reply.header("api-version"), Some("2026-03-01"));
}

#[tokio::test]
async fn an_etag_differs_per_version_and_304s_only_at_its_own() {
    let addr = spawn(app(versions().path_prefix())).await;
    let old = with_header(addr, "/notes/1", "2026-01-15").await;
    let new = with_header(addr, "/notes/1", "2026-03-01").await;
    let (old_tag, new_tag) = (old.header("etag").unwrap(), new.header("etag").unwrap());
    assert_eq!(old_tag, "\"7@2026-01-15\"", "{}", old.text());
    assert_eq!(new_tag, "\"7@2026-03-01\"");
    let conditional = |tag: &str, version: &'static str| {
        let tag = tag.to_owned();
        async move {
            send(
                addr,
                "GET",
                "/notes/1",
                &[("API-Version", version), ("If-None-Match", &tag)],
                None,
            )
            .await
        }
    };
    // At its own version, a tag is a 304 carrying it.
    let same = conditional(old_tag, "2026-01-15").await;
    assert_eq!(same.status, 304);
    assert_eq!(same.header("etag"), Some(old_tag));
    // At another, it is not: the whole answer, with that version's tag.
    let other = conditional(old_tag, "2026-03-01").await;
    assert_eq!(other.status, 200);
    assert_eq!(other.json(), json!({"name": "note"}));
    assert_eq!(other.header("etag"), Some(new_tag));
    // Through the path prefix too; a list holding the other version's tag as well still 304s.
    let both = send(
        addr,
        "GET",
        "/2026-03-01/notes/1",
        &[("If-None-Match", &format!("{old_tag}, {new_tag}"))],
        None,
    )
    .await;
    assert_eq!(both.status, 304);
}

#[tokio::test]
async fn an_etag_without_versions_is_as_the_route_made_it() {
    let app = App::new().routes(routes![read_plain_note]);
    let addr = spawn(app).await;
    let reply = get(addr, "/plain-note").await;
    assert_eq!(reply.header("etag"), Some("\"7\""));
}

#[get("/plain-note")]
async fn read_plain_note(pre: Preconditions) -> Tagged<Json<Value>> {
    pre.respond(ETag::from_version(7), Json(json!({ "title": "note" })))
}

#[tokio::test]
async fn an_idempotency_keys_fingerprint_includes_the_version() {
    let addr = spawn(app(versions().path_prefix())).await;
    let post = |version: &'static str| async move {
        send(
            addr,
            "POST",
            "/orders",
            &[("API-Version", version), ("Idempotency-Key", "k-1")],
            Some(b""),
        )
        .await
    };
    let first = post("2026-01-15").await;
    assert_eq!(first.json(), json!({"n": 1, "version": "2026-01-15"}));
    // The same request at the same version: replayed.
    let again = post("2026-01-15").await;
    assert_eq!(again.json(), first.json());
    // The same key at another version is another request: refused as a reused key.
    let other = post("2026-03-01").await;
    assert_eq!(other.status, 422, "{}", other.text());
}

/// `versions-log-server FORMAT`: its versioned app and the same routes without versions, its
/// log lines gathered; stopped when dropped.
struct LogServer {
    process: LogProcess,
    versioned: std::net::SocketAddr,
    plain: std::net::SocketAddr,
}

impl LogServer {
    fn start(format: &str) -> LogServer {
        let mut command = Command::new(env!("CARGO_BIN_EXE_versions-log-server"));
        command.arg(format);
        let process = LogProcess::start(command);
        let [versioned, plain] = process.addrs[..] else {
            panic!("versions-log-server serves two apps: {:?}", process.addrs)
        };
        LogServer {
            process,
            versioned,
            plain,
        }
    }

    /// The line containing `needle` (see [`LogProcess::line_with`]).
    fn line_with(&self, needle: &str) -> String {
        self.process.line_with(needle)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_access_line_ends_with_the_version_and_its_source() {
    let server = LogServer::start("text");
    let id = |id: &'static str| [("X-Request-Id", id)];
    send(
        server.versioned,
        "GET",
        "/2026-01-15/items/1",
        &id("v-path"),
        None,
    )
    .await;
    send(
        server.versioned,
        "GET",
        "/items/2",
        &[("X-Request-Id", "v-header"), ("API-Version", "2026-01-15")],
        None,
    )
    .await;
    send(server.versioned, "GET", "/items/3", &id("v-default"), None).await;
    send(server.plain, "GET", "/items/4", &id("plain"), None).await;
    let line = server.line_with("request_id=v-path");
    assert!(
        line.ends_with(" request_id=v-path api_version=2026-01-15 version_source=path"),
        "{line}"
    );
    assert!(line.contains("GET /2026-01-15/items/1 200 "), "{line}");
    assert!(server
        .line_with("request_id=v-header")
        .ends_with(" request_id=v-header api_version=2026-01-15 version_source=header"));
    assert!(server
        .line_with("request_id=v-default")
        .ends_with(" request_id=v-default api_version=2026-03-01 version_source=default"));
    // The app without versions: today's line, the request id last.
    let plain = server.line_with("request_id=plain");
    assert!(plain.ends_with("ms request_id=plain"), "{plain}");
    assert!(
        plain.contains("ferrapi::access: GET /items/4 200 ") || plain.contains(" INFO GET /items/4 200 "),
        "{plain}"
    );

    let json = LogServer::start("json");
    send(json.versioned, "GET", "/2026-03-01/items/1", &id("j-path"), None).await;
    send(json.plain, "GET", "/items/1", &id("j-plain"), None).await;
    let line: Value = serde_json::from_str(&json.line_with("\"j-path\"")).unwrap();
    assert_eq!(
        (line["api_version"].clone(), line["version_source"].clone()),
        (json!("2026-03-01"), json!("path"))
    );
    let plain: Value = serde_json::from_str(&json.line_with("\"j-plain\"")).unwrap();
    assert!(
        plain.get("api_version").is_none() && plain.get("version_source").is_none(),
        "{plain}"
    );
}
