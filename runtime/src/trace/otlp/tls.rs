//! The exporters' TLS client for `https://` endpoints (the `otlp-tls` feature): rustls with the
//! `ring` provider named explicitly, through hyper-rustls.
//!
//! Rules enforced here (OTLP exporter specification): the roots trusted are those of
//! `OTEL_EXPORTER_OTLP_CERTIFICATE`'s file when given, else Mozilla's; a client identity is the
//! certificate chain and key of `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and `_CLIENT_KEY`, both
//! or neither; a file that cannot be read or holds no usable PEM fails the exporter's start,
//! never an export. `http://` endpoints go through the same connector, without TLS.

use std::sync::Arc;

use hyper_rustls::{ConfigBuilderExt as _, HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::{ClientConfig, RootCertStore};

use super::config::TlsFiles;

/// The connector of an exporter's client: TLS for `https://`, plain for `http://`.
pub(crate) fn connector(files: &TlsFiles) -> Result<HttpsConnector<HttpConnector>, String> {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    Ok(HttpsConnectorBuilder::new()
        .with_tls_config(client_config(files)?)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http))
}

/// The rustls configuration `files` describe.
fn client_config(files: &TlsFiles) -> Result<ClientConfig, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("OTLP TLS: {e}"))?;
    let builder = match &files.certificate {
        None => builder.with_webpki_roots(),
        Some(path) => {
            let mut roots = RootCertStore::empty();
            for certificate in certificates(path)? {
                roots
                    .add(certificate)
                    .map_err(|e| format!("OTLP TLS: {}: {e}", path.display()))?;
            }
            builder.with_root_certificates(roots)
        }
    };
    match (&files.client_certificate, &files.client_key) {
        (None, None) => Ok(builder.with_no_client_auth()),
        (Some(chain), Some(key)) => {
            let key = PrivateKeyDer::from_pem_file(key)
                .map_err(|e| format!("OTLP TLS: the client key {}: {e}", key.display()))?;
            builder
                .with_client_auth_cert(certificates(chain)?, key)
                .map_err(|e| format!("OTLP TLS: the client identity: {e}"))
        }
        _ => Err("OTLP TLS: a client certificate and a client key go together; one is missing".to_owned()),
    }
}

/// The certificates of the PEM file at `path` (at least one).
fn certificates(path: &std::path::Path) -> Result<Vec<CertificateDer<'static>>, String> {
    let found = CertificateDer::pem_file_iter(path)
        .and_then(|all| all.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("OTLP TLS: {}: {e}", path.display()))?;
    if found.is_empty() {
        return Err(format!("OTLP TLS: {}: no certificate in it", path.display()));
    }
    Ok(found)
}
