//! The server: a [`Service`] served over HTTP/1.1 and HTTP/2 with hyper, one task per connection.
//! Its files: `protocol` (HTTP/1 or HTTP/2, decided once per connection), `io` (the socket hyper
//! reads and writes: the first bytes, the write deadline), `conn_timer` (the HTTP/1 head
//! deadline), `h2` (HTTP/2's idle and stream deadlines), `connections` (the connection limit, which
//! closes the oldest idle connection to make room), `conn_state` (whether a connection is idle),
//! `descriptors` (the process's limit of open files), `listener` (the listening socket's queue),
//! `strict` (the HTTP/1 framing rules hyper leaves unchecked; `line_ends` finds its lines), `admit` (each request at the door:
//! malformed requests, the concurrency limit `gate`, the body deadline `body_deadline`, the
//! response body `served`), `refusals` (counted and logged),
//! `drain` (graceful shutdown).
//!
//! Rules enforced here (each limit and deadline is a [`Config`](crate::Config) value; RELIABILITY.md
//! lists them with the tests that prove each):
//! - at most `max_connections` connections are open, so descriptors never run out (the soft limit
//!   of open files is raised to the hard one at start: `descriptors.rs`); a connection accepted
//!   at the limit takes the place of the least recently used one that may leave (idle for
//!   100 ms or more — reading its first bytes or a head, or between requests —, or trickling a
//!   body), which is closed (HTTP/2: after a `GOAWAY`); a connection used within 100 ms or in the
//!   middle of a request that progresses is never closed for room, and only when none may leave
//!   does the new one wait (`connections.rs`);
//! - each connection's protocol is decided once from its first bytes (see `protocol.rs`), which
//!   must arrive within the header-read timeout, then served by hyper's HTTP/1 or HTTP/2
//!   connection directly;
//! - every phase of a request has a deadline: its head (`header_read_timeout`, also the idle
//!   keep-alive time of both protocols: the HTTP/1 clock restarts whenever a connection waits for
//!   a request, `conn_timer.rs`; `h2.rs` closes an HTTP/2 connection without requests), its body
//!   (`body_timeout` of silence and `body_min_rate` over a sliding window: 408 and close), its
//!   response (`write_timeout`: a client that reads nothing is cut); HTTP/2 connections are also
//!   pinged (`http2_keep_alive`);
//! - a request head larger than `max_head_bytes`, or with more than 100 header fields, is
//!   answered 431 by hyper (a request target over 64 KiB: 414) and the connection closed;
//! - HTTP/1 framing is strict where RFC 9112 requires it (`strict.rs`: `Host` missing or
//!   repeated, bare LF, chunk-size whitespace, transfer codings other than `chunked`), and an
//!   HTTP/2 `Host` must name the `:authority`: 400 or 501 with a `detail`, connection closed;
//! - at most `max_concurrency` requests are served at once, counted until their response body is
//!   handed to the connection; one more is answered 503 at once with `Retry-After: 1` and
//!   `{"detail": …}` instead of queueing without bound;
//! - every refusal and cut is counted (metrics `http_refusals{reason}`, when the app has metrics)
//!   and logged at `WARN`, one line a second per reason with its count (`refusals.rs`);
//! - on shutdown (SIGINT/SIGTERM, or the caller's future) the listener closes at once, in-flight
//!   requests get `shutdown_timeout` to finish, then the app's background tasks get as long,
//!   then its shutdown hooks run, the log is flushed, and the server returns;
//! - an accept error (e.g. out of file descriptors) is logged and retried after a pause, never
//!   fatal;
//! - HTTP/1 connections can be upgraded (a WebSocket route's 101): the connection is then the
//!   route's, no longer the server's (it is not drained on shutdown);
//! - a server has one listener or more ([`Server::also_bind`]), each plain or (the `tls` feature)
//!   TLS (`tls/`); all share the connection limit, the concurrency limit and the drain. A TLS
//!   connection is placed under the connection limit at accept like a plain one, does its
//!   handshake within `handshake_timeout` while idle (closed for room like a connection reading
//!   a head), then is served by the same code over the decrypted stream, its protocol the one
//!   ALPN chose;
//! - a plain listener may send every request to HTTPS instead ([`Scheme::HttpRedirect`],
//!   `redirect.rs`): its connections keep every protection of a plain one, but their requests
//!   are answered 308 without the app; with HSTS asked for (`TlsConfig::hsts`), a TLS
//!   connection's answers carry `Strict-Transport-Security` (`tls/hsts.rs`). Both are settings of
//!   the one connection service (`admit.rs`) over the one socket type (`socket.rs`): hyper's
//!   server is compiled once, and a plain connection pays a test for each.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use hyper::server::conn::{http1, http2};
use hyper_util::rt::TokioTimer;
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};

mod admit;
mod body_deadline;
mod conn_state;
mod conn_timer;
mod connections;
mod descriptors;
mod drain;
mod gate;
mod h2;
mod io;
mod line_ends;
mod listener;
mod protocol;
#[cfg(feature = "tls")]
mod redirect;
mod refusals;
mod served;
mod socket;
mod strict;
#[cfg(feature = "tls")]
mod tls;

use crate::app::{start, stop, App, BuildError, Lifecycle};
use crate::dispatch::Service;
use crate::metrics::Refusal;
use admit::ConnService;
use body_deadline::BodyRules;
use conn_state::ConnState;
use conn_timer::HeadClock;
use connections::{ConnLimit, ConnPlace};
use drain::{Drain, Open};
use gate::Gate;
use h2::{Activity, IdleClose, StreamExecutor};
use io::{is_write_stall, ConnIo, HyperIo};
use protocol::{sniff, Protocol};
use refusals::Refusals;
use socket::Socket;
use strict::{Scanner, Verdicts};

/// A bound, not yet running server.
#[derive(Debug)]
pub struct Server {
    /// The first is the one [`Server::bind`] bound.
    listeners: Vec<Listening>,
    service: Service,
    local_addr: SocketAddr,
    after: After,
    /// The TLS of the app's TLS listeners (when it has a [`TlsConfig`](crate::tls::TlsConfig)).
    #[cfg(feature = "tls")]
    tls: Option<Arc<tls::Tls>>,
}

/// What a listener speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Plain HTTP/1.1, and HTTP/2 with prior knowledge.
    Http,
    /// TLS, with HTTP/2 or HTTP/1.1 chosen by ALPN (the `tls` feature, and [`App::tls`]).
    #[cfg(feature = "tls")]
    Https,
    /// Plain HTTP that answers every request `308 Permanent Redirect` to the same host and
    /// target over HTTPS, on the port of the server's first TLS listener (omitted when 443);
    /// the app never sees these requests. Needs the app's [`App::tls`].
    #[cfg(feature = "tls")]
    HttpRedirect,
}

impl Scheme {
    /// The URL scheme, for the log.
    fn name(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            #[cfg(feature = "tls")]
            Scheme::Https => "https",
            #[cfg(feature = "tls")]
            Scheme::HttpRedirect => "http",
        }
    }

    /// What the log adds after the address.
    fn note(self) -> &'static str {
        match self {
            #[cfg(feature = "tls")]
            Scheme::HttpRedirect => " (redirecting to https)",
            _ => "",
        }
    }
}

/// One listening socket, and what it speaks.
#[derive(Debug)]
struct Listening {
    listener: TcpListener,
    scheme: Scheme,
}

/// What a server of an [`App`] does after its connections drained: wait for the app's background
/// tasks, then run its shutdown hooks (a server of a bare [`Service`] has neither).
#[derive(Debug, Default)]
struct After {
    tasks: Option<tokio_util::task::TaskTracker>,
    lifecycle: Lifecycle,
}

impl After {
    /// Wait for the background tasks (within `timeout`), then run the shutdown hooks.
    async fn run(self, timeout: Duration) {
        if let Some(tasks) = self.tasks {
            tasks.close();
            if !tasks.is_empty() {
                tracing::info!(
                    "waiting up to {timeout:?} for {} background task runs",
                    tasks.len()
                );
            }
            if tokio::time::timeout(timeout, tasks.wait()).await.is_err() {
                tracing::warn!("shutdown timeout reached; background tasks still running are dropped");
            }
        }
        stop(self.lifecycle.shutdown).await;
    }
}

/// Why a server could not start. Its `Debug` is its message, so a `main` returning
/// `Result<(), ServeError>` ends with `Error: <the message>` and a non-zero exit: one line, or,
/// for an app with several mistakes, their count and one line each (see [`BuildError`]).
pub enum ServeError {
    /// The app is misconfigured.
    Build(BuildError),
    /// The address could not be bound.
    Bind(std::io::Error),
    /// A startup hook ([`App::on_startup`]) failed: its name and error, on one line.
    Startup(String),
    /// TLS could not be set up (a certificate or key file missing, unreadable or not matching,
    /// or a TLS listener asked of an app without [`App::tls`]): one line naming the file.
    Tls(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Build(e) => write!(f, "invalid app: {e}"),
            ServeError::Bind(e) => write!(f, "cannot listen: {e}"),
            ServeError::Startup(line) | ServeError::Tls(line) => f.write_str(line),
        }
    }
}

impl std::fmt::Debug for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ServeError {}

impl App {
    /// Build the app, run its startup hooks ([`App::on_startup`]) and bind `addr` (port 0 picks
    /// a free port; see [`Server::local_addr`]).
    pub async fn bind(mut self, addr: impl ToSocketAddrs) -> Result<Server, ServeError> {
        let (lifecycle, tasks) = self.take_lifecycle();
        let service = self.build().map_err(ServeError::Build)?;
        let Lifecycle { startup, shutdown } = lifecycle;
        start(startup).await.map_err(ServeError::Startup)?;
        let mut server = Server::bind(service, addr).await?;
        server.after = After {
            tasks: Some(tasks),
            lifecycle: Lifecycle {
                startup: Vec::new(),
                shutdown,
            },
        };
        Ok(server)
    }

    /// Build, bind and serve until SIGINT or SIGTERM.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<(), ServeError> {
        self.bind(addr).await?.run().await;
        Ok(())
    }
}

impl Server {
    /// Bind `addr` for `service`: over TLS when its app has a [`TlsConfig`](crate::tls::TlsConfig)
    /// (whose files are read now), plain otherwise.
    pub async fn bind(service: Service, addr: impl ToSocketAddrs) -> Result<Server, ServeError> {
        #[cfg(feature = "tls")]
        let tls = match &service.config().tls {
            Some(settings) => Some(tls::Tls::new(settings).map_err(ServeError::Tls)?),
            None => None,
        };
        #[cfg(feature = "tls")]
        let scheme = if tls.is_some() {
            Scheme::Https
        } else {
            Scheme::Http
        };
        #[cfg(not(feature = "tls"))]
        let scheme = Scheme::Http;
        let listener = listener::listen(addr).await.map_err(ServeError::Bind)?;
        let local_addr = listener.local_addr().map_err(ServeError::Bind)?;
        Ok(Server {
            listeners: vec![Listening { listener, scheme }],
            service,
            local_addr,
            after: After::default(),
            #[cfg(feature = "tls")]
            tls,
        })
    }

    /// Bind `addr` too, speaking `scheme` (say, a plain listener beside the TLS one, or the
    /// reverse); returns the address bound. Every listener shares the server's limits.
    /// [`Scheme::Https`] and [`Scheme::HttpRedirect`] need the app's [`App::tls`].
    pub async fn also_bind(
        &mut self,
        addr: impl ToSocketAddrs,
        scheme: Scheme,
    ) -> Result<SocketAddr, ServeError> {
        #[cfg(feature = "tls")]
        if scheme == Scheme::Https && self.tls.is_none() {
            return Err(ServeError::Tls(
                "a TLS listener needs a certificate: App::tls".to_owned(),
            ));
        }
        #[cfg(feature = "tls")]
        if scheme == Scheme::HttpRedirect && self.tls.is_none() {
            return Err(ServeError::Tls(
                "a listener redirecting to HTTPS needs a TLS listener: App::tls".to_owned(),
            ));
        }
        let listener = listener::listen(addr).await.map_err(ServeError::Bind)?;
        let local_addr = listener.local_addr().map_err(ServeError::Bind)?;
        self.listeners.push(Listening { listener, scheme });
        Ok(local_addr)
    }

    /// The address actually bound (by [`Server::bind`]; [`Server::also_bind`] returns its own).
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
            listeners,
            service,
            local_addr: _,
            after,
            #[cfg(feature = "tls")]
            tls,
        } = self;
        let descriptors = descriptors::raise_to_hard_limit();
        for row in service.route_table() {
            match &row.shadowed_by {
                None => tracing::info!("route {row}"),
                Some(_) => tracing::warn!("route {row}"),
            }
        }
        for listening in &listeners {
            if let Ok(addr) = listening.listener.local_addr() {
                tracing::info!(
                    "listening on {}://{addr}{}",
                    listening.scheme.name(),
                    listening.scheme.note()
                );
            }
        }

        let config = service.config();
        let max_connections = connections::limit_in_force(config.max_connections, descriptors);
        let refusals = Refusals::new(service.clone(), max_connections);
        // No timer for hyper: each connection's socket keeps its head deadline (`conn_timer.rs`).
        let mut http1 = http1::Builder::new();
        http1
            .header_read_timeout(None)
            .max_header_size(config.max_head_bytes)
            .max_buf_size(config.max_head_bytes.max(HTTP1_BUFFER_BYTES))
            .keep_alive(true);
        let mut http2 = http2::Builder::new(StreamExecutor {
            write_timeout: config.write_timeout,
            refusals: refusals.clone(),
        });
        http2
            .timer(TokioTimer::new())
            .max_concurrent_streams(config.http2_max_streams)
            .keep_alive_interval(config.http2_keep_alive);
        if let Some(interval) = config.http2_keep_alive {
            http2.keep_alive_timeout(interval);
        }
        let protocols = Arc::new(Protocols {
            http1,
            http2,
            first_bytes_timeout: config.header_read_timeout,
            header_read_timeout: config.header_read_timeout,
            idle_timeout: config.header_read_timeout,
            write_timeout: config.write_timeout,
            body_rules: BodyRules::new(config.body_timeout, config.body_min_rate),
            gate: Gate::new(
                config.max_concurrency,
                refusals.clone(),
                service.budget().cloned(),
            ),
            strict_http1: config.strict_http1,
        });
        let limit = max_connections.map(ConnLimit::new);
        let shutdown_timeout = config.shutdown_timeout;
        let reporter = refusals.spawn_reporter();
        #[cfg(feature = "tls")]
        let reloader = tls.as_ref().map(|tls| tls.spawn_reloader());
        // Redirects go to the port the app named, else to the first TLS listener's own.
        #[cfg(feature = "tls")]
        let redirect = listeners
            .iter()
            .find(|listening| listening.scheme == Scheme::Https)
            .and_then(|listening| listening.listener.local_addr().ok())
            .map(|addr| {
                let public = tls.as_ref().and_then(|tls| tls.public_port());
                redirect::Redirect::to_port(public.unwrap_or(addr.port()))
            });
        let accept = Accept {
            listeners,
            protocols,
            limit,
            service,
            drain: Drain::default(),
            #[cfg(feature = "tls")]
            tls,
            #[cfg(feature = "tls")]
            redirect,
        };
        accept.until(shutdown, shutdown_timeout).await;
        after.run(shutdown_timeout).await;
        drop(reporter);
        #[cfg(feature = "tls")]
        drop(reloader);
        refusals.report();
        // The drained requests' lines are out before the caller (main) returns.
        crate::logging::flush();
    }
}

/// The accept loops of a server.
struct Accept {
    listeners: Vec<Listening>,
    protocols: Arc<Protocols>,
    limit: Option<ConnLimit>,
    service: Service,
    drain: Drain,
    #[cfg(feature = "tls")]
    tls: Option<Arc<tls::Tls>>,
    /// Where a [`Scheme::HttpRedirect`] listener sends requests.
    #[cfg(feature = "tls")]
    redirect: Option<Arc<redirect::Redirect>>,
}

/// One listener's accept loop (it never ends; the server drops it at shutdown).
type AcceptLoop<'a> = Pin<Box<dyn Future<Output = ()> + Send + 'a>>;

impl Accept {
    /// Accept connections on every listener until `shutdown` completes, then drain in-flight
    /// requests (bounded).
    async fn until(mut self, shutdown: impl Future<Output = ()>, shutdown_timeout: Duration) {
        let listeners = std::mem::take(&mut self.listeners);
        let this = &self;
        let mut loops: Vec<AcceptLoop<'_>> = listeners
            .into_iter()
            .map(|listening| Box::pin(this.accept(listening)) as AcceptLoop<'_>)
            .collect();
        // Polled together: the loops never end, and each registers the task's waker.
        let accepting = std::future::poll_fn(|cx| {
            for accept in &mut loops {
                let _ = accept.as_mut().poll(cx);
            }
            Poll::<()>::Pending
        });
        tokio::select! {
            () = accepting => {}
            () = shutdown => {}
        }
        // The listeners close at once.
        drop(loops);
        tracing::info!(
            "shutting down: waiting up to {:?} for in-flight requests",
            shutdown_timeout
        );
        if tokio::time::timeout(shutdown_timeout, self.drain.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("shutdown timeout reached; closing remaining connections");
        }
    }

    /// Accept connections on `listening` and serve each in its own task.
    async fn accept(&self, listening: Listening) {
        let Listening { listener, scheme } = listening;
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _peer)) => stream,
                Err(err) => {
                    tracing::warn!(error = %err, "accept failed; retrying");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            let state = ConnState::new();
            // Accepted first, then placed: only a client actually waiting makes room.
            let place = match &self.limit {
                None => None,
                Some(limit) => match limit.try_take(&state) {
                    Some(place) => Some(place),
                    None => {
                        self.protocols.gate.refusals().count(Refusal::ConnectionLimit);
                        limit.make_room(&state).await
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let open = self.drain.open();
            match scheme {
                Scheme::Http => {
                    tokio::spawn(serve_connection(
                        stream,
                        self.protocols.clone(),
                        self.service.clone(),
                        open,
                        (place, state),
                        Answering::default(),
                    ));
                }
                #[cfg(feature = "tls")]
                Scheme::HttpRedirect => {
                    // No TLS listener (a server bound only this one): nothing to send to.
                    let Some(to) = &self.redirect else { continue };
                    tokio::spawn(serve_connection(
                        stream,
                        self.protocols.clone(),
                        self.service.clone(),
                        open,
                        (place, state),
                        Answering {
                            redirect: Some(to.clone()),
                            ..Answering::default()
                        },
                    ));
                }
                #[cfg(feature = "tls")]
                Scheme::Https => {
                    if let Some(tls) = &self.tls {
                        tokio::spawn(serve_tls_connection(
                            stream,
                            (self.protocols.clone(), tls.clone()),
                            self.service.clone(),
                            open,
                            (place, state),
                        ));
                    }
                }
            }
        }
    }
}

/// The most an HTTP/1 connection's hyper buffers, reading or writing. One knob caps both: the
/// head is capped by `max_header_size` instead, and this is what lets hyper gather several body
/// chunks into one `writev`. At 64 KiB (when it also capped heads) each 64 KiB chunk of a stream
/// was its own write: 36,780 user-space instructions per MiB streamed against axum's 28,395
/// (hyper's default, ~400 KiB); 128 KiB gave 31,001 and 256 KiB 28,100 (callgrind,
/// `GET /stream/1`, ferrapi-bare). It is reached only by a client sending (or a response
/// queueing) faster than the other side drains.
const HTTP1_BUFFER_BYTES: usize = 256 * 1024;

/// How connections are served, shared by every connection.
struct Protocols {
    http1: http1::Builder,
    http2: http2::Builder<StreamExecutor>,
    /// How long a new connection may take to send its first bytes.
    first_bytes_timeout: Duration,
    /// How long an HTTP/1 connection may wait for a request head.
    header_read_timeout: Duration,
    /// How long an HTTP/2 connection may have no request in progress.
    idle_timeout: Duration,
    write_timeout: Duration,
    body_rules: BodyRules,
    /// The concurrency limit, and through it the server's refusal counts.
    gate: Arc<Gate>,
    strict_http1: bool,
}

/// Serve one accepted connection until it closes (or shutdown closes it, or it is closed to make
/// room for a new one); `place` is its place under the connection limit, `state` what it is doing.
async fn serve_connection(
    stream: TcpStream,
    protocols: Arc<Protocols>,
    service: Service,
    open: Open,
    (place, state): (Option<ConnPlace>, Arc<ConnState>),
    answering: Answering,
) {
    std::future::poll_fn(|cx| {
        state.set_waker(cx.waker());
        std::task::Poll::Ready(())
    })
    .await;
    serve_protocol(
        Socket::Plain(stream),
        &protocols,
        service,
        open,
        &state,
        (None, answering),
    )
    .await;
    if state.left() {
        protocols.gate.refusals().count(Refusal::Evicted);
    }
    drop(place);
}

/// Serve one accepted TLS connection: its handshake (see `tls/`), then its protocol as
/// [`serve_connection`] does, the one ALPN chose.
#[cfg(feature = "tls")]
async fn serve_tls_connection(
    stream: TcpStream,
    (protocols, tls): (Arc<Protocols>, Arc<tls::Tls>),
    service: Service,
    open: Open,
    (place, state): (Option<ConnPlace>, Arc<ConnState>),
) {
    std::future::poll_fn(|cx| {
        state.set_waker(cx.waker());
        std::task::Poll::Ready(())
    })
    .await;
    let handshake = tokio::select! {
        done = tokio::time::timeout(tls.timeout(), tls.handshake(stream)) => done,
        () = open.closing() => {
            tracing::debug!("connection closed in its TLS handshake: shutting down");
            return;
        }
        () = leaving(&state) => {
            tracing::debug!("connection closed in its TLS handshake: room for a new one");
            protocols.gate.refusals().count(Refusal::Evicted);
            return;
        }
    };
    let stream = match handshake {
        Ok(Ok(stream)) => stream,
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "TLS handshake failed");
            protocols.gate.refusals().count(Refusal::TlsHandshake);
            return;
        }
        Err(_) => {
            tracing::debug!("TLS handshake not finished within the handshake timeout; closed");
            protocols.gate.refusals().count(Refusal::TlsHandshake);
            return;
        }
    };
    let expected = match stream.get_ref().1.alpn_protocol() {
        Some(b"h2") => Some(Protocol::Http2),
        Some(_) => Some(Protocol::Http1),
        None => None,
    };
    // Read once, shared by the connection's requests.
    let peer = stream
        .get_ref()
        .1
        .peer_certificates()
        .and_then(<[_]>::first)
        .map(|der| crate::extract::ClientCert::from_der(der));
    let answering = Answering {
        peer,
        hsts: tls.hsts().cloned(),
        redirect: None,
    };
    let stream = Socket::Tls(Box::new(stream));
    serve_protocol(stream, &protocols, service, open, &state, (expected, answering)).await;
    if state.left() {
        protocols.gate.refusals().count(Refusal::Evicted);
    }
    drop(place);
}

/// Completes when the connection of `state` has been asked to leave (for room) and leaves.
fn leaving(state: &ConnState) -> impl Future<Output = ()> + '_ {
    std::future::poll_fn(|_| {
        if state.should_leave() {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
}

/// Who answers a connection's requests: the app (nothing set), over TLS with the client
/// certificate its handshake verified and HSTS when asked for, or the redirect to HTTPS.
#[derive(Default)]
struct Answering {
    #[cfg(feature = "tls")]
    peer: Option<crate::extract::ClientCert>,
    #[cfg(feature = "tls")]
    hsts: Option<Arc<hyper::header::HeaderValue>>,
    #[cfg(feature = "tls")]
    redirect: Option<Arc<redirect::Redirect>>,
}

/// Decide the connection's protocol from its first bytes, then serve it with hyper; `expected`
/// is the protocol its TLS handshake chose (by ALPN), which the first bytes must speak, and
/// `answering` who answers its requests.
async fn serve_protocol(
    mut stream: Socket,
    protocols: &Protocols,
    service: Service,
    open: Open,
    state: &Arc<ConnState>,
    (expected, answering): (Option<Protocol>, Answering),
) {
    #[cfg(not(feature = "tls"))]
    let Answering {} = answering;
    let leave = leaving(state);
    let sniffed = tokio::select! {
        sniffed = tokio::time::timeout(protocols.first_bytes_timeout, sniff(&mut stream)) => sniffed,
        () = open.closing() => {
            tracing::debug!("connection closed before its first request: shutting down");
            return;
        }
        () = leave => {
            tracing::debug!("connection closed before its first request: room for a new one");
            return;
        }
    };
    let (protocol, first) = match sniffed {
        Ok(Ok(sniffed)) => sniffed,
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "connection failed before its first request");
            return;
        }
        Err(_) => {
            tracing::debug!("connection sent no request within the header-read timeout; closed");
            return;
        }
    };
    if expected.is_some_and(|expected| expected != protocol) {
        tracing::debug!("connection spoke another protocol than the one its TLS handshake chose; closed");
        return;
    }
    let gate = protocols.gate.clone();
    let outcome = match protocol {
        Protocol::Http1 => {
            let verdicts = Arc::new(Verdicts::default());
            // Without the scanner no verdict is ever decided: every head is served.
            let scanner = protocols.strict_http1.then(|| Scanner::new(verdicts.clone()));
            let head = HeadClock::new(protocols.header_read_timeout, state.clone());
            let io = HyperIo::new(ConnIo::new(
                stream,
                first,
                (scanner, Some(head)),
                protocols.write_timeout,
                state.clone(),
            ));
            let service = ConnService::http1(service, gate, protocols.body_rules, (verdicts, state.clone()));
            #[cfg(feature = "tls")]
            let service = service.answering(answering.peer, answering.hsts, answering.redirect);
            // `with_upgrades`: a WebSocket route's 101 hands the connection over to it. It costs
            // a connection that upgrades nothing one check when it ends (measured with callgrind).
            let connection = protocols.http1.serve_connection(io, service).with_upgrades();
            open.serve(connection, |c| c.graceful_shutdown()).await
        }
        Protocol::Http2 => {
            let io = HyperIo::new(ConnIo::new(
                stream,
                first,
                (None, None),
                protocols.write_timeout,
                state.clone(),
            ));
            let activity = Activity::new(state.clone());
            let service = ConnService::http2(service, gate, protocols.body_rules, activity.clone());
            #[cfg(feature = "tls")]
            let service = service.answering(answering.peer, answering.hsts, answering.redirect);
            serve_http2(protocols, &open, io, service, activity).await
        }
    };
    ended(protocols, outcome);
}

/// Serve an HTTP/2 connection with `service` (the app's, or one wrapping or replacing it).
async fn serve_http2<I, Svc, B>(
    protocols: &Protocols,
    open: &Open,
    io: I,
    service: Svc,
    activity: Arc<Activity>,
) -> Result<(), hyper::Error>
where
    I: hyper::rt::Read + hyper::rt::Write + Unpin,
    Svc: hyper::service::HttpService<hyper::body::Incoming, ResBody = B>,
    Svc::Future: Send + 'static,
    B: hyper::body::Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    StreamExecutor: hyper::rt::bounds::Http2ServerConnExec<Svc::Future, B>,
{
    let connection = protocols.http2.serve_connection(io, service);
    let connection = IdleClose::new(
        connection,
        |c| c.graceful_shutdown(),
        activity,
        protocols.idle_timeout,
        protocols.write_timeout,
    );
    open.serve(connection, |c| c.graceful_shutdown()).await
}

/// Count and log how a connection ended.
fn ended(protocols: &Protocols, outcome: Result<(), hyper::Error>) {
    if let Err(err) = outcome {
        if is_write_stall(&err) {
            protocols.gate.refusals().count(Refusal::WriteTimeout);
        }
        tracing::debug!(error = %err, "connection ended with an error");
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
