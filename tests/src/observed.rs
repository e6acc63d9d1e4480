//! FastAPI's recorded answers (the `observed_*.json` files the probes in `tests/fastapi/` write),
//! replayed against a server: the same request, and the same status and body bytes required.

use std::net::SocketAddr;

use serde_json::Value;

use crate::client::send;

/// The cases of recording `recorded` (a file's text) whose path, without its query, is one of
/// `paths`; the recording must be FastAPI 0.165's.
pub fn cases(recorded: &str, paths: &[&str]) -> Vec<Value> {
    let recorded: Value = serde_json::from_str(recorded).expect("the recording parses");
    assert_eq!(recorded["fastapi"], "0.165.0");
    let cases = recorded["cases"].as_array().cloned().unwrap_or_default();
    cases
        .into_iter()
        .filter(|case| {
            let path = case["path"].as_str().unwrap_or("");
            paths.contains(&path.split('?').next().unwrap_or(path))
        })
        .collect()
}

/// Replay each case against the server at `addr`: status and body, and the response headers
/// named in `headers`, must be the recorded ones. Returns how many ran.
pub async fn replay(addr: SocketAddr, cases: &[Value], headers: &[&str]) -> usize {
    for case in cases {
        let (method, path) = (
            case["method"].as_str().unwrap_or("GET"),
            case["path"].as_str().unwrap_or("/"),
        );
        let request_headers: Vec<(&str, &str)> = case["request_headers"]
            .as_object()
            .map(|map| {
                map.iter()
                    .map(|(k, v)| (k.as_str(), v.as_str().unwrap_or("")))
                    .collect()
            })
            .unwrap_or_default();
        let body = case["request_body"].as_str().map(str::as_bytes);
        let reply = send(addr, method, path, &request_headers, body).await;
        let note = case["note"].as_str().unwrap_or("");
        assert_eq!(
            (reply.status, reply.text()),
            (
                case["status"].as_u64().unwrap_or(0) as u16,
                case["body"].as_str().unwrap_or("").to_owned()
            ),
            "{path}: {note}"
        );
        for name in headers {
            let theirs = case["response_headers"]
                .as_array()
                .and_then(|hs| hs.iter().find(|h| h[0] == *name))
                .and_then(|h| h[1].as_str());
            assert_eq!(reply.header(name), theirs, "{path}: {note}: {name}");
        }
    }
    cases.len()
}

/// Require operation `POST path` of document `ours` to take the body FastAPI's `theirs` documents
/// (`media_type`), its `Body_..` form schema included.
pub fn assert_same_form(ours: &Value, theirs: &Value, path: &str, media_type: &str) {
    let (op, their_op) = (&ours["paths"][path]["post"], &theirs["paths"][path]["post"]);
    assert_eq!(op["requestBody"], their_op["requestBody"], "{path}");
    let reference = &their_op["requestBody"]["content"][media_type]["schema"]["$ref"];
    let name = reference
        .as_str()
        .and_then(|r| r.rsplit('/').next())
        .unwrap_or("?");
    assert!(name.starts_with("Body_"), "{name}");
    assert_eq!(
        ours["components"]["schemas"][name], theirs["components"]["schemas"][name],
        "{name}"
    );
}

/// `schema` without the `format` keywords ferrapi writes on numbers (`int64`, `double`) and
/// FastAPI does not (the manual's "Differences from FastAPI"), to compare documents keyword by
/// keyword.
pub fn without_format(mut schema: Value) -> Value {
    match &mut schema {
        Value::Object(map) => {
            // `shift_remove`: the other keywords keep their order, which the tests compare.
            map.shift_remove("format");
            for value in map.values_mut() {
                *value = without_format(value.take());
            }
        }
        Value::Array(items) => {
            for value in items.iter_mut() {
                *value = without_format(value.take());
            }
        }
        _ => {}
    }
    schema
}
