//! The compiled app as a [`Service`]: what `App::build` produces and the server serves, and a
//! `tower::Service` (and a hyper one) that can be nested in, or wrapped by, other stacks.
//!
//! Rules enforced here: the app is compiled once ([`Compiled`], the pipeline's own data, in
//! `mod.rs`) and shared (an `Arc`), so a clone per connection costs one reference count (and one
//! clone of the layer stack, when there is one); answering a request in-process, as a service,
//! or from a socket goes through exactly one path ([`dispatch`]).

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::Request;

use super::innermost::stacks;
use super::{
    dispatch, Compiled, Endpoint, LayerFn, RequestId, ResponseFuture, ServiceFuture, X_REQUEST_ID_NAME,
};
use crate::body::{Handed, Look, Unhanded};
use crate::config::Config;
use crate::response::{BoxError, Response};
use crate::routing::RouteInfo;

/// A compiled app: answers requests in-process ([`Service::handle`]), over HTTP (see
/// [`Server`](crate::Server)), or as a `tower::Service` inside another stack.
#[derive(Clone)]
pub struct Service {
    inner: Arc<Compiled>,
    /// The app's layers around its routes; `None` without layers.
    stack: Option<Endpoint>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("routes", &self.inner.targets.len())
            .field("layered", &self.stack.is_some())
            .finish_non_exhaustive()
    }
}

impl Service {
    /// The compiled app, its routes' stacks built and inside its own of `layers` (when it has
    /// any).
    pub(crate) fn new(compiled: Compiled, layers: &[LayerFn]) -> Self {
        let (inner, stack) = stacks(compiled, layers);
        Service { inner, stack }
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The memory budget its requests and responses are charged against, when it has one.
    pub(crate) fn budget(&self) -> Option<&Arc<crate::budget::MemoryBudget>> {
        self.inner.budget.as_ref()
    }

    /// The route table with shadowed routes marked.
    pub fn route_table(&self) -> &[RouteInfo] {
        &self.inner.route_table
    }

    /// The serialized OpenAPI document (in an app with versions, the default version's).
    pub fn openapi_json(&self) -> &Bytes {
        &self.inner.openapi_json
    }

    /// The serialized OpenAPI document of version `date` (what `GET /openapi/{date}.json`
    /// answers), for a test comparing each version's with its committed copy; `None` for a date
    /// the app does not serve, and in an app without versions.
    pub fn version_document(&self, date: &str) -> Option<&Bytes> {
        let documents = &self.inner.version_documents;
        documents
            .iter()
            .find(|(served, _)| *served == date)
            .map(|(_, bytes)| bytes)
    }

    /// Every served version's document, oldest first: its date, whether it is released (false
    /// for the unreleased one), and its bytes (what `GET /openapi/{date}.json` answers). Empty in
    /// an app without versions. For a test checking each released version against its
    /// committed copy (`ferrapi_client_gen::compat::Blessed::check_versions` takes these).
    pub fn version_documents(&self) -> impl Iterator<Item = (&'static str, bool, &Bytes)> + '_ {
        let set = self.inner.versions.as_deref();
        self.inner
            .version_documents
            .iter()
            .enumerate()
            .map(move |(index, (date, bytes))| {
                let released = u8::try_from(index)
                    .ok()
                    .and_then(|index| set?.get(index))
                    .is_some_and(|(_, released)| released);
                (*date, released, bytes)
            })
    }

    /// Answer one request in-process, as the server would (routing, the layers, extraction, the
    /// handler, the error answers), without a socket.
    pub fn handle<B>(&self, request: Request<B>) -> impl Future<Output = Response>
    where
        B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
        B::Error: Into<BoxError>,
    {
        self.start(request)
    }

    /// Complete the answer to a request the server refused for overload (`response`, a 503): it
    /// is counted, and carries the request's id.
    #[cold]
    pub(crate) fn refused<B>(&self, request: &Request<B>, response: &mut Response) {
        if let Some(metrics) = &self.inner.metrics {
            metrics.rejected();
        }
        if self.inner.config.request_ids {
            let id = RequestId::of(request.headers());
            tracing::debug!(
                request_id = id.as_str(),
                "concurrency limit reached; answering 503"
            );
            response.headers_mut().insert(X_REQUEST_ID_NAME, id.into_header());
        }
    }

    /// Count a request the server refused, or a connection or stream it cut, in the app's
    /// metrics (when it has them).
    #[cold]
    pub(crate) fn count_refusal(&self, reason: crate::metrics::Refusal) {
        if let Some(metrics) = &self.inner.metrics {
            metrics.refused(reason);
        }
    }

    /// Start answering `request`, which no server handed over: the one entry of the per-request
    /// path but the server's.
    #[inline]
    pub(crate) fn start<B>(&self, request: Request<B>) -> ResponseFuture<Unhanded<B>>
    where
        B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
        B::Error: Into<BoxError>,
    {
        let (mut parts, body) = request.into_parts();
        self.start_parts(&mut parts, Unhanded(body), Handed::default())
    }

    /// [`Service::start`] of a request taken apart (the server hands over the head and the body
    /// it wrapped, without a `Request` rebuilt around them), with what the server `handed` over
    /// with its body (`body/handed.rs`). The head is lent (see `dispatch`).
    #[inline]
    pub(crate) fn start_parts<B>(
        &self,
        parts: &mut hyper::http::request::Parts,
        body: B,
        handed: Handed<'_>,
    ) -> ResponseFuture<B>
    where
        B: hyper::body::Body<Data = Bytes> + Look + Send + Unpin + 'static,
        B::Error: Into<BoxError>,
    {
        dispatch(&self.inner, self.stack.as_ref(), parts, (body, handed))
    }
}

impl<B> tower::Service<Request<B>> for Service
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ServiceFuture<B>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        ServiceFuture(self.start(request))
    }
}

impl<B> hyper::service::Service<Request<B>> for Service
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = ServiceFuture<B>;

    fn call(&self, request: Request<B>) -> Self::Future {
        ServiceFuture(self.start(request))
    }
}
