//! The limits and switches of an app and its server, with their defaults.
//!
//! Rules enforced here: every limit has a default that is safe to expose (a bounded body, head,
//! number of requests in flight and of connections open, and a deadline on every phase of a
//! request: its head, its body, its response, an idle connection of either protocol), and each can
//! be changed on the [`App`] (`App::body_limit`, ...) or here. RELIABILITY.md lists them with the
//! tests that prove each.
//!
//! [`App`]: crate::App

use std::time::Duration;

/// Limits and switches of a server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Largest accepted request body, in bytes (default 1 MiB).
    pub body_limit: usize,
    /// Largest multipart upload (a route taking [`Multipart`](crate::files::Multipart)), in bytes,
    /// all parts together (default 100 MiB). It replaces `body_limit` for such routes: an upload
    /// is streamed, never held whole. A declared `Content-Length` over it is answered 413 before
    /// any byte is read, a stream that grows over it 413 when the excess arrives.
    pub upload_limit: u64,
    /// Largest part of a multipart upload, in bytes (default 100 MiB).
    pub upload_part_limit: u64,
    /// Time allowed to receive a request head (default 10 s). The clock starts when a connection
    /// is accepted and whenever it waits for its next request, so it is also the idle keep-alive
    /// timeout.
    pub header_read_timeout: Duration,
    /// Largest request head (request line plus headers), in bytes (default 64 KiB); a larger head
    /// is answered 431 by hyper, however the client split its writes. At most 100 header fields
    /// are accepted.
    pub max_head_bytes: usize,
    /// The longest a request body may go without a byte, counted from the moment the route first
    /// waits for it (default 10 s); also the window of `body_min_rate`. A body that misses its
    /// deadline is answered 408 and its connection closed, so a client that declares a body and
    /// stalls holds a request's place for a bounded time. `Expect: 100-continue` is answered
    /// when the route first reads, so a client that never sends the announced body meets the
    /// same deadline.
    pub body_timeout: Duration,
    /// The slowest accepted body rate, in bytes per second (default 8 KiB/s), over a sliding
    /// window of `body_timeout` (Kestrel's `MinRequestBodyDataRate`): after the first window of
    /// waiting (the grace), every window must bring `rate × body_timeout` bytes (80 KiB in 10 s
    /// by default), else the body is answered 408. A steady upload is never cut, a trickle is,
    /// however much it sent before (credit is never given in advance). A body that brings less
    /// than this rate a second counts as not progressing: when the memory budget is needed, it
    /// may be reset after a second of that (`Config::memory_budget`), and at the connection
    /// limit its connection may be closed. `None`: `body_timeout` is the time for the whole
    /// body.
    pub body_min_rate: Option<u32>,
    /// Time a response may wait for the client to take its bytes (default 10 s): when the client
    /// reads nothing for that long (a full TCP window on HTTP/1 or HTTP/2, a closed HTTP/2 flow
    /// control window for one stream), the connection (HTTP/1) or the stream (HTTP/2) is cut,
    /// and what the response held is freed. The time a route takes to produce its bytes (an
    /// event stream waiting for its next event) does not count.
    pub write_timeout: Duration,
    /// Requests served at once (default 1024; `None`: unlimited). A request beyond the limit is
    /// answered at once with 503 and `Retry-After: 1`, instead of waiting in a queue. A request
    /// counts until its response body has been handed to the connection (or cut), so clients
    /// that read slowly cannot hold more than this many responses in memory.
    pub max_concurrency: Option<usize>,
    /// Bytes clients can make the server hold at once (default 64 MiB; `None`: no budget):
    /// request bodies being read, what parsing a JSON body can take (its tree, charged before
    /// it is built), and response bodies of 4 KiB or more until the connection has written them.
    /// A request that would go over it is refused before the memory is taken: 503 with
    /// `Retry-After: 1` while others hold the budget, 413 when the request alone needs more than
    /// all of it. Each refusal is counted and logged like the server's other refusals.
    ///
    /// It is shared fairly: bodies that wait for their bytes reserve their length among three
    /// quarters of it, admitted in the order they asked, so the last quarter is always there for
    /// requests that arrive whole; when a charge does not fit, bodies that brought nothing for a
    /// second (less than `body_min_rate`) are reset, largest first, and answered 503 with
    /// `Retry-After` (counted as `memory_reset`), and the charge takes what they free; a small
    /// request waits up to 200 ms for room before its 503.
    pub memory_budget: Option<usize>,
    /// The most the request bodies being received on one HTTP/2 connection may hold of the
    /// memory budget together (default 8 MiB, an eighth of the default budget; never less than
    /// `body_limit`, so one whole body always fits): bodies past it wait, or are answered 503,
    /// while those of other connections go on. A body counts once it has had to wait for its
    /// bytes; bodies that arrive whole never do. An HTTP/1 connection receives one body at a
    /// time, within `body_limit`. `None`: no share per connection, for a trusted proxy that
    /// multiplexes many clients on one HTTP/2 connection (the budget as a whole, and the reset
    /// of bodies that do not progress, still hold).
    pub connection_body_share: Option<usize>,
    /// Connections open at once (default 10,000; `None`: unlimited), so the process never runs
    /// out of file descriptors. A connection accepted at the limit takes the place of the least
    /// recently used one that may leave: idle (still sending its first bytes or a request head,
    /// or between requests) and unused for 100 ms or more, or trickling a body (below
    /// `body_min_rate` for a second), which is closed (an HTTP/2 one after a `GOAWAY`); a
    /// connection used within 100 ms, or in the middle of a request that progresses, is never
    /// closed for room, and only when none may leave does the new one wait for a place. When a server starts it raises
    /// the process's soft limit of open files to the hard one, and lowers this limit to three
    /// quarters of the descriptor limit when that is smaller (the log says both).
    pub max_connections: Option<usize>,
    /// Refuse HTTP/1.1 requests whose framing RFC 9112 does not allow (default on): a `Host`
    /// missing (HTTP/1.1) or repeated, a line of the head ending in a bare LF, whitespace after a
    /// chunk size, a transfer coding other than `chunked`: 400 or 501 with a `detail`, and the
    /// connection closed, so no front proxy can read a request differently from this server. It
    /// reads every head byte (≈ 500 instructions for a one-header `GET`, callgrind); behind a
    /// proxy that already refuses these, it can be turned off.
    pub strict_http1: bool,
    /// Streams one HTTP/2 connection may have open at once (default 100).
    pub http2_max_streams: u32,
    /// Interval of HTTP/2 keep-alive pings on a connection that is serving requests (default
    /// 20 s; `None`: no pings): a ping not answered within the same time closes the connection.
    /// An HTTP/2 connection with no request in progress for `header_read_timeout` is closed
    /// (after a `GOAWAY`), as an idle HTTP/1 connection is.
    pub http2_keep_alive: Option<Duration>,
    /// Time in-flight requests get to finish after a shutdown signal (default 10 s).
    pub shutdown_timeout: Duration,
    /// Where the OpenAPI document is served (`None`: not served, and neither are the pages).
    /// Default `/openapi.json`.
    pub openapi_url: Option<String>,
    /// Where Swagger UI is served (`None`: not served). Default `/docs`.
    pub docs_url: Option<String>,
    /// Where ReDoc is served (`None`: not served). Default `/redoc`.
    pub redoc_url: Option<String>,
    /// Give every request an id (the incoming `X-Request-Id` when well-formed, else a new one),
    /// returned in the response's `X-Request-Id`, and a `tracing` span the handler runs in
    /// (default off).
    pub request_ids: bool,
    /// TLS on the listener the app is bound to (`None`: plain HTTP, the default; see
    /// [`App::tls`](crate::App::tls)).
    #[cfg(feature = "tls")]
    pub tls: Option<TlsConfig>,
    /// The app answers problem details ([`App::problem_details`](crate::App::problem_details)):
    /// the server's own answers (503 for overload, 400 for a refused head) are problems too.
    pub(crate) problem_details: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            body_limit: 1024 * 1024,
            upload_limit: 100 * 1024 * 1024,
            upload_part_limit: 100 * 1024 * 1024,
            header_read_timeout: Duration::from_secs(10),
            max_head_bytes: 64 * 1024,
            body_timeout: Duration::from_secs(10),
            body_min_rate: Some(8 * 1024),
            write_timeout: Duration::from_secs(10),
            max_concurrency: Some(1024),
            memory_budget: Some(64 * 1024 * 1024),
            connection_body_share: Some(8 * 1024 * 1024),
            max_connections: Some(10_000),
            strict_http1: true,
            http2_max_streams: 100,
            http2_keep_alive: Some(Duration::from_secs(20)),
            shutdown_timeout: Duration::from_secs(10),
            openapi_url: Some("/openapi.json".to_owned()),
            docs_url: Some("/docs".to_owned()),
            redoc_url: Some("/redoc".to_owned()),
            request_ids: false,
            #[cfg(feature = "tls")]
            tls: None,
            problem_details: false,
        }
    }
}

/// TLS settings of a listener (the `tls` feature): where its certificate and key are, and how its
/// handshakes are bounded. The files are read when the server binds (a missing or bad file stops
/// it with one line) and again when they change or on `SIGHUP` (`server/tls/`).
#[cfg(feature = "tls")]
#[derive(Debug, Clone)]
pub struct TlsConfig {
    /// A PEM file with the certificate chain, the server's own certificate first.
    pub cert_path: std::path::PathBuf,
    /// A PEM file with the private key of the first certificate (PKCS#8, PKCS#1 or SEC1).
    pub key_path: std::path::PathBuf,
    /// Time a new connection has to complete its TLS handshake (default 10 s), from its accept
    /// to its `Finished`: a connection that sends nothing, part of a `ClientHello`, or stops
    /// midway is closed then. The connection's first request head then has `header_read_timeout`.
    pub handshake_timeout: std::time::Duration,
    /// Handshakes computing at once (default 256): the server's costly step, its key share, its
    /// signature and its first flight, which rustls does synchronously when a `ClientHello` has
    /// come; one more waits for a place within its `handshake_timeout`. Waiting for the client's
    /// answer holds no place, so clients that send a `ClientHello` and then nothing keep no one
    /// waiting: each holds only its connection (counted against `max_connections`, closed for
    /// room like an idle one, and at `handshake_timeout`). Since the step is synchronous, at most
    /// one handshake per worker thread computes anyway; a limit under the worker count keeps
    /// workers free for requests during a flood of handshakes.
    pub max_handshakes: usize,
    /// How often the two files are looked at for a change (default every second; `None`: only
    /// `SIGHUP` reloads them). A change is taken once the files look the same at the next look,
    /// so a pair being written is not taken half-way; a pair that cannot be read, or whose key
    /// is not the certificate's, is refused with a `WARN` line and the one in force kept. New
    /// handshakes use the new pair; open connections keep theirs.
    pub reload_poll: Option<Duration>,
    /// Client certificates (`None`: none asked for, the default): a PEM file of the CA
    /// certificates a client's certificate must chain to, and whether one is required. The
    /// verified certificate is a route argument ([`ClientCert`](crate::tls::ClientCert)). The
    /// file is reloaded with the pair.
    pub client_auth: Option<(std::path::PathBuf, ClientAuth)>,
    /// More certificates, each a chain and key file like `cert_path` and `key_path`, chosen by
    /// the name a client asks for (SNI): a pair serves the DNS names of its certificate's
    /// `subjectAltName` (a `*.` name serves one label in its place). A client that names none of
    /// them, or no name at all, is given `cert_path`'s. Reloaded with it.
    pub sni_pairs: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    /// HTTP Strict Transport Security (`None`: not sent, the default): the `max-age`, and
    /// whether subdomains are included. Every answer of a TLS listener then carries
    /// `Strict-Transport-Security` (unless the app set one itself); a plain listener's never do
    /// (RFC 6797 §7.2: a browser ignores it over plain HTTP).
    pub hsts: Option<(Duration, bool)>,
    /// The port clients reach the TLS listener on, for the `Location` of a listener redirecting
    /// to HTTPS (`Scheme::HttpRedirect`); `None` (the default): the first TLS listener's own
    /// port. Set it when the server sits behind a port mapping, say a container listening on
    /// 8443 that clients reach on 443.
    pub public_port: Option<u16>,
}

/// Whether a TLS listener requires a client certificate ([`TlsConfig::client_auth`]).
#[cfg(feature = "tls")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAuth {
    /// A client may present a certificate (then it must chain to the CA) or none; a route that
    /// takes [`ClientCert`](crate::tls::ClientCert) answers a request without one 401.
    Optional,
    /// A client without a certificate that chains to the CA fails its handshake.
    Required,
}

#[cfg(feature = "tls")]
impl TlsConfig {
    /// The certificate chain and key in these PEM files, with the default handshake bounds.
    pub fn from_pem_files(
        cert_path: impl Into<std::path::PathBuf>,
        key_path: impl Into<std::path::PathBuf>,
    ) -> Self {
        TlsConfig {
            cert_path: cert_path.into(),
            key_path: key_path.into(),
            handshake_timeout: Duration::from_secs(10),
            max_handshakes: 256,
            reload_poll: Some(Duration::from_secs(1)),
            client_auth: None,
            sni_pairs: Vec::new(),
            hsts: None,
            public_port: None,
        }
    }

    /// Send `Strict-Transport-Security: max-age=…` (with `; includeSubDomains` when
    /// `include_subdomains`) on every answer of a TLS listener (see [`TlsConfig::hsts`]).
    pub fn hsts(mut self, max_age: Duration, include_subdomains: bool) -> Self {
        self.hsts = Some((max_age, include_subdomains));
        self
    }

    /// Redirect plain requests to HTTPS on this port rather than the TLS listener's own (see
    /// [`TlsConfig::public_port`]).
    pub fn public_port(mut self, port: u16) -> Self {
        self.public_port = Some(port);
        self
    }

    /// Serve the certificate chain and key of these PEM files to clients that ask for one of
    /// its certificate's DNS names (see [`TlsConfig::sni_pairs`]).
    pub fn sni_pair(
        mut self,
        cert_path: impl Into<std::path::PathBuf>,
        key_path: impl Into<std::path::PathBuf>,
    ) -> Self {
        self.sni_pairs.push((cert_path.into(), key_path.into()));
        self
    }

    /// Ask clients for a certificate that chains to one of the CA certificates in the PEM file
    /// `ca_path`, `auth` saying whether one is required (see [`TlsConfig::client_auth`]).
    pub fn client_auth(mut self, ca_path: impl Into<std::path::PathBuf>, auth: ClientAuth) -> Self {
        self.client_auth = Some((ca_path.into(), auth));
        self
    }

    /// Set the time a handshake may take (see [`TlsConfig::handshake_timeout`]).
    pub fn handshake_timeout(mut self, timeout: Duration) -> Self {
        self.handshake_timeout = timeout;
        self
    }

    /// Set how often the files are looked at for a change (`None`: only on `SIGHUP`; see
    /// [`TlsConfig::reload_poll`]).
    pub fn reload_poll(mut self, every: Option<Duration>) -> Self {
        self.reload_poll = every;
        self
    }

    /// Set how many handshakes compute at once (see
    /// [`TlsConfig::max_handshakes`]; at least one).
    pub fn max_handshakes(mut self, limit: usize) -> Self {
        self.max_handshakes = limit.max(1);
        self
    }
}
