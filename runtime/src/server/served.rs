//! The body of a response on its way to the client, carrying what the request holds until it is
//! sent: its place under the concurrency limit and, on HTTP/2, its connection's count of requests
//! in progress and its stream's write clock.
//!
//! Rules enforced here:
//! - what it carries is given back when hyper drops the body: once the last frame is handed to
//!   the connection, or when the connection or stream is cut;
//! - on HTTP/2 each poll tells the stream's clock whose turn it is (`h2.rs`): a frame handed out
//!   is the client's turn to take it, a body with nothing yet is the app's;
//! - on HTTP/1 it is the body itself plus one branch per frame; dropped, it ends its request: the
//!   connection is idle again, waiting for its next head (`conn_state.rs`), unless the answer
//!   upgraded it (101), which leaves it busy for good.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};

use super::conn_state::ConnState;
use super::gate::Pass;
use super::h2::{Active, StreamClock};
use crate::response::{Body, BodyError};

/// A response body holding its request's place (see the module rules).
pub(crate) struct ServedBody {
    inner: Body,
    _pass: Option<Pass>,
    stream: Option<Stream>,
    /// HTTP/1 (not upgraded): the connection, idle again once this body is dropped.
    idle_after: Option<Arc<ConnState>>,
}

impl Drop for ServedBody {
    #[inline]
    fn drop(&mut self) {
        if let Some(state) = &self.idle_after {
            state.awaiting_head();
        }
    }
}

/// What an HTTP/2 response holds.
pub(crate) struct Stream {
    pub(crate) _active: Active,
    pub(crate) clock: Option<Arc<StreamClock>>,
}

impl ServedBody {
    /// `inner`, holding `pass` and, on HTTP/2, `stream`; on HTTP/1 `idle_after` is the connection
    /// its drop makes idle.
    #[inline]
    pub(crate) fn new(
        inner: Body,
        pass: Option<Pass>,
        stream: Option<Stream>,
        idle_after: Option<Arc<ConnState>>,
    ) -> Self {
        if let Some(clock) = stream.as_ref().and_then(|s| s.clock.as_ref()) {
            clock.waiting_for_client();
        }
        ServedBody {
            inner,
            _pass: pass,
            stream,
            idle_after,
        }
    }
}

impl hyper::body::Body for ServedBody {
    type Data = Bytes;
    type Error = BodyError;

    #[inline]
    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        if let Some(clock) = this.stream.as_ref().and_then(|s| s.clock.as_ref()) {
            match &polled {
                Poll::Pending => clock.producing(),
                Poll::Ready(Some(Ok(_))) => clock.waiting_for_client(),
                Poll::Ready(_) => {}
            }
        }
        polled
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
