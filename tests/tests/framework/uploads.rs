//! File uploads (`multipart/form-data`, issue 13): parts with their names, file names, content
//! types and sizes; binary files byte for byte; a 50 MiB upload streamed to disk without the
//! server's memory growing; the limits answered 413 before the excess is read; the document;
//! a file saved with `save_to` kept when whole, removed when the upload fails or is cancelled
//! (the client gone, or stalled past a timeout).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ferrapi::testing::TestClient;
use ferrapi_tests::app::spawn;
use ferrapi_tests::inputs::app;
use ferrapi_tests::process::rss;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

const BOUNDARY: &str = "----ferrapi-test-boundary";

/// One part: name, file name, content type, content.
type Part<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [u8]);

/// The head of one part, with the delimiter before it.
fn part_head(name: &str, file_name: Option<&str>, content_type: Option<&str>) -> Vec<u8> {
    let mut head = format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"");
    if let Some(file_name) = file_name {
        head.push_str(&format!("; filename=\"{file_name}\""));
    }
    head.push_str("\r\n");
    if let Some(content_type) = content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    head.push_str("\r\n");
    head.into_bytes()
}

fn closing() -> Vec<u8> {
    format!("--{BOUNDARY}--\r\n").into_bytes()
}

/// A whole `multipart/form-data` body.
fn multipart(parts: &[Part<'_>]) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, file_name, content_type, content) in parts {
        body.extend(part_head(name, *file_name, *content_type));
        body.extend_from_slice(content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend(closing());
    body
}

fn content_type() -> String {
    format!("multipart/form-data; boundary={BOUNDARY}")
}

/// Every byte value, and the sequences a multipart parser must not trip on.
fn binary_content() -> Vec<u8> {
    let mut content: Vec<u8> = (0..=255u8).cycle().take(256 * 64).collect();
    // Near misses of the delimiter (a client picks a boundary its content does not hold).
    content.extend_from_slice(format!("\r\n--{}\r\n--\r\n\r\n\0", &BOUNDARY[..10]).as_bytes());
    content.extend_from_slice(&[0xff, 0xfe, 0x00, 0x0d, 0x0a]);
    content
}

#[tokio::test]
async fn files_and_fields_arrive_with_names_types_and_sizes() {
    let client = TestClient::new(app());
    let body = multipart(&[
        (
            "file",
            Some("a.bin"),
            Some("application/octet-stream"),
            &[1, 2, 3, 0, 255],
        ),
        ("note", None, None, "héllo".as_bytes()),
        ("extra", Some("b.txt"), Some("text/plain"), b"text file"),
    ]);
    let reply = client
        .post("/upload")
        .content_type(&content_type())
        .body(body)
        .send()
        .await;
    assert_eq!(reply.status(), 200, "{}", reply.text());
    assert_eq!(
        reply.json::<Value>(),
        json!({ "parts": [
            { "name": "file", "file_name": "a.bin", "content_type": "application/octet-stream", "size": 5 },
            { "name": "note", "text": "héllo" },
            { "name": "extra", "file_name": "b.txt", "content_type": "text/plain", "size": 9 },
        ]})
    );
}

#[tokio::test]
async fn a_binary_file_comes_back_byte_identical() {
    let client = TestClient::new(app());
    let content = binary_content();
    let body = multipart(&[(
        "file",
        Some("all-bytes.bin"),
        Some("application/octet-stream"),
        &content,
    )]);
    let reply = client
        .post("/upload/echo")
        .content_type(&content_type())
        .body(body)
        .send()
        .await;
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.bytes().as_ref(), content.as_slice());
}

#[tokio::test]
async fn a_body_that_is_not_multipart_is_a_missing_body() {
    // FastAPI 0.165 with `file: UploadFile, note: str | None = Form(None)`, for a JSON body, an
    // urlencoded form and no body alike.
    let missing_file =
        r#"{"detail":[{"type":"missing","loc":["body","file"],"msg":"Field required","input":null}]}"#;
    let client = TestClient::new(app());
    let reply = client.post("/upload").json(&json!({ "file": "x" })).send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (422, missing_file.to_owned())
    );
    let reply = client.post("/upload").form(&[("note", "x")]).send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (422, missing_file.to_owned())
    );
    let reply = client.post("/upload").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (422, missing_file.to_owned())
    );
    // A route that declares no part: the body is what is missing.
    let reply = client.post("/upload/echo").form(&[("note", "x")]).send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (
            422,
            r#"{"detail":[{"type":"missing","loc":["body"],"msg":"Field required","input":null}]}"#
                .to_owned()
        )
    );
    let reply = client
        .post("/upload")
        .content_type("multipart/form-data")
        .body("x")
        .send()
        .await;
    assert_eq!(reply.status(), 422, "no boundary");
    let reply = client
        .post("/upload")
        .content_type(&content_type())
        .body("garbage")
        .send()
        .await;
    assert_eq!(reply.status(), 400, "{}", reply.text());
}

#[tokio::test]
async fn a_part_over_the_part_limit_is_413() {
    let client = TestClient::new(app().upload_limits(1 << 20, 1024));
    let big = vec![b'x'; 4096];
    let body = multipart(&[("file", Some("big.bin"), None, &big)]);
    let reply = client
        .post("/upload")
        .content_type(&content_type())
        .body(body)
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (
            413,
            r#"{"detail":"An uploaded part is larger than the limit of 1024 bytes"}"#.to_owned()
        )
    );
}

/// Send a request head, then the chunks of `body`, on a blocking socket (`Connection: close`);
/// the answer's status line and body. Writing stops when the server closes (it answered early).
fn raw_request(addr: SocketAddr, head: String, body: impl Iterator<Item = Vec<u8>>) -> (String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    stream.write_all(head.as_bytes()).expect("head");
    for chunk in body {
        if stream.write_all(&chunk).is_err() {
            break;
        }
    }
    // No half-close: hyper closes a connection whose client stops sending before it answered.
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.lines().next().unwrap_or("").to_owned();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("").to_owned();
    (status, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50_mib_upload_is_streamed_to_disk_and_memory_does_not_grow() {
    const SIZE: usize = 50 << 20;
    const CHUNK: usize = 64 << 10;
    let addr = spawn(app().upload_limits(64 << 20, 64 << 20)).await;
    let dir = std::env::temp_dir().join(format!("ferrapi-upload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let head_part = part_head("file", Some("big.bin"), Some("application/octet-stream"));
    let tail = [b"\r\n".to_vec(), closing()].concat();
    let length = head_part.len() + SIZE + tail.len();
    let path = format!("/upload?dir={}", dir.display());
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {}\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n",
        content_type()
    );
    let pattern: Vec<u8> = (0..CHUNK).map(|i| (i % 251) as u8).collect();
    let (status, body, peak, baseline) = tokio::task::spawn_blocking(move || {
        let baseline = rss();
        let mut peak = baseline;
        let chunks = (0..SIZE / CHUNK).map(|i| {
            if i % 16 == 0 {
                peak = peak.max(rss());
            }
            pattern.clone()
        });
        let body = std::iter::once(head_part)
            .chain(chunks)
            .chain(std::iter::once(tail));
        let (status, body) = raw_request(addr, head, body);
        (status, body, peak.max(rss()), baseline)
    })
    .await
    .expect("client");
    assert!(status.contains("200"), "{status} {body}");
    let saved = dir.join("part-0");
    let size = std::fs::metadata(&saved).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(size, SIZE as u64, "{body}");
    let growth = peak.saturating_sub(baseline);
    assert!(
        growth < 8 << 20,
        "RSS grew by {} KiB during a 50 MiB upload",
        growth >> 10
    );
}

#[tokio::test]
async fn an_upload_declared_over_the_limit_is_413_before_its_body_is_read() {
    let addr = spawn(app().upload_limits(1 << 20, 1 << 20)).await;
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        content_type(),
        10 << 20
    );
    // No body at all is sent: the answer cannot have waited for it.
    let (status, body) = tokio::task::spawn_blocking(move || raw_request(addr, head, std::iter::empty()))
        .await
        .expect("client");
    assert!(status.contains("413"), "{status}");
    assert_eq!(
        body,
        r#"{"detail":"Request body is larger than the limit of 1048576 bytes"}"#
    );
}

#[tokio::test]
async fn a_streamed_upload_growing_over_the_limit_is_cut_off_with_413() {
    let addr = spawn(app().upload_limits(1 << 20, 1 << 20)).await;
    let head = format!(
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        content_type()
    );
    let first = part_head("file", Some("big.bin"), None);
    // 32 MiB offered in chunks; the server stops reading after 1 MiB.
    let chunks = std::iter::once(first)
        .chain((0..512).map(|_| vec![b'x'; 64 << 10]))
        .map(|data| {
            [
                format!("{:x}\r\n", data.len()).into_bytes(),
                data,
                b"\r\n".to_vec(),
            ]
            .concat()
        });
    let (status, body) = tokio::task::spawn_blocking(move || raw_request(addr, head, chunks))
        .await
        .expect("client");
    assert!(status.contains("413"), "{status} {body}");
    assert_eq!(
        body,
        r#"{"detail":"Request body is larger than the limit of 1048576 bytes"}"#
    );
}

#[tokio::test]
async fn uploads_are_documented_as_multipart_with_binary_files() {
    let client = TestClient::new(app());
    let doc: Value = client.get("/openapi.json").send().await.json();
    assert_eq!(
        doc["paths"]["/upload"]["post"]["requestBody"],
        json!({"required": true, "content": {"multipart/form-data": {"schema": {"$ref": "#/components/schemas/UploadForm"}}}})
    );
    let binary =
        json!({"type": "string", "format": "binary", "contentMediaType": "application/octet-stream"});
    let mut file = binary.clone();
    file["title"] = json!("File");
    assert_eq!(
        doc["components"]["schemas"]["UploadForm"],
        json!({
            "properties": {
                "file": file,
                "note": {"type": "string", "title": "Note"},
                "extra": {"type": "array", "items": binary, "title": "Extra"},
            },
            "type": "object",
            "required": ["file"],
            "title": "UploadForm",
        })
    );
}

/// A directory of its own for test `name`'s saved files, empty.
fn save_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrapi-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Whether `done` holds within `within` (checked every 10 ms).
async fn within(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < within {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    done()
}

/// Start an upload of one file part declared `declared` bytes long to `/upload?dir=<dir>` and
/// send `sent` bytes of it; the connection, left open, and the path the route saves to.
async fn start_upload(
    addr: SocketAddr,
    dir: &Path,
    declared: usize,
    sent: usize,
) -> (tokio::net::TcpStream, PathBuf) {
    let part = part_head("file", Some("big.bin"), Some("application/octet-stream"));
    let tail = [b"\r\n".to_vec(), closing()].concat();
    let head = format!(
        "POST /upload?dir={} HTTP/1.1\r\nHost: x\r\nContent-Type: {}\r\nContent-Length: {}\r\n\r\n",
        dir.display(),
        content_type(),
        part.len() + declared + tail.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(head.as_bytes()).await.expect("head");
    stream.write_all(&part).await.expect("part head");
    let chunk = vec![b'u'; 64 << 10];
    let mut left = sent;
    while left > 0 {
        let n = left.min(chunk.len());
        stream.write_all(&chunk[..n]).await.expect("the first bytes");
        left -= n;
    }
    (stream, dir.join("part-0"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_whose_client_goes_away_leaves_no_partial_file() {
    let addr = spawn(app().upload_limits(64 << 20, 64 << 20)).await;
    let dir = save_dir("gone");
    // A client that closes (the body ends short) and one that resets, three times each: hyper
    // hands the route the body's error, or drops the route's future if the connection fails
    // first; either way the file must go.
    for trial in 0..6 {
        let reset = trial % 2 == 1;
        let (stream, saved) = start_upload(addr, &dir, 16 << 20, 4 << 20).await;
        let size = |path: &Path| std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        assert!(
            within(Duration::from_secs(5), || size(&saved) > 0).await,
            "trial {trial}: the route never started saving"
        );
        if reset {
            stream
                .set_zero_linger()
                .expect("SO_LINGER 0: the close is a reset");
        }
        drop(stream);
        let gone = within(Duration::from_secs(5), || !saved.exists()).await;
        assert!(
            gone,
            "trial {trial} (reset: {reset}): {} bytes left at {}",
            size(&saved),
            saved.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upload_cancelled_while_its_client_stalls_leaves_no_partial_file() {
    // The route is cancelled (its future dropped) by tower's timeout, answered 408. Before the
    // guard, the file stayed (the removal after an error return never ran).
    let app = app()
        .upload_limits(64 << 20, 64 << 20)
        .layer(tower::timeout::TimeoutLayer::new(Duration::from_secs(2)));
    let addr = spawn(app).await;
    let dir = save_dir("stalled");
    let (mut stream, saved) = start_upload(addr, &dir, 16 << 20, 1 << 20).await;
    assert!(
        within(Duration::from_secs(2), || saved.exists()).await,
        "the route never started saving"
    );
    // The client sends nothing more, and keeps the connection.
    assert!(
        within(Duration::from_secs(5), || !saved.exists()).await,
        "the partial file is left after the cancellation"
    );
    let reply = tokio::time::timeout(
        Duration::from_secs(5),
        ferrapi_tests::client::read_one(&mut stream),
    )
    .await
    .expect("an answer");
    assert_eq!(reply.expect("a reply").status, 408);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_saved_upload_is_kept_whole_and_one_over_the_part_limit_is_removed() {
    let addr = spawn(app().upload_limits(1 << 20, 256 << 10)).await;
    let dir = save_dir("kept");
    let saved = dir.join("part-0");
    let kind = content_type();
    // One file part to `/upload?dir=<dir>`; the answer's status and body.
    let upload = |content: Vec<u8>| {
        let path = format!("/upload?dir={}", dir.display());
        let headers = [("Content-Type", kind.as_str())];
        async move {
            let body = multipart(&[("file", Some("f.bin"), None, &content)]);
            let reply = ferrapi_tests::client::send(addr, "POST", &path, &headers, Some(&body)).await;
            (reply.status, reply.text())
        }
    };
    let content: Vec<u8> = (0..200_000u32).map(|i| (i % 253) as u8).collect();
    let (status, text) = upload(content.clone()).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(std::fs::read(&saved).expect("kept"), content);
    let _ = std::fs::remove_file(&saved);

    let (status, text) = upload(vec![b'x'; 512 << 10]).await;
    assert_eq!(status, 413, "{text}");
    assert!(!saved.exists(), "the partial file is left after a 413");
    let _ = std::fs::remove_dir_all(&dir);
}
