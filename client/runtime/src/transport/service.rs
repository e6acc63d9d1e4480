//! Any `tower::Service` as a transport: an app answered in-process, without a socket (ferrapi's
//! `Service`, axum's `Router`, a test double).
//!
//! Rules enforced here: each request gets its own clone of the service (as a server gives each
//! connection one), readied before it is called; the service's error is a
//! [`ErrorKind::Transport`](crate::ErrorKind::Transport), since the request reached it.

use std::future::poll_fn;

use bytes::Bytes;
use hyper::{Request, Response};
use tower_service::Service;

use super::{BoxFuture, Transport};
use crate::body::{RequestBody, ResponseBody};
use crate::error::{BoxError, Error, ErrorKind};

/// A `tower::Service` answering requests in-process.
///
/// ```
/// use std::convert::Infallible;
/// use std::future::{ready, Ready};
/// use std::task::{Context, Poll};
///
/// use bytes::Bytes;
/// use ferrapi_client::{Client, RequestBody, ServiceTransport};
/// use http_body_util::Full;
///
/// /// Answers every request with `{"message": "hi"}`.
/// #[derive(Clone)]
/// struct Hi;
///
/// impl tower_service::Service<hyper::Request<RequestBody>> for Hi {
///     type Response = hyper::Response<Full<Bytes>>;
///     type Error = Infallible;
///     type Future = Ready<Result<Self::Response, Infallible>>;
///
///     fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
///         Poll::Ready(Ok(()))
///     }
///
///     fn call(&mut self, _: hyper::Request<RequestBody>) -> Self::Future {
///         ready(Ok(hyper::Response::new(Full::new(Bytes::from(r#"{"message":"hi"}"#)))))
///     }
/// }
///
/// let client = Client::builder("http://app.test").transport(ServiceTransport::new(Hi)).build()?;
/// # Ok::<(), ferrapi_client::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ServiceTransport<S> {
    service: S,
}

impl<S> ServiceTransport<S> {
    /// `service` as a transport.
    pub fn new(service: S) -> Self {
        ServiceTransport { service }
    }
}

impl<S, B> Transport for ServiceTransport<S>
where
    S: Service<Request<RequestBody>, Response = Response<B>> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<BoxError>,
{
    fn send(
        &self,
        request: Request<RequestBody>,
    ) -> BoxFuture<'static, Result<Response<ResponseBody>, Error>> {
        let mut service = self.service.clone();
        Box::pin(async move {
            poll_fn(|cx| service.poll_ready(cx))
                .await
                .map_err(|error| Error::from(ErrorKind::Transport(error.into())))?;
            let response = service
                .call(request)
                .await
                .map_err(|error| Error::from(ErrorKind::Transport(error.into())))?;
            Ok(response.map(ResponseBody::new))
        })
    }
}
