//! WebSocket routes: the route argument [`WebSocketUpgrade`] and the connection it gives,
//! [`WebSocket`], over tokio-tungstenite.
//!
//! Rules enforced here:
//! - the upgrade is an argument, a dependency: a route takes it beside its path and query
//!   parameters and its other dependencies, so they are all checked before anything is upgraded
//!   (an invalid parameter is the usual 422, a failed authentication its 401; the connection
//!   stays HTTP) and the route answers 101 only by calling [`WebSocketUpgrade::on_upgrade`];
//! - a request that is not a WebSocket handshake (RFC 6455 §4.2.1: `GET`, `Connection: upgrade`,
//!   `Upgrade: websocket`, `Sec-WebSocket-Version: 13`, a `Sec-WebSocket-Key`) is answered 426
//!   (with `Upgrade: websocket` / `Sec-WebSocket-Version: 13`) or, with no key, 400;
//! - messages larger than the maximum ([`WebSocketUpgrade::max_message_size`], 1 MiB by default)
//!   are refused as they arrive, and the connection is closed with 1009 (message too big);
//! - pings are answered with pongs by tungstenite, closes with a close;
//! - the route's operation in the OpenAPI document carries `x-websocket: true` and documents
//!   101 and 426.

use std::future::Future;

use futures_util::{SinkExt, StreamExt};
use hyper::header::{
    HeaderValue, CONNECTION, SEC_WEBSOCKET_ACCEPT, SEC_WEBSOCKET_KEY, SEC_WEBSOCKET_VERSION, UPGRADE,
};
use hyper::upgrade::{OnUpgrade, Upgraded};
use hyper::{Method, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::json;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::WebSocketStream;

use crate::extract::{Arg, Deps, Param, RequestCx, Source};
use crate::openapi::Operation;
use crate::response::{error_response, Body, Response};
use crate::validate::{SchemaRegistry, ValidationErrors};

pub use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
pub use tokio_tungstenite::tungstenite::protocol::CloseFrame;
pub use tokio_tungstenite::tungstenite::{Error, Message, Utf8Bytes};

/// The default maximum size of a message (and of a frame): 1 MiB.
pub const DEFAULT_MAX_MESSAGE: usize = 1 << 20;

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
    config: WebSocketConfig,
}

impl WebSocketUpgrade {
    /// Refuse messages (and frames) larger than `bytes` with close code 1009 (default 1 MiB).
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.config = self
            .config
            .max_message_size(Some(bytes))
            .max_frame_size(Some(bytes));
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
        let WebSocketUpgrade {
            accept,
            on_upgrade,
            config,
        } = self;
        tokio::spawn(async move {
            let upgraded = match on_upgrade.await {
                Ok(upgraded) => upgraded,
                Err(error) => {
                    tracing::debug!(error = %error, "WebSocket upgrade failed");
                    return;
                }
            };
            let stream =
                WebSocketStream::from_raw_socket(TokioIo::new(upgraded), Role::Server, Some(config)).await;
            callback(WebSocket { inner: stream }).await;
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
impl Arg for WebSocketUpgrade {
    const SOURCE: Source = Source::Dependency;
    type Input = Result<WebSocketUpgrade, Refusal>;

    fn extract(
        cx: &RequestCx<'_>,
        _param: Param<Self>,
        _errors: &mut ValidationErrors,
    ) -> Option<Self::Input> {
        let parts = cx.parts();
        if parts.method != Method::GET
            || !has_token(cx, CONNECTION, "upgrade")
            || !has_token(cx, UPGRADE, "websocket")
        {
            return Some(Err(Refusal::NotUpgrade));
        }
        if cx.headers().get(SEC_WEBSOCKET_VERSION).map(HeaderValue::as_bytes) != Some(b"13") {
            return Some(Err(Refusal::Version));
        }
        let Some(key) = cx.headers().get(SEC_WEBSOCKET_KEY) else {
            return Some(Err(Refusal::NoKey));
        };
        let Some(on_upgrade) = parts.extensions.get::<OnUpgrade>() else {
            return Some(Err(Refusal::NotUpgradable));
        };
        let accept = derive_accept_key(key.as_bytes());
        let Ok(accept) = HeaderValue::try_from(accept) else {
            return Some(Err(Refusal::NoKey));
        };
        let config = WebSocketConfig::default()
            .max_message_size(Some(DEFAULT_MAX_MESSAGE))
            .max_frame_size(Some(DEFAULT_MAX_MESSAGE));
        Some(Ok(WebSocketUpgrade {
            accept,
            on_upgrade: on_upgrade.clone(),
            config,
        }))
    }

    fn resolve(input: Self::Input, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        std::future::ready(input.map_err(refused))
    }

    fn doc(_param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        op.extension("x-websocket", json!(true));
        op.dependency_response(101, "Switching Protocols: the WebSocket connection");
        op.dependency_response(426, "Upgrade Required: the request is not a WebSocket handshake");
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

/// An accepted WebSocket connection: [`recv`](WebSocket::recv) and [`send`](WebSocket::send)
/// messages; dropping it closes the connection.
#[derive(Debug)]
pub struct WebSocket {
    inner: WebSocketStream<TokioIo<Upgraded>>,
}

impl WebSocket {
    /// The next message (pings are answered on the way), `None` once the connection is closed.
    /// A message over the maximum size is an error, after which the connection has been closed
    /// with 1009. Cancel-safe: usable in `tokio::select!`.
    pub async fn recv(&mut self) -> Option<Result<Message, Error>> {
        match self.inner.next().await {
            Some(Err(Error::Capacity(error))) => {
                tracing::debug!(error = %error, "WebSocket message over the limit; closing with 1009");
                let frame = CloseFrame {
                    code: CloseCode::Size,
                    reason: Utf8Bytes::from_static("message too big"),
                };
                let _ = self.inner.close(Some(frame)).await;
                Some(Err(Error::Capacity(error)))
            }
            other => other,
        }
    }

    /// Send `message` (and flush it).
    pub async fn send(&mut self, message: Message) -> Result<(), Error> {
        self.inner.send(message).await
    }

    /// Close the connection with `code` and `reason`, and wait for it to be sent.
    pub async fn close(mut self, code: CloseCode, reason: &str) -> Result<(), Error> {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from(reason),
        };
        self.inner.close(Some(frame)).await
    }

    /// The tokio-tungstenite stream (a `Stream` and a `Sink` of messages), e.g. to split it.
    pub fn into_inner(self) -> WebSocketStream<TokioIo<Upgraded>> {
        self.inner
    }
}
