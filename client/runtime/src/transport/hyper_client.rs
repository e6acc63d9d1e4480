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
#[derive(Clone)]
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
    /// The certificate chain and private key (both PEM) TLS presents to a server that asks for
    /// a client certificate (`None`: none).
    #[cfg(feature = "rustls")]
    pub identity: Option<(Vec<u8>, Vec<u8>)>,
    /// Over TLS, offer only `http/1.1` by ALPN (a server that offers HTTP/2 then speaks
    /// HTTP/1.1); `false`, the default, offers `h2` too.
    #[cfg(feature = "rustls")]
    pub http1_only: bool,
}

impl std::fmt::Debug for HyperSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut debug = f.debug_struct("HyperSettings");
        debug
            .field("http2_only", &self.http2_only)
            .field("connect_timeout", &self.connect_timeout)
            .field("idle_timeout", &self.idle_timeout);
        // The private key stays out of logs: only whether there is an identity.
        #[cfg(feature = "rustls")]
        debug
            .field("root_certificates", &self.root_certificates.is_some())
            .field("identity", &self.identity.is_some())
            .field("http1_only", &self.http1_only);
        debug.finish()
    }
}

impl Default for HyperSettings {
    fn default() -> Self {
        HyperSettings {
            http2_only: false,
            connect_timeout: CONNECT_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            #[cfg(feature = "rustls")]
            root_certificates: None,
            #[cfg(feature = "rustls")]
            identity: None,
            #[cfg(feature = "rustls")]
            http1_only: false,
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
    //! The TLS connector: rustls with ring, HTTP/1.1 and HTTP/2 offered by ALPN (HTTP/1.1 only
    //! when asked), a private CA's roots, and a client identity for servers that ask for one.

    use super::{Connector, HttpConnector, HyperSettings};
    use crate::{Error, ErrorKind};

    /// `http` wrapped in TLS for `https://`, passed through for `http://`.
    pub(super) fn connector(mut http: HttpConnector, settings: &HyperSettings) -> Result<Connector, Error> {
        http.enforce_http(false);
        let builder = hyper_rustls::HttpsConnectorBuilder::new();
        let builder = match (&settings.root_certificates, &settings.identity) {
            (None, None) => builder
                .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
                .map_err(|error| ErrorKind::InvalidRequest(format!("TLS: {error}")))?,
            (roots, identity) => builder.with_tls_config(config(roots.as_deref(), identity.as_ref())?),
        };
        let builder = builder.https_or_http().enable_http1();
        Ok(if settings.http1_only {
            builder.wrap_connector(http)
        } else {
            builder.enable_http2().wrap_connector(http)
        })
    }

    /// A client configuration that trusts the certificates of `roots` (and nothing else;
    /// `None`: Mozilla's), presenting `identity` (a PEM chain and key) when the server asks.
    fn config(
        roots: Option<&[u8]>,
        identity: Option<&(Vec<u8>, Vec<u8>)>,
    ) -> Result<rustls::ClientConfig, Error> {
        use hyper_rustls::ConfigBuilderExt as _;
        use rustls::pki_types::pem::PemObject as _;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let invalid = |why: String| ErrorKind::InvalidRequest(format!("TLS root certificates: {why}"));
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|error| invalid(error.to_string()))?;
        let builder = match roots {
            None => builder.with_webpki_roots(),
            Some(pem) => {
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
                builder.with_root_certificates(roots)
            }
        };
        let Some((chain, key)) = identity else {
            return Ok(builder.with_no_client_auth());
        };
        let invalid = |why: String| ErrorKind::InvalidRequest(format!("TLS client identity: {why}"));
        let chain = CertificateDer::pem_slice_iter(chain)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| invalid(error.to_string()))?;
        if chain.is_empty() {
            return Err(invalid("no certificate in the PEM text".to_owned()).into());
        }
        let key = PrivateKeyDer::from_pem_slice(key).map_err(|error| invalid(error.to_string()))?;
        Ok(builder
            .with_client_auth_cert(chain, key)
            .map_err(|error| invalid(error.to_string()))?)
    }
}
