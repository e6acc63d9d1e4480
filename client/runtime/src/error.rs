//! Why a call gave no answer to match on.
//!
//! Rules enforced here: an HTTP status is never an [`Error`] of a call (every status the server
//! sends is an [`Answer`](crate::Answer), documented or not); an error says whether the request
//! may have reached the server ([`Error::Connect`] never did), which is what decides whether it
//! can be retried; a body that is not what the document says is an error naming the status and
//! showing the start of the body, never a silently wrong value.

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use hyper::header::HeaderMap;
use hyper::StatusCode;

use crate::stream::PageLimitError;

/// Any error, boxed: what a transport or a body reports.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// How many bytes of a body an error message shows.
const EXCERPT: usize = 200;

/// A call that has no answer: the request could not be sent, no complete answer came, or the
/// answer is not what the document says.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
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
    /// True when the request surely did not reach the server (sending it again is always safe).
    pub fn is_connect(&self) -> bool {
        matches!(self, Error::Connect(_))
    }

    /// True for a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout(_))
    }

    /// The status of the answer, for [`Error::Decode`] and [`Error::Status`].
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Error::Decode(decode) => Some(decode.status),
            Error::Status(status) => Some(status.status),
            _ => None,
        }
    }

    /// The [`Error::Decode`] of `body`, answered with `status`, that `message` describes.
    pub fn decode(status: StatusCode, message: impl fmt::Display, body: Bytes) -> Error {
        Error::Decode(Box::new(DecodeError {
            status,
            message: message.to_string(),
            body,
        }))
    }

    /// An error of a transport: [`Error::Connect`] when the request was not sent, else
    /// [`Error::Transport`]. Hyper-util's client says which; others are read as sent.
    pub fn from_transport(error: BoxError) -> Error {
        let not_sent = error
            .downcast_ref::<hyper_util::client::legacy::Error>()
            .is_some_and(hyper_util::client::legacy::Error::is_connect);
        if not_sent {
            Error::Connect(error)
        } else {
            Error::Transport(error)
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRequest(why) => write!(f, "invalid request: {why}"),
            Error::Connect(source) => write!(f, "could not connect: {}", chain(source.as_ref())),
            Error::Transport(source) => {
                write!(f, "no complete answer: {}", chain(source.as_ref()))
            }
            Error::Timeout(after) => write!(f, "no answer within {after:?}"),
            Error::Body(source) => write!(f, "the answer's body broke off: {}", chain(source.as_ref())),
            Error::Decode(decode) => decode.fmt(f),
            Error::Status(status) => status.fmt(f),
            Error::PageLimit(limit) => limit.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Connect(source) | Error::Transport(source) | Error::Body(source) => Some(source.as_ref()),
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

/// An answer whose body is not what the document says for its status.
#[derive(Debug)]
pub struct DecodeError {
    /// The answer's status.
    pub status: StatusCode,
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
#[derive(Debug)]
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

/// Read a whole body, mapping its failure to [`Error::Body`].
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
        .map_err(|error| Error::Body(error.into()))
}
