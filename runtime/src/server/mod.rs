//! The server: a [`Service`] served over HTTP/1.1 and HTTP/2 with hyper, one task per connection.
//! Its files: `protocol` (HTTP/1 or HTTP/2, decided once per connection), `conn_timer` (the
//! header-read timeout), `drain` (graceful shutdown).
//!
//! Rules enforced here:
//! - each connection's protocol is decided once from its first bytes (see `protocol.rs`),
//!   then served by hyper's HTTP/1 or HTTP/2 connection directly;
//! - the request head must arrive within the header-read timeout (slow clients cannot hold a
//!   connection open forever); the clock starts at accept (a connection that sends nothing is
//!   closed after it) and hyper restarts it whenever a connection waits for a request, so idle
//!   keep-alive connections are closed after the same time; each HTTP/1 connection has its own
//!   timer for this (see `conn_timer.rs`);
//! - a request head larger than `max_head_bytes`, or with more than 100 header fields, is
//!   answered 431 by hyper (a request target over 64 KiB: 414) and the connection closed;
//! - at most `max_concurrency` requests are served at once; one more is answered 503 at once with
//!   `Retry-After: 1` and `{"detail": …}` instead of queueing without bound (counted in the
//!   metrics, and with its request id, when the app has them);
//! - on shutdown (SIGINT/SIGTERM, or the caller's future) the listener closes at once, in-flight
//!   requests get `shutdown_timeout` to finish, the log is flushed, then the server returns;
//! - an accept error (e.g. out of file descriptors) is logged and retried after a pause, never
//!   fatal;
//! - HTTP/1 connections can be upgraded (a WebSocket route's 101): the connection is then the
//!   route's, no longer the server's (it is not drained on shutdown).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::header::{HeaderValue, RETRY_AFTER};
use hyper::server::conn::{http1, http2};
use hyper::{Request, StatusCode};

use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};

mod conn_timer;
mod drain;
mod protocol;

use crate::app::{App, BuildError};
use crate::dispatch::{Answer, HandleFuture, Service};
use crate::response::{error_response, Response};
use conn_timer::ConnTimer;
use drain::{Drain, Open};
use protocol::{sniff, Protocol};

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
    Build(BuildError),
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

        let config = service.config();
        // Each connection gets its own timer (see `serve_connection`); this one is replaced.
        let mut http1 = http1::Builder::new();
        http1
            .timer(ConnTimer::default())
            .header_read_timeout(config.header_read_timeout)
            .max_header_size(config.max_head_bytes)
            .max_buf_size(config.max_head_bytes.max(MIN_HEAD_BYTES))
            .keep_alive(true);
        let mut http2 = http2::Builder::new(TokioExecutor::new());
        http2.timer(TokioTimer::new());
        let protocols = Arc::new(Protocols {
            http1,
            http2,
            first_bytes_timeout: config.header_read_timeout,
        });
        let gate = config.max_concurrency.map(|limit| {
            Arc::new(Gate {
                in_flight: AtomicUsize::new(0),
                limit,
            })
        });
        let shutdown_timeout = config.shutdown_timeout;
        // Two instantiations of the accept loop, so an app without layers is served by exactly
        // the direct path, with no check per request.
        if service.has_layers() {
            let limited = Limited {
                dispatch: Layered(service),
                gate,
            };
            accept_until(listener, protocols, limited, shutdown, shutdown_timeout).await;
        } else {
            let limited = Limited {
                dispatch: Direct(service),
                gate,
            };
            accept_until(listener, protocols, limited, shutdown, shutdown_timeout).await;
        }
    }
}

/// Accept connections until `shutdown` completes, then drain in-flight requests (bounded).
async fn accept_until<D: Dispatch>(
    listener: TcpListener,
    protocols: Arc<Protocols>,
    limited: Limited<D>,
    shutdown: impl Future<Output = ()>,
    shutdown_timeout: Duration,
) {
    let drain = Drain::default();
    let mut shutdown = std::pin::pin!(shutdown);

    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _peer)) => {
                    let _ = stream.set_nodelay(true);
                    tokio::spawn(serve_connection(
                        stream,
                        protocols.clone(),
                        limited.clone(),
                        drain.open(),
                    ));
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
    if tokio::time::timeout(shutdown_timeout, drain.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("shutdown timeout reached; closing remaining connections");
    }
    // The drained requests' lines are out before the caller (main) returns.
    crate::logging::flush();
}

/// How the server hands a request to the app: directly, or through its layers.
trait Dispatch: Clone + Send + Sync + 'static {
    /// The answer's future.
    type Future: Future<Output = Response> + Send + Unpin + 'static;
    /// Start answering `request`.
    fn dispatch(&self, request: Request<Incoming>) -> Self::Future;
    /// The app.
    fn service(&self) -> &Service;
}

/// An app without layers: the direct path.
#[derive(Clone)]
struct Direct(Service);

impl Dispatch for Direct {
    type Future = HandleFuture<Incoming>;

    #[inline]
    fn dispatch(&self, request: Request<Incoming>) -> HandleFuture<Incoming> {
        self.0.direct(request)
    }

    fn service(&self) -> &Service {
        &self.0
    }
}

/// An app with layers.
#[derive(Clone)]
struct Layered(Service);

impl Dispatch for Layered {
    type Future = Answer<Incoming>;

    fn dispatch(&self, request: Request<Incoming>) -> Answer<Incoming> {
        self.0.layered(request)
    }

    fn service(&self) -> &Service {
        &self.0
    }
}

/// hyper refuses a read buffer below 8 KiB (it would panic).
const MIN_HEAD_BYTES: usize = 8192;

/// How connections are served, shared by every connection.
struct Protocols {
    http1: http1::Builder,
    http2: http2::Builder<TokioExecutor>,
    /// How long a new connection may take to send its first bytes.
    first_bytes_timeout: Duration,
}

/// Serve one accepted connection until it closes (or shutdown closes it).
async fn serve_connection<D: Dispatch>(
    stream: TcpStream,
    protocols: Arc<Protocols>,
    service: Limited<D>,
    open: Open,
) {
    let sniffed = tokio::select! {
        sniffed = tokio::time::timeout(protocols.first_bytes_timeout, sniff(&stream)) => sniffed,
        () = open.closing() => {
            tracing::debug!("connection closed before its first request: shutting down");
            return;
        }
    };
    let protocol = match sniffed {
        Ok(Ok(protocol)) => protocol,
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "connection failed before its first request");
            return;
        }
        Err(_) => {
            tracing::debug!("connection sent nothing within the header-read timeout; closed");
            return;
        }
    };
    let io = TokioIo::new(stream);
    let outcome = match protocol {
        Protocol::Http1 => {
            let mut http1 = protocols.http1.clone();
            http1.timer(ConnTimer::default());
            // `with_upgrades`: a WebSocket route's 101 hands the connection over to it. It costs
            // a connection that upgrades nothing one check when it ends (measured with callgrind).
            let connection = http1.serve_connection(io, service).with_upgrades();
            open.serve(connection, |c| c.graceful_shutdown()).await
        }
        Protocol::Http2 => {
            let connection = protocols.http2.serve_connection(io, service);
            open.serve(connection, |c| c.graceful_shutdown()).await
        }
    };
    if let Err(err) = outcome {
        tracing::debug!(error = %err, "connection ended with an error");
    }
}

/// The app with the concurrency limit in front of it.
#[derive(Clone)]
struct Limited<D> {
    dispatch: D,
    gate: Option<Arc<Gate>>,
}

/// Counts requests in flight. A plain atomic counter: a semaphore's permit costs several
/// hundred instructions per request (measured with callgrind), and nothing ever waits here.
struct Gate {
    in_flight: AtomicUsize,
    limit: usize,
}

/// One request's place under the limit, given back when the response is ready.
struct Pass(Arc<Gate>);

impl Drop for Pass {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Release);
    }
}

impl Gate {
    fn enter(self: &Arc<Self>) -> Option<Pass> {
        if self.in_flight.fetch_add(1, Ordering::Acquire) >= self.limit {
            self.in_flight.fetch_sub(1, Ordering::Release);
            return None;
        }
        Some(Pass(self.clone()))
    }
}

impl<D: Dispatch> hyper::service::Service<Request<Incoming>> for Limited<D> {
    type Response = Response;
    type Error = Infallible;
    type Future = LimitedFuture<D::Future>;

    fn call(&self, request: Request<Incoming>) -> LimitedFuture<D::Future> {
        let permit = match &self.gate {
            None => None,
            Some(gate) => match gate.enter() {
                Some(pass) => Some(pass),
                None => {
                    let mut response = busy();
                    self.dispatch.service().refused(&request, &mut response);
                    return LimitedFuture::Busy(Some(response));
                }
            },
        };
        LimitedFuture::Serving {
            future: self.dispatch.dispatch(request),
            _permit: permit,
        }
    }
}

/// 503 with `Retry-After`, for a request over the concurrency limit.
fn busy() -> Response {
    tracing::debug!("concurrency limit reached; answering 503");
    let mut response = error_response(
        StatusCode::SERVICE_UNAVAILABLE,
        &serde_json::json!("The server is busy; retry shortly"),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

/// A request being served (holding a permit until its response is ready), or refused.
enum LimitedFuture<F> {
    Serving { future: F, _permit: Option<Pass> },
    Busy(Option<Response>),
}

impl<F: Future<Output = Response> + Unpin> Future for LimitedFuture<F> {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            LimitedFuture::Serving { future, .. } => Pin::new(future).poll(cx).map(Ok),
            LimitedFuture::Busy(response) => Poll::Ready(Ok(response.take().unwrap_or_else(busy))),
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
