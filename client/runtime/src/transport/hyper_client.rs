//! The default transport: hyper-util's pooled client over TCP (and TLS with the `rustls`
//! feature).
//!
//! Rules enforced here: connections are kept and reused (per host, idle ones closed after a
//! while); `TCP_NODELAY` is on, so a small request is not held back by Nagle's algorithm; a
//! connection that cannot be made within the connect timeout is an
//! [`ErrorKind::Connect`](crate::ErrorKind::Connect); HTTP/2 is used when TLS negotiates it, or for every
//! request with [`http2_only`](HyperTransport::http2_only) (a server known to speak HTTP/2
//! without TLS).

use std::time::Duration;

use hyper::Request;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::{Client, ResponseFuture};
use hyper_util::rt::{TokioExecutor, TokioTimer};

use crate::body::RequestBody;

#[cfg(feature = "rustls")]
type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
#[cfg(not(feature = "rustls"))]
type Connector = HttpConnector;

/// How long a connection may take to open, by default.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an unused connection is kept, by default.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(60);

/// hyper-util's pooled client: HTTP/1.1 and HTTP/2, over TCP, or TLS (rustls) with the
/// `rustls` feature.
#[derive(Clone, Debug)]
pub struct HyperTransport {
    client: Client<Connector, RequestBody>,
}

/// How a [`HyperTransport`] is made.
#[derive(Clone, Debug)]
pub struct HyperSettings {
    /// Speak HTTP/2 to every server, without TLS's negotiation (h2c with prior knowledge).
    pub http2_only: bool,
    /// How long a connection may take to open.
    pub connect_timeout: Duration,
    /// How long an unused connection is kept.
    pub idle_timeout: Duration,
    /// The roots TLS trusts, in PEM (`None`: Mozilla's, from webpki-roots).
    #[cfg(feature = "rustls")]
    pub root_certificates: Option<Vec<u8>>,
}

impl Default for HyperSettings {
    fn default() -> Self {
        HyperSettings {
            http2_only: false,
            connect_timeout: CONNECT_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            #[cfg(feature = "rustls")]
            root_certificates: None,
        }
    }
}

impl HyperTransport {
    /// A transport with the default settings.
    pub fn new() -> Result<Self, crate::Error> {
        Self::with(&HyperSettings::default())
    }

    /// A transport with `settings`.
    pub fn with(settings: &HyperSettings) -> Result<Self, crate::Error> {
        let mut http = HttpConnector::new();
        http.set_nodelay(true);
        http.set_connect_timeout(Some(settings.connect_timeout));
        #[cfg(feature = "rustls")]
        let connector = tls::connector(http, settings)?;
        #[cfg(not(feature = "rustls"))]
        let connector = http;
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .timer(TokioTimer::new())
            .pool_idle_timeout(settings.idle_timeout)
            .http2_only(settings.http2_only)
            .build(connector);
        Ok(HyperTransport { client })
    }

    /// A transport that speaks HTTP/2 to every server (h2c with prior knowledge).
    pub fn http2_only() -> Result<Self, crate::Error> {
        Self::with(&HyperSettings {
            http2_only: true,
            ..HyperSettings::default()
        })
    }

    /// Send `request`.
    pub(crate) fn request(&self, request: Request<RequestBody>) -> ResponseFuture {
        self.client.request(request)
    }
}

#[cfg(feature = "rustls")]
mod tls {
    //! The TLS connector: rustls with ring, HTTP/1.1 and HTTP/2 offered by ALPN.

    use super::{Connector, HttpConnector, HyperSettings};
    use crate::{Error, ErrorKind};

    /// `http` wrapped in TLS for `https://`, passed through for `http://`.
    pub(super) fn connector(mut http: HttpConnector, settings: &HyperSettings) -> Result<Connector, Error> {
        http.enforce_http(false);
        let builder = hyper_rustls::HttpsConnectorBuilder::new();
        let builder = match &settings.root_certificates {
            None => builder
                .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
                .map_err(|error| ErrorKind::InvalidRequest(format!("TLS: {error}")))?,
            Some(pem) => builder.with_tls_config(config(pem)?),
        };
        Ok(builder
            .https_or_http()
            .enable_http1()
            .enable_http2()
            .wrap_connector(http))
    }

    /// A client configuration that trusts the certificates of `pem` (and nothing else).
    fn config(pem: &[u8]) -> Result<rustls::ClientConfig, Error> {
        use rustls::pki_types::pem::PemObject as _;
        use rustls::pki_types::CertificateDer;
        let invalid = |why: String| ErrorKind::InvalidRequest(format!("TLS root certificates: {why}"));
        let mut roots = rustls::RootCertStore::empty();
        for certificate in CertificateDer::pem_slice_iter(pem) {
            let certificate = certificate.map_err(|error| invalid(error.to_string()))?;
            roots
                .add(certificate)
                .map_err(|error| invalid(error.to_string()))?;
        }
        if roots.is_empty() {
            return Err(invalid("no certificate in the PEM text".to_owned()).into());
        }
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        Ok(rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|error| invalid(error.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth())
    }
}
