//! TLS for the tests: a certificate and key made for each test (rcgen; no key is ever committed),
//! written to PEM files the server reads, and a real TLS client (tokio-rustls with `ring`) that
//! speaks HTTP/1.1 or HTTP/2 by ALPN and says what was negotiated.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Empty};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore, SupportedProtocolVersion};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// A self-signed certificate for `localhost` and 127.0.0.1, its key, and the PEM files holding
/// them (removed when dropped).
pub struct Pair {
    /// The certificate, as a client trusts it.
    pub cert: CertificateDer<'static>,
    /// The certificate file.
    pub cert_path: PathBuf,
    /// The key file.
    pub key_path: PathBuf,
}

impl Drop for Pair {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.cert_path);
        let _ = std::fs::remove_file(&self.key_path);
    }
}

/// A new pair, in files of a fresh name.
pub fn pair() -> Pair {
    pair_for(&["localhost", "127.0.0.1"])
}

/// A new pair for `names`, in files of a fresh name.
pub fn pair_for(names: &[&str]) -> Pair {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let names: Vec<String> = names.iter().map(|name| (*name).to_owned()).collect();
    let made = rcgen::generate_simple_self_signed(names).unwrap_or_else(|e| panic!("rcgen: {e}"));
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let stem = std::env::temp_dir().join(format!("ferrapi-tls-{}-{n}", std::process::id()));
    let cert_path = stem.with_extension("crt.pem");
    let key_path = stem.with_extension("key.pem");
    std::fs::write(&cert_path, made.cert.pem()).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&key_path, made.key_pair.serialize_pem()).unwrap_or_else(|e| panic!("{e}"));
    Pair {
        cert: made.cert.der().clone(),
        cert_path,
        key_path,
    }
}

/// The server's TLS settings for `pair`.
pub fn settings(pair: &Pair) -> ferrapi::tls::TlsConfig {
    ferrapi::tls::TlsConfig::from_pem_files(&pair.cert_path, &pair.key_path)
}

/// A client trusting `cert` only, offering `alpn` (none when empty), in `versions`.
pub fn client(
    cert: &CertificateDer<'static>,
    alpn: &[&[u8]],
    versions: &[&'static SupportedProtocolVersion],
) -> TlsConnector {
    let mut roots = RootCertStore::empty();
    roots.add(cert.clone()).unwrap_or_else(|e| panic!("{e}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(versions)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}

/// A client trusting each of `certs`, offering `h2`.
pub fn client_trusting(certs: &[&CertificateDer<'static>]) -> TlsConnector {
    let mut roots = RootCertStore::empty();
    for cert in certs {
        roots.add((*cert).clone()).unwrap_or_else(|e| panic!("{e}"));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(BOTH)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"h2".to_vec()];
    TlsConnector::from(Arc::new(config))
}

/// The certificate the server at `addr` presents to a client asking for `name` (SNI; an IP
/// address sends none).
pub async fn presented(
    addr: SocketAddr,
    connector: &TlsConnector,
    name: &str,
) -> std::io::Result<CertificateDer<'static>> {
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::try_from(name.to_owned()).map_err(std::io::Error::other)?;
    let stream = connector.connect(name, tcp).await?;
    let (_, session) = stream.get_ref();
    session
        .peer_certificates()
        .and_then(|chain| chain.first())
        .cloned()
        .ok_or_else(|| std::io::Error::other("no certificate"))
}

/// TLS 1.3 and 1.2.
pub const BOTH: &[&SupportedProtocolVersion] = &[&rustls::version::TLS13, &rustls::version::TLS12];

/// A TLS connection to `addr` (as `localhost`) with `connector`.
pub async fn connect(addr: SocketAddr, connector: &TlsConnector) -> std::io::Result<TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await?;
    let name = ServerName::try_from("localhost").unwrap_or_else(|e| panic!("{e}"));
    connector.connect(name, tcp).await
}

/// What one request over TLS found.
#[derive(Debug)]
pub struct Answer {
    /// The protocol ALPN chose, if any.
    pub alpn: Option<Vec<u8>>,
    /// The TLS version.
    pub tls: Option<rustls::ProtocolVersion>,
    /// The HTTP version of the response.
    pub version: hyper::Version,
    /// Its status.
    pub status: u16,
    /// Its headers.
    pub headers: hyper::HeaderMap,
    /// Its body, as text.
    pub body: String,
    /// Its body's bytes.
    pub bytes: Vec<u8>,
}

/// `GET path` on a new TLS connection, over HTTP/2 when ALPN chose `h2`, else HTTP/1.1.
pub async fn get(addr: SocketAddr, connector: &TlsConnector, path: &str) -> std::io::Result<Answer> {
    let stream = connect(addr, connector).await?;
    let (_, session) = stream.get_ref();
    let alpn = session.alpn_protocol().map(<[u8]>::to_vec);
    let tls = session.protocol_version();
    let io = TokioIo::new(stream);
    let request = |uri: String| {
        hyper::Request::get(uri)
            .header("host", "localhost")
            .body(Empty::<Bytes>::new())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let response = if alpn.as_deref() == Some(b"h2") {
        let (mut send, conn) = hyper::client::conn::http2::handshake(TokioExecutor::new(), io)
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(conn);
        send.send_request(request(format!("https://localhost{path}")))
            .await
            .map_err(std::io::Error::other)?
    } else {
        let (mut send, conn) = hyper::client::conn::http1::handshake(io)
            .await
            .map_err(std::io::Error::other)?;
        tokio::spawn(conn);
        send.send_request(request(path.to_owned()))
            .await
            .map_err(std::io::Error::other)?
    };
    let version = response.version();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(std::io::Error::other)?
        .to_bytes();
    Ok(Answer {
        alpn,
        tls,
        version,
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        bytes: body.to_vec(),
    })
}

/// A certificate authority made for a test, its certificate in a PEM file (removed when dropped).
pub struct Ca {
    cert: rcgen::Certificate,
    key: rcgen::KeyPair,
    /// The CA certificate's PEM file, as the server's client CA.
    pub path: PathBuf,
}

impl Drop for Ca {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A client's certificate (issued by a [`Ca`]) and key.
pub struct Identity {
    /// The certificate, DER.
    pub cert: CertificateDer<'static>,
    /// The certificate, PEM.
    pub cert_pem: String,
    /// The key, PKCS#8 PEM.
    pub key_pem: String,
    key_der: Vec<u8>,
}

/// A new CA named `name`, in a file of a fresh name.
pub fn ca(name: &str) -> Ca {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap_or_else(|e| panic!("{e}"));
    params.distinguished_name.push(rcgen::DnType::CommonName, name);
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::DigitalSignature,
    ];
    let key = rcgen::KeyPair::generate().unwrap_or_else(|e| panic!("{e}"));
    let cert = params.self_signed(&key).unwrap_or_else(|e| panic!("{e}"));
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("ferrapi-tls-ca-{}-{n}.pem", std::process::id()));
    std::fs::write(&path, cert.pem()).unwrap_or_else(|e| panic!("{e}"));
    Ca { cert, key, path }
}

impl Ca {
    /// A client certificate for common name `cn`, with the DNS name `dns` and the URI `uri` as
    /// alternative names.
    pub fn issue(&self, cn: &str, dns: &str, uri: &str) -> Identity {
        let mut params =
            rcgen::CertificateParams::new(Vec::<String>::new()).unwrap_or_else(|e| panic!("{e}"));
        // The usual order, most significant first: RFC 4514 text reverses it. (rcgen's default
        // name holds a common name already, which would keep its first place.)
        params.distinguished_name = rcgen::DistinguishedName::new();
        params
            .distinguished_name
            .push(rcgen::DnType::OrganizationName, "Example");
        params.distinguished_name.push(rcgen::DnType::CommonName, cn);
        params.subject_alt_names = vec![
            rcgen::SanType::DnsName(dns.try_into().unwrap_or_else(|e| panic!("{e}"))),
            rcgen::SanType::URI(uri.try_into().unwrap_or_else(|e| panic!("{e}"))),
        ];
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ClientAuth];
        let key = rcgen::KeyPair::generate().unwrap_or_else(|e| panic!("{e}"));
        let cert = params
            .signed_by(&key, &self.cert, &self.key)
            .unwrap_or_else(|e| panic!("{e}"));
        Identity {
            cert: cert.der().clone(),
            cert_pem: cert.pem(),
            key_pem: key.serialize_pem(),
            key_der: key.serialize_der(),
        }
    }
}

/// [`client`] presenting `identity` (none: no certificate).
pub fn client_with(
    cert: &CertificateDer<'static>,
    alpn: &[&[u8]],
    identity: Option<&Identity>,
) -> TlsConnector {
    let mut roots = RootCertStore::empty();
    roots.add(cert.clone()).unwrap_or_else(|e| panic!("{e}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(BOTH)
        .unwrap_or_else(|e| panic!("{e}"))
        .with_root_certificates(roots);
    let mut config = match identity {
        None => builder.with_no_client_auth(),
        Some(identity) => builder
            .with_client_auth_cert(
                vec![identity.cert.clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(identity.key_der.clone().into()),
            )
            .unwrap_or_else(|e| panic!("{e}")),
    };
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    TlsConnector::from(Arc::new(config))
}
