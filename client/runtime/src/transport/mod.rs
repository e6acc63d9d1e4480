//! How a request reaches a server: hyper-util's pooled client by default, or anything that
//! implements [`Transport`] (an app called in-process, a test double).
//!
//! Rules enforced here: a transport only carries requests and answers, it never retries, times
//! out or decodes (the [`Client`](crate::Client) does that, the same for every transport); it
//! tells a request that was never sent ([`ErrorKind::Connect`](crate::ErrorKind::Connect)) from one that
//! may have been; the default transport's future is hyper-util's own, not boxed again.

mod hyper_client;
mod service;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::{Request, Response};

pub use hyper_client::{HyperSettings, HyperTransport};
pub use service::ServiceTransport;

use crate::body::{RequestBody, ResponseBody};
use crate::error::Error;

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Carries a request to a server and brings its answer back.
///
/// Implement it to call an app without a socket, or to add what a deployment needs (a proxy, a
/// custom resolver). [`ServiceTransport`] already turns any `tower::Service` into one.
pub trait Transport: Send + Sync + 'static {
    /// Send `request`; its answer (head first, the body as it comes).
    ///
    /// Fail with [`ErrorKind::Connect`](crate::ErrorKind::Connect) when the request surely did not reach the server, else
    /// with [`ErrorKind::Transport`](crate::ErrorKind::Transport) ([`Error::from_transport`] tells them apart for hyper-util's errors).
    fn send(
        &self,
        request: Request<RequestBody>,
    ) -> BoxFuture<'static, Result<Response<ResponseBody>, Error>>;
}

/// The transport of a [`Client`](crate::Client).
#[derive(Clone)]
pub(crate) enum Carrier {
    /// hyper-util's pooled client.
    Hyper(Box<HyperTransport>),
    /// Anything else.
    Custom(std::sync::Arc<dyn Transport>),
}

impl Carrier {
    /// Send `request` by this transport.
    pub(crate) fn send(&self, request: Request<RequestBody>) -> Sending {
        match self {
            Carrier::Hyper(client) => Sending::Hyper(client.request(request)),
            Carrier::Custom(transport) => Sending::Custom(transport.send(request)),
        }
    }
}

/// A request on its way: hyper-util's future as it is, or a custom transport's.
pub(crate) enum Sending {
    Hyper(hyper_util::client::legacy::ResponseFuture),
    Custom(BoxFuture<'static, Result<Response<ResponseBody>, Error>>),
}

impl Future for Sending {
    type Output = Result<Response<ResponseBody>, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Sending::Hyper(future) => Pin::new(future).poll(cx).map(|result| match result {
                Ok(response) => Ok(response.map(ResponseBody::from)),
                Err(error) => Err(Error::from_transport(Box::new(error))),
            }),
            Sending::Custom(future) => future.as_mut().poll(cx),
        }
    }
}
