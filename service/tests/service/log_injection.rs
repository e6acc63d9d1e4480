//! Logs an operator can trust (issue 34): whatever a client puts in a request's path or query
//! reaches the real binary's text access line escaped, one class of character per test, so a log
//! reader that splits lines at U+2028 or NEL sees no forged line and a right-to-left override
//! reorders nothing. Before: a raw U+2028, U+0085 or U+202E in the path was written as it was.
//!
//! And a log a client cannot inflate (issue 41, item 5): each request the attacks send
//! (58 KiB of NEL in the path, raw or percent-encoded; 60,000 backslashes; a 60 KiB method; a
//! 60 KiB query; a 60 KiB `X-Request-Id`) makes at most 8 KiB of log, text and JSON, read from the
//! binary's own stderr between two sentinel requests. Before: 176 KiB (NEL, text) and 235 KiB
//! (backslashes, JSON) a request.

use std::time::{Duration, Instant};

use ferrapi_tests::client::try_raw;

use crate::support::process::Service;
use crate::support::TempDir;

/// The binary serving group B with the text log at `info` (access lines on).
fn start(name: &str) -> (TempDir, Service) {
    let dir = TempDir::new(name);
    let service = Service::start_with(&dir.sqlite("birds.db"), "b", "info", &[]);
    (dir, service)
}

/// Send `GET <target>` with `target`'s bytes as they are and request id `id`; the status (0: no
/// answer).
async fn get_raw(service: &Service, target: &[u8], id: &str) -> u16 {
    let mut request = b"GET ".to_vec();
    request.extend_from_slice(target);
    request.extend_from_slice(
        format!(" HTTP/1.1\r\nHost: t\r\nX-Request-Id: {id}\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    try_raw(service.addr, &request)
        .await
        .map_or(0, |reply| reply.status)
}

/// The access line of the request with id `id` (the log writes in batches: wait up to 5 s).
fn access_line(service: &Service, id: &str) -> String {
    let needle = format!(" request_id={id}");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let lines = service.lines();
        if let Some(line) = lines
            .iter()
            .find(|line| line.ends_with(&needle) && line.contains(" INFO GET "))
        {
            return line.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no access line for {id}; the log:\n{}",
            lines.join("\n")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Request `target` (as UTF-8 text, sent as its bytes); its access line must read `written`
/// after the method, and no character of `raw` may appear anywhere in the log.
async fn logged_as(service: &Service, id: &str, target: &str, written: &str, raw: &[char]) {
    let status = get_raw(service, target.as_bytes(), id).await;
    assert!(matches!(status, 200 | 404), "{target:?} answered {status}");
    let line = access_line(service, id);
    assert!(
        line.contains(&format!(" INFO GET {written} {status} ")),
        "{target:?} logged as {line:?}"
    );
    for line in service.lines() {
        assert!(!line.contains(raw), "a raw {raw:?} reached the log: {line:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn c1_controls_in_a_path_are_escaped() {
    let (_dir, service) = start("log-c1");
    // NEL ends a line for some readers; CSI starts a terminal control sequence.
    logged_as(
        &service,
        "c1",
        "/api/bird/a\u{85}2026-01-01T00:00:00Z_ERROR_forged\u{9b}2K",
        "/api/bird/a\\u{85}2026-01-01T00:00:00Z_ERROR_forged\\u{9b}2K",
        &['\u{85}', '\u{9b}'],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn line_and_paragraph_separators_in_a_path_are_escaped() {
    let (_dir, service) = start("log-separators");
    logged_as(
        &service,
        "separators",
        "/api/bird/a\u{2028}2026-01-01T00:00:00Z_ERROR_forged\u{2029}",
        "/api/bird/a\\u{2028}2026-01-01T00:00:00Z_ERROR_forged\\u{2029}",
        &['\u{2028}', '\u{2029}'],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bidirectional_controls_in_a_path_are_escaped() {
    let (_dir, service) = start("log-bidi");
    let bidi = [
        '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
        '\u{2069}', '\u{200e}', '\u{200f}', '\u{61c}',
    ];
    let target: String = std::iter::once("/api/bird/".to_owned())
        .chain(bidi.iter().map(|c| format!("{c}x")))
        .collect();
    let written: String = std::iter::once("/api/bird/".to_owned())
        .chain(bidi.iter().map(|c| format!("\\u{{{:x}}}x", u32::from(*c))))
        .collect();
    logged_as(&service, "bidi", &target, &written, &bidi).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invisible_format_characters_in_a_path_are_escaped() {
    let (_dir, service) = start("log-invisible");
    // Zero-width space, zero-width joiner, byte order mark, soft hyphen, a tag character.
    logged_as(
        &service,
        "invisible",
        "/api/bird/a\u{200b}b\u{200d}c\u{feff}d\u{ad}e\u{e0041}",
        "/api/bird/a\\u{200b}b\\u{200d}c\\u{feff}d\\u{ad}e\\u{e0041}",
        &['\u{200b}', '\u{200d}', '\u{feff}', '\u{ad}', '\u{e0041}'],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_query_is_escaped_like_the_path() {
    let (_dir, service) = start("log-query");
    logged_as(
        &service,
        "query",
        "/api/hello?q=\u{2028}x\u{202e}y\u{85}",
        "/api/hello?q=\\u{2028}x\\u{202e}y\\u{85}",
        &['\u{2028}', '\u{202e}', '\u{85}'],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backslash_is_escaped_so_no_escape_can_be_forged() {
    let (_dir, service) = start("log-backslash");
    // A client writing `\u{2028}` itself is told apart from an escaped U+2028.
    logged_as(
        &service,
        "backslash",
        "/api/bird/\\u{2028}\\x0a",
        "/api/bird/\\\\u{2028}\\\\x0a",
        &[],
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printable_paths_letters_of_any_script_and_percent_escapes_are_kept() {
    let (_dir, service) = start("log-plain");
    let target = "/api/bird/caf\u{e9}-\u{4e2d}\u{6587}-\u{5d0}?q=%E2%80%A8&x=1";
    logged_as(&service, "plain", target, target, &[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn raw_bytes_a_log_line_cannot_hold_never_reach_it() {
    let (_dir, service) = start("log-bytes");
    // C0 controls, DEL and bytes that are not UTF-8: refused by hyper (400, no access line) or
    // written escaped; never raw.
    for (i, target) in [
        &b"/api/bird/a\x1bb"[..],
        b"/api/bird/a\x7fb",
        b"/api/bird/a\x85b",
        b"/api/bird/a\xffb",
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("bytes-{i}");
        let status = get_raw(&service, target, &id).await;
        if status != 400 {
            let line = access_line(&service, &id);
            assert!(line.contains("/api/bird/a\\x"), "{target:?} logged as {line:?}");
        }
    }
    // A request known to be logged, after them: every line written so far is in.
    assert_eq!(get_raw(&service, b"/api/hello", "after").await, 200);
    access_line(&service, "after");
    for line in service.lines() {
        assert!(
            !line.contains(['\u{1b}', '\u{7f}', '\u{85}', '\u{fffd}']),
            "a raw byte reached the log: {line:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_id_that_could_forge_a_line_is_replaced_not_echoed() {
    let (_dir, service) = start("log-request-id");
    let mut request = b"GET /api/hello HTTP/1.1\r\nHost: t\r\nX-Request-Id: a".to_vec();
    request.extend_from_slice("\u{2028}b\u{202e}c".as_bytes());
    request.extend_from_slice(b"\r\nConnection: close\r\n\r\n");
    let reply = try_raw(service.addr, &request).await.expect("an answer");
    assert_eq!(reply.status, 200);
    let id = reply.header("x-request-id").expect("an id").to_owned();
    assert_eq!(id.len(), 32, "a new id, not the client's: {id}");
    access_line(&service, &id);
    for line in service.lines() {
        assert!(!line.contains(['\u{2028}', '\u{202e}']), "{line:?}");
    }
}

/// The most bytes of log one request may make, whatever it sends (issue 41).
const LOG_PER_REQUEST: usize = 8 * 1024;

/// The index of the access line of a `GET /api/hello` sent with request id `id` (the log writes
/// in batches: wait up to 5 s), in either format.
async fn sentinel(service: &Service, id: &str) -> usize {
    assert_eq!(get_raw(service, b"/api/hello", id).await, 200);
    let (text, json) = (format!(" request_id={id}"), format!("\"request_id\":\"{id}\""));
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(at) = service
            .lines()
            .iter()
            .position(|line| line.ends_with(&text) || line.contains(&json))
        {
            return at;
        }
        assert!(Instant::now() < deadline, "no access line for {id}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Send `request` (raw bytes) between two sentinels; its status, and the bytes of log (newlines
/// included) written between the sentinels' access lines: what the request made.
async fn log_of(service: &Service, name: &str, request: &[u8]) -> (u16, usize, Vec<String>) {
    let from = sentinel(service, &format!("before-{name}")).await;
    let status = try_raw(service.addr, request)
        .await
        .map_or(0, |reply| reply.status);
    let to = sentinel(service, &format!("after-{name}")).await;
    let lines = service.lines()[from + 1..to].to_vec();
    let bytes = lines.iter().map(|line| line.len() + 1).sum();
    (status, bytes, lines)
}

/// The hostile requests of issue 41 (name, raw bytes), each with request id `hostile`.
fn hostile_requests() -> Vec<(&'static str, Vec<u8>)> {
    let head = |method: &str, target: &[u8], id: &str| {
        let mut request = method.as_bytes().to_vec();
        request.push(b' ');
        request.extend_from_slice(target);
        request.extend_from_slice(
            format!(" HTTP/1.1\r\nHost: t\r\nX-Request-Id: {id}\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        request
    };
    let nel = format!("/api/bird/{}", "\u{85}".repeat(29 * 1024));
    let nel_encoded = format!("/api/bird/{}", "%C2%85".repeat(58 * 1024 / 6));
    let backslashes = format!("/api/bird/{}", "\\".repeat(60_000));
    let query = format!("/api/hello?q={}", "\u{2028}\\".repeat(15_000));
    vec![
        ("nel", head("GET", nel.as_bytes(), "hostile")),
        ("nel-encoded", head("GET", nel_encoded.as_bytes(), "hostile")),
        ("backslashes", head("GET", backslashes.as_bytes(), "hostile")),
        ("method", head(&"A".repeat(60 * 1024), b"/api/hello", "hostile")),
        ("query", head("GET", query.as_bytes(), "hostile")),
        ("request-id", head("GET", b"/api/hello", &"a".repeat(60 * 1024))),
    ]
}

/// Every hostile request is answered (not refused before it is logged) and makes at most
/// [`LOG_PER_REQUEST`] bytes of log, one access line whose values carry their cut's note.
async fn each_hostile_request_makes_a_bounded_log(format: &str) {
    let dir = TempDir::new(&format!("log-size-{format}"));
    let service = Service::start_with(&dir.sqlite("birds.db"), "b", "info", &["--log-format", format]);
    for (name, request) in hostile_requests() {
        let (status, bytes, lines) = log_of(&service, name, &request).await;
        eprintln!(
            "{format} {name}: {} bytes sent, answered {status}, {bytes} bytes of log",
            request.len()
        );
        assert!(matches!(status, 200 | 404 | 405), "{name} answered {status}");
        assert_eq!(lines.len(), 1, "{name}: one access line: {lines:?}");
        assert!(bytes <= LOG_PER_REQUEST, "{format} {name}: {bytes} bytes of log");
        let line = &lines[0];
        if format == "json" {
            let value: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: not JSON: {line}"));
            let cut = ["path_cut_bytes", "method_cut_bytes"]
                .iter()
                .any(|key| value[key].as_u64().is_some_and(|n| n > 40_000));
            assert!(cut || name == "request-id", "{name}: no cut noted: {line}");
        } else {
            assert!(
                line.contains("\u{2026}[+") || name == "request-id",
                "{name}: {line}"
            );
        }
        if name == "request-id" {
            assert!(
                !line.contains("aaaaaaaa"),
                "a malformed id is never echoed: {line}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_makes_at_most_8_kib_of_text_log_whatever_it_sends() {
    each_hostile_request_makes_a_bounded_log("text").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_makes_at_most_8_kib_of_json_log_whatever_it_sends() {
    each_hostile_request_makes_a_bounded_log("json").await;
}
