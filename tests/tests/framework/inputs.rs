//! Request inputs beyond path, query and JSON (issue 13), in-process through the test client,
//! against FastAPI's own answers: every case `tests/fastapi/probe.py` recorded for the routes of
//! `ferrapi_tests::inputs` (tests/fastapi/observed.json) is replayed, and status, body bytes and
//! `WWW-Authenticate` must be FastAPI's, except the deliberate differences listed here. The
//! documents are FastAPI's too, but for the `format` this framework adds to integers and floats.

use ferrapi::http::Method;
use ferrapi::testing::TestClient;
use serde_json::Value;

/// The recorded cases whose path starts with one of `prefixes`.
fn observed(prefixes: &[&str]) -> Vec<Value> {
    let text = include_str!("../../fastapi/observed.json");
    let cases: Vec<Value> = serde_json::from_str(text).expect("observed.json parses");
    cases
        .into_iter()
        .filter(|case| {
            let path = case["path"].as_str().unwrap_or("");
            prefixes
                .iter()
                .any(|prefix| path == *prefix || path.starts_with(&format!("{prefix}?")))
        })
        .collect()
}

/// The request headers of a case: an object, or a list of pairs (repeated headers). Values are
/// trimmed as an HTTP/1 parser trims them (the test client sends them as given).
fn headers(case: &Value) -> Vec<(String, Vec<u8>)> {
    let latin1 = |v: &Value| {
        let text = v.as_str().unwrap_or("").trim_matches([' ', '\t']);
        text.chars().map(|c| c as u8).collect::<Vec<u8>>()
    };
    match &case["request_headers"] {
        Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), latin1(v))).collect(),
        Value::Array(pairs) => pairs
            .iter()
            .map(|pair| (pair[0].as_str().unwrap_or("").to_owned(), latin1(&pair[1])))
            .collect(),
        _ => Vec::new(),
    }
}

/// Replay each case; `expect` may replace FastAPI's answer with ours, for a deliberate
/// difference. Returns how many cases ran.
async fn replay(
    client: &TestClient,
    cases: &[Value],
    expect: impl Fn(&Value) -> Option<(u16, String)>,
) -> usize {
    for case in cases {
        let method: Method = case["method"].as_str().unwrap_or("GET").parse().expect("method");
        let path = case["path"].as_str().unwrap_or("/");
        let mut request = client.request(method, path);
        for (name, value) in headers(case) {
            let value = ferrapi::http::header::HeaderValue::from_bytes(&value).expect("header value");
            request = request.header(name.as_str(), value);
        }
        if let Some(body) = case["request_body"].as_str() {
            request = request.body(body.as_bytes().to_vec());
        }
        let reply = request.send().await;
        let note = case["note"].as_str().unwrap_or("");
        let (status, body) = expect(case).unwrap_or_else(|| {
            (
                case["status"].as_u64().unwrap_or(0) as u16,
                case["body"].as_str().unwrap_or("").to_owned(),
            )
        });
        assert_eq!(
            (reply.status().as_u16(), reply.text()),
            (status, body),
            "{path}: {note}"
        );
        let theirs = case["response_headers"]
            .as_array()
            .and_then(|hs| hs.iter().find(|h| h[0] == "www-authenticate"))
            .and_then(|h| h[1].as_str());
        assert_eq!(reply.header("www-authenticate"), theirs, "{path}: {note}");
    }
    cases.len()
}

#[tokio::test]
async fn header_and_cookie_parameters_answer_as_fastapi() {
    let client = TestClient::new(ferrapi_tests::inputs::app());
    let cases = observed(&[
        "/hdr/agent",
        "/hdr/typed",
        "/hdr/list",
        "/hdr/exact",
        "/ck",
        "/inputs-order",
    ]);
    let ran = replay(&client, &cases, |case| {
        // The spec's bool rule (README, "Differences from FastAPI"): `maybe` is false, not an
        // error, for a header as for a query parameter.
        (case["note"] == "every header invalid").then(|| {
            let theirs: Value = serde_json::from_str(case["body"].as_str().unwrap_or("")).unwrap_or_default();
            let mut ours = theirs.clone();
            if let Some(items) = ours["detail"].as_array_mut() {
                items.retain(|item| item["type"] != "bool_parsing");
            }
            (422, ours.to_string())
        })
    })
    .await;
    assert_eq!(ran, 25);
}

#[tokio::test]
async fn header_and_cookie_parameters_are_documented_as_fastapi_documents_them() {
    let client = TestClient::new(ferrapi_tests::inputs::app());
    let doc: Value = client.get("/openapi.json").send().await.json();
    let params = |path: &str| doc["paths"][path]["get"]["parameters"].clone();
    assert_eq!(
        params("/hdr/typed"),
        serde_json::json!([
            {"name": "x-count", "in": "header", "required": true, "schema": {"type": "integer", "format": "int64", "title": "X-Count"}},
            {"name": "x-ratio", "in": "header", "required": false, "schema": {"anyOf": [{"type": "number"}, {"type": "null"}], "title": "X-Ratio"}},
            {"name": "x-limit", "in": "header", "required": false, "schema": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 10, "default": 5, "title": "X-Limit"}},
            {"name": "x-name", "in": "header", "required": false, "schema": {"type": "string", "minLength": 2, "default": "anon", "title": "X-Name"}},
            {"name": "x-flag", "in": "header", "required": false, "schema": {"type": "boolean", "default": false, "title": "X-Flag"}}
        ])
    );
    assert_eq!(
        params("/hdr/list"),
        serde_json::json!([
            {"name": "x-tag", "in": "header", "required": false, "schema": {"type": "array", "items": {"type": "string"}, "default": [], "title": "X-Tag"}},
            {"name": "x-num", "in": "header", "required": false, "schema": {"type": "array", "items": {"type": "integer", "format": "int64"}, "default": [], "title": "X-Num"}}
        ])
    );
    assert_eq!(
        params("/hdr/exact"),
        serde_json::json!([{"name": "X-Request_ID", "in": "header", "required": true, "schema": {"type": "string", "title": "X-Request Id"}}])
    );
    assert_eq!(
        params("/ck"),
        serde_json::json!([
            {"name": "session", "in": "cookie", "required": true, "schema": {"type": "string", "title": "Session"}},
            {"name": "n", "in": "cookie", "required": false, "schema": {"anyOf": [{"type": "integer", "format": "int64"}, {"type": "null"}], "title": "N"}},
            {"name": "theme", "in": "cookie", "required": false, "schema": {"type": "string", "maxLength": 5, "default": "light", "title": "Theme"}}
        ])
    );
    let order: Vec<&str> = doc["paths"]["/inputs-order"]["get"]["parameters"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["in"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(order, ["query", "header", "cookie"]);
}

#[tokio::test]
async fn form_bodies_answer_as_fastapi() {
    let client = TestClient::new(ferrapi_tests::inputs::app());
    let ran = replay(&client, &observed(&["/form"]), |_| None).await;
    assert_eq!(ran, 8);
}

#[tokio::test]
async fn security_schemes_answer_as_fastapi() {
    let client = TestClient::new(ferrapi_tests::inputs::app());
    let cases = observed(&[
        "/sec/bearer",
        "/sec/basic",
        "/sec/key-header",
        "/sec/key-query",
        "/sec/key-cookie",
        "/sec/oauth2",
    ]);
    let ran = replay(&client, &cases, |_| None).await;
    assert_eq!(ran, 23);
}

#[tokio::test]
async fn forms_and_security_schemes_are_documented_as_fastapi_documents_them() {
    let client = TestClient::new(ferrapi_tests::inputs::app());
    let doc: Value = client.get("/openapi.json").send().await.json();
    assert_eq!(
        doc["paths"]["/form"]["post"]["requestBody"],
        serde_json::json!({"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Login"}}}})
    );
    assert_eq!(
        doc["components"]["securitySchemes"],
        serde_json::json!({
            "HTTPBearer": {"type": "http", "scheme": "bearer"},
            "HTTPBasic": {"type": "http", "scheme": "basic"},
            "APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            "APIKeyQuery": {"type": "apiKey", "in": "query", "name": "api_key"},
            "APIKeyCookie": {"type": "apiKey", "in": "cookie", "name": "session_key"},
            "OAuth2PasswordBearer": {"type": "oauth2", "flows": {"password": {"scopes": {}, "tokenUrl": "token"}}}
        })
    );
    for (path, scheme) in [
        ("/sec/bearer", "HTTPBearer"),
        ("/sec/basic", "HTTPBasic"),
        ("/sec/key-header", "APIKeyHeader"),
        ("/sec/key-query", "APIKeyQuery"),
        ("/sec/key-cookie", "APIKeyCookie"),
        ("/sec/oauth2", "OAuth2PasswordBearer"),
    ] {
        let op = &doc["paths"][path]["get"];
        assert_eq!(op["security"], serde_json::json!([{ scheme: [] }]), "{path}");
        // FastAPI leaves the scheme's 401 out of its document; an app that asks has it.
        assert_eq!(op["responses"].get("401"), None, "{path}");
    }
    let client = TestClient::new(ferrapi_tests::inputs::app().document_implicit_responses(true));
    let doc: Value = client.get("/openapi.json").send().await.json();
    let bearer = &doc["paths"]["/sec/bearer"]["get"]["responses"];
    assert_eq!(bearer["401"]["description"], "Not authenticated");
}

mod grouped {
    use ferrapi::files::{Multipart, MultipartError};
    use ferrapi::prelude::*;
    use ferrapi::security::HttpBearer;
    use ferrapi::testing::TestClient;

    /// A plain route of the group.
    #[get("/me")]
    async fn me() -> &'static str {
        "me"
    }

    /// An upload inside the group: the body still reaches it unread.
    #[post("/upload", status = 200)]
    async fn upload(mut form: Multipart) -> Result<String, MultipartError> {
        let mut sizes = Vec::new();
        while let Some(mut part) = form.next_part().await? {
            sizes.push(part.bytes().await?.len().to_string());
        }
        Ok(sizes.join(","))
    }

    #[tokio::test]
    async fn a_security_scheme_on_a_group_protects_and_documents_every_route_in_it() {
        let app = App::new().group(group!("/private", dependencies(HttpBearer)).routes(routes![me, upload]));
        let client = TestClient::new(app);
        for (method, path) in [("GET", "/private/me"), ("POST", "/private/upload")] {
            let reply = client.request(method.parse().unwrap(), path).send().await;
            assert_eq!(
                (
                    reply.status().as_u16(),
                    reply.header("www-authenticate"),
                    reply.text()
                ),
                (
                    401,
                    Some("Bearer"),
                    r#"{"detail":"Not authenticated"}"#.to_owned()
                ),
                "{method} {path}"
            );
        }
        let reply = client
            .get("/private/me")
            .header("Authorization", "Bearer t")
            .send()
            .await;
        assert_eq!(reply.text(), "me");
        let body =
            "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x\"\r\n\r\n12345\r\n--b--\r\n";
        let reply = client
            .post("/private/upload")
            .header("Authorization", "Bearer t")
            .content_type("multipart/form-data; boundary=b")
            .body(body)
            .send()
            .await;
        assert_eq!((reply.status().as_u16(), reply.text()), (200, "5".to_owned()));
        let doc: serde_json::Value = client.get("/openapi.json").send().await.json();
        for (path, method) in [("/private/me", "get"), ("/private/upload", "post")] {
            assert_eq!(
                doc["paths"][path][method]["security"],
                json!([{ "HTTPBearer": [] }]),
                "{path}"
            );
        }
    }
}
