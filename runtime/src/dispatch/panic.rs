//! A handler that panics becomes a 500 response; the connection and the server live on.

use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::response::Response;
use crate::routing::BoxFuture;

/// Polls the inner future, turning a panic into `Err(message)`.
pub(crate) struct CatchPanic {
    inner: BoxFuture,
}

impl CatchPanic {
    pub(crate) fn new(inner: BoxFuture) -> Self {
        CatchPanic { inner }
    }
}

impl Future for CatchPanic {
    type Output = Result<Response, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.inner;
        // The future is dropped after a panic and never polled again, so no broken invariant
        // can be observed: asserting unwind safety is sound here.
        match catch_unwind(AssertUnwindSafe(|| inner.as_mut().poll(cx))) {
            Ok(Poll::Ready(response)) => Poll::Ready(Ok(response)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(payload) => Poll::Ready(Err(panic_message(&*payload))),
        }
    }
}

/// The text of a panic payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".to_owned())
}
