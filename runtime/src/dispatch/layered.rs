//! The request path of an app with layers (`App::layer`): route, then the layer stack around the
//! routes.
//!
//! Rules enforced here:
//! - an app without layers never comes here: the server serves it by the direct path of
//!   `mod.rs`, unchanged, so a layer costs nothing to an app that has none;
//! - the route is matched before the layers run, so a layer sees which route answers: the
//!   [`MatchedRoute`] request extension (its path template and name) is set for a request that
//!   matched a route; the routing outcome travels to the innermost service ([`Routes`]) as a
//!   private extension, so the route is looked up once;
//! - every request goes through the layers, also the answers that are not routes' (404, 405, the
//!   OpenAPI document and the docs pages), so a CORS or compression layer applies to them too;
//! - a layer that rewrites the request's path does not change which route answers (the route is
//!   already matched); to rewrite paths, wrap the whole [`Service`](crate::Service) instead;
//! - the request is observed (its id, span, access line and metrics) around the layers, so the
//!   layers run in the request (its span, or its id's context) and the id, the access line and the latency cover their
//!   work too; a HEAD answer's body is dropped after them, as on the direct path;
//! - the metrics endpoint (`App::metrics`) is answered by the innermost service, so the layers
//!   (an access check, say) apply to it as to any route.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::header::HeaderValue;
use hyper::{Method, Request};
use tower::util::Oneshot;
use tower::ServiceExt;

use super::{access_log_on, finish, start_routed, Compiled, Endpoint, HandleFuture, Observed};
use crate::extract::PathParams;
use crate::metrics::RouteKey;
use crate::response::{internal_answer, internal_error, Body, BoxError, InternalAnswer, Response};
use crate::routing::Lookup;

/// The route a request matched, as a request extension: what a layer (metrics, access control,
/// tracing) can read of it with `request.extensions().get::<MatchedRoute>()`. Set only for
/// requests that matched a route, and only in apps with layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedRoute {
    path: Arc<str>,
    name: &'static str,
}

impl MatchedRoute {
    pub(crate) fn new(path: String, name: &'static str) -> Self {
        MatchedRoute {
            path: path.into(),
            name,
        }
    }

    /// The route's path template, as in the OpenAPI document (`/item/{id}`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The route's function name (its OpenAPI `operationId`).
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// What routing found, handed to [`Routes`] with the request.
#[derive(Debug, Clone)]
pub(crate) enum Routed {
    Route { index: usize, params: PathParams },
    Docs,
    Metrics,
    NotFound,
    MethodNotAllowed(HeaderValue),
}

/// The innermost service of the layer stack: answers a routed request.
#[derive(Clone)]
pub(crate) struct Routes(pub(crate) Arc<Compiled>);

impl tower::Service<Request<Body>> for Routes {
    type Response = Response;
    type Error = Infallible;
    type Future = RoutesFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: Request<Body>) -> RoutesFuture {
        let routed = request.extensions_mut().remove::<Routed>();
        match routed {
            Some(routed) => RoutesFuture::Routed(start_routed(&self.0, request, routed)),
            // Only the layered path calls this, and it always sets `Routed`; a layer that made a
            // new request without the extensions gets an answer, not a hang.
            None => RoutesFuture::Lost(Some(lost_routing(self.0.state.answers().internal.as_ref()))),
        }
    }
}

/// The future of [`Routes`].
pub(crate) enum RoutesFuture {
    Routed(HandleFuture<Body>),
    /// The 500 of a request that lost its routing; `None` once handed out.
    Lost(Option<Response>),
}

impl Future for RoutesFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            RoutesFuture::Routed(future) => Pin::new(future).poll(cx).map(Ok),
            RoutesFuture::Lost(answer) => Poll::Ready(Ok(answer.take().unwrap_or_else(internal_error))),
        }
    }
}

#[cold]
pub(super) fn lost_routing(internal: Option<&InternalAnswer>) -> Response {
    tracing::error!("a layer passed on a request without its routing information; answering 500");
    internal_answer(internal)
}

/// Start answering `request` through `stack`.
pub(crate) fn start_layered<B>(inner: &Arc<Compiled>, stack: &Endpoint, request: Request<B>) -> LayeredFuture
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let is_head = request.method() == Method::HEAD;
    let log = access_log_on();
    let mut observed = (log || inner.observe).then(|| Observed::begin(inner, &request, log));
    let (mut parts, body) = request.into_parts();
    let path = parts.uri.path();
    let routed = if inner.metrics.as_ref().is_some_and(|m| m.owns(path)) {
        if let Some(observed) = &mut observed {
            observed.routed(RouteKey::Endpoint);
        }
        Routed::Metrics
    } else if inner.docs.owns(path) {
        if let Some(observed) = &mut observed {
            observed.docs(path);
        }
        Routed::Docs
    } else {
        let routed = match inner.router.lookup(&parts.method, path) {
            Lookup::Found { route, params } => {
                if let Some(matched) = inner.matched.get(route) {
                    parts.extensions.insert(matched.clone());
                }
                Routed::Route { index: route, params }
            }
            Lookup::NotFound => Routed::NotFound,
            Lookup::MethodNotAllowed(allow) => Routed::MethodNotAllowed(allow),
        };
        if let Some(observed) = &mut observed {
            match &routed {
                Routed::Route { index, .. } => observed.routed(RouteKey::Route(*index)),
                _ => observed.routed(RouteKey::Unmatched),
            }
        }
        routed
    };
    parts.extensions.insert(routed);
    let request = Request::from_parts(parts, Body::new(body));
    // The layers' `call` runs in the request too.
    let entered = observed.as_ref().and_then(|o| o.enter());
    let future = stack.clone().oneshot(request);
    drop(entered);
    LayeredFuture {
        future,
        observed,
        is_head,
    }
}

/// The future of a request answered through the layer stack.
pub(crate) struct LayeredFuture {
    future: Oneshot<Endpoint, Request<Body>>,
    observed: Option<Box<Observed>>,
    is_head: bool,
}

impl Future for LayeredFuture {
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = self.get_mut();
        let entered = this.observed.as_ref().and_then(|o| o.enter());
        let mut response = match Pin::new(&mut this.future).poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(response)) => response,
            Poll::Ready(Err(never)) => match never {},
        };
        drop(entered);
        finish(&mut this.observed, this.is_head, &mut response);
        Poll::Ready(response)
    }
}
