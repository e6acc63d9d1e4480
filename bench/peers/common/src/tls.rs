//! TLS for the peers that serve it (issue 46's cost table, `bench/run.py --tls`): the pair the
//! environment names (`TLS_CERT`, `TLS_KEY`, PEM files), rustls with the `ring` provider, TLS 1.3
//! and 1.2, the server's defaults otherwise (a session cache of 256, as the service has), so the
//! peers and the service do the same cryptography.

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The server configuration for the pair `TLS_CERT`/`TLS_KEY` name, offering `alpn`; `None`
/// when they are not set (the peer then serves plain HTTP). A bad pair stops the peer: the
/// harness starts it and reports its exit.
pub fn server_config_from_env(alpn: &[&[u8]]) -> Option<Arc<rustls::ServerConfig>> {
    let cert = std::env::var_os("TLS_CERT")?;
    let key = std::env::var_os("TLS_KEY")?;
    let chain = CertificateDer::pem_file_iter(&cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .unwrap_or_else(|e| panic!("TLS_CERT: {e}"));
    let key = PrivateKeyDer::from_pem_file(&key).unwrap_or_else(|e| panic!("TLS_KEY: {e}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .unwrap_or_else(|e| panic!("TLS versions: {e}"))
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap_or_else(|e| panic!("TLS pair: {e}"));
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Some(Arc::new(config))
}
