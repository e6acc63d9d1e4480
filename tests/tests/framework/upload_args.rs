//! Files as arguments (issue 24 item 2): `UploadFile`, `Option<UploadFile>`, `Vec<UploadFile>`
//! next to form fields, path and query parameters. FastAPI 0.165's recorded answers
//! (tests/fastapi/observed_uploads.json) are replayed against `ferrapi_tests::uploads`, status
//! and body bytes alike, and its document compared; the errors go through the app's
//! `on_validation_error`; the limits are 413; a 50 MiB upload is spooled to disk with the
//! server's memory flat.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use ferrapi::arg::Parts;
use ferrapi::prelude::*;
use ferrapi::validation::ValidationErrors;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{get, send};
use ferrapi_tests::observed::assert_same_form;
use ferrapi_tests::process::rss_of;
use ferrapi_tests::uploads::app;

/// The recorded cases whose path (without the query) is one of `paths`.
fn observed(paths: &[&str]) -> Vec<Value> {
    ferrapi_tests::observed::cases(include_str!("../../fastapi/observed_uploads.json"), paths)
}

#[tokio::test]
async fn files_and_form_fields_answer_as_fastapi() {
    let addr = spawn(app()).await;
    let paths = ["/uf/up", "/uf/opt", "/uf/many", "/uf/items/x", "/uf/items/3"];
    let cases = observed(&paths);
    assert_eq!(ferrapi_tests::observed::replay(addr, &cases, &[]).await, 25);
}

#[tokio::test]
async fn files_are_documented_as_fastapi_documents_them() {
    let addr = spawn(app()).await;
    let ours = without_binary_formats(get(addr, "/openapi.json").await.json());
    let case = observed(&["/openapi.json"]).pop().unwrap_or_default();
    let theirs: Value = serde_json::from_str(case["body"].as_str().unwrap_or("")).expect("parses");
    for path in ["/uf/up", "/uf/opt", "/uf/many", "/uf/items/{item_id}"] {
        assert_same_form(&ours, &theirs, path, "multipart/form-data");
    }
}

/// `value` without the `format: binary` of file schemas, which this framework keeps beside
/// FastAPI's `contentMediaType` for client generators (a deliberate difference, in the manual);
/// panics if a file schema lacks it.
fn without_binary_formats(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            if map.get("contentMediaType").is_some() {
                assert_eq!(
                    map.shift_remove("format"),
                    Some(json!("binary")),
                    "a file's format"
                );
            }
            for item in map.values_mut() {
                *item = without_binary_formats(item.take());
            }
        }
        Value::Array(items) => {
            for item in items {
                *item = without_binary_formats(item.take());
            }
        }
        _ => {}
    }
    value
}

const MULTIPART: (&str, &str) = ("Content-Type", "multipart/form-data; boundary=b");

#[tokio::test]
async fn upload_errors_are_answered_as_the_app_answers_validation_errors() {
    /// The app's own answer: the number of errors and the path.
    fn answer(errors: &ValidationErrors, head: &Parts) -> Json<Value> {
        Json(json!({ "errors": errors.items().len(), "path": head.uri.path() }))
    }
    let addr = spawn(app().on_validation_error(StatusCode::BAD_REQUEST, answer)).await;
    let body = "--b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nn\r\n--b--\r\n";
    let reply = send(
        addr,
        "POST",
        "/uf/items/x?limit=y",
        &[MULTIPART],
        Some(body.as_bytes()),
    )
    .await;
    assert_eq!(
        (reply.status, reply.text()),
        (400, r#"{"errors":3,"path":"/uf/items/x"}"#.to_owned())
    );
}

#[tokio::test]
async fn the_upload_limits_are_413() {
    let file = "x".repeat(4096);
    let body = format!(
        "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f\"\r\n\r\n{file}\r\n\
         --b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nn\r\n--b--\r\n"
    );
    let addr = spawn(app().upload_limits(1 << 20, 1024)).await;
    let reply = send(addr, "POST", "/uf/up", &[MULTIPART], Some(body.as_bytes())).await;
    assert_eq!(
        (reply.status, reply.text()),
        (
            413,
            r#"{"detail":"An uploaded part is larger than the limit of 1024 bytes"}"#.to_owned()
        )
    );
    let addr = spawn(app().upload_limits(2048, 2048)).await;
    let reply = send(addr, "POST", "/uf/up", &[MULTIPART], Some(body.as_bytes())).await;
    assert_eq!(
        (reply.status, reply.text()),
        (
            413,
            r#"{"detail":"Request body is larger than the limit of 2048 bytes"}"#.to_owned()
        ),
        "a declared length over the total"
    );
}

/// Send a request head, then `size` bytes of a file in chunks, on a blocking socket; the
/// answer's status line and body, and the peak RSS of process `server` while sending.
fn raw_upload(addr: SocketAddr, path: &str, size: usize, server: u32) -> (String, String, u64) {
    const CHUNK: usize = 64 * 1024;
    let head_part = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n";
    let tail = "\r\n--b--\r\n";
    let length = head_part.len() + size + tail.len();
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n{head_part}"
    );
    stream.write_all(head.as_bytes()).expect("head");
    let pattern: Vec<u8> = (0..CHUNK).map(|i| (i % 251) as u8).collect();
    let mut peak = rss_of(server);
    for i in 0..size / CHUNK {
        if i % 16 == 0 {
            peak = peak.max(rss_of(server));
        }
        if stream.write_all(&pattern).is_err() {
            break;
        }
    }
    let _ = stream.write_all(tail.as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (status, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = status.lines().next().unwrap_or("").to_owned();
    (status, body.to_owned(), peak.max(rss_of(server)))
}

/// Set in the child process that serves the memory test's app.
const SERVE_FOR_MEMORY: &str = "FERRAPI_UPLOAD_MEMORY_SERVER";

/// The server of the memory test, in a process of its own (this test binary, running only this
/// test), so that no other test's allocations count: prints its address, serves until its
/// standard input closes.
#[tokio::test]
#[ignore = "run in a child process by a_50_mib_upload_is_spooled_to_disk_and_memory_stays_flat"]
async fn upload_memory_server() {
    if std::env::var_os(SERVE_FOR_MEMORY).is_none() {
        return;
    }
    let addr = spawn(app()).await;
    println!("listening {addr}");
    let _ = tokio::task::spawn_blocking(|| std::io::stdin().read_line(&mut String::new())).await;
}

/// The memory test's server process, and its address.
fn memory_server() -> (std::process::Child, SocketAddr) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().expect("this test binary");
    let mut child = Command::new(exe)
        .args([
            "upload_args::upload_memory_server",
            "--exact",
            "--ignored",
            "--nocapture",
        ])
        .env(SERVE_FOR_MEMORY, "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server process");
    let stdout = child.stdout.take().expect("its output");
    let mut lines = std::io::BufReader::new(stdout).lines().map_while(Result::ok);
    let addr = lines
        .find_map(|line| line.strip_prefix("listening ").and_then(|a| a.parse().ok()))
        .expect("the server's address");
    // The rest of its output is read, so its last lines do not meet a closed pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

#[test]
fn a_50_mib_upload_is_spooled_to_disk_and_memory_stays_flat() {
    const SIZE: usize = 50 << 20;
    let (mut server, addr) = memory_server();
    let pid = server.id();
    let dir = std::env::temp_dir().join(format!("ferrapi-upload-args-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let saved = dir.join("big.bin");
    let path = format!("/uf/save?path={}", saved.display());
    // A small upload first, so what a first request allocates once is not counted.
    let (status, body, _) = raw_upload(addr, &path, 64 * 1024, pid);
    assert!(status.contains("200"), "{status} {body}");
    assert!(
        body.contains(r#""on_disk":false"#),
        "64 KiB stays in memory: {body}"
    );
    let baseline = rss_of(pid);
    let (status, body, peak) = raw_upload(addr, &path, SIZE, pid);
    let growth = peak.saturating_sub(baseline);
    let size = std::fs::metadata(&saved).map(|m| m.len()).unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    drop(server.stdin.take());
    let _ = server.wait();
    assert!(baseline > 0, "the server's RSS is readable");
    assert!(status.contains("200"), "{status} {body}");
    assert!(body.contains(r#""on_disk":true"#), "{body}");
    assert_eq!(size, SIZE as u64, "{body}");
    eprintln!("RSS growth during a 50 MiB upload: {} KiB", growth >> 10);
    assert!(
        growth < 8 << 20,
        "RSS grew by {} KiB during a 50 MiB upload",
        growth >> 10
    );
}

/// The caller's name, from a header: a dependency beside the files.
#[derive(Clone)]
struct Caller(String);

#[ferrapi::dependency]
async fn caller(x_user: Header<Option<String>>) -> Result<Caller, HttpError> {
    x_user
        .0
        .map(Caller)
        .ok_or_else(|| HttpError::new(401, "Who are you?"))
}

/// Files with a default, next to a dependency.
#[post("/attach")]
async fn attach(caller: Caller, #[default(Vec::new())] files: Vec<UploadFile>) -> Json<Value> {
    let sizes: Vec<u64> = files.iter().map(UploadFile::size).collect();
    Json(json!({ "caller": caller.0, "sizes": sizes }))
}

#[tokio::test]
async fn files_beside_a_dependency_and_a_default() {
    let addr = spawn(App::new().routes(ferrapi::routes![attach])).await;
    let body = "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a\"\r\n\r\nabc\r\n\
                --b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"b\"\r\n\r\nde\r\n--b--\r\n";
    let reply = send(
        addr,
        "POST",
        "/attach",
        &[MULTIPART, ("X-User", "ann")],
        Some(body.as_bytes()),
    )
    .await;
    assert_eq!(
        (reply.status, reply.text()),
        (200, r#"{"caller":"ann","sizes":[3,2]}"#.to_owned())
    );
    let reply = send(
        addr,
        "POST",
        "/attach",
        &[MULTIPART, ("X-User", "ann")],
        Some(b"--b--\r\n"),
    )
    .await;
    assert_eq!(
        (reply.status, reply.text()),
        (200, r#"{"caller":"ann","sizes":[]}"#.to_owned()),
        "the default"
    );
    let reply = send(addr, "POST", "/attach", &[MULTIPART], Some(body.as_bytes())).await;
    assert_eq!(
        (reply.status, reply.text()),
        (401, r#"{"detail":"Who are you?"}"#.to_owned())
    );
}
