//! What a `tower` layer wraps: [`Endpoint`], the app's routes as one `tower::Service`, and the
//! conversion of a layered service back into one.
//!
//! Rules enforced here:
//! - an endpoint takes a request of any body of `Bytes` (a layer may wrap the body, as
//!   `RequestBodyLimitLayer` does) and answers [`Response`]s; it never fails (`Infallible`);
//! - a layer's response body, whatever its type, becomes a [`Body`] (boxed once);
//! - a layer's error becomes a response, never a dropped connection: tower's `Elapsed`
//!   (`tower::timeout`) is 408 `{"detail": "Request Timeout"}`, tower's `Overloaded`
//!   (`tower::load_shed`) is 503 `{"detail": "Service Unavailable"}` with `Retry-After: 1`, and
//!   any other error is logged and answered 500 `{"detail": "Internal Server Error"}` (or the
//!   app's 500, `App::on_internal_error`).

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::header::{HeaderValue, RETRY_AFTER};
use hyper::{Request, StatusCode};
use serde_json::json;
use tower::util::BoxCloneSyncService;
use tower::{Layer, Service};

use crate::response::{error_response, internal_answer, Body, BoxError, InternalAnswer, Response};

/// The future of an [`Endpoint`].
pub type EndpointFuture = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

/// A layer, kept by the app until it is built: wraps an endpoint in itself.
pub(crate) type LayerFn = std::sync::Arc<dyn Fn(Endpoint) -> Endpoint + Send + Sync>;

/// The routes of an app as a `tower::Service`: what [`App::layer`](crate::App::layer) wraps.
/// Layers receive it, wrap it, and the app turns the result back into an `Endpoint`; a route
/// author does not make one.
#[derive(Clone)]
pub struct Endpoint {
    service: BoxCloneSyncService<Request<Body>, Response, Infallible>,
    /// The app's 500, for the errors of the layers wrapped around this endpoint.
    internal: Option<InternalAnswer>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Endpoint")
    }
}

impl Endpoint {
    /// The endpoint of a service that answers every request itself; the errors of layers around
    /// it are answered with `internal` when the app has it (else FastAPI's 500).
    pub(crate) fn new<S>(service: S, internal: Option<InternalAnswer>) -> Self
    where
        S: Service<Request<Body>, Response = Response, Error = Infallible> + Clone + Send + Sync + 'static,
        S::Future: Send + 'static,
    {
        Endpoint {
            service: BoxCloneSyncService::new(service),
            internal,
        }
    }

    /// This endpoint wrapped in `layer`, as an endpoint again.
    pub(crate) fn layered<L, ResBody>(self, layer: &L) -> Self
    where
        L: Layer<Endpoint>,
        L::Service:
            Service<Request<Body>, Response = hyper::Response<ResBody>> + Clone + Send + Sync + 'static,
        <L::Service as Service<Request<Body>>>::Error: Into<BoxError>,
        <L::Service as Service<Request<Body>>>::Future: Send + 'static,
        ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
        ResBody::Error: Into<BoxError>,
    {
        let internal = self.internal.clone();
        Endpoint {
            service: BoxCloneSyncService::new(ErrorsAnswered {
                inner: layer.layer(self),
                not_ready: None,
                internal: internal.clone(),
            }),
            internal,
        }
    }
}

/// A layered service whose errors and bodies are made into [`Response`]s. An error of
/// `poll_ready` (a layer that cannot take the request) is kept and answered by the next `call`.
struct ErrorsAnswered<S> {
    inner: S,
    not_ready: Option<BoxError>,
    internal: Option<InternalAnswer>,
}

impl<S: Clone> Clone for ErrorsAnswered<S> {
    fn clone(&self) -> Self {
        ErrorsAnswered {
            inner: self.inner.clone(),
            not_ready: None,
            internal: self.internal.clone(),
        }
    }
}

impl<S, ResBody> Service<Request<Body>> for ErrorsAnswered<S>
where
    S: Service<Request<Body>, Response = hyper::Response<ResBody>>,
    S::Error: Into<BoxError>,
    S::Future: Send + 'static,
    ResBody: hyper::body::Body<Data = Bytes> + Send + 'static,
    ResBody::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = EndpointFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        match self.inner.poll_ready(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Ok(())) => Poll::Ready(Ok(())),
            Poll::Ready(Err(error)) => {
                self.not_ready = Some(error.into());
                Poll::Ready(Ok(()))
            }
        }
    }

    fn call(&mut self, request: Request<Body>) -> EndpointFuture {
        if let Some(error) = self.not_ready.take() {
            let response = layer_error(error, self.internal.as_ref());
            return Box::pin(async move { Ok(response) });
        }
        let future = self.inner.call(request);
        let internal = self.internal.clone();
        Box::pin(async move {
            Ok(match future.await {
                Ok(response) => response.map(Body::new),
                Err(error) => layer_error(error.into(), internal.as_ref()),
            })
        })
    }
}

impl<B> Service<Request<B>> for Endpoint
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = EndpointFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.service.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> EndpointFuture {
        self.service.call(request.map(Body::new))
    }
}

/// The answer to a layer's error (see the module rules); `internal` is the app's 500.
#[cold]
pub(crate) fn layer_error(error: BoxError, internal: Option<&InternalAnswer>) -> Response {
    if error.is::<tower::timeout::error::Elapsed>() {
        return error_response(StatusCode::REQUEST_TIMEOUT, &json!("Request Timeout"));
    }
    if error.is::<tower::load_shed::error::Overloaded>() {
        let mut response = error_response(StatusCode::SERVICE_UNAVAILABLE, &json!("Service Unavailable"));
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    }
    tracing::error!(error = %error, "a layer failed; answering 500");
    internal_answer(internal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_errors_become_responses() {
        let timeout: BoxError = Box::new(tower::timeout::error::Elapsed::new());
        assert_eq!(layer_error(timeout, None).status(), StatusCode::REQUEST_TIMEOUT);
        let overloaded: BoxError = Box::new(tower::load_shed::error::Overloaded::new());
        let response = layer_error(overloaded, None);
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[RETRY_AFTER], "1");
        let other: BoxError = "broken".into();
        assert_eq!(
            layer_error(other, None).status(),
            StatusCode::INTERNAL_SERVER_ERROR
        );
    }
}
