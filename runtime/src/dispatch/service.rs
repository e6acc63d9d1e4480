//! The compiled app: what `App::build` produces and the server serves.
//!
//! Rules enforced here: the app is compiled once and shared (an `Arc`), so a clone per connection
//! costs one reference count; answering a request in-process goes through exactly the path a
//! request read from a socket takes.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::Request;

use super::HandleFuture;
use crate::config::Config;
use crate::extract::StateMap;
use crate::openapi::DocsRoutes;
use crate::response::Response;
use crate::routing::{RouteDef, RouteInfo, Router};

/// Everything a request needs of the app, built once by `App::build` and shared by every
/// connection.
pub(crate) struct Compiled {
    pub(crate) routes: Vec<RouteDef>,
    pub(crate) router: Router,
    pub(crate) state: StateMap,
    pub(crate) config: Config,
    pub(crate) openapi_json: Bytes,
    pub(crate) docs: DocsRoutes,
    pub(crate) route_table: Vec<RouteInfo>,
}

/// A compiled app: answers requests in-process (`handle`) or over HTTP (see `Server`).
#[derive(Clone)]
pub struct Service {
    inner: Arc<Compiled>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("routes", &self.inner.routes.len())
            .finish_non_exhaustive()
    }
}

impl Service {
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The route table with shadowed routes marked.
    pub fn route_table(&self) -> &[RouteInfo] {
        &self.inner.route_table
    }

    /// The serialized OpenAPI document.
    pub fn openapi_json(&self) -> &Bytes {
        &self.inner.openapi_json
    }

    /// Answer one request in-process, as the server would (routing, extraction, the handler, the
    /// error answers), without a socket.
    pub fn handle<B>(&self, request: Request<B>) -> impl Future<Output = Response>
    where
        B: hyper::body::Body + Unpin,
        B::Error: std::fmt::Display,
    {
        self.dispatch(request)
    }

    /// [`Service::handle`], with the future's type named for the server.
    pub(crate) fn dispatch<B>(&self, request: Request<B>) -> HandleFuture<B>
    where
        B: hyper::body::Body + Unpin,
        B::Error: std::fmt::Display,
    {
        super::start(&self.inner, request)
    }

    /// Wrap the compiled app.
    pub(crate) fn new(compiled: Compiled) -> Self {
        Service {
            inner: Arc::new(compiled),
        }
    }
}

impl<B> hyper::service::Service<Request<B>> for Service
where
    B: hyper::body::Body + Unpin,
    B::Error: std::fmt::Display,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ServiceFuture<B>;

    fn call(&self, request: Request<B>) -> Self::Future {
        ServiceFuture(self.dispatch(request))
    }
}

/// The future hyper awaits for one request: the answer, as a `Result` that cannot fail.
pub struct ServiceFuture<B>(HandleFuture<B>);

impl<B> Future for ServiceFuture<B>
where
    B: hyper::body::Body + Unpin,
    B::Error: std::fmt::Display,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.get_mut().0).poll(cx).map(Ok)
    }
}
