//! WebSocket routes: the route argument [`WebSocketUpgrade`] and the connection it gives,
//! [`WebSocket`], over tokio-tungstenite. Here: the handshake and the limits; in `socket`, the
//! connection's messages; in `stall`, the watch on a peer that stops reading ([`WatchedIo`]).
//!
//! Rules enforced here:
//! - the upgrade is an argument, a dependency: a route takes it beside its path and query
//!   parameters and its other dependencies, so they are all checked before anything is upgraded
//!   (an invalid parameter is the usual 422, a failed authentication its 401; the connection
//!   stays HTTP) and the route answers 101 only by calling [`WebSocketUpgrade::on_upgrade`];
//! - a request that is not a WebSocket handshake (RFC 6455 §4.2.1: `GET`, `Connection: upgrade`,
//!   `Upgrade: websocket`, `Sec-WebSocket-Version: 13`, a `Sec-WebSocket-Key`) is answered 426
//!   (with `Upgrade: websocket` / `Sec-WebSocket-Version: 13`) or, with no key, 400; the version
//!   and the key are single-valued: sent twice, they are refused like a wrong one (426, 400);
//! - messages larger than the maximum ([`WebSocketUpgrade::max_message_size`], 1 MiB by default)
//!   are refused as they arrive, and the connection is closed with 1009 (message too big);
//! - pings are answered with pongs by tungstenite, closes with a close;
//! - what waits to be written to the peer is bounded
//!   ([`WebSocketUpgrade::max_write_buffer_size`], by default the maximum message plus 128 KiB):
//!   tungstenite's own default is unbounded, and a peer that pings without reading its pongs grew
//!   the server by ~50 MB/s. When the buffer is full, pongs are coalesced (RFC 6455 §5.5.3 allows
//!   answering only the latest ping) and [`WebSocket::send`] waits for room;
//! - a peer that stops reading is cut off (`stall`): a write it takes nothing of for the write
//!   timeout ([`WebSocketUpgrade::write_timeout`], 30 s by default), or more than the write buffer
//!   limit received from it meanwhile, fails the connection, so `send` and `recv` return an error
//!   and the route's return drops it;
//! - the route's operation in the OpenAPI document carries `x-websocket: true` and documents
//!   101 and 426.

mod socket;
mod stall;

use std::future::Future;
use std::time::Duration;

use hyper::header::{
    HeaderValue, CONNECTION, SEC_WEBSOCKET_ACCEPT, SEC_WEBSOCKET_KEY, SEC_WEBSOCKET_VERSION, UPGRADE,
};
use hyper::upgrade::OnUpgrade;
use hyper::{Method, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::WebSocketStream;

use crate::extract::{sole_field, Dependency, Deps, RequestCx, Resolve};
use crate::openapi::Operation;
use crate::response::{error_response, Body, Response};
use crate::validate::{SchemaRegistry, ValidationErrors};

pub use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
pub use tokio_tungstenite::tungstenite::protocol::CloseFrame;
pub use tokio_tungstenite::tungstenite::{Error, Message, Utf8Bytes};

pub use socket::WebSocket;
pub use stall::WatchedIo;

/// The default maximum size of a message (and of a frame): 1 MiB.
pub const DEFAULT_MAX_MESSAGE: usize = 1 << 20;

/// The default time a peer may take none of what is written to it before the connection is
/// failed: 30 s.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// What tungstenite gathers before writing to the connection (its default, 128 KiB); the
/// default write buffer limit is the maximum message plus this, so a route can always send back
/// a message as large as the largest it accepts.
const WRITE_BUFFER: usize = 128 << 10;

/// A route argument: the request is a WebSocket handshake, to be accepted with
/// [`on_upgrade`](WebSocketUpgrade::on_upgrade).
///
/// ```
/// use ferrapi::prelude::*;
/// use ferrapi::ws::{Message, WebSocketUpgrade};
///
/// #[get("/echo")]
/// async fn echo(ws: WebSocketUpgrade) -> Response {
///     ws.on_upgrade(|mut socket| async move {
///         while let Some(Ok(message)) = socket.recv().await {
///             if matches!(message, Message::Text(_) | Message::Binary(_))
///                 && socket.send(message).await.is_err()
///             {
///                 break;
///             }
///         }
///     })
/// }
/// ```
#[derive(Debug, Clone)]
pub struct WebSocketUpgrade {
    accept: HeaderValue,
    on_upgrade: OnUpgrade,
    max_message: usize,
    /// `None`: the maximum message plus [`WRITE_BUFFER`], following `max_message_size`.
    max_write_buffer: Option<usize>,
    write_timeout: Duration,
}

impl WebSocketUpgrade {
    /// Refuse messages (and frames) larger than `bytes` with close code 1009 (default 1 MiB).
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.max_message = bytes;
        self
    }

    /// Hold at most `bytes` waiting to be written to the peer (default: the maximum message
    /// size plus 128 KiB, so a route can send back a message as large as it accepts). A message
    /// larger than this cannot be sent ([`WebSocket::send`] returns [`Error::WriteBufferFull`]);
    /// a peer that sends more than this while taking none of what is written to it is cut off
    /// (`send` and `recv` return an I/O error of kind `ConnectionAborted`).
    /// Under 256 KiB, the buffer gathered before a write shrinks to half of it.
    pub fn max_write_buffer_size(mut self, bytes: usize) -> Self {
        self.max_write_buffer = Some(bytes);
        self
    }

    /// Fail the connection when the peer takes none of what is written to it for `timeout`
    /// (default 30 s): [`WebSocket::send`] and [`WebSocket::recv`] then return an I/O error of
    /// kind `TimedOut`, and the connection closes when the route drops the socket. The server's
    /// own [`Config::write_timeout`](crate::Config::write_timeout) (default 10 s) still applies
    /// to the upgraded connection's socket: whichever is shorter cuts first.
    pub fn write_timeout(mut self, timeout: Duration) -> Self {
        self.write_timeout = timeout;
        self
    }

    /// Accept the handshake: the answer is 101, and `callback` runs on the connection once the
    /// server has switched protocols (in a task of its own; the connection closes when it
    /// returns and the socket is dropped).
    pub fn on_upgrade<F, Fut>(self, callback: F) -> Response
    where
        F: FnOnce(WebSocket) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (config, limit) = tungstenite_config(self.max_message, self.max_write_buffer);
        let WebSocketUpgrade {
            accept,
            on_upgrade,
            write_timeout,
            ..
        } = self;
        tokio::spawn(async move {
            let upgraded = match on_upgrade.await {
                Ok(upgraded) => upgraded,
                Err(error) => {
                    tracing::debug!(error = %error, "WebSocket upgrade failed");
                    return;
                }
            };
            // The peer may send as much as the write buffer holds while taking nothing of it.
            let io = WatchedIo::new(TokioIo::new(upgraded), write_timeout, limit);
            let stream = WebSocketStream::from_raw_socket(io, Role::Server, Some(config)).await;
            callback(WebSocket::new(stream)).await;
        });
        let mut response = hyper::Response::new(Body::empty());
        *response.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
        let headers = response.headers_mut();
        headers.insert(CONNECTION, HeaderValue::from_static("upgrade"));
        headers.insert(UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(SEC_WEBSOCKET_ACCEPT, accept);
        response
    }
}

/// tungstenite's configuration and the write buffer limit, always valid (tungstenite panics on a
/// limit not above the size it gathers before writing). `max_write_buffer`: see
/// [`WebSocketUpgrade::max_write_buffer_size`].
fn tungstenite_config(max_message: usize, max_write_buffer: Option<usize>) -> (WebSocketConfig, usize) {
    let limit = max_write_buffer
        .unwrap_or(max_message.saturating_add(WRITE_BUFFER))
        .max(1);
    let config = WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
        .write_buffer_size(WRITE_BUFFER.min(limit / 2))
        .max_write_buffer_size(limit);
    (config, limit)
}

/// Why a request is not a WebSocket handshake.
#[derive(Debug, Clone, Copy)]
pub enum Refusal {
    /// Not an upgrade to WebSocket at all (or not a `GET`).
    NotUpgrade,
    /// A WebSocket version other than 13.
    Version,
    /// No `Sec-WebSocket-Key`.
    NoKey,
    /// The connection cannot be upgraded (an HTTP/2 request).
    NotUpgradable,
}

fn has_token(cx: &RequestCx<'_>, name: hyper::header::HeaderName, token: &str) -> bool {
    cx.headers().get_all(name).iter().any(|value| {
        value
            .to_str()
            .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
    })
}

// Not recommended: kept out of the argument kinds a compile error lists (the common kinds').
#[diagnostic::do_not_recommend]
impl Dependency for WebSocketUpgrade {
    fn extract(cx: &RequestCx<'_>, _errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
        let parts = cx.parts();
        if parts.method != Method::GET
            || !has_token(cx, CONNECTION, "upgrade")
            || !has_token(cx, UPGRADE, "websocket")
        {
            return Some(Err(Refusal::NotUpgrade));
        }
        // Each must be sent once (RFC 6455 §4.2.1): a repeated one is refused as a wrong one.
        if sole_field(cx.headers(), SEC_WEBSOCKET_VERSION).map(HeaderValue::as_bytes) != Some(b"13") {
            return Some(Err(Refusal::Version));
        }
        let Some(key) = sole_field(cx.headers(), SEC_WEBSOCKET_KEY) else {
            return Some(Err(Refusal::NoKey));
        };
        let Some(on_upgrade) = parts.extensions.get::<OnUpgrade>() else {
            return Some(Err(Refusal::NotUpgradable));
        };
        let accept = derive_accept_key(key.as_bytes());
        let Ok(accept) = HeaderValue::try_from(accept) else {
            return Some(Err(Refusal::NoKey));
        };
        Some(Ok(WebSocketUpgrade {
            accept,
            on_upgrade: on_upgrade.clone(),
            max_message: DEFAULT_MAX_MESSAGE,
            max_write_buffer: None,
            write_timeout: DEFAULT_WRITE_TIMEOUT,
        }))
    }

    fn doc(op: &mut Operation, _registry: &mut SchemaRegistry) {
        op.extension("x-websocket", json!(true));
        op.dependency_response(101, "Switching Protocols: the WebSocket connection");
        op.dependency_response(426, "Upgrade Required: the request is not a WebSocket handshake");
    }
}

/// The handshake read, or why it is refused: answered at once.
impl Resolve<WebSocketUpgrade> for Result<WebSocketUpgrade, Refusal> {
    async fn resolve(self, _deps: &mut Deps) -> Result<WebSocketUpgrade, Response> {
        self.map_err(refused)
    }
}

/// The answer to a request that is not a WebSocket handshake.
#[cold]
fn refused(refusal: Refusal) -> Response {
    let (status, detail) = match refusal {
        Refusal::NotUpgrade => (
            StatusCode::UPGRADE_REQUIRED,
            "This route is a WebSocket: upgrade to websocket",
        ),
        Refusal::Version => (
            StatusCode::UPGRADE_REQUIRED,
            "Unsupported WebSocket version: 13 is supported",
        ),
        Refusal::NoKey => (StatusCode::BAD_REQUEST, "Missing or invalid Sec-WebSocket-Key"),
        Refusal::NotUpgradable => (
            StatusCode::UPGRADE_REQUIRED,
            "WebSocket needs an HTTP/1.1 connection",
        ),
    };
    let mut response = error_response(status, &json!(detail));
    if status == StatusCode::UPGRADE_REQUIRED {
        let headers = response.headers_mut();
        headers.insert(UPGRADE, HeaderValue::from_static("websocket"));
        headers.insert(SEC_WEBSOCKET_VERSION, HeaderValue::from_static("13"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn any_limits_make_a_configuration_tungstenite_accepts() {
        for (max_message, max_write_buffer) in [
            (0, Some(0)),
            (0, Some(1)),
            (1024, Some(2)),
            (1024, None),
            (usize::MAX, None),
            (1024, Some(usize::MAX)),
        ] {
            let (config, limit) = tungstenite_config(max_message, max_write_buffer);
            assert_eq!(config.max_write_buffer_size, limit);
            // tungstenite panics here on a configuration it refuses.
            let (ours, _peer) = tokio::io::duplex(64);
            WebSocketStream::from_raw_socket(ours, Role::Server, Some(config)).await;
        }
        let (config, limit) = tungstenite_config(DEFAULT_MAX_MESSAGE, None);
        assert_eq!(limit, DEFAULT_MAX_MESSAGE + (128 << 10));
        assert_eq!(config.write_buffer_size, 128 << 10);
    }
}
