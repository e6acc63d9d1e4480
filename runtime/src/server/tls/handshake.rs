//! One connection's TLS handshake, in two steps, and the cap on the costly one.
//!
//! Rules enforced here (the caller, `server/mod.rs`, bounds the whole by `handshake_timeout`,
//! and ends it when the connection is asked to leave for room or the server shuts down):
//! - first the `ClientHello` is read (tokio-rustls' `LazyConfigAcceptor`): parsing it costs
//!   little and holds one record buffer (rustls bounds a handshake message at 64 KiB), so it
//!   takes no place under the cap. Bytes that are not a TLS `ClientHello` end the connection
//!   there (rustls sends its alert);
//! - then the server's costly step (its key share, its signature, its first flight), which
//!   rustls does synchronously, holds one of `max_handshakes` places while it runs
//!   (`places.rs`); the wait for the client's answer holds none: it is bounded by the deadline
//!   and by the connection limit, which closes an idle handshake for room;
//! - the configuration (pair, client CA) in force when the `ClientHello` has arrived is the one
//!   used (`certs.rs`).

use std::io;
use std::sync::Arc;
use std::time::Duration;

use rustls::server::Acceptor;
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;
use tokio_rustls::LazyConfigAcceptor;

use super::certs::{self, Current};
use super::places::Places;
use super::reload::{Reload, Reloader};
use crate::config::TlsConfig;

/// The TLS side of a listener: its rustls configuration in force, and the cap on handshakes.
pub(crate) struct Tls {
    current: Arc<Current>,
    reload: Arc<Reload>,
    places: Arc<Places>,
    timeout: Duration,
    /// `Strict-Transport-Security`'s value, when the app asked for HSTS.
    hsts: Option<Arc<hyper::header::HeaderValue>>,
    /// The port redirects name, when not the TLS listener's own.
    public_port: Option<u16>,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("timeout", &self.timeout)
            .field("places", &self.places.available())
            .finish_non_exhaustive()
    }
}

impl Tls {
    /// Read the pair `settings` names and build the listener's TLS; the error is one line.
    pub(crate) fn new(settings: &TlsConfig) -> Result<Arc<Self>, String> {
        let provider = certs::provider();
        let current = Current::new(certs::make(settings, &provider)?);
        let reload = Arc::new(Reload {
            settings: settings.clone(),
            current: current.clone(),
            provider,
        });
        Ok(Arc::new(Tls {
            current,
            reload,
            places: Places::new(settings.max_handshakes),
            timeout: settings.handshake_timeout,
            hsts: settings.hsts.map(|hsts| Arc::new(super::hsts::value(hsts))),
            public_port: settings.public_port,
        }))
    }

    /// The time a handshake may take.
    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The `Strict-Transport-Security` value of the listener's answers, if any.
    pub(crate) fn hsts(&self) -> Option<&Arc<hyper::header::HeaderValue>> {
        self.hsts.as_ref()
    }

    /// The port clients reach the TLS listener on, if the app named one.
    pub(crate) fn public_port(&self) -> Option<u16> {
        self.public_port
    }

    /// Reload the pair on `SIGHUP` and when its files change, until the guard is dropped.
    pub(crate) fn spawn_reloader(&self) -> Reloader {
        self.reload.clone().spawn()
    }

    /// Perform the handshake on `stream` (unbounded in time: the caller bounds it).
    pub(crate) async fn handshake(&self, stream: TcpStream) -> io::Result<TlsStream<TcpStream>> {
        let start = LazyConfigAcceptor::new(Acceptor::default(), stream).await?;
        let config = self.current.get();
        // `into_stream` is where rustls computes (synchronously); the returned future only
        // writes that flight and reads the client's answer.
        let rest = self.places.compute(|| start.into_stream(config)).await;
        rest.await
    }
}
