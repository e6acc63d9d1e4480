//! What a call returns: the server's answer, whatever its status, decoded into the operation's
//! enum, with its status, headers and body as received.
//!
//! Rules enforced here: every status is an [`Answer`] (the operation's enum has a variant per
//! documented status and `Unexpected` for the rest), so a `404` is matched, not caught; the
//! headers stay reachable (`ETag`, `Location`, `X-Request-Id`, `Idempotent-Replayed`), and so do
//! a buffered body's bytes as received (the decoded value's source, shared, not copied);
//! [`Answer::into_ok`] turns the common case into a `Result` for `?`, keeping the whole answer
//! in its error, which names the request id the server answered with.

use std::fmt;
use std::ops::Deref;

use bytes::Bytes;
use hyper::header::{HeaderMap, HeaderName, ETAG, LOCATION};
use hyper::StatusCode;

use crate::error::{Error, ErrorKind, StatusError};
use crate::etag::ETag;

/// The `X-Request-Id` header.
pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");
/// The `Idempotent-Replayed` header.
pub const IDEMPOTENT_REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

/// An operation's enum of answers: which variants are its success.
pub trait Outcome: Sized {
    /// The success's value (the one 2xx variant's content; the enum itself when an operation
    /// documents several 2xx statuses).
    type Ok;

    /// The success's value, or the answer itself when it is another variant.
    fn into_ok(self) -> Result<Self::Ok, Self>;
}

/// The server's answer: its status, headers, the decoded body and, when it was read whole, the
/// body's bytes as received.
#[derive(Debug)]
pub struct Answer<R> {
    status: StatusCode,
    headers: HeaderMap,
    body: R,
    raw: Option<Bytes>,
}

impl<R> Answer<R> {
    /// An answer of `status` with `headers`, decoded to `body` (with no raw body).
    pub fn new(status: StatusCode, headers: HeaderMap, body: R) -> Self {
        Answer {
            status,
            headers,
            body,
            raw: None,
        }
    }

    /// An answer of `status` with `headers`, decoded to `body` from `raw` (when read whole).
    pub(crate) fn received(status: StatusCode, headers: HeaderMap, body: R, raw: Option<Bytes>) -> Self {
        Answer {
            status,
            headers,
            body,
            raw,
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

    /// The first value of header `name`, when it is text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name)?.to_str().ok()
    }

    /// The `ETag`: what to send back in `If-Match` to update exactly this version.
    pub fn etag(&self) -> Option<ETag> {
        ETag::from_header(self.headers.get(ETAG)?)
    }

    /// The `Location` (where a created resource is).
    pub fn location(&self) -> Option<&str> {
        self.headers.get(LOCATION)?.to_str().ok()
    }

    /// The `X-Request-Id` the server gave the request (the one sent, when it kept it).
    pub fn request_id(&self) -> Option<&str> {
        self.headers.get(X_REQUEST_ID)?.to_str().ok()
    }

    /// True when the server answered with the kept answer of an earlier request with the same
    /// `Idempotency-Key` (`Idempotent-Replayed: true`).
    pub fn replayed(&self) -> bool {
        self.headers
            .get(IDEMPOTENT_REPLAYED)
            .is_some_and(|value| value.as_bytes().eq_ignore_ascii_case(b"true"))
    }

    /// The body's bytes as the server sent them (after any `Content-Encoding` the transport
    /// undoes), for a body read whole: what the decoded value was read from, to log, to
    /// checksum, or to read fields the document does not describe. `None` for a body handed
    /// over unread (a byte stream, Server-Sent Events, JSON lines) or dropped unread (a `204`).
    ///
    /// It is the buffer the value was decoded from, shared (cloning it copies nothing).
    pub fn raw_body(&self) -> Option<&Bytes> {
        self.raw.as_ref()
    }

    /// The decoded body: the operation's enum.
    pub fn body(&self) -> &R {
        &self.body
    }

    /// The decoded body, without the status and headers.
    pub fn into_body(self) -> R {
        self.body
    }

    /// Status, headers and body.
    pub fn into_parts(self) -> (StatusCode, HeaderMap, R) {
        (self.status, self.headers, self.body)
    }

    /// The success's value, or the answer as an error (for `?`: it converts into an [`Error`] of
    /// kind [`ErrorKind::Status`], naming the request id the server answered with).
    // The rejection is the whole answer, by design (its headers and raw body are what one
    // inspects); boxing it would cost an allocation per rejection to save a few bytes of moves.
    #[allow(clippy::result_large_err)]
    pub fn into_ok(self) -> Result<R::Ok, Rejected<R>>
    where
        R: Outcome,
    {
        let Answer {
            status,
            headers,
            body,
            raw,
        } = self;
        body.into_ok().map_err(|body| {
            Rejected(Answer {
                status,
                headers,
                body,
                raw,
            })
        })
    }
}

impl<R> Deref for Answer<R> {
    type Target = R;

    fn deref(&self) -> &R {
        &self.body
    }
}

/// An answer that is not the success [`Answer::into_ok`] asked for; the whole answer is kept.
pub struct Rejected<R>(pub Answer<R>);

impl<R> Rejected<R> {
    /// The answer.
    pub fn into_answer(self) -> Answer<R> {
        self.0
    }
}

impl<R: fmt::Debug> fmt::Debug for Rejected<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Rejected").field(&self.0).finish()
    }
}

impl<R: fmt::Debug> fmt::Display for Rejected<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unexpected answer {}: {:?}", self.0.status, self.0.body)?;
        match self.0.request_id() {
            Some(id) => write!(f, " (request id {id})"),
            None => Ok(()),
        }
    }
}

impl<R: fmt::Debug> std::error::Error for Rejected<R> {}

impl<R: fmt::Debug> From<Rejected<R>> for Error {
    fn from(rejected: Rejected<R>) -> Error {
        let request_id = rejected.0.request_id().map(Box::from);
        let Answer {
            status,
            headers,
            body,
            ..
        } = rejected.0;
        Error::from(ErrorKind::Status(Box::new(StatusError {
            status,
            headers,
            answer: format!("{body:?}"),
        })))
        .named(request_id)
    }
}
