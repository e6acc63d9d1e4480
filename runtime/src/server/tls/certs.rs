//! The server's certificate: read from PEM files, checked, and held where new handshakes find it.
//!
//! Rules enforced here:
//! - the chain is every `CERTIFICATE` block of the certificate file, the server's own first; the
//!   key is the first private key of the key file (PKCS#8, PKCS#1 or SEC1), parsed by
//!   rustls-pki-types' PEM reader (no other parser);
//! - the key must be the one of the first certificate (rustls compares their public keys): a
//!   pair that does not match is refused, never served;
//! - the pair in force is behind a lock held only to clone an `Arc` (no await, no I/O): each
//!   handshake takes the pair in force when it starts, so replacing it (`Current::replace`)
//!   changes new handshakes only, and open connections keep theirs.

use std::path::Path;
use std::sync::{Arc, RwLock};

use rustls::crypto::CryptoProvider;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

/// The provider every TLS listener uses: `ring`'s, named here so that no other is ever chosen.
pub(crate) fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The pair in `cert` and `key`, checked with `provider`; the error is one line naming the file.
pub(crate) fn load(cert: &Path, key: &Path, provider: &CryptoProvider) -> Result<CertifiedKey, String> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|blocks| blocks.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("TLS certificate {}: {e}", cert.display()))?;
    if chain.is_empty() {
        return Err(format!(
            "TLS certificate {}: no CERTIFICATE block in it",
            cert.display()
        ));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| format!("TLS key {}: {e}", key.display()))?;
    CertifiedKey::from_der(chain, private, provider).map_err(|e| {
        format!(
            "TLS certificate {} and key {}: {e}",
            cert.display(),
            key.display()
        )
    })
}

/// The pair new handshakes are given (see the module rules).
#[derive(Debug)]
pub(crate) struct Current {
    pair: RwLock<Arc<CertifiedKey>>,
}

impl Current {
    /// `pair` in force.
    pub(crate) fn new(pair: CertifiedKey) -> Arc<Self> {
        Arc::new(Current {
            pair: RwLock::new(Arc::new(pair)),
        })
    }

    /// The pair in force now.
    pub(crate) fn get(&self) -> Arc<CertifiedKey> {
        // A poisoned lock still holds a whole `Arc`: a panic cannot leave it half-written.
        self.pair
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Put `pair` in force for the handshakes that start from now on.
    pub(crate) fn replace(&self, pair: CertifiedKey) {
        *self.pair.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Arc::new(pair);
    }
}

impl ResolvesServerCert for Current {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.get())
    }
}
