//! The limits and switches of an app and its server, with their defaults.
//!
//! Rules enforced here: every limit has a default that is safe to expose (a bounded body, head,
//! header-read time and number of requests in flight), and each can be changed on the [`App`]
//! (`App::body_limit`, ...) or here.
//!
//! [`App`]: crate::App

use std::time::Duration;

/// Limits and switches of a server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Largest accepted request body, in bytes (default 1 MiB).
    pub body_limit: usize,
    /// Largest multipart upload (a route taking [`Multipart`](crate::Multipart)), in bytes,
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
    /// Requests served at once (default 1024; `None`: unlimited). A request beyond the limit is
    /// answered at once with 503 and `Retry-After: 1`, instead of waiting in a queue.
    pub max_concurrency: Option<usize>,
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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            body_limit: 1024 * 1024,
            upload_limit: 100 * 1024 * 1024,
            upload_part_limit: 100 * 1024 * 1024,
            header_read_timeout: Duration::from_secs(10),
            max_head_bytes: 64 * 1024,
            max_concurrency: Some(1024),
            shutdown_timeout: Duration::from_secs(10),
            openapi_url: Some("/openapi.json".to_owned()),
            docs_url: Some("/docs".to_owned()),
            redoc_url: Some("/redoc".to_owned()),
            request_ids: false,
        }
    }
}
