//! The binary over TLS (issue 46): `--tls-cert` and `--tls-key` (or `TLS_CERT` and `TLS_KEY`)
//! make `--port` speak HTTPS, which the generated client calls trusting the test's own
//! certificate; `--plain-port` serves plain HTTP beside; a key that is not the certificate's
//! stops the start with one line; `--tls-client-ca` (required by default) lets in only a client
//! that presents a certificate of that CA (the generated client's `identity`).

use std::net::SocketAddr;
use std::time::Duration;

use resource_api_client::operations::ReadItemResponse;
use resource_api_client::Client;

use crate::support::process::Service;
use crate::support::TempDir;

/// A self-signed certificate for `localhost` written to `dir` as `name.crt`/`name.key`: the
/// certificate's PEM (made now: no key is ever committed).
fn certificate(dir: &TempDir, name: &str) -> String {
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).expect("rcgen");
    std::fs::write(dir.path().join(format!("{name}.crt")), made.cert.pem()).expect("write");
    std::fs::write(
        dir.path().join(format!("{name}.key")),
        made.key_pair.serialize_pem(),
    )
    .expect("write");
    made.cert.pem()
}

/// The HTTPS address the service logged.
fn https_addr(service: &Service) -> SocketAddr {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let found = service.lines().iter().find_map(|line| {
            let rest = line.split("listening on https://").nth(1)?;
            let addr: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                .collect();
            addr.parse().ok()
        });
        if let Some(addr) = found {
            return addr;
        }
        assert!(std::time::Instant::now() < deadline, "no https address logged");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_client_calls_the_service_over_tls_beside_plain_http() {
    let dir = TempDir::new("tls");
    let pem = certificate(&dir, "server");
    let cert = dir.path().join("server.crt");
    let key = dir.path().join("server.key");
    let (cert, key) = (cert.to_string_lossy(), key.to_string_lossy());
    // The key by its environment variable, the rest by flags.
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &["--tls-cert", &cert, "--plain-port", "0"],
        &[("TLS_KEY", &key)],
    );
    let https = https_addr(&service);
    let api = Client::from_client(
        ferrapi_client::Client::builder(&format!("https://localhost:{}", https.port()))
            .root_certificates(pem.as_bytes())
            .build()
            .expect("a client"),
    );
    let answer = api.read_item(42).await.expect("an answer over TLS");
    assert!(matches!(answer.body(), ReadItemResponse::Ok(item) if item.id == 42));
    // The plain port (the address `Service` found) answers the same.
    let plain = ferrapi_tests::client::get(service.addr, "/item/42").await;
    assert_eq!(plain.status, 200);
    assert_ne!(service.addr, https);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plain_port_redirects_to_https_which_sends_hsts() {
    let dir = TempDir::new("tls_redirect");
    let pem = certificate(&dir, "server");
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (cert, key) = (path("server.crt"), path("server.key"));
    // The redirect by its flag, HSTS by its environment variable.
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &[
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
            "--plain-port",
            "0",
            "--tls-redirect",
        ],
        &[("HSTS_MAX_AGE", "31536000")],
    );
    let https = https_addr(&service);
    let plain = ferrapi_tests::client::get(service.addr, "/item/42?x=1").await;
    assert_eq!(plain.status, 308);
    assert_eq!(
        plain.header("location"),
        Some(format!("https://127.0.0.1:{}/item/42?x=1", https.port()).as_str())
    );
    assert_eq!(plain.header("strict-transport-security"), None);
    let api = Client::from_client(
        ferrapi_client::Client::builder(&format!("https://localhost:{}", https.port()))
            .root_certificates(pem.as_bytes())
            .build()
            .expect("a client"),
    );
    let answer = api.read_item(42).await.expect("an answer over TLS");
    assert!(matches!(answer.body(), ReadItemResponse::Ok(item) if item.id == 42));
    assert_eq!(
        answer.header("strict-transport-security"),
        Some("max-age=31536000")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_redirect_names_the_public_port_and_hsts_may_include_subdomains() {
    let dir = TempDir::new("tls_redirect_port");
    let pem = certificate(&dir, "server");
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (cert, key) = (path("server.crt"), path("server.key"));
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &[
            "--tls-cert",
            &cert,
            "--tls-key",
            &key,
            "--plain-port",
            "0",
            "--tls-redirect",
            "--tls-redirect-port",
            "443",
            "--hsts-max-age",
            "600",
        ],
        &[("HSTS_INCLUDE_SUBDOMAINS", "true")],
    );
    let https = https_addr(&service);
    let plain = ferrapi_tests::client::get(service.addr, "/item/42?x=1").await;
    assert_eq!(plain.status, 308);
    // 443: no port in the Location, whatever port the HTTPS listener bound.
    assert_ne!(https.port(), 443);
    assert_eq!(plain.header("location"), Some("https://127.0.0.1/item/42?x=1"));
    let api = Client::from_client(
        ferrapi_client::Client::builder(&format!("https://localhost:{}", https.port()))
            .root_certificates(pem.as_bytes())
            .build()
            .expect("a client"),
    );
    let answer = api.read_item(42).await.expect("an answer over TLS");
    assert_eq!(
        answer.header("strict-transport-security"),
        Some("max-age=600; includeSubDomains")
    );
}

/// A CA written to `dir` as `clients-ca.pem`, and a client certificate and key it issued (PEM).
fn client_identity(dir: &TempDir) -> (String, String) {
    let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca_key = rcgen::KeyPair::generate().expect("key");
    let ca = ca.self_signed(&ca_key).expect("CA");
    std::fs::write(dir.path().join("clients-ca.pem"), ca.pem()).expect("write");
    let client = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    let client_key = rcgen::KeyPair::generate().expect("key");
    let client = client.signed_by(&client_key, &ca, &ca_key).expect("client");
    (client.pem(), client_key.serialize_pem())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_ca_lets_in_only_a_client_with_its_certificate() {
    let dir = TempDir::new("tls_client_ca");
    let pem = certificate(&dir, "server");
    let (cert_pem, key_pem) = client_identity(&dir);
    let path = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let (cert, key, ca) = (path("server.crt"), path("server.key"), path("clients-ca.pem"));
    // The CA by its environment variable; `required` is the default.
    let service = Service::start_env(
        &dir.sqlite("items.db"),
        "a",
        "info",
        &["--tls-cert", &cert, "--tls-key", &key, "--plain-port", "0"],
        &[("TLS_CLIENT_CA", &ca)],
    );
    let https = https_addr(&service);
    let client = |identity: bool| {
        let builder = ferrapi_client::Client::builder(&format!("https://localhost:{}", https.port()))
            .root_certificates(pem.as_bytes())
            .retry(ferrapi_client::RetryPolicy::none());
        let builder = if identity {
            builder.identity(cert_pem.as_bytes(), key_pem.as_bytes())
        } else {
            builder
        };
        Client::from_client(builder.build().expect("a client"))
    };
    let answer = client(true)
        .read_item(42)
        .await
        .expect("an answer over mutual TLS");
    assert!(matches!(answer.body(), ReadItemResponse::Ok(item) if item.id == 42));
    let refused = client(false).read_item(42).await;
    assert!(refused.is_err(), "served without a client certificate");
}

#[test]
fn a_key_that_is_not_the_certificate_s_stops_the_start() {
    let dir = TempDir::new("tls_mismatch");
    certificate(&dir, "one");
    certificate(&dir, "two");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_resource-api"))
        .args(["--host", "127.0.0.1", "--port", "0", "--group", "a"])
        .arg("--tls-cert")
        .arg(dir.path().join("one.crt"))
        .arg("--tls-key")
        .arg(dir.path().join("two.key"))
        .env("DB_CONN_STRING", dir.sqlite("items.db"))
        .env("RUST_LOG", "off")
        .env_remove("TLS_CERT")
        .env_remove("TLS_KEY")
        .output()
        .expect("run resource-api");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("one.crt") && stderr.contains("two.key"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}
