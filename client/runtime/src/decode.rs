//! An answer's body decoded into what the document says its status carries.
//!
//! Rules enforced here: a generated operation's enum says, per status, how its body is read
//! ([`Decode`]); a buffered body is read whole and parsed once (JSON with serde, text as UTF-8);
//! a streamed one (bytes, Server-Sent Events, JSON lines) is handed over unread, so nothing is
//! buffered; a buffered body is kept as received (the collected `Bytes`, refcounted, never
//! copied) for the answer's raw access; a body that does not parse is an
//! [`ErrorKind::Decode`](crate::ErrorKind::Decode) with the status, headers and body, never a
//! default value.

use std::future::Future;

use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderValue};
use hyper::StatusCode;
use serde::de::DeserializeOwned;

use crate::bodies::{HttpError, Unexpected};
use crate::body::ResponseBody;
use crate::error::{collect, Error};
use crate::request_id;
use crate::stream::{ByteStream, EventStream, JsonLines, Resume};

/// An operation's enum of answers, decoded from the status and body of an answer.
pub trait Decode: Sized + Send {
    /// The variant for `incoming`'s status, with its body read as the document says.
    fn decode(incoming: &mut Incoming) -> impl Future<Output = Result<Self, Error>> + Send;
}

/// An answer whose body is not read yet.
#[derive(Debug)]
pub struct Incoming {
    status: StatusCode,
    pub(crate) headers: HeaderMap,
    body: Option<ResponseBody>,
    resume: Option<Resume>,
    /// The `X-Request-Id` the request was sent with, for a stream's errors to name.
    sent: Option<HeaderValue>,
    /// The body as read whole, kept for [`Answer::raw_body`](crate::Answer::raw_body).
    pub(crate) raw: Option<Bytes>,
}

impl Incoming {
    /// An answer of `status` with `headers` and `body` to a request sent with id `sent`;
    /// `resume` sends its request again (an event stream reconnects with it).
    pub(crate) fn new(
        status: StatusCode,
        headers: HeaderMap,
        body: ResponseBody,
        resume: Option<Resume>,
        sent: Option<HeaderValue>,
    ) -> Self {
        Incoming {
            status,
            headers,
            body: Some(body),
            resume,
            sent,
            raw: None,
        }
    }

    /// The status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    fn take(&mut self) -> ResponseBody {
        self.body.take().unwrap_or_else(ResponseBody::empty)
    }

    /// The whole body, read once and kept (refcounted, not copied) as the answer's raw body.
    async fn read(&mut self) -> Result<&Bytes, Error> {
        if let Some(body) = self.body.take() {
            self.raw = Some(collect(body).await?);
        }
        Ok(self.raw.get_or_insert_with(Bytes::new))
    }

    /// A decode error of the body read: `message` says why.
    fn not_as_documented(&self, message: impl std::fmt::Display) -> Error {
        let body = self.raw.clone().unwrap_or_default();
        Error::decode_answer(self.status, self.headers.clone(), message, body)
    }

    /// The whole body.
    pub async fn bytes(&mut self) -> Result<Bytes, Error> {
        self.read().await.cloned()
    }

    /// The body as JSON of type `T`.
    pub async fn json<T: DeserializeOwned>(&mut self) -> Result<T, Error> {
        let bytes = self.read().await?;
        serde_json::from_slice(bytes).map_err(|error| self.not_as_documented(error))
    }

    /// The body as text (UTF-8).
    pub async fn text(&mut self) -> Result<String, Error> {
        let bytes = self.read().await?;
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(text.to_owned()),
            Err(error) => Err(self.not_as_documented(error)),
        }
    }

    /// An answer the document gives no body for (read whole: an error's `{"detail": …}`).
    pub async fn http_error(&mut self) -> Result<HttpError, Error> {
        let body = self.bytes().await?;
        let content_type = self.headers.get(hyper::header::CONTENT_TYPE).cloned();
        Ok(HttpError::new(content_type, body))
    }

    /// An answer of a status the document does not list.
    pub async fn unexpected(&mut self) -> Result<Unexpected, Error> {
        Ok(Unexpected {
            body: self.bytes().await?,
            status: self.status,
            headers: self.headers.clone(),
        })
    }

    /// The id the request was sent with, for a stream's errors.
    fn request_id(&self) -> Option<Box<str>> {
        request_id::boxed(self.sent.as_ref())
    }

    /// The body as a stream of bytes, unread.
    pub fn byte_stream(&mut self) -> ByteStream {
        ByteStream::new(self.take()).named(self.request_id())
    }

    /// The body as Server-Sent Events whose data is JSON of type `T`; it reconnects with
    /// `Last-Event-ID` when the connection breaks.
    pub fn event_stream<T: DeserializeOwned>(&mut self) -> EventStream<T> {
        EventStream::new(self.take(), self.resume.take(), |data| serde_json::from_str(data))
            .named(self.request_id(), self.headers.clone())
    }

    /// The body as Server-Sent Events whose data is kept as text.
    pub fn text_event_stream(&mut self) -> EventStream<String> {
        EventStream::new(self.take(), self.resume.take(), |data| Ok(data.to_owned()))
            .named(self.request_id(), self.headers.clone())
    }

    /// The body as JSON lines (`application/jsonl`), one `T` a line.
    pub fn json_lines<T: DeserializeOwned>(&mut self) -> JsonLines<T> {
        JsonLines::new(self.status, self.headers.clone(), self.take(), self.request_id())
    }

    /// The body, dropped unread (a `204`, a `304`).
    pub fn empty(&mut self) {
        self.body = None;
    }
}

/// Any answer, read whole and not decoded: for a route the document does not describe
/// (`client.call::<Raw, _>(…)`).
#[derive(Clone, Debug)]
pub struct Raw {
    /// The status.
    pub status: StatusCode,
    /// The body.
    pub body: Bytes,
}

impl Raw {
    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.body)
    }

    /// The body as JSON of type `T`.
    pub fn json<T: DeserializeOwned>(&self) -> Result<T, Error> {
        serde_json::from_slice(&self.body)
            .map_err(|error| Error::decode(self.status, error, self.body.clone()))
    }
}

impl Decode for Raw {
    async fn decode(incoming: &mut Incoming) -> Result<Self, Error> {
        Ok(Raw {
            status: incoming.status(),
            body: incoming.bytes().await?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn incoming(body: Bytes) -> Incoming {
        let body = ResponseBody::new(http_body_util::Full::new(body));
        Incoming::new(StatusCode::OK, HeaderMap::new(), body, None, None)
    }

    #[tokio::test]
    async fn a_body_read_whole_is_kept_as_the_same_buffer_not_a_copy() {
        let sent = Bytes::from_static(b"{\"n\": 1}");
        let mut answer = incoming(sent.clone());
        let value: serde_json::Value = answer.json().await.expect("JSON");
        assert_eq!(value["n"], 1);
        let raw = answer.raw.expect("kept");
        assert_eq!(raw, sent);
        assert_eq!(raw.as_ptr(), sent.as_ptr(), "the buffer itself");
    }

    #[tokio::test]
    async fn a_body_not_as_documented_keeps_the_status_headers_and_body() {
        let mut headers = HeaderMap::new();
        headers.insert("x-request-id", hyper::header::HeaderValue::from_static("r-1"));
        let body = ResponseBody::new(http_body_util::Full::new(Bytes::from_static(b"[1,")));
        let mut answer = Incoming::new(StatusCode::CREATED, headers, body, None, None);
        let error = answer.json::<Vec<u8>>().await.expect_err("not JSON");
        let crate::ErrorKind::Decode(decode) = error.kind() else {
            panic!("{error}")
        };
        assert_eq!(decode.status, StatusCode::CREATED);
        assert_eq!(&decode.body[..], b"[1,");
        assert_eq!(decode.headers["x-request-id"], "r-1");
    }

    #[tokio::test]
    async fn a_stream_handed_over_keeps_no_raw_body() {
        let mut answer = incoming(Bytes::from_static(b"chunk"));
        let _stream = answer.byte_stream();
        assert!(answer.raw.is_none());
    }
}
