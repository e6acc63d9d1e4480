//! Why a call gave no answer to match on.
//!
//! Rules enforced here: an HTTP status is never an [`Error`] of a call (every status the server
//! sends is an [`Answer`](crate::Answer), documented or not); an error says whether the request
//! may have reached the server ([`ErrorKind::Connect`] never did), which is what decides whether
//! it can be retried; a body that is not what the document says is an error naming the status
//! and showing the start of the body, never a silently wrong value; an error names the request it
//! concerns by its `X-Request-Id` (issue 43: the id that finds the call in the server's log), in
//! [`Error::request_id`] and at the end of its message.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use hyper::header::HeaderMap;
use hyper::StatusCode;

/// Any error, boxed: what a transport or a body reports.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How many bytes of a body an error message shows.
const EXCERPT: usize = 200;

/// A call that has no answer: the request could not be sent, no complete answer came, or the
/// answer is not what the document says. What went wrong is its [`kind`](Error::kind); the
/// request it concerns is named by [`request_id`](Error::request_id), and by its `Display`.
///
/// It is a struct (as reqwest's error is) so that every error can carry the call's id; match on
/// [`Error::kind`] (or [`Error::into_kind`]) where a match on the variants was written before.
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    /// The `X-Request-Id` the request carried (or, for [`ErrorKind::Status`], the one the
    /// server answered with).
    request_id: Option<Box<str>>,
}

/// What went wrong in a call: [`Error`]'s kind.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The request could not be built: a base URL that is not one, a header value with a line
    /// break. Nothing was sent.
    InvalidRequest(String),
    /// No connection could be made (refused, unreachable, a failed TLS handshake): nothing was
    /// sent, so any request may be sent again.
    Connect(BoxError),
    /// The request was sent, in whole or in part, and no complete answer came (the connection
    /// closed, the peer broke the protocol): the server may have acted on it.
    Transport(BoxError),
    /// No answer within the call's timeout.
    Timeout(Duration),
    /// The answer's body broke off before its end.
    Body(BoxError),
    /// The answer's body is not what the document says for its status.
    Decode(Box<DecodeError>),
    /// [`Answer::into_ok`](crate::Answer::into_ok) met an answer of another status.
    Status(Box<StatusError>),
    /// A list read page after page ([`Pages`](crate::Pages)) reached the largest offset the
    /// server serves with a full page: items may remain that it will not serve.
    PageLimit(PageLimitError),
}

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What went wrong, owned (to move a [`DecodeError`]'s body or a transport's error out).
    pub fn into_kind(self) -> ErrorKind {
        self.kind
    }

    /// The `X-Request-Id` of the request this error concerns: the one the call sent (made by the
    /// client unless the call or the client gave one), or, for [`ErrorKind::Status`], the one
    /// the server answered with. `None` when the request carried none (request ids turned off,
    /// a request refused before it was made).
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// This error, naming request `id` (a call names its errors itself; this is for errors made
    /// elsewhere, such as a [`Transport`](crate::Transport)'s or a test's).
    pub fn with_request_id(mut self, id: &str) -> Error {
        self.request_id = Some(id.into());
        self
    }

    /// This error, naming `id` (or nothing).
    pub(crate) fn named(mut self, id: Option<Box<str>>) -> Error {
        self.request_id = id;
        self
    }

    /// True when the request surely did not reach the server (sending it again is always safe).
    pub fn is_connect(&self) -> bool {
        matches!(self.kind, ErrorKind::Connect(_))
    }

    /// True for a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self.kind, ErrorKind::Timeout(_))
    }

    /// The status of the answer, for [`ErrorKind::Decode`] and [`ErrorKind::Status`].
    pub fn status(&self) -> Option<StatusCode> {
        match &self.kind {
            ErrorKind::Decode(decode) => Some(decode.status),
            ErrorKind::Status(status) => Some(status.status),
            _ => None,
        }
    }

    /// The [`ErrorKind::Decode`] of `body`, answered with `status`, that `message` describes
    /// (without the answer's headers: see [`DecodeError::headers`]).
    pub fn decode(status: StatusCode, message: impl fmt::Display, body: Bytes) -> Error {
        Error::decode_answer(status, HeaderMap::new(), message, body)
    }

    /// The [`ErrorKind::Decode`] of `body`, answered with `status` and `headers`, that
    /// `message` describes.
    pub(crate) fn decode_answer(
        status: StatusCode,
        headers: HeaderMap,
        message: impl fmt::Display,
        body: Bytes,
    ) -> Error {
        ErrorKind::Decode(Box::new(DecodeError {
            status,
            headers,
            message: message.to_string(),
            body,
        }))
        .into()
    }

    /// An error of a transport: [`ErrorKind::Connect`] when the request was not sent, else
    /// [`ErrorKind::Transport`]. Hyper-util's client says which; others are read as sent.
    pub fn from_transport(error: BoxError) -> Error {
        let not_sent = error
            .downcast_ref::<hyper_util::client::legacy::Error>()
            .is_some_and(hyper_util::client::legacy::Error::is_connect);
        if not_sent {
            ErrorKind::Connect(error).into()
        } else {
            ErrorKind::Transport(error).into()
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Error {
        Error {
            kind,
            request_id: None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)?;
        match &self.request_id {
            Some(id) => write!(f, " (request id {id})"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.kind.source()
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::InvalidRequest(why) => write!(f, "invalid request: {why}"),
            ErrorKind::Connect(source) => write!(f, "could not connect: {}", chain(source.as_ref())),
            ErrorKind::Transport(source) => {
                write!(f, "no complete answer: {}", chain(source.as_ref()))
            }
            ErrorKind::Timeout(after) => write!(f, "no answer within {after:?}"),
            ErrorKind::Body(source) => write!(f, "the answer's body broke off: {}", chain(source.as_ref())),
            ErrorKind::Decode(decode) => decode.fmt(f),
            ErrorKind::Status(status) => status.fmt(f),
            ErrorKind::PageLimit(limit) => limit.fmt(f),
        }
    }
}

impl std::error::Error for ErrorKind {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ErrorKind::Connect(source) | ErrorKind::Transport(source) | ErrorKind::Body(source) => {
                Some(source.as_ref())
            }
            _ => None,
        }
    }
}

/// An error and its sources on one line: hyper's errors say little without their cause.
fn chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The end of a list the server will not page past ([`Pages`](crate::Pages)): a full page ended
/// at the maximum offset. Kept here, with the errors, so that the streams depend on the errors and
/// not the other way round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLimitError {
    /// The largest offset the server serves.
    pub max_offset: u64,
    /// How many items the stream read before it.
    pub read: u64,
}

impl fmt::Display for PageLimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the server serves no page past offset {} ({} items read); more may exist: narrow the query",
            self.max_offset, self.read
        )
    }
}

impl std::error::Error for PageLimitError {}

/// An answer whose body is not what the document says for its status: its status, headers and
/// body as received.
///
/// Read its fields; it is made by the client ([`Error::decode`] for a [`Decode`](crate::Decode)
/// of one's own), so it may gain fields without a breaking change.
#[derive(Debug)]
#[non_exhaustive]
pub struct DecodeError {
    /// The answer's status.
    pub status: StatusCode,
    /// The answer's headers (also for an item of a stream; empty when made by [`Error::decode`],
    /// which has none).
    pub headers: HeaderMap,
    /// What was wrong (serde's message, with its line and column).
    pub message: String,
    /// The body as received.
    pub body: Bytes,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} answer is not what the document says: {}; body: {}",
            self.status,
            self.message,
            excerpt(&self.body)
        )
    }
}

/// An answer [`Answer::into_ok`](crate::Answer::into_ok) did not expect: its status, headers and
/// the variant it decoded to (as `Debug` text; [`Rejected`](crate::Rejected) keeps the value).
///
/// Read its fields; it is made by the client (from a [`Rejected`](crate::Rejected)), so it may
/// gain fields without a breaking change.
#[derive(Debug)]
#[non_exhaustive]
pub struct StatusError {
    /// The status.
    pub status: StatusCode,
    /// The headers.
    pub headers: HeaderMap,
    /// The answer, as its `Debug` form.
    pub answer: String,
}

impl fmt::Display for StatusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unexpected answer {}: {}", self.status, self.answer)
    }
}

/// The first bytes of a body, as text, for messages.
pub(crate) fn excerpt(body: &[u8]) -> String {
    let cut = body.len().min(EXCERPT);
    let mut text = String::from_utf8_lossy(&body[..cut]).into_owned();
    if body.len() > cut {
        text.push('…');
    }
    text
}

/// Read a whole body, mapping its failure to [`ErrorKind::Body`].
pub(crate) async fn collect<B>(body: B) -> Result<Bytes, Error>
where
    B: http_body::Body<Data = Bytes>,
    B::Error: Into<BoxError>,
{
    use http_body_util::BodyExt as _;
    // A body that says it is empty (a 204, a HEAD answer) needs no collection.
    if body.is_end_stream() {
        return Ok(Bytes::new());
    }
    body.collect()
        .await
        .map(http_body_util::Collected::to_bytes)
        .map_err(|error| ErrorKind::Body(error.into()).into())
}
