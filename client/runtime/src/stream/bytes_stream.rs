//! A body as a stream of byte chunks: downloads and files, read without buffering.
//!
//! Rules enforced here: chunks are yielded as the transport delivers them (trailers skipped); a
//! broken body is one [`ErrorKind::Body`](crate::ErrorKind::Body) item, then the end, naming the
//! call's request id.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use http_body::Body;

use crate::body::ResponseBody;
use crate::error::{collect, Error, ErrorKind};

/// A body read chunk by chunk.
#[derive(Debug)]
pub struct ByteStream {
    body: Option<ResponseBody>,
    /// The call's request id, for the errors.
    request_id: Option<Box<str>>,
}

impl ByteStream {
    /// `body` as a stream.
    pub fn new(body: ResponseBody) -> Self {
        ByteStream {
            body: Some(body),
            request_id: None,
        }
    }

    /// This stream, its errors naming request `id`.
    pub(crate) fn named(mut self, id: Option<Box<str>>) -> Self {
        self.request_id = id;
        self
    }

    /// The request id its errors name.
    pub(crate) fn request_id(&self) -> Option<Box<str>> {
        self.request_id.clone()
    }

    /// The rest of the body, buffered.
    pub async fn bytes(mut self) -> Result<Bytes, Error> {
        match self.body.take() {
            Some(body) => collect(body).await.map_err(|error| error.named(self.request_id)),
            None => Ok(Bytes::new()),
        }
    }

    /// The rest of the body as text (invalid UTF-8 replaced).
    pub async fn text(self) -> Result<String, Error> {
        Ok(String::from_utf8_lossy(&self.bytes().await?).into_owned())
    }
}

impl Stream for ByteStream {
    type Item = Result<Bytes, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let Some(body) = self.body.as_mut() else {
                return Poll::Ready(None);
            };
            match Pin::new(body).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => {
                    self.body = None;
                    return Poll::Ready(None);
                }
                Poll::Ready(Some(Err(error))) => {
                    self.body = None;
                    let error = Error::from(ErrorKind::Body(error)).named(self.request_id.clone());
                    return Poll::Ready(Some(Err(error)));
                }
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        if !data.is_empty() {
                            return Poll::Ready(Some(Ok(data)));
                        }
                    }
                }
            }
        }
    }
}
