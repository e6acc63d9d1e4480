//! The verified client certificate of a TLS connection as a route argument (the `tls` feature):
//! [`ClientCert`] (a dependency: none answers 401) and `Option<ClientCert>` (an injected value).
//!
//! Rules enforced here:
//! - the certificate is read once per connection, when its handshake is done (the server calls
//!   [`ClientCert::from_der`]), and shared by the connection's requests: each request of a
//!   connection that presented one carries a clone of one `Arc` (in the request's extensions,
//!   which the app's layers pass on); a plain connection, or a TLS one without a certificate,
//!   carries nothing, and a route that does not take it reads nothing;
//! - only a certificate rustls verified against the client CA reaches a request: the server
//!   puts it there, and no header can;
//! - its subject is the RFC 4514 text of its distinguished name; its alternative names are the
//!   DNS names, e-mail addresses, URIs and IP addresses of its `subjectAltName`; its fingerprint
//!   is the SHA-256 of its DER. A certificate the X.509 reader cannot read (rustls's verifier is
//!   more lenient with some encodings) still has its fingerprint and DER, with an empty subject
//!   and no names, so a rule written on the fingerprint holds;
//! - a route taking [`ClientCert`] answers a request without one 401
//!   `{"detail":"A client certificate is required"}` (problem details in an app that answers
//!   them), like a security scheme whose credential is missing; both kinds document OpenAPI
//!   3.1's `mutualTLS` scheme (`MutualTLS`) and require it on the route.

use std::net::IpAddr;
use std::sync::Arc;

use hyper::StatusCode;
use serde_json::json;
use x509_cert::der::Decode;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::SubjectAltName;

use super::arg::Extract;
use super::dependency::{Dependency, Deps, Resolve};
use super::param::Param;
use super::request::RequestCx;
use crate::openapi::Operation;
use crate::response::{error_response, Response};
use crate::validate::{SchemaRegistry, ValidationErrors};

/// The certificate a TLS client presented and the server verified against its client CA
/// ([`TlsConfig::client_auth`](crate::tls::TlsConfig::client_auth)): as a route argument, or an
/// input of a dependency of yours that decides who may do what (answering 403). A request without
/// one is answered 401; take `Option<ClientCert>` where a certificate is optional. Cloning it
/// clones an `Arc`.
#[derive(Clone)]
pub struct ClientCert(Arc<Read>);

/// What was read of the certificate, once per connection.
struct Read {
    der: Vec<u8>,
    subject: String,
    dns_names: Vec<String>,
    emails: Vec<String>,
    uris: Vec<String>,
    ip_addresses: Vec<IpAddr>,
    sha256: [u8; 32],
}

impl std::fmt::Debug for ClientCert {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientCert")
            .field("subject", &self.0.subject)
            .field("dns_names", &self.0.dns_names)
            .field("fingerprint", &self.fingerprint())
            .finish_non_exhaustive()
    }
}

impl ClientCert {
    /// The certificate of DER `der` (the client's own, the first of its chain), read now.
    pub(crate) fn from_der(der: &[u8]) -> Self {
        let mut read = Read {
            der: der.to_vec(),
            subject: String::new(),
            dns_names: Vec::new(),
            emails: Vec::new(),
            uris: Vec::new(),
            ip_addresses: Vec::new(),
            sha256: [0; 32],
        };
        read.sha256
            .copy_from_slice(ring::digest::digest(&ring::digest::SHA256, der).as_ref());
        if let Ok(cert) = x509_cert::Certificate::from_der(der) {
            let tbs = cert.tbs_certificate();
            read.subject = tbs.subject().to_string();
            if let Ok(Some((_, SubjectAltName(names)))) = tbs.get_extension::<SubjectAltName>() {
                for name in names {
                    match name {
                        GeneralName::DnsName(name) => read.dns_names.push(name.to_string()),
                        GeneralName::Rfc822Name(email) => read.emails.push(email.to_string()),
                        GeneralName::UniformResourceIdentifier(uri) => read.uris.push(uri.to_string()),
                        GeneralName::IpAddress(ip) => {
                            if let Some(ip) = ip_address(ip.as_bytes()) {
                                read.ip_addresses.push(ip);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        ClientCert(Arc::new(read))
    }

    /// The subject's distinguished name, as RFC 4514 text (`CN=alice,O=Example`); empty when the
    /// certificate could not be read (see the module rules).
    pub fn subject(&self) -> &str {
        &self.0.subject
    }

    /// The DNS names of its `subjectAltName`.
    pub fn dns_names(&self) -> &[String] {
        &self.0.dns_names
    }

    /// The e-mail addresses of its `subjectAltName`.
    pub fn emails(&self) -> &[String] {
        &self.0.emails
    }

    /// The URIs of its `subjectAltName` (a SPIFFE id, say).
    pub fn uris(&self) -> &[String] {
        &self.0.uris
    }

    /// The IP addresses of its `subjectAltName`.
    pub fn ip_addresses(&self) -> &[IpAddr] {
        &self.0.ip_addresses
    }

    /// The SHA-256 digest of its DER.
    pub fn sha256(&self) -> &[u8; 32] {
        &self.0.sha256
    }

    /// [`ClientCert::sha256`] as 64 lowercase hexadecimal digits, as `openssl x509 -fingerprint
    /// -sha256` prints it without the colons.
    pub fn fingerprint(&self) -> String {
        self.0.sha256.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    /// The certificate, DER-encoded.
    pub fn der(&self) -> &[u8] {
        &self.0.der
    }

    /// The certificate the request's connection presented, if any.
    fn of(cx: &RequestCx<'_>) -> Option<ClientCert> {
        cx.parts().extensions.get::<ClientCert>().cloned()
    }
}

/// An IPv4 or IPv6 address of 4 or 16 bytes.
fn ip_address(bytes: &[u8]) -> Option<IpAddr> {
    match bytes.len() {
        4 => <[u8; 4]>::try_from(bytes).ok().map(IpAddr::from),
        16 => <[u8; 16]>::try_from(bytes).ok().map(IpAddr::from),
        _ => None,
    }
}

/// Document OpenAPI 3.1's `mutualTLS` scheme and require it on the operation.
fn document(op: &mut Operation, registry: &mut SchemaRegistry) {
    registry.security_scheme(
        "MutualTLS",
        json!({
            "type": "mutualTLS",
            "description": "A client certificate issued by the server's client CA, presented in the TLS handshake.",
        }),
    );
    op.security("MutualTLS");
}

/// What [`ClientCert`]'s first step found: the certificate, or none (401).
pub(super) struct Presented(Option<ClientCert>);

impl Resolve<ClientCert> for Presented {
    async fn resolve(self, _deps: &mut Deps) -> Result<ClientCert, Response> {
        self.0.ok_or_else(|| {
            error_response(
                StatusCode::UNAUTHORIZED,
                &json!("A client certificate is required"),
            )
        })
    }
}

impl Dependency for ClientCert {
    fn extract(cx: &RequestCx<'_>, _errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
        Some(Presented(ClientCert::of(cx)))
    }

    fn doc(op: &mut Operation, registry: &mut SchemaRegistry) {
        document(op, registry);
        op.implicit_response(401, "A client certificate is required");
    }
}

impl Extract for Option<ClientCert> {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(ClientCert::of(cx))
    }

    fn doc(_param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        document(op, registry);
    }
}
