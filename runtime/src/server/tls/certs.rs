//! The listener's TLS configuration: read from PEM files, checked, and held where new handshakes
//! find it.
//!
//! Rules enforced here:
//! - the chain is every `CERTIFICATE` block of the certificate file, the server's own first; the
//!   key is the first private key of the key file (PKCS#8, PKCS#1 or SEC1), parsed by
//!   rustls-pki-types' PEM reader (no other parser);
//! - the key must be the one of the first certificate (rustls compares their public keys): a
//!   pair that does not match is refused, never served;
//! - more pairs (`TlsConfig::sni_pairs`) are chosen by the name the client asks for (SNI),
//!   matched without case against the DNS names of each one's certificate (a `*.` name matches
//!   one label); a pair whose certificate has no DNS name is refused (it could never be chosen);
//!   no name, or a name no pair serves, gets the main pair;
//! - client certificates (`TlsConfig::client_auth`): the CA file's every certificate is a root
//!   of rustls's WebPKI verifier; a file without one, or with one rustls refuses, is refused.
//!   `Optional` lets a client without a certificate through (`allow_unauthenticated`); a
//!   certificate presented must still chain to a root;
//! - everything the files decide (pair, client CA) is made into one rustls `ServerConfig`
//!   ([`make`]), so a reload replaces all of it at once: a new CA never meets an old pair. Each
//!   one has its own session cache: a session made under the old files is not resumed under
//!   the new ones (a client whose CA was withdrawn does not come back in through a ticket);
//! - the configuration in force is behind a lock held only to clone an `Arc` (no await, no
//!   I/O): each handshake takes the one in force when its `ClientHello` has arrived, so
//!   replacing it (`Current::replace`) changes new handshakes only, and open connections keep
//!   theirs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use rustls::crypto::CryptoProvider;
use rustls::server::{ClientHello, ResolvesServerCert, WebPkiClientVerifier};
use rustls::sign::CertifiedKey;
use rustls::{RootCertStore, ServerConfig};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

use crate::config::{ClientAuth, TlsConfig};

/// The protocols offered by ALPN, in the server's order of preference.
pub(crate) const ALPN: [&[u8]; 2] = [b"h2", b"http/1.1"];

/// Sessions kept for resumption by one configuration (rustls's default).
const SESSIONS: usize = 256;

/// The provider every TLS listener uses: `ring`'s, named here so that no other is ever chosen.
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The certificates of PEM file `path` (`what` names it in the error line).
fn certificates(path: &Path, what: &str) -> Result<Vec<CertificateDer<'static>>, String> {
    let chain = CertificateDer::pem_file_iter(path)
        .and_then(|blocks| blocks.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("{what} {}: {e}", path.display()))?;
    if chain.is_empty() {
        return Err(format!("{what} {}: no CERTIFICATE block in it", path.display()));
    }
    Ok(chain)
}

/// The pair in `cert` and `key`, checked with `provider`; the error is one line naming the file.
pub(crate) fn load(cert: &Path, key: &Path, provider: &CryptoProvider) -> Result<CertifiedKey, String> {
    let chain = certificates(cert, "TLS certificate")?;
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("TLS key {}: {e}", key.display()))?;
    CertifiedKey::from_der(chain, private, provider).map_err(|e| {
        format!(
            "TLS certificate {} and key {}: {e}",
            cert.display(),
            key.display()
        )
    })
}

/// The verifier of client certificates chaining to the CA certificates in `ca`.
fn client_verifier(
    ca: &Path,
    auth: ClientAuth,
    provider: &Arc<CryptoProvider>,
) -> Result<Arc<dyn rustls::server::danger::ClientCertVerifier>, String> {
    let mut roots = RootCertStore::empty();
    for cert in certificates(ca, "TLS client CA")? {
        roots
            .add(cert)
            .map_err(|e| format!("TLS client CA {}: {e}", ca.display()))?;
    }
    let builder = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone());
    let builder = match auth {
        ClientAuth::Optional => builder.allow_unauthenticated(),
        ClientAuth::Required => builder,
    };
    builder
        .build()
        .map_err(|e| format!("TLS client CA {}: {e}", ca.display()))
}

/// The rustls configuration of the files `settings` names, read now; the error is one line
/// naming the file.
pub(crate) fn make(settings: &TlsConfig, provider: &Arc<CryptoProvider>) -> Result<ServerConfig, String> {
    let pair = load(&settings.cert_path, &settings.key_path, provider)?;
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("TLS: {e}"))?;
    let builder = match &settings.client_auth {
        None => builder.with_no_client_auth(),
        Some((ca, auth)) => builder.with_client_cert_verifier(client_verifier(ca, *auth, provider)?),
    };
    let resolver: Arc<dyn ResolvesServerCert> = if settings.sni_pairs.is_empty() {
        Arc::new(Fixed(Arc::new(pair)))
    } else {
        Arc::new(BySni::new(pair, &settings.sni_pairs, provider)?)
    };
    let mut config = builder.with_cert_resolver(resolver);
    config.alpn_protocols = ALPN.iter().map(|p| p.to_vec()).collect();
    config.session_storage = rustls::server::ServerSessionMemoryCache::new(SESSIONS);
    Ok(config)
}

/// One certificate for every handshake.
#[derive(Debug)]
struct Fixed(Arc<CertifiedKey>);

impl ResolvesServerCert for Fixed {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// Certificates chosen by the name a client asks for (SNI), the default one for any other.
#[derive(Debug)]
struct BySni {
    /// Lowercase DNS names (`*.example.com` for a wildcard) and their pair; the first pair that
    /// names one keeps it.
    names: HashMap<String, Arc<CertifiedKey>>,
    default: Arc<CertifiedKey>,
}

impl BySni {
    /// `default`, and the pairs of the files `pairs`, read now.
    fn new(
        default: CertifiedKey,
        pairs: &[(PathBuf, PathBuf)],
        provider: &CryptoProvider,
    ) -> Result<Self, String> {
        let mut names = HashMap::new();
        for (cert, key) in pairs {
            let pair = Arc::new(load(cert, key, provider)?);
            let served = pair
                .end_entity_cert()
                .map(|der| dns_names(der))
                .unwrap_or_default();
            if served.is_empty() {
                return Err(format!(
                    "TLS certificate {}: no DNS name in its subjectAltName to choose it by",
                    cert.display()
                ));
            }
            for name in served {
                names.entry(name).or_insert_with(|| pair.clone());
            }
        }
        Ok(BySni {
            names,
            default: Arc::new(default),
        })
    }
}

impl ResolvesServerCert for BySni {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        let Some(name) = hello.server_name() else {
            return Some(self.default.clone());
        };
        let name = name.to_ascii_lowercase();
        let wildcard = || {
            let (_, parent) = name.split_once('.')?;
            self.names.get(&format!("*.{parent}"))
        };
        Some(
            self.names
                .get(&name)
                .or_else(wildcard)
                .unwrap_or(&self.default)
                .clone(),
        )
    }
}

/// The DNS names of the `subjectAltName` of certificate `der`, lowercase.
fn dns_names(der: &[u8]) -> Vec<String> {
    use x509_cert::der::Decode as _;
    use x509_cert::ext::pkix::name::GeneralName;
    use x509_cert::ext::pkix::SubjectAltName;
    let Ok(cert) = x509_cert::Certificate::from_der(der) else {
        return Vec::new();
    };
    match cert.tbs_certificate().get_extension::<SubjectAltName>() {
        Ok(Some((_, SubjectAltName(names)))) => names
            .into_iter()
            .filter_map(|name| match name {
                GeneralName::DnsName(name) => Some(name.to_string().to_ascii_lowercase()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The configuration new handshakes are given (see the module rules).
#[derive(Debug)]
pub(crate) struct Current {
    config: RwLock<Arc<ServerConfig>>,
}

impl Current {
    /// `config` in force.
    pub(crate) fn new(config: ServerConfig) -> Arc<Self> {
        Arc::new(Current {
            config: RwLock::new(Arc::new(config)),
        })
    }

    /// The configuration in force now.
    pub(crate) fn get(&self) -> Arc<ServerConfig> {
        // A poisoned lock still holds a whole `Arc`: a panic cannot leave it half-written.
        self.config
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Put `config` in force for the handshakes that start from now on.
    pub(crate) fn replace(&self, config: ServerConfig) {
        *self
            .config
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(config);
    }
}
