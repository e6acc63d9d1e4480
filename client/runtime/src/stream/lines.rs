//! JSON lines (`application/jsonl`, FastAPI's streamed generator answers): one value a line.
//!
//! Rules enforced here: a line is parsed as soon as it ends (`\n`, a `\r` before it dropped);
//! blank lines are skipped; a last line without its `\n` is parsed at the end; a line that does
//! not parse is an [`ErrorKind::Decode`](crate::ErrorKind::Decode) item (with the answer's status
//! and headers, naming the call's request id) and the stream goes on.

use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;
use hyper::{HeaderMap, StatusCode};
use serde::de::DeserializeOwned;

use super::ByteStream;
use crate::body::ResponseBody;
use crate::error::Error;

/// A body of JSON lines, each a `T`.
#[derive(Debug)]
pub struct JsonLines<T> {
    status: StatusCode,
    /// The answer's headers, for a line's decode error.
    headers: HeaderMap,
    chunks: ByteStream,
    pending: Vec<u8>,
    ended: bool,
    item: PhantomData<fn() -> T>,
}

impl<T> JsonLines<T> {
    pub(crate) fn new(
        status: StatusCode,
        headers: HeaderMap,
        body: ResponseBody,
        request_id: Option<Box<str>>,
    ) -> Self {
        JsonLines {
            status,
            headers,
            chunks: ByteStream::new(body).named(request_id),
            pending: Vec::new(),
            ended: false,
            item: PhantomData,
        }
    }
}

impl<T: DeserializeOwned> JsonLines<T> {
    /// The next whole line in the buffer, parsed.
    fn next_line(&mut self) -> Option<Result<T, Error>> {
        loop {
            let end = self.pending.iter().position(|&b| b == b'\n');
            let line: Vec<u8> = match end {
                Some(end) => self.pending.drain(..=end).collect(),
                None if self.ended && !self.pending.is_empty() => std::mem::take(&mut self.pending),
                None => return None,
            };
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some(serde_json::from_slice(text).map_err(|error| {
                let body = Bytes::copy_from_slice(text);
                Error::decode_answer(self.status, self.headers.clone(), error, body)
                    .named(self.chunks.request_id())
            }));
        }
    }
}

impl<T: DeserializeOwned> Stream for JsonLines<T> {
    type Item = Result<T, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(item) = this.next_line() {
                return Poll::Ready(Some(item));
            }
            if this.ended {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.chunks).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => this.pending.extend_from_slice(&chunk),
                Poll::Ready(Some(Err(error))) => {
                    this.ended = true;
                    this.pending.clear();
                    return Poll::Ready(Some(Err(error)));
                }
                Poll::Ready(None) => this.ended = true,
            }
        }
    }
}
