//! The example program `examples/inputs.rs` (compiled into this binary as a module, so the tests
//! exercise exactly what a reader runs): the login form issuing a token, the protected route with
//! and without it, the header, the cookie and the upload, and the security scheme in the document.

use ferrapi::testing::TestClient;
use serde_json::{json, Value};

#[allow(dead_code, unreachable_pub, missing_docs)]
#[path = "../../../examples/inputs.rs"]
mod example;

#[tokio::test]
async fn a_login_issues_a_token_that_opens_the_protected_route() {
    let client = TestClient::new(example::app());
    let reply = client.get("/users/me").send().await;
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
        )
    );
    // As Swagger UI's "Authorize" posts it.
    let reply = client
        .post("/token")
        .content_type("application/x-www-form-urlencoded")
        .body("grant_type=password&username=alice&password=wonderland&scope=")
        .send()
        .await;
    assert_eq!(reply.status(), 200, "{}", reply.text());
    let token: Value = reply.json();
    assert_eq!(
        token,
        json!({ "access_token": "token-alice", "token_type": "bearer" })
    );
    let reply = client
        .get("/users/me")
        .header("Authorization", "Bearer token-alice")
        .send()
        .await;
    assert_eq!(
        reply.text(),
        r#"{"username":"alice","full_name":"Alice Liddell"}"#
    );
    let reply = client
        .get("/users/me")
        .header("Authorization", "Bearer token-mallory")
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (
            401,
            r#"{"detail":"Invalid authentication credentials"}"#.to_owned()
        )
    );
    let reply = client
        .post("/token")
        .content_type("application/x-www-form-urlencoded")
        .body("username=alice&password=nope")
        .send()
        .await;
    assert_eq!(
        (reply.status().as_u16(), reply.text()),
        (400, r#"{"detail":"Incorrect username or password"}"#.to_owned())
    );
}

#[tokio::test]
async fn a_header_a_cookie_and_an_upload() {
    let client = TestClient::new(example::app());
    let reply = client.get("/agent").header("User-Agent", "curl/8").send().await;
    assert_eq!(reply.text(), r#"{"user_agent":"curl/8"}"#);
    let reply = client
        .get("/preferences")
        .header("Cookie", "theme=dark")
        .send()
        .await;
    assert_eq!(reply.text(), r#"{"theme":"dark"}"#);
    let body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\
                Content-Type: application/octet-stream\r\n\r\n\0\x01\x02\r\n\
                --b\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--b--\r\n";
    let reply = client
        .post("/upload")
        .content_type("multipart/form-data; boundary=b")
        .body(body)
        .send()
        .await;
    assert_eq!(
        reply.json::<Value>(),
        json!({ "filename": "a.bin", "content_type": "application/octet-stream", "size": 3, "note": "hello" })
    );
}

#[tokio::test]
async fn the_document_lets_the_docs_page_authorize() {
    let client = TestClient::new(example::app());
    let doc: Value = client.get("/openapi.json").send().await.json();
    assert_eq!(
        doc["components"]["securitySchemes"],
        json!({ "OAuth2PasswordBearer": { "type": "oauth2", "flows": { "password": { "scopes": {}, "tokenUrl": "/token" } } } })
    );
    assert_eq!(
        doc["paths"]["/users/me"]["get"]["security"],
        json!([{ "OAuth2PasswordBearer": [] }])
    );
    assert_eq!(
        doc["paths"]["/token"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
            ["schema"],
        json!({ "$ref": "#/components/schemas/Body_login_token_post" })
    );
    assert_eq!(
        doc["paths"]["/upload"]["post"]["requestBody"]["content"]["multipart/form-data"]["schema"],
        json!({ "$ref": "#/components/schemas/Body_upload_upload_post" })
    );
    assert_eq!(
        doc["components"]["schemas"]["Body_upload_upload_post"]["properties"]["file"],
        json!({ "type": "string", "format": "binary", "contentMediaType": "application/octet-stream", "title": "File" })
    );
}
