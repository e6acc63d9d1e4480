//! An answer's body decoded into what the document says its status carries.
//!
//! Rules enforced here: a generated operation's enum says, per status, how its body is read
//! ([`Decode`]); a buffered body is read whole and parsed once (JSON with serde, text as UTF-8);
//! a streamed one (bytes, Server-Sent Events, JSON lines) is handed over unread, so nothing is
//! buffered; a body that does not parse is an [`Error::Decode`] with the status and the body,
//! never a default value.

use std::future::Future;

use bytes::Bytes;
use hyper::header::HeaderMap;
use hyper::StatusCode;
use serde::de::DeserializeOwned;

use crate::bodies::{HttpError, Unexpected};
use crate::body::ResponseBody;
use crate::error::{collect, Error};
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
}

impl Incoming {
    /// An answer of `status` with `headers` and `body`; `resume` sends its request again (an
    /// event stream reconnects with it).
    pub(crate) fn new(
        status: StatusCode,
        headers: HeaderMap,
        body: ResponseBody,
        resume: Option<Resume>,
    ) -> Self {
        Incoming {
            status,
            headers,
            body: Some(body),
            resume,
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

    /// The whole body.
    pub async fn bytes(&mut self) -> Result<Bytes, Error> {
        collect(self.take()).await
    }

    /// The body as JSON of type `T`.
    pub async fn json<T: DeserializeOwned>(&mut self) -> Result<T, Error> {
        let bytes = self.bytes().await?;
        serde_json::from_slice(&bytes).map_err(|error| Error::decode(self.status, error, bytes))
    }

    /// The body as text (UTF-8).
    pub async fn text(&mut self) -> Result<String, Error> {
        let bytes = self.bytes().await?;
        match std::str::from_utf8(&bytes) {
            Ok(text) => Ok(text.to_owned()),
            Err(error) => Err(Error::decode(self.status, error, bytes)),
        }
    }

    /// An answer the document gives no body for (read whole: an error's `{"detail": …}`).
    pub async fn http_error(&mut self) -> Result<HttpError, Error> {
        let content_type = self.headers.get(hyper::header::CONTENT_TYPE).cloned();
        Ok(HttpError::new(content_type, self.bytes().await?))
    }

    /// An answer of a status the document does not list.
    pub async fn unexpected(&mut self) -> Result<Unexpected, Error> {
        Ok(Unexpected {
            status: self.status,
            headers: self.headers.clone(),
            body: self.bytes().await?,
        })
    }

    /// The body as a stream of bytes, unread.
    pub fn byte_stream(&mut self) -> ByteStream {
        ByteStream::new(self.take())
    }

    /// The body as Server-Sent Events whose data is JSON of type `T`; it reconnects with
    /// `Last-Event-ID` when the connection breaks.
    pub fn event_stream<T: DeserializeOwned>(&mut self) -> EventStream<T> {
        EventStream::new(self.take(), self.resume.take(), |data| serde_json::from_str(data))
    }

    /// The body as Server-Sent Events whose data is kept as text.
    pub fn text_event_stream(&mut self) -> EventStream<String> {
        EventStream::new(self.take(), self.resume.take(), |data| Ok(data.to_owned()))
    }

    /// The body as JSON lines (`application/jsonl`), one `T` a line.
    pub fn json_lines<T: DeserializeOwned>(&mut self) -> JsonLines<T> {
        JsonLines::new(self.status, self.take())
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
