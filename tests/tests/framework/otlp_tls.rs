//! OTLP exports to an `https://` collector (the `otlp-tls` feature) on 127.0.0.1: the local
//! receiver over TLS (rustls, certificates made by rcgen for each test). Checked: the metrics
//! reach it with the roots of `OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE` (the per-signal form)
//! and the spans with `OTEL_EXPORTER_OTLP_CERTIFICATE`; a collector that asks for a client
//! certificate gets the identity of `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE`/`_CLIENT_KEY`, and
//! without one nothing reaches it (the failures counted); an unusable file fails the start.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use ferrapi::metrics::otlp::MetricsExporter;
use ferrapi::metrics::Metrics;
use ferrapi::prelude::*;
use ferrapi::trace::otlp::{OtlpConfig, OtlpExporter};
use ferrapi::trace::{Resource, Tracing};
use ferrapi::App;
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::get;
use ferrapi_tests::otlp::{receiver_over, ExportMetricsServiceRequest, Received};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{RootCertStore, ServerConfig};

use crate::otlp::wait_until;
use crate::support::tls::{ca, pair, Pair};

#[get("/items/{id}")]
async fn read_item(id: i64) -> Json<Value> {
    Json(json!({ "id": id }))
}

/// The receiver's TLS: `server`'s certificate, asking for a client certificate issued by the
/// CA of `client_ca` when given.
fn server_tls(server: &Pair, client_ca: Option<&Path>) -> Arc<ServerConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .unwrap();
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            roots.add(CertificateDer::from_pem_file(path).unwrap()).unwrap();
            let verifier = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider)
                .build()
                .unwrap();
            builder.with_client_cert_verifier(verifier)
        }
    };
    let key = PrivateKeyDer::from_pem_file(&server.key_path).unwrap();
    Arc::new(builder.with_single_cert(vec![server.cert.clone()], key).unwrap())
}

/// A receiver of `path` on 127.0.0.1 speaking TLS as `tls` says (an `https://` collector).
async fn tls_receiver_of<T: prost::Message + Default + Send + 'static>(
    path: &'static str,
    tls: Arc<ServerConfig>,
) -> (SocketAddr, Received<T>) {
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    receiver_over(path, move |stream| {
        let acceptor = acceptor.clone();
        async move { acceptor.accept(stream).await.ok() }
    })
    .await
}

async fn tls_metrics_receiver(tls: Arc<ServerConfig>) -> (SocketAddr, Received<ExportMetricsServiceRequest>) {
    tls_receiver_of("/v1/metrics", tls).await
}

async fn tls_receiver(tls: Arc<ServerConfig>) -> (SocketAddr, Received) {
    tls_receiver_of("/v1/traces", tls).await
}

/// The settings `vars` give, as `OtlpConfig::metrics_from_env` reads them.
fn metrics_config(vars: &[(&str, String)]) -> OtlpConfig {
    let vars: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect();
    let (config, warnings) = OtlpConfig::metrics_from_lookup(|name| vars.get(name).cloned());
    assert!(warnings.is_empty(), "{warnings:?}");
    config.export_interval(Duration::from_millis(50))
}

/// An app whose metrics go to `config`'s collector.
async fn serve_metrics(config: OtlpConfig) -> (SocketAddr, MetricsExporter) {
    let metrics = Metrics::new();
    let exporter = MetricsExporter::start(&metrics, config, Resource::new("tls-test")).unwrap();
    let app = App::new().routes(ferrapi::routes![read_item]).metrics(metrics);
    (spawn(app).await, exporter)
}

/// A file of `text` that is removed when dropped.
struct File(PathBuf);

impl File {
    fn new(name: &str, text: &str) -> Self {
        let path = std::env::temp_dir().join(format!("ferrapi-otlp-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        File(path)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for File {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[tokio::test]
async fn metrics_reach_an_https_collector_trusting_the_certificate_file() {
    let server = pair();
    let (receiver, received) = tls_metrics_receiver(server_tls(&server, None)).await;
    let config = metrics_config(&[
        (
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
            format!("https://127.0.0.1:{}/v1/metrics", receiver.port()),
        ),
        // The per-signal file wins over the common one (which does not exist).
        ("OTEL_EXPORTER_OTLP_CERTIFICATE", "/nonexistent/ca.pem".to_owned()),
        (
            "OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE",
            server.cert_path.display().to_string(),
        ),
    ]);
    let (addr, exporter) = serve_metrics(config).await;
    assert_eq!(get(addr, "/items/1").await.status, 200);
    let export = received
        .wait_for_metrics(|export| !export.resource_metrics.is_empty())
        .await;
    assert!(export.is_some(), "an export over TLS");
    // Counted when the answer is read, just after the receiver recorded the body.
    wait_until(|| exporter.exported() >= 1).await;
    assert!(exporter.exported() >= 1);
    assert_eq!(exporter.failed(), 0);
}

#[tokio::test]
async fn a_collector_asking_for_a_client_certificate_gets_the_identity() {
    let server = pair();
    let authority = ca("otlp clients");
    let identity = authority.issue("exporter", "exporter.example", "spiffe://example/exporter");
    let (chain, key) = (
        File::new("client.crt.pem", &identity.cert_pem),
        File::new("client.key.pem", &identity.key_pem),
    );
    let tls = server_tls(&server, Some(&authority.path));
    let endpoint = |addr: SocketAddr| {
        (
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            format!("https://127.0.0.1:{}", addr.port()),
        )
    };
    let trust = (
        "OTEL_EXPORTER_OTLP_CERTIFICATE",
        server.cert_path.display().to_string(),
    );

    // Spans, through the common variables.
    let (receiver, received) = tls_receiver(tls.clone()).await;
    let vars: HashMap<String, String> = [
        endpoint(receiver),
        trust.clone(),
        ("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", chain.path()),
        ("OTEL_EXPORTER_OTLP_CLIENT_KEY", key.path()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let (config, warnings) = OtlpConfig::from_lookup(|name| vars.get(name).cloned());
    assert!(warnings.is_empty(), "{warnings:?}");
    let exporter = OtlpExporter::start(config.schedule_delay(Duration::from_millis(50))).unwrap();
    let app = App::new().routes(ferrapi::routes![read_item]).tracing(
        Tracing::new()
            .resource(Resource::new("tls-test"))
            .exporter(exporter.clone()),
    );
    let addr = spawn(app).await;
    assert_eq!(get(addr, "/items/1").await.status, 200);
    let spans = received.wait_for(1).await;
    assert_eq!(spans.len(), 1, "the span reached the collector over mutual TLS");
    assert_eq!(spans[0].0, "tls-test");

    // Metrics without an identity: the handshake fails, nothing arrives, failures are counted.
    let (receiver, received) = tls_metrics_receiver(tls).await;
    let (addr, exporter) = serve_metrics(metrics_config(&[endpoint(receiver), trust])).await;
    assert_eq!(get(addr, "/items/1").await.status, 200);
    wait_until(|| exporter.failed() >= 2).await;
    assert!(exporter.failed() >= 2, "each refused export counted");
    assert!(
        received.posts().is_empty(),
        "nothing without the client certificate"
    );
    assert_eq!(exporter.exported(), 0);
}

#[tokio::test]
async fn an_unusable_certificate_file_fails_the_start() {
    let not_pem = File::new("not.pem", "not a certificate");
    let config = OtlpConfig::default()
        .endpoint("https://127.0.0.1:4318/v1/traces")
        .unwrap()
        .certificate(not_pem.0.clone());
    let error = OtlpExporter::start(config.clone()).err().expect("refused");
    assert!(error.contains("no certificate"), "{error}");
    let missing = config.certificate("/nonexistent/ca.pem");
    let error = MetricsExporter::start(&Metrics::new(), missing, Resource::new("x"))
        .err()
        .expect("refused");
    assert!(error.contains("/nonexistent/ca.pem"), "{error}");
    // Only a key: an identity is both files or neither.
    let vars = [("OTEL_EXPORTER_OTLP_CLIENT_KEY", "/b.pem")];
    let (half, _) = OtlpConfig::from_lookup(|name| {
        vars.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_owned())
    });
    let error = OtlpExporter::start(half).err().expect("refused");
    assert!(error.contains("go together"), "{error}");
}
