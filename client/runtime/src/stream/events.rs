//! Server-Sent Events as a typed stream, reconnecting as EventSource does.
//!
//! Rules enforced here: each event's data is decoded to the type the document gives it (or kept
//! as text); when the connection breaks mid-stream, the request is sent again after the
//! stream's `retry` delay (1 s until the server sets one) with `Last-Event-ID` set to the last
//! event id, so the server can resume where the client was; attempts in a row are bounded
//! (reset by each event received); a reconnection answered `204` ends the stream (the
//! standard's way for a server to say "stop"), any other status but `200` ends it with an error.
//! A stream the server ends cleanly is over (unlike EventSource, which reconnects then too) unless
//! [`EventStream::reconnect_on_end`] asks for the browser's behaviour. With the `otel` feature,
//! each reconnection is a client span under the call's (`otel::Reconnections`).

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_core::Stream;
use http_body::Body;
use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode, Uri};

use super::sse::{Parser, RawEvent};
use crate::body::{RequestBody, ResponseBody};
use crate::error::{Error, ErrorKind};
use crate::transport::{BoxFuture, Carrier};

/// The delay before a reconnection until the stream sets one with `retry`.
pub const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// Reconnections in a row (without an event between them) before the stream gives up.
pub const MAX_RECONNECTS: u32 = 5;

const LAST_EVENT_ID: HeaderName = HeaderName::from_static("last-event-id");

/// One Server-Sent Event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event<T> {
    /// The data, decoded.
    pub data: T,
    /// The event's type (`event:`), `None` for the default `message`.
    pub event: Option<String>,
    /// The last event id when it was dispatched (`id:`, possibly of an earlier event): what a
    /// reconnection sends as `Last-Event-ID`.
    pub id: Option<String>,
    /// The reconnection delay the stream has set, if any.
    pub retry: Option<Duration>,
}

/// What is needed to send a request again: a stream's reconnection.
#[derive(Clone)]
pub(crate) struct Resume {
    pub(crate) carrier: Carrier,
    pub(crate) method: Method,
    pub(crate) uri: Uri,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
    /// The call's span, the parent of each reconnection's (the `otel` feature).
    #[cfg(feature = "otel")]
    pub(crate) spans: crate::otel::Reconnections,
}

impl std::fmt::Debug for Resume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Resume({} {})", self.method, self.uri)
    }
}

impl Resume {
    /// Send the request again after `wait`, with `Last-Event-ID: last_id` when there is one: the
    /// stream's reconnection number `count`.
    #[cfg_attr(not(feature = "otel"), allow(unused_variables))]
    fn send(
        &self,
        wait: Duration,
        last_id: &str,
        count: u32,
    ) -> BoxFuture<'static, Result<Response<ResponseBody>, Error>> {
        let mut request = Request::new(RequestBody::full(self.body.clone()));
        *request.method_mut() = self.method.clone();
        *request.uri_mut() = self.uri.clone();
        *request.headers_mut() = self.headers.clone();
        if let Ok(value) = HeaderValue::try_from(last_id) {
            if !last_id.is_empty() {
                request.headers_mut().insert(LAST_EVENT_ID, value);
            }
        }
        let carrier = self.carrier.clone();
        #[cfg(feature = "otel")]
        let spans = self.spans.clone();
        Box::pin(async move {
            tokio::time::sleep(wait).await;
            // Its span starts when it is sent, not during the wait.
            #[cfg(feature = "otel")]
            let traced = spans.attempt(count, request.headers_mut());
            let answer = carrier.send(request).await;
            #[cfg(feature = "otel")]
            spans.attempted(
                traced,
                match &answer {
                    Ok(response) => crate::otel::Outcome::Answered(response.status()),
                    Err(error) => crate::otel::Outcome::Failed(error),
                },
            );
            answer
        })
    }
}

/// A `text/event-stream` answer: its events, each data decoded to a `T`.
pub struct EventStream<T> {
    body: Option<ResponseBody>,
    parser: Parser,
    decode: fn(&str) -> Result<T, serde_json::Error>,
    resume: Option<Resume>,
    reconnecting: Option<BoxFuture<'static, Result<Response<ResponseBody>, Error>>>,
    attempts: u32,
    /// Reconnections so far (not reset by events): a reconnection's number.
    reconnections: u32,
    max_reconnects: u32,
    reconnect_on_end: bool,
    /// The call's request id (every reconnection sends it too), for the errors.
    request_id: Option<Box<str>>,
    /// The headers of the answer being read, for an event's decode error.
    headers: HeaderMap,
}

impl<T> std::fmt::Debug for EventStream<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventStream")
            .field("last_event_id", &self.parser.last_id())
            .field("resume", &self.resume)
            .finish_non_exhaustive()
    }
}

impl<T> EventStream<T> {
    pub(crate) fn new(
        body: ResponseBody,
        resume: Option<Resume>,
        decode: fn(&str) -> Result<T, serde_json::Error>,
    ) -> Self {
        EventStream {
            body: Some(body),
            parser: Parser::default(),
            decode,
            resume,
            reconnecting: None,
            attempts: 0,
            reconnections: 0,
            max_reconnects: MAX_RECONNECTS,
            reconnect_on_end: false,
            request_id: None,
            headers: HeaderMap::new(),
        }
    }

    /// This stream of an answer with `headers`, its errors naming request `id`.
    pub(crate) fn named(mut self, id: Option<Box<str>>, headers: HeaderMap) -> Self {
        self.request_id = id;
        self.headers = headers;
        self
    }

    /// `error`, naming the stream's request id.
    fn named_error(&self, error: impl Into<Error>) -> Error {
        error.into().named(self.request_id.clone())
    }

    /// The last event id received (what a reconnection sends as `Last-Event-ID`).
    pub fn last_event_id(&self) -> Option<&str> {
        Some(self.parser.last_id()).filter(|id| !id.is_empty())
    }

    /// Reconnect at most `attempts` times in a row (0: never reconnect).
    pub fn max_reconnects(mut self, attempts: u32) -> Self {
        self.max_reconnects = attempts;
        self
    }

    /// Reconnect also when the server ends the stream cleanly, as a browser's EventSource does
    /// (the stream then ends only when a reconnection is answered `204`, or fails).
    pub fn reconnect_on_end(mut self, reconnect: bool) -> Self {
        self.reconnect_on_end = reconnect;
        self
    }

    /// Start a reconnection, if one is allowed.
    fn reconnect(&mut self) -> bool {
        self.body = None;
        self.parser.reset();
        let Some(resume) = &self.resume else {
            return false;
        };
        if self.attempts >= self.max_reconnects {
            return false;
        }
        self.attempts += 1;
        self.reconnections = self.reconnections.saturating_add(1);
        let wait = self.parser.retry().unwrap_or(DEFAULT_RETRY);
        self.reconnecting = Some(resume.send(wait, self.parser.last_id(), self.reconnections));
        true
    }

    fn event(&mut self, raw: RawEvent) -> Result<Event<T>, Error> {
        self.attempts = 0;
        match (self.decode)(&raw.data) {
            Ok(data) => Ok(Event {
                data,
                event: raw.event,
                id: raw.id,
                retry: raw.retry,
            }),
            Err(error) => {
                let decode =
                    Error::decode_answer(StatusCode::OK, self.headers.clone(), error, Bytes::from(raw.data));
                Err(self.named_error(decode))
            }
        }
    }
}

impl<T> Stream for EventStream<T> {
    type Item = Result<Event<T>, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        loop {
            if let Some(raw) = this.parser.next() {
                return Poll::Ready(Some(this.event(raw)));
            }
            if let Some(reconnecting) = this.reconnecting.as_mut() {
                let answer = match reconnecting.as_mut().poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(answer) => answer,
                };
                this.reconnecting = None;
                match answer {
                    Ok(response) if response.status() == StatusCode::OK => {
                        let (head, body) = response.into_parts();
                        this.headers = head.headers;
                        this.body = Some(body);
                    }
                    Ok(response) if response.status() == StatusCode::NO_CONTENT => return Poll::Ready(None),
                    Ok(response) => {
                        this.resume = None;
                        let why = format!(
                            "the event stream's reconnection was answered {}",
                            response.status()
                        );
                        return Poll::Ready(Some(Err(this.named_error(ErrorKind::Transport(why.into())))));
                    }
                    Err(error) => {
                        if !this.reconnect() {
                            this.resume = None;
                            return Poll::Ready(Some(Err(this.named_error(error))));
                        }
                    }
                }
                continue;
            }
            let Some(body) = this.body.as_mut() else {
                return Poll::Ready(None);
            };
            match Pin::new(body).poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        this.parser.feed(&data);
                    }
                }
                Poll::Ready(None) => {
                    if !(this.reconnect_on_end && this.reconnect()) {
                        this.body = None;
                        return Poll::Ready(None);
                    }
                }
                Poll::Ready(Some(Err(error))) => {
                    if !this.reconnect() {
                        this.resume = None;
                        return Poll::Ready(Some(Err(this.named_error(ErrorKind::Body(error)))));
                    }
                }
            }
        }
    }
}
