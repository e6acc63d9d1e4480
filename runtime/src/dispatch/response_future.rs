//! The one response future of a request ([`ResponseFuture`]), whichever way it was answered:
//! it polls the answer (`run.rs`), records it when the request is observed (an answer that was
//! ready at once has been recorded already, by `dispatch_observed`), and strips a HEAD answer's
//! body. [`ServiceFuture`] is the same as a `tower`/hyper service's future.
//!
//! Rules enforced here:
//! - the handler's and the layers' polls run in the request (its id's context, or its span)
//!   when it is observed;
//! - an answer is recorded (id, access line, metrics) once, when it is ready, before the HEAD
//!   body is dropped, so a HEAD answer is logged with GET's length;
//! - HEAD answers carry GET's headers, including the length, without the body;
//! - the answer is finished in place: the response is large, and each move of it is a copy.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::header::{HeaderValue, CONTENT_LENGTH};

use super::observe::Observed;
use super::run::Run;
use crate::body::Unhanded;
use crate::response::{internal_error, Body, BoxError, Response};
use crate::versions::Echo;

/// The future of one request's answer.
pub(crate) struct ResponseFuture<B> {
    run: Run<B>,
    observed: Option<Box<Observed>>,
    is_head: bool,
    /// The version echoed in the answer, in an app with versions.
    echo: Option<Echo>,
}

impl<B> ResponseFuture<B> {
    /// The future of the answer `run`, observed by `observed` (when it is), for a HEAD request
    /// when `is_head`, echoing `echo` (in an app with versions).
    #[inline(always)]
    pub(super) fn new(
        run: Run<B>,
        observed: Option<Box<Observed>>,
        is_head: bool,
        echo: Option<Echo>,
    ) -> Self {
        ResponseFuture {
            run,
            observed,
            is_head,
            echo,
        }
    }
}

impl<B> Future for ResponseFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    type Output = Response;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Response> {
        let this = self.get_mut();
        // Answered synchronously (most requests): nothing to enter the request for.
        if let Run::Ready(slot) = &mut this.run {
            match slot {
                Poll::Ready(response) => {
                    complete(&mut this.observed, (this.is_head, this.echo.as_ref()), response)
                }
                // Polled again after answering.
                Poll::Pending => *slot = Poll::Ready(internal_error()),
            }
            return std::mem::replace(slot, Poll::Pending);
        }
        let entered = this.observed.as_ref().and_then(|observed| observed.enter());
        let mut response = match this.run.poll_answer(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(response) => response,
        };
        drop(entered);
        complete(
            &mut this.observed,
            (this.is_head, this.echo.as_ref()),
            &mut response,
        );
        Poll::Ready(response)
    }
}

/// Echo the version (in an app with versions), record the answer (when observed: its id, the
/// access line, the metrics) and drop the body of a HEAD answer.
fn complete(
    observed: &mut Option<Box<Observed>>,
    (is_head, echo): (bool, Option<&Echo>),
    response: &mut Response,
) {
    if let Some(echo) = echo {
        echo.apply(response.headers_mut());
    }
    if let Some(mut observed) = observed.take() {
        observed.record(response);
    }
    if is_head {
        strip_body(response);
    }
}

/// HEAD answers carry GET's headers, including the length, without the body.
fn strip_body(response: &mut Response) {
    use hyper::body::Body as _;
    if !response.headers().contains_key(CONTENT_LENGTH) {
        if let Some(len) = response.body().size_hint().exact() {
            response
                .headers_mut()
                .insert(CONTENT_LENGTH, HeaderValue::from(len));
        }
    }
    *response.body_mut() = Body::empty();
}

/// The future of one request answered by a [`Service`](crate::Service) as a `tower` or hyper
/// service: the answer, as a `Result` that cannot fail.
pub struct ServiceFuture<B>(pub(super) ResponseFuture<Unhanded<B>>);

impl<B> Future for ServiceFuture<B>
where
    B: hyper::body::Body<Data = Bytes> + Send + Unpin + 'static,
    B::Error: Into<BoxError>,
{
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.get_mut().0).poll(cx).map(Ok)
    }
}
