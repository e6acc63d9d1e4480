//! Streamed response bodies: a handler answers with a stream of byte chunks or a reader, sent as
//! it is produced.
//!
//! Rules enforced here:
//! - the producer runs only as fast as the client reads: the body is a pull (hyper polls it when
//!   its write buffer has room), so a slow client slows the producer and the memory held per
//!   response is bounded by hyper's buffer, never by the size of the answer;
//! - chunks are handed on as they come, without a copy or a coalescing buffer;
//! - an error of the stream (or the reader) ends the response: it is logged here, and the server
//!   closes the connection without finishing the body (no last chunk, or fewer bytes than the
//!   `Content-Length`), so a client can never take a cut answer for a complete one;
//! - with a length given ([`StreamingResponse::content_length`]) the answer carries
//!   `Content-Length` (and HEAD keeps it), and a stream that gives more or fewer bytes than that is
//!   an error, as above; without one the answer is chunked (HTTP/1.1);
//! - a stream made by a route's code in an app with versions is polled at the request's version
//!   (`versions::Scoped`): a versioned model it writes takes that version's shape, as the
//!   handler's own answer does;
//! - the adapters are the ecosystem's: tokio-util's `ReaderStream` for readers, http-body-util's
//!   `StreamBody` for streams; the only body of ours is the length check ([`Exact`]).

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use futures_util::StreamExt;
use http_body_util::StreamBody;
use hyper::body::{Frame, SizeHint};
use hyper::header::{HeaderValue, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::StatusCode;
use tokio::io::AsyncRead;
use tokio_util::io::ReaderStream;

use super::body::{Body, BodyError, BoxError};
use super::{IntoResponse, Response};
use crate::versions::{current, Scoped};

/// The size of the chunks read from a reader: large enough that a chunk costs little per byte,
/// small enough that a slow client holds little memory.
pub(crate) const READ_CHUNK: usize = 64 * 1024;

const OCTET_STREAM: HeaderValue = HeaderValue::from_static("application/octet-stream");

impl Body {
    /// A body sent chunk by chunk as `stream` yields them (see [`StreamingResponse`]). An `Err`
    /// item ends the response: it is logged and the connection is closed without completing it.
    pub fn from_stream<S, B, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<B, E>> + Send + 'static,
        B: Into<Bytes>,
        E: Into<BoxError>,
    {
        let frames = stream.map(|item| match item {
            Ok(chunk) => Ok(Frame::data(chunk.into())),
            Err(error) => Err(stream_failed(error.into())),
        });
        // Made by a route's code in an app with versions: its chunks are produced at the
        // request's version, so a versioned model in them is written in that version's shape
        // (chosen here, once: a stream made outside a version is polled as it is).
        match current() {
            None => Body::new(StreamBody::new(frames)),
            Some(at) => Body::new(StreamBody::new(Scoped::new(at, frames))),
        }
    }

    /// A body read from `reader` in chunks of 64 KiB, as the client takes them (see
    /// [`StreamingResponse::from_reader`]). A read error ends the response like a stream's.
    pub fn from_reader<R>(reader: R) -> Self
    where
        R: AsyncRead + Send + 'static,
    {
        Body::from_stream(ReaderStream::with_capacity(reader, READ_CHUNK))
    }
}

/// Log a producer's error once, where it happens: the server only sees that the body failed.
#[cold]
pub(crate) fn stream_failed(error: BoxError) -> BoxError {
    tracing::error!(error = %error, "response stream failed; closing the connection without completing the response");
    error
}

/// A response whose body is streamed: any `Stream` of byte chunks (`Result<B, E>` with `B` into
/// `Bytes`: `Bytes`, `Vec<u8>`, `String`, `&'static str`...) or any `tokio::io::AsyncRead`
/// ([`StreamingResponse::from_reader`]). Status 200, `Content-Type: application/octet-stream`
/// unless set, chunked unless [`content_length`](StreamingResponse::content_length) is given.
///
/// The stream is polled only when the client can take more (backpressure), and dropped when the
/// client goes away. An `Err` item ends the response: it is logged and the connection closed
/// without completing the body, so the client sees a failed transfer, never a short complete one.
#[derive(Debug)]
pub struct StreamingResponse {
    body: Body,
    status: StatusCode,
    content_type: HeaderValue,
    length: Option<u64>,
}

impl StreamingResponse {
    /// Stream `stream`'s chunks.
    pub fn new<S, B, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<B, E>> + Send + 'static,
        B: Into<Bytes>,
        E: Into<BoxError>,
    {
        Self::with_body(Body::from_stream(stream))
    }

    /// Stream what `reader` gives, read in chunks of 64 KiB as the client takes them.
    pub fn from_reader<R>(reader: R) -> Self
    where
        R: AsyncRead + Send + 'static,
    {
        Self::with_body(Body::from_reader(reader))
    }

    fn with_body(body: Body) -> Self {
        StreamingResponse {
            body,
            status: StatusCode::OK,
            content_type: OCTET_STREAM,
            length: None,
        }
    }

    /// Set the `Content-Type` (default `application/octet-stream`).
    pub fn content_type(mut self, content_type: HeaderValue) -> Self {
        self.content_type = content_type;
        self
    }

    /// Set the status (default 200).
    pub fn status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    /// Declare the body's length: the answer carries `Content-Length` instead of being chunked,
    /// and a stream that ends before `length` bytes, or gives more, ends the response with an
    /// error (logged; the connection is closed).
    pub fn content_length(mut self, length: u64) -> Self {
        self.length = Some(length);
        self
    }
}

// Not recommended: kept out of the return types a compile error lists (the common ones).
#[diagnostic::do_not_recommend]
impl IntoResponse for StreamingResponse {
    fn into_response(self) -> Response {
        let body = match self.length {
            Some(length) => Body::new(Exact::new(self.body, length)),
            None => self.body,
        };
        let mut response = hyper::Response::new(body);
        *response.status_mut() = self.status;
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, self.content_type);
        if let Some(length) = self.length {
            headers.insert(CONTENT_LENGTH, HeaderValue::from(length));
        }
        response
    }
}

/// A body that must give exactly `remaining` more bytes: its size is exact (so `Content-Length`
/// is known, to hyper and to HEAD answers), and giving more or fewer is an error.
pub(crate) struct Exact<B> {
    inner: B,
    remaining: u64,
}

impl<B> Exact<B> {
    pub(crate) fn new(inner: B, length: u64) -> Self {
        Exact {
            inner,
            remaining: length,
        }
    }
}

/// Why an [`Exact`] body failed.
#[derive(Debug)]
struct LengthMismatch {
    declared_rest: u64,
    more: bool,
}

impl std::fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.more {
            write!(
                f,
                "the stream gave more bytes than its declared length ({} were left)",
                self.declared_rest
            )
        } else {
            write!(
                f,
                "the stream ended {} bytes before its declared length",
                self.declared_rest
            )
        }
    }
}

impl std::error::Error for LengthMismatch {}

impl<B> hyper::body::Body for Exact<B>
where
    B: hyper::body::Body<Data = Bytes, Error = BodyError> + Unpin,
{
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    let len = data.len() as u64;
                    if len > this.remaining {
                        let error = LengthMismatch {
                            declared_rest: this.remaining,
                            more: true,
                        };
                        return Poll::Ready(Some(Err(stream_failed(Box::new(error)))));
                    }
                    this.remaining -= len;
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(error.into_inner()))),
            Poll::Ready(None) if this.remaining > 0 => {
                let error = LengthMismatch {
                    declared_rest: this.remaining,
                    more: false,
                };
                // Reported once: the next poll finds nothing left to check.
                this.remaining = 0;
                Poll::Ready(Some(Err(stream_failed(Box::new(error)))))
            }
            Poll::Ready(None) => Poll::Ready(None),
        }
    }

    fn is_end_stream(&self) -> bool {
        self.remaining == 0 && self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;
    use hyper::body::Body as _;

    fn chunks(
        items: Vec<Result<&'static str, std::io::Error>>,
    ) -> impl Stream<Item = Result<&'static str, std::io::Error>> {
        futures_util::stream::iter(items)
    }

    #[tokio::test]
    async fn a_stream_is_sent_chunk_by_chunk_with_no_length() {
        let response = StreamingResponse::new(chunks(vec![Ok("ab"), Ok("cd")])).into_response();
        assert_eq!(response.headers()[CONTENT_TYPE], "application/octet-stream");
        assert!(response.headers().get(CONTENT_LENGTH).is_none());
        let mut body = response.into_body();
        assert_eq!(body.size_hint().exact(), None);
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "ab");
        assert_eq!(body.collect().await.unwrap().to_bytes(), "cd");
    }

    #[tokio::test]
    async fn an_error_mid_stream_fails_the_body() {
        let broken = chunks(vec![Ok("ab"), Err(std::io::Error::other("disk gone")), Ok("cd")]);
        let mut body = StreamingResponse::new(broken).into_response().into_body();
        assert!(body.frame().await.unwrap().is_ok());
        let error = body.frame().await.unwrap().unwrap_err();
        assert_eq!(error.to_string(), "disk gone");
    }

    #[tokio::test]
    async fn a_declared_length_is_exact_and_checked() {
        let response = StreamingResponse::new(chunks(vec![Ok("ab"), Ok("cd")]))
            .content_length(4)
            .into_response();
        assert_eq!(response.headers()[CONTENT_LENGTH], "4");
        assert_eq!(response.body().size_hint().exact(), Some(4));
        assert_eq!(response.into_body().collect().await.unwrap().to_bytes(), "abcd");

        let short = StreamingResponse::new(chunks(vec![Ok("ab")])).content_length(4);
        let error = short.into_response().into_body().collect().await.unwrap_err();
        assert!(error.to_string().contains("2 bytes before"), "{error}");

        let long = StreamingResponse::new(chunks(vec![Ok("abc"), Ok("de")])).content_length(4);
        let error = long.into_response().into_body().collect().await.unwrap_err();
        assert!(error.to_string().contains("more bytes"), "{error}");
    }

    #[tokio::test]
    async fn a_reader_is_read_in_chunks() {
        let data = vec![7u8; READ_CHUNK + 10];
        let body = Body::from_reader(std::io::Cursor::new(data.clone()));
        let mut body = body;
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first.len(), READ_CHUNK);
        let rest = body.collect().await.unwrap().to_bytes();
        assert_eq!(rest.len(), 10);
    }
}
