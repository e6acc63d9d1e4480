//! Serving a [`Service`] over HTTP/1.1 and HTTP/2 with hyper.
//!
//! Rules enforced here:
//! - the request head must arrive within the header-read timeout (slow clients cannot hold a
//!   connection open forever);
//! - on shutdown (SIGINT/SIGTERM, or the caller's future) the listener closes at once, in-flight
//!   requests get `shutdown_timeout` to finish, then the server returns;
//! - an accept error (e.g. out of file descriptors) is logged and retried after a pause, never
//!   fatal.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, ToSocketAddrs};

use crate::app::{App, Service};

/// A bound, not yet running server.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    service: Service,
    local_addr: SocketAddr,
}

/// Why a server could not start.
#[derive(Debug)]
pub enum ServeError {
    /// The app is misconfigured.
    Build(crate::app::BuildError),
    /// The address could not be bound.
    Bind(std::io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Build(e) => write!(f, "invalid app: {e}"),
            ServeError::Bind(e) => write!(f, "cannot listen: {e}"),
        }
    }
}

impl std::error::Error for ServeError {}

impl App {
    /// Build the app and bind `addr` (port 0 picks a free port; see [`Server::local_addr`]).
    pub async fn bind(self, addr: impl ToSocketAddrs) -> Result<Server, ServeError> {
        let service = self.build().map_err(ServeError::Build)?;
        Server::bind(service, addr).await
    }

    /// Build, bind and serve until SIGINT or SIGTERM.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<(), ServeError> {
        self.bind(addr).await?.run().await;
        Ok(())
    }
}

impl Server {
    /// Bind `addr` for `service`.
    pub async fn bind(service: Service, addr: impl ToSocketAddrs) -> Result<Server, ServeError> {
        let listener = TcpListener::bind(addr).await.map_err(ServeError::Bind)?;
        let local_addr = listener.local_addr().map_err(ServeError::Bind)?;
        Ok(Server {
            listener,
            service,
            local_addr,
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The service being served.
    pub fn service(&self) -> &Service {
        &self.service
    }

    /// Serve until SIGINT or SIGTERM.
    pub async fn run(self) {
        self.run_until(shutdown_signal()).await
    }

    /// Serve until `shutdown` completes, then drain in-flight requests (bounded).
    pub async fn run_until(self, shutdown: impl Future<Output = ()>) {
        let Server {
            listener,
            service,
            local_addr,
        } = self;
        for row in service.route_table() {
            match &row.shadowed_by {
                None => tracing::info!("route {row}"),
                Some(_) => tracing::warn!("route {row}"),
            }
        }
        tracing::info!("listening on http://{local_addr}");

        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(service.config().header_read_timeout)
            .keep_alive(true);
        let shutdown_timeout = service.config().shutdown_timeout;
        let graceful = GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);

        loop {
            tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok((stream, _peer)) => {
                        let _ = stream.set_nodelay(true);
                        let connection = builder.serve_connection(TokioIo::new(stream), service.clone()).into_owned();
                        let connection = graceful.watch(connection);
                        tokio::spawn(async move {
                            if let Err(err) = connection.await {
                                tracing::debug!(error = %err, "connection ended with an error");
                            }
                        });
                    }
                    Err(err) => {
                        tracing::warn!(error = %err, "accept failed; retrying");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                },
                () = &mut shutdown => break,
            }
        }
        drop(listener);
        tracing::info!(
            "shutting down: waiting up to {:?} for in-flight requests",
            shutdown_timeout
        );
        if tokio::time::timeout(shutdown_timeout, graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("shutdown timeout reached; closing remaining connections");
        }
    }
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
