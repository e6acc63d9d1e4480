//! Client certificates over real TLS on 127.0.0.1 (issue 46, item 3): verified against the
//! client CA, optional or required, as a route argument (`ClientCert`, `Option<ClientCert>`), in
//! an authorisation rule written as a dependency, in the OpenAPI document, and reloaded with the
//! pair.

use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::tls::{ClientAuth, ClientCert};

use crate::support::tls::{ca as new_ca, client_with, get, pair as new_pair, settings, Ca, Identity, Pair};

/// Who the certificate says the caller is.
#[get("/whoami")]
async fn whoami(cert: ClientCert) -> Json<Value> {
    Json(json!({
        "subject": cert.subject(),
        "dns": cert.dns_names(),
        "uris": cert.uris(),
        "fingerprint": cert.fingerprint(),
    }))
}

/// A certificate if there is one.
#[get("/maybe")]
async fn maybe(cert: Option<ClientCert>) -> Json<Value> {
    Json(json!({ "subject": cert.map(|cert| cert.subject().to_owned()) }))
}

/// An administrator: a caller whose certificate's common name is `admin`.
#[derive(Debug, Clone)]
struct Admin(String);

/// The authorisation rule, written as a dependency: 403 for any other certificate.
#[dependency]
async fn admin(cert: ClientCert) -> Result<Admin, Response> {
    if cert.subject().split(',').any(|part| part == "CN=admin") {
        Ok(Admin(cert.fingerprint()))
    } else {
        Err(HttpError::new(403, "Administrators only").into_response())
    }
}

#[delete("/everything")]
async fn delete_everything(admin: Admin) -> Json<Value> {
    Json(json!({ "deleted_by": admin.0 }))
}

/// Open to anyone.
#[get("/open")]
async fn open() -> Json<Value> {
    Json(json!({ "open": true }))
}

fn routes_app() -> App {
    App::new().routes(routes![whoami, maybe, delete_everything, open])
}

/// The app over TLS with `pair`, asking for certificates of `ca` as `auth`.
async fn serve(app: App, pair: &Pair, ca: &Ca, auth: ClientAuth) -> std::net::SocketAddr {
    let tls = settings(pair)
        .client_auth(&ca.path, auth)
        .reload_poll(Some(Duration::from_millis(100)));
    let server = app
        .tls(tls)
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    addr
}

/// `GET path` presenting `identity`, over `alpn`: status and body, or the handshake's error.
async fn call(
    addr: std::net::SocketAddr,
    pair: &Pair,
    identity: Option<&Identity>,
    (alpn, path): (&[u8], &str),
) -> std::io::Result<(u16, Value)> {
    let answer = get(addr, &client_with(&pair.cert, &[alpn], identity), path).await?;
    assert_eq!(answer.alpn.as_deref(), Some(alpn));
    let body = serde_json::from_str(&answer.body).unwrap_or(Value::String(answer.body));
    Ok((answer.status, body))
}

/// The SHA-256 of `der`, in hexadecimal.
fn sha256_hex(der: &[u8]) -> String {
    ring::digest::digest(&ring::digest::SHA256, der)
        .as_ref()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[tokio::test]
async fn a_required_certificate_reaches_the_route_over_http2_and_http1() {
    let (pair, ca) = (new_pair(), new_ca("Clients CA"));
    let alice = ca.issue("alice", "alice.example", "spiffe://example/alice");
    let addr = serve(routes_app(), &pair, &ca, ClientAuth::Required).await;
    for alpn in [&b"h2"[..], b"http/1.1"] {
        let (status, body) = call(addr, &pair, Some(&alice), (alpn, "/whoami"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            json!({
                "subject": "CN=alice,O=Example",
                "dns": ["alice.example"],
                "uris": ["spiffe://example/alice"],
                "fingerprint": sha256_hex(&alice.cert),
            })
        );
    }
    // Required: no certificate, or one of another CA, fails the handshake.
    let stranger = new_ca("Other CA").issue("mallory", "mallory.example", "spiffe://example/mallory");
    for identity in [None, Some(&stranger)] {
        // TLS 1.3 reports the client's refusal with the first read: the request fails.
        let refused = call(addr, &pair, identity, (b"h2", "/open")).await;
        assert!(refused.is_err(), "{refused:?}");
    }
}

#[tokio::test]
async fn an_optional_certificate_is_none_or_a_401_in_the_apps_error_format() {
    let (pair, ca) = (new_pair(), new_ca("Clients CA"));
    let alice = ca.issue("alice", "alice.example", "spiffe://example/alice");
    let addr = serve(routes_app(), &pair, &ca, ClientAuth::Optional).await;
    let without = |path| call(addr, &pair, None, (b"h2", path));
    assert_eq!(
        without("/whoami").await.unwrap_or_else(|e| panic!("{e}")),
        (401, json!({ "detail": "A client certificate is required" }))
    );
    assert_eq!(
        without("/maybe").await.unwrap_or_else(|e| panic!("{e}")),
        (200, json!({ "subject": null }))
    );
    assert_eq!(
        without("/open").await.unwrap_or_else(|e| panic!("{e}")),
        (200, json!({ "open": true }))
    );
    let with = call(addr, &pair, Some(&alice), (b"http/1.1", "/maybe"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(with, (200, json!({ "subject": "CN=alice,O=Example" })));
    // A certificate of another CA is still refused: optional is not unchecked.
    let stranger = new_ca("Other CA").issue("mallory", "mallory.example", "spiffe://example/mallory");
    assert!(call(addr, &pair, Some(&stranger), (b"h2", "/maybe"))
        .await
        .is_err());

    // Problem details where the app answers them.
    let (pair, ca) = (new_pair(), new_ca("Clients CA"));
    let addr = serve(routes_app().problem_details(), &pair, &ca, ClientAuth::Optional).await;
    let (status, body) = call(addr, &pair, None, (b"h2", "/whoami"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (status, &body["status"], &body["detail"]),
        (401, &json!(401), &json!("A client certificate is required"))
    );
}

#[tokio::test]
async fn an_authorisation_rule_written_as_a_dependency_answers_403() {
    let (pair, ca) = (new_pair(), new_ca("Clients CA"));
    let (alice, root) = (
        ca.issue("alice", "alice.example", "spiffe://example/alice"),
        ca.issue("admin", "admin.example", "spiffe://example/admin"),
    );
    let addr = serve(routes_app(), &pair, &ca, ClientAuth::Optional).await;
    let delete = |identity: Option<&Identity>| {
        let connector = client_with(&pair.cert, &[b"h2"], identity);
        async move { delete_on(addr, connector).await }
    };
    assert_eq!(
        delete(None).await,
        (401, json!({ "detail": "A client certificate is required" }))
    );
    assert_eq!(
        delete(Some(&alice)).await,
        (403, json!({ "detail": "Administrators only" }))
    );
    assert_eq!(
        delete(Some(&root)).await,
        (200, json!({ "deleted_by": sha256_hex(&root.cert) }))
    );
}

/// `DELETE /everything` over HTTP/2 through `connector`: its status and JSON body.
async fn delete_on(addr: std::net::SocketAddr, connector: tokio_rustls::TlsConnector) -> (u16, Value) {
    {
        let stream = crate::support::tls::connect(addr, &connector)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let io = hyper_util::rt::TokioIo::new(stream);
        let (mut send, conn) =
            hyper::client::conn::http2::handshake(hyper_util::rt::TokioExecutor::new(), io)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
        tokio::spawn(conn);
        let request = hyper::Request::delete("https://localhost/everything")
            .body(http_body_util::Empty::<bytes::Bytes>::new())
            .unwrap_or_else(|e| panic!("{e}"));
        let response = send.send_request(request).await.unwrap_or_else(|e| panic!("{e}"));
        let status = response.status().as_u16();
        let body = http_body_util::BodyExt::collect(response.into_body())
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .to_bytes();
        (
            status,
            serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null),
        )
    }
}

#[test]
fn the_document_shows_the_mutual_tls_scheme_on_the_routes_that_take_it() {
    let built = routes_app().build().unwrap_or_else(|e| panic!("{e}"));
    let document: Value = serde_json::from_slice(built.openapi_json()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        document["components"]["securitySchemes"]["MutualTLS"]["type"],
        "mutualTLS"
    );
    let mutual = json!([{ "MutualTLS": [] }]);
    assert_eq!(document["paths"]["/whoami"]["get"]["security"], mutual);
    assert_eq!(document["paths"]["/maybe"]["get"]["security"], mutual);
    // Through the dependency that takes it.
    assert_eq!(document["paths"]["/everything"]["delete"]["security"], mutual);
    assert_eq!(document["paths"]["/open"]["get"].get("security"), None);
}

#[tokio::test]
async fn the_client_ca_is_reloaded_with_the_pair() {
    let (pair, ca) = (new_pair(), new_ca("Clients CA"));
    let next = new_ca("Next clients CA");
    let (alice, bob) = (
        ca.issue("alice", "alice.example", "spiffe://example/alice"),
        next.issue("bob", "bob.example", "spiffe://example/bob"),
    );
    let addr = serve(routes_app(), &pair, &ca, ClientAuth::Required).await;
    assert!(call(addr, &pair, Some(&alice), (b"h2", "/open")).await.is_ok());
    assert!(call(addr, &pair, Some(&bob), (b"h2", "/open")).await.is_err());
    // The CA file now holds the next CA: bob is let in, alice no longer.
    std::fs::copy(&next.path, &ca.path).unwrap_or_else(|e| panic!("{e}"));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while call(addr, &pair, Some(&bob), (b"h2", "/open")).await.is_err() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the client CA was not reloaded"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(call(addr, &pair, Some(&alice), (b"h2", "/open")).await.is_err());
}
