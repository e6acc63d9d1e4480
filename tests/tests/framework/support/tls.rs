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
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let made = rcgen::generate_simple_self_signed(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
        .unwrap_or_else(|e| panic!("rcgen: {e}"));
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
    /// Its body.
    pub body: String,
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
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}
