//! Replaying the recorded answers of the Python side (tests/fastapi/*_observed.json): a case is a
//! `kind`, a `source` (`body` or `query`), the `input`, for a query its `query` string, and the
//! `status` and `body` answered.
//!
//! Rules enforced here: a body case posts `{"v": input}` to `PREFIX/kind`; a query case gets
//! `PREFIX/kind?query`, the query string exactly as the probe sent it; a case listed among the
//! differences (kind, source, input as JSON, reason) is not sent.

use ferrapi::testing::TestClient;
use serde_json::{json, Value};

/// A case answered differently on purpose: (kind, source, input as JSON, the manual's reason).
pub(crate) type Difference = (&'static str, &'static str, &'static str, &'static str);

/// The cases of a recorded file's text.
pub(crate) fn cases(text: &str) -> Vec<Value> {
    let observed: Value = serde_json::from_str(text).unwrap_or(Value::Null);
    observed["cases"].as_array().cloned().unwrap_or_default()
}

/// Send `case` to the app's `{prefix}/{kind}` route; its status and JSON body.
async fn replay(client: &TestClient, prefix: &str, case: &Value) -> (u16, Value) {
    let kind = case["kind"].as_str().unwrap_or_default();
    let reply = if case["source"] == "body" {
        client
            .post(&format!("{prefix}/{kind}"))
            .json(&json!({ "v": case["input"] }))
            .send()
            .await
    } else {
        let query = case["query"].as_str().unwrap_or_default();
        client.get(&format!("{prefix}/{kind}?{query}")).send().await
    };
    (reply.status().as_u16(), reply.json::<Value>())
}

/// Replay every case but the differences and those `skip` names; how many were sent, and a line
/// for each whose status differs, or whose body does when `compare_body` says it counts.
pub(crate) async fn replay_all(
    client: &TestClient,
    prefix: &str,
    cases: &[Value],
    differences: &[Difference],
    skip: impl Fn(&str, &str) -> bool,
    compare_body: impl Fn(&str, u16) -> bool,
) -> (usize, Vec<String>) {
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for case in cases {
        let kind = case["kind"].as_str().unwrap_or_default();
        let source = case["source"].as_str().unwrap_or_default();
        let input = case["input"].to_string();
        let listed = differences
            .iter()
            .any(|(k, s, i, _)| *k == kind && *s == source && *i == input);
        if listed || skip(kind, source) {
            continue;
        }
        let (status, body) = replay(client, prefix, case).await;
        compared += 1;
        let expected_status = case["status"].as_u64().unwrap_or_default() as u16;
        if status != expected_status || compare_body(source, status) && body != case["body"] {
            mismatches.push(format!(
                "{kind} {source} {input}: got {status} {body}, recorded {expected_status} {}",
                case["body"]
            ));
        }
    }
    (compared, mismatches)
}

/// `value` without the integers' `format` (`int64`, `uint8`, ...), which ferrapi writes and
/// FastAPI does not: the manual's difference "integer `format` in the document".
pub(crate) fn without_integer_formats(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("type") == Some(&json!("integer")) {
                map.shift_remove("format");
            }
            map.values_mut().for_each(without_integer_formats);
        }
        Value::Array(items) => items.iter_mut().for_each(without_integer_formats),
        _ => {}
    }
}
