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
//! - the request line is logged and a HEAD answer's body dropped after the layers, as on the
//!   direct path.

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

use super::{finish, start_routed, Compiled, Endpoint, HandleFuture, LogLine};
use crate::extract::PathParams;
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
pub(crate) fn start_layered<B>(inner: &Compiled, stack: &Endpoint, request: Request<B>) -> LayeredFuture
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    let is_head = request.method() == Method::HEAD;
    let log = tracing::enabled!(tracing::Level::INFO).then(|| LogLine::new(&request));
    let (mut parts, body) = request.into_parts();
    let path = parts.uri.path();
    let routed = if inner.docs.owns(path) {
        Routed::Docs
    } else {
        match inner.router.lookup(&parts.method, path) {
            Lookup::Found { route, params } => {
                if let Some(matched) = inner.matched.get(route) {
                    parts.extensions.insert(matched.clone());
                }
                Routed::Route { index: route, params }
            }
            Lookup::NotFound => Routed::NotFound,
            Lookup::MethodNotAllowed(allow) => Routed::MethodNotAllowed(allow),
        }
    };
    parts.extensions.insert(routed);
    let request = Request::from_parts(parts, Body::new(body));
    LayeredFuture {
        future: stack.clone().oneshot(request),
        log,
        is_head,
    }
}

/// The future of a request answered through the layer stack.
pub(crate) struct LayeredFuture {
    future: Oneshot<Endpoint, Request<Body>>,
    log: Option<Box<LogLine>>,
    is_head: bool,
}

impl Future for LayeredFuture {
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = self.get_mut();
        let mut response = match Pin::new(&mut this.future).poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Ok(response)) => response,
            Poll::Ready(Err(never)) => match never {},
        };
        finish(&mut this.log, this.is_head, &mut response);
        Poll::Ready(response)
    }
}
