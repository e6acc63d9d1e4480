//! The body of a response, and of a request inside a layer stack: bytes known in advance (what
//! every handler of today answers), or any other body, boxed.
//!
//! Rules enforced here:
//! - a body of bytes costs no allocation beyond its bytes and is exactly as large as the
//!   `http_body_util::Full<Bytes>` it replaces (an empty `Bytes` stands for "no more data"): the
//!   response of every route is moved several times per request, and each move is a copy;
//! - its size is exact, so `Content-Length` is set and a HEAD answer keeps it;
//! - any other body (a layer's compressed body, an incoming request body) is boxed once;
//!   [`Body::new`] of a `Body` is that body, not a box around it;
//! - errors of a boxed body are kept, as a [`BodyError`], for the server to log; they end the
//!   response (the connection is closed), they are never turned into a second answer. A
//!   `BodyError` is an ordinary error type, so `?` takes it into any `Box<dyn Error>`.

use std::any::Any;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::combinators::UnsyncBoxBody;
use http_body_util::BodyExt;
use hyper::body::{Frame, SizeHint};

/// An error of a body, a layer or a service: any error type, boxed.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why a [`Body`] could not be read to its end (a boxed body's own error).
#[derive(Debug)]
pub struct BodyError(BoxError);

impl BodyError {
    /// The error, as it came.
    pub fn into_inner(self) -> BoxError {
        self.0
    }

    /// The error, as it came, borrowed.
    pub fn inner(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.0
    }
}

impl std::fmt::Display for BodyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl std::error::Error for BodyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

/// The body of a [`Response`](crate::Response): bytes (from `Json`, `Html`, text, ...), or any
/// [`http_body::Body`](hyper::body::Body) of `Bytes` given to [`Body::new`].
pub struct Body(Kind);

enum Kind {
    /// The whole body; empty once sent.
    Full(Bytes),
    /// Any other body.
    Boxed(UnsyncBoxBody<Bytes, BodyError>),
}

impl Body {
    /// A body without bytes.
    pub fn empty() -> Self {
        Body(Kind::Full(Bytes::new()))
    }

    /// Any body of `Bytes` (a stream, a layer's body, another framework's). A `Body` is taken as
    /// it is; anything else is boxed.
    pub fn new<B>(body: B) -> Self
    where
        B: hyper::body::Body<Data = Bytes> + Send + 'static,
        B::Error: Into<BoxError>,
    {
        match take_body(body) {
            Ok(body) => body,
            Err(body) => Body(Kind::Boxed(
                body.map_err(|error| BodyError(error.into())).boxed_unsync(),
            )),
        }
    }
}

impl Body {
    /// The whole body, when it is bytes rather than a stream (what an entity tag computed from
    /// the body hashes).
    pub fn whole(&self) -> Option<&Bytes> {
        match &self.0 {
            Kind::Full(bytes) => Some(bytes),
            Kind::Boxed(_) => None,
        }
    }
}

/// `body` itself when it is a [`Body`] (no allocation), else `body` back.
fn take_body<B: 'static>(mut body: B) -> Result<Body, B> {
    match (&mut body as &mut dyn Any).downcast_mut::<Body>() {
        Some(found) => Ok(std::mem::take(found)),
        None => Err(body),
    }
}

impl Default for Body {
    fn default() -> Self {
        Body::empty()
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Kind::Full(bytes) => f.debug_tuple("Body").field(&bytes.len()).finish(),
            Kind::Boxed(_) => f.write_str("Body(boxed)"),
        }
    }
}

impl From<Bytes> for Body {
    fn from(bytes: Bytes) -> Self {
        Body(Kind::Full(bytes))
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Self {
        Body(Kind::Full(Bytes::from(bytes)))
    }
}

impl From<String> for Body {
    fn from(text: String) -> Self {
        Body(Kind::Full(Bytes::from(text)))
    }
}

impl From<&'static str> for Body {
    fn from(text: &'static str) -> Self {
        Body(Kind::Full(Bytes::from_static(text.as_bytes())))
    }
}

impl From<&'static [u8]> for Body {
    fn from(bytes: &'static [u8]) -> Self {
        Body(Kind::Full(Bytes::from_static(bytes)))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = BodyError;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        match &mut self.get_mut().0 {
            Kind::Full(bytes) => {
                if bytes.is_empty() {
                    Poll::Ready(None)
                } else {
                    Poll::Ready(Some(Ok(Frame::data(std::mem::take(bytes)))))
                }
            }
            Kind::Boxed(body) => Pin::new(body).poll_frame(cx),
        }
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        match &self.0 {
            Kind::Full(bytes) => bytes.is_empty(),
            Kind::Boxed(body) => body.is_end_stream(),
        }
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        match &self.0 {
            Kind::Full(bytes) => SizeHint::with_exact(bytes.len() as u64),
            Kind::Boxed(body) => body.size_hint(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::{BodyExt, Full};
    use hyper::body::Body as _;

    #[test]
    fn a_body_of_bytes_is_as_small_as_full() {
        assert_eq!(std::mem::size_of::<Body>(), std::mem::size_of::<Full<Bytes>>());
    }

    #[tokio::test]
    async fn bytes_are_sent_once_with_their_exact_size() {
        let body = Body::from("hello");
        assert_eq!(body.size_hint().exact(), Some(5));
        assert!(!body.is_end_stream());
        assert_eq!(body.collect().await.unwrap().to_bytes(), "hello");
        let empty = Body::empty();
        assert!(empty.is_end_stream());
        assert_eq!(empty.size_hint().exact(), Some(0));
        assert!(empty.collect().await.unwrap().to_bytes().is_empty());
    }

    #[tokio::test]
    async fn another_body_is_boxed_and_a_body_is_not() {
        let body = Body::new(Full::new(Bytes::from_static(b"abc")));
        assert!(matches!(body.0, Kind::Boxed(_)));
        assert_eq!(body.size_hint().exact(), Some(3));
        assert_eq!(body.collect().await.unwrap().to_bytes(), "abc");
        let same = Body::new(Body::from("x"));
        assert!(matches!(same.0, Kind::Full(_)));
    }
}
