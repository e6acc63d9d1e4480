//! The bodies a call sends and receives.
//!
//! Rules enforced here: a request body held in memory is sent as one frame with its length (so a
//! retry sends the same bytes again, and a server can refuse it by its length); a streamed one
//! (an upload from a file or a stream) is sent chunk by chunk and can be sent only once; an
//! answer from hyper's own connection is passed through unboxed (the common case costs no
//! allocation), any other transport's body is boxed once.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http_body::{Body, Frame, SizeHint};
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt as _;

use crate::error::BoxError;

/// A stream of chunks, sent as a request body.
pub type ChunkStream = Pin<Box<dyn Stream<Item = Result<Bytes, BoxError>> + Send>>;

/// The body of a request.
pub struct RequestBody(Outgoing);

enum Outgoing {
    /// The bytes, until sent.
    Full(Option<Bytes>),
    /// Chunks as they come.
    Stream(ChunkStream),
}

impl RequestBody {
    /// No body.
    pub fn empty() -> Self {
        RequestBody(Outgoing::Full(None))
    }

    /// `bytes`, sent with their length.
    pub fn full(bytes: impl Into<Bytes>) -> Self {
        let bytes = bytes.into();
        RequestBody(Outgoing::Full((!bytes.is_empty()).then_some(bytes)))
    }

    /// Chunks sent as they come (`Transfer-Encoding: chunked` on HTTP/1.1).
    pub fn stream(chunks: ChunkStream) -> Self {
        RequestBody(Outgoing::Stream(chunks))
    }

    /// The bytes of a body held in memory, `None` for a streamed one.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match &self.0 {
            Outgoing::Full(bytes) => Some(bytes.as_deref().unwrap_or_default()),
            Outgoing::Stream(_) => None,
        }
    }
}

impl Default for RequestBody {
    fn default() -> Self {
        RequestBody::empty()
    }
}

impl std::fmt::Debug for RequestBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Outgoing::Full(bytes) => write!(f, "RequestBody({} bytes)", bytes.as_ref().map_or(0, Bytes::len)),
            Outgoing::Stream(_) => f.write_str("RequestBody(stream)"),
        }
    }
}

impl Body for RequestBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.0 {
            Outgoing::Full(bytes) => Poll::Ready(bytes.take().map(|bytes| Ok(Frame::data(bytes)))),
            Outgoing::Stream(chunks) => chunks
                .as_mut()
                .poll_next(cx)
                .map(|chunk| chunk.map(|chunk| chunk.map(Frame::data))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self.0, Outgoing::Full(None))
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Outgoing::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Outgoing::Stream(_) => SizeHint::default(),
        }
    }
}

/// The body of an answer, as a transport delivers it.
pub struct ResponseBody(Incoming);

enum Incoming {
    Hyper(hyper::body::Incoming),
    Boxed(UnsyncBoxBody<Bytes, BoxError>),
}

impl ResponseBody {
    /// Any body: what a custom [`Transport`](crate::Transport) answers with.
    pub fn new<B>(body: B) -> Self
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        ResponseBody(Incoming::Boxed(body.map_err(Into::into).boxed_unsync()))
    }

    /// An empty body.
    pub fn empty() -> Self {
        ResponseBody::new(http_body_util::Empty::new())
    }
}

impl From<hyper::body::Incoming> for ResponseBody {
    fn from(body: hyper::body::Incoming) -> Self {
        ResponseBody(Incoming::Hyper(body))
    }
}

impl std::fmt::Debug for ResponseBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ResponseBody")
    }
}

impl Body for ResponseBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match &mut self.0 {
            Incoming::Hyper(body) => Pin::new(body)
                .poll_frame(cx)
                .map(|frame| frame.map(|frame| frame.map_err(Into::into))),
            Incoming::Boxed(body) => Pin::new(body).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Incoming::Hyper(body) => body.is_end_stream(),
            Incoming::Boxed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Incoming::Hyper(body) => body.size_hint(),
            Incoming::Boxed(body) => body.size_hint(),
        }
    }
}
