//! Server-Sent Events: a response streaming events (`text/event-stream`) as a handler's stream
//! produces them, with keep-alive comments between them.
//!
//! Rules enforced here:
//! - an event is written in the format of the HTML standard (`event:`, `id:`, `retry:`, one
//!   `data:` line per line of the data, `:` comments, a blank line after it); a field value
//!   cannot break the framing: a line break inside `event`, `id` or a comment is refused at the
//!   builder (the value is dropped and logged), an `id` with a NUL too, and data is split on
//!   every line break (`\r\n`, `\r`, `\n`), so no value can start another field or event;
//! - each event is one chunk, handed on as soon as the stream yields it: nothing is buffered, so
//!   a token reaches the client as soon as it is produced;
//! - with [`Sse::keep_alive`], a comment is sent whenever the stream has been silent for the
//!   interval, so proxies keep the connection open and a client that left is noticed (the write
//!   fails): the stream is then dropped, which stops the producer;
//! - the answer carries `Cache-Control: no-cache` and `X-Accel-Buffering: no` (proxies must not
//!   store nor hold it back); compression layers skip `text/event-stream` (tower-http's default
//!   predicate does), which would otherwise hold events back in their buffer;
//! - events made by a route's code in an app with versions are produced at the request's version
//!   (`versions::Scoped`), so a versioned model's `json_data` has that version's shape;
//! - an error of the stream ends the response like a streamed body's (logged, connection closed).

use std::borrow::Cow;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use std::future::Future;

use bytes::{BufMut, Bytes, BytesMut};
use futures_core::Stream;
use hyper::body::{Frame, SizeHint};
use hyper::header::{HeaderValue, CACHE_CONTROL, CONTENT_TYPE};
use serde::Serialize;
use tokio::time::{Instant, Sleep};

use super::body::{Body, BoxError};
use super::stream::stream_failed;
use super::{IntoResponse, Response};
use crate::versions::{current, Scoped};

const TEXT_EVENT_STREAM: HeaderValue = HeaderValue::from_static("text/event-stream");

/// One server-sent event, built field by field: `Event::default().event("tick").id("7").data("…")`.
#[derive(Debug, Clone, Default)]
pub struct Event {
    buffer: BytesMut,
}

impl Event {
    /// Add `data`: one `data:` line per line of it (the client joins them with `\n`). Called
    /// twice, the data of both calls is sent, as two lines.
    pub fn data(mut self, data: impl AsRef<str>) -> Self {
        for line in split_lines(data.as_ref()) {
            self.field("data", line);
        }
        self
    }

    /// Add `value` serialized as JSON as the data (JSON has no raw line breaks).
    pub fn json_data<T: Serialize + ?Sized>(self, value: &T) -> Result<Self, serde_json::Error> {
        let json = serde_json::to_string(value)?;
        Ok(self.data(json))
    }

    /// Set the event type (the client's `addEventListener` name; `message` when absent).
    pub fn event(mut self, event: impl AsRef<str>) -> Self {
        let event = event.as_ref();
        if single_line("event", event) {
            self.field("event", event);
        }
        self
    }

    /// Set the event's id: the client sends the last one it saw back as `Last-Event-ID` when it
    /// reconnects (see [`LastEventId`]).
    pub fn id(mut self, id: impl AsRef<str>) -> Self {
        let id = id.as_ref();
        if id.contains('\0') {
            tracing::error!("server-sent event id with a NUL dropped (clients would ignore it)");
        } else if single_line("id", id) {
            self.field("id", id);
        }
        self
    }

    /// Tell the client how long to wait before reconnecting after the connection is lost.
    pub fn retry(mut self, after: Duration) -> Self {
        let millis = after.as_millis().to_string();
        self.field("retry", &millis);
        self
    }

    /// Add a comment line (`: text`), which clients ignore.
    pub fn comment(mut self, text: impl AsRef<str>) -> Self {
        let text = text.as_ref();
        if single_line("comment", text) {
            self.field("", text);
        }
        self
    }

    fn field(&mut self, name: &str, value: &str) {
        self.buffer.reserve(name.len() + value.len() + 3);
        self.buffer.put_slice(name.as_bytes());
        self.buffer.put_u8(b':');
        if !value.is_empty() {
            self.buffer.put_u8(b' ');
        }
        self.buffer.put_slice(value.as_bytes());
        self.buffer.put_u8(b'\n');
    }

    /// The event on the wire, with the blank line that ends it.
    fn finish(mut self) -> Bytes {
        self.buffer.put_u8(b'\n');
        self.buffer.freeze()
    }
}

/// The lines of `text`, split at `\r\n`, `\r` and `\n` (the three line ends of the format).
fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\r', '\n']) {
            None => {
                rest = None;
                Some(text)
            }
            Some(at) => {
                let skip = if text[at..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&text[at + skip..]);
                Some(&text[..at])
            }
        }
    })
}

/// True when `value` has no line break; else it is dropped and logged (it would end the field).
fn single_line(field: &'static str, value: &str) -> bool {
    let ok = !value.contains(['\r', '\n']);
    if !ok {
        tracing::error!(field, "server-sent event field with a line break dropped");
    }
    ok
}

/// How often to send a keep-alive comment while the stream is silent, and its text.
#[derive(Debug, Clone)]
pub struct KeepAlive {
    interval: Duration,
    text: Cow<'static, str>,
}

impl KeepAlive {
    /// A comment every 15 seconds of silence.
    pub fn new() -> Self {
        KeepAlive {
            interval: Duration::from_secs(15),
            text: Cow::Borrowed(""),
        }
    }

    /// Set the interval of silence after which a comment is sent.
    pub fn interval(mut self, interval: Duration) -> Self {
        self.interval = interval;
        self
    }

    /// Set the comment's text (empty by default: `:` alone). A text with a line break is ignored.
    pub fn text(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        let text = text.into();
        if single_line("keep-alive", &text) {
            self.text = text;
        }
        self
    }
}

impl Default for KeepAlive {
    fn default() -> Self {
        Self::new()
    }
}

/// The events of an [`Sse`] response, their error type erased.
type EventStream = Pin<Box<dyn Stream<Item = Result<Event, BoxError>> + Send>>;

/// A Server-Sent Events response: the events of a stream (`Result<Event, E>` items), sent as
/// `text/event-stream` as they come. A route returning it is documented with that media type.
/// Not generic over the stream (it is boxed once), so a route's return type is `Sse`, whatever
/// produces the events.
///
/// `Sse<T>` (built with [`Sse::json`] or [`Sse::json_events`]) is a stream of events whose data
/// is a `T` written as JSON: the route's document then gives each event's schema, `T`'s
/// included (`x-itemSchema`), so a generated client reads typed events. `Sse` alone is
/// `Sse<Untyped>`: events of any text.
///
/// The stream is dropped when the client goes away (noticed at the next write: use
/// [`keep_alive`](Sse::keep_alive) so that there is one even when no event comes). The client's
/// `Last-Event-ID`, on a reconnection, is the route argument [`LastEventId`].
pub struct Sse<T = Untyped> {
    stream: EventStream,
    keep_alive: Option<KeepAlive>,
    data: PhantomData<fn() -> T>,
}

/// The data of an [`Sse`] made of [`Event`]s: any text (documented as a string). It has no
/// value; it only names the type.
#[derive(Debug, Clone, Copy)]
pub enum Untyped {}

impl<T> std::fmt::Debug for Sse<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sse")
            .field("keep_alive", &self.keep_alive)
            .finish_non_exhaustive()
    }
}

impl Sse {
    /// Send the events of `stream`; an `Err` item ends the response (logged, connection closed).
    pub fn new<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<Event, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        Self::from_events(stream)
    }
}

impl<T> Sse<T> {
    /// Send the events of `stream` (whatever the data's type says): an `Err` item ends the
    /// response.
    pub(super) fn from_events<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<Event, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        let stream = futures_util::StreamExt::map(stream, |item| item.map_err(Into::into));
        // Made by a route's code in an app with versions: its events are produced at the
        // request's version (a model's `json_data` in that version's shape).
        let stream: EventStream = match current() {
            None => Box::pin(stream),
            Some(at) => Box::pin(Scoped::new(at, stream)),
        };
        Sse {
            stream,
            keep_alive: None,
            data: PhantomData,
        }
    }

    /// Send a comment after each `keep_alive.interval` without an event.
    pub fn keep_alive(mut self, keep_alive: KeepAlive) -> Self {
        self.keep_alive = Some(keep_alive);
        self
    }
}

// Not recommended: kept out of the return types a compile error lists (the common ones).
#[diagnostic::do_not_recommend]
impl<T> IntoResponse for Sse<T> {
    fn into_response(self) -> Response {
        let keep_alive = self.keep_alive.map(|keep_alive| {
            let comment = Event::default().comment(&keep_alive.text).finish();
            Alive {
                sleep: Box::pin(tokio::time::sleep(keep_alive.interval)),
                interval: keep_alive.interval,
                comment,
            }
        });
        let body = EventBody {
            stream: self.stream,
            keep_alive,
        };
        let mut response = hyper::Response::new(Body::new(body));
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, TEXT_EVENT_STREAM);
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
        response
    }
}

/// The keep-alive timer of one response.
struct Alive {
    sleep: Pin<Box<Sleep>>,
    interval: Duration,
    comment: Bytes,
}

/// The body of an SSE response: the events, and keep-alive comments in the silences.
struct EventBody {
    stream: EventStream,
    keep_alive: Option<Alive>,
}

impl hyper::body::Body for EventBody {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = self.get_mut();
        match this.stream.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(event))) => {
                if let Some(alive) = &mut this.keep_alive {
                    let next = Instant::now() + alive.interval;
                    alive.sleep.as_mut().reset(next);
                }
                Poll::Ready(Some(Ok(Frame::data(event.finish()))))
            }
            Poll::Ready(Some(Err(error))) => Poll::Ready(Some(Err(stream_failed(error)))),
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => match &mut this.keep_alive {
                Some(alive) => match alive.sleep.as_mut().poll(cx) {
                    Poll::Ready(()) => {
                        let next = Instant::now() + alive.interval;
                        alive.sleep.as_mut().reset(next);
                        Poll::Ready(Some(Ok(Frame::data(alive.comment.clone()))))
                    }
                    Poll::Pending => Poll::Pending,
                },
                None => Poll::Pending,
            },
        }
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::default()
    }
}

/// The `Last-Event-ID` header of the request, as a route argument: the id of the last event a
/// reconnecting client received, so the route can resume after it; `None` on a first connection
/// (or when the header is not valid text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LastEventId(pub Option<String>);

impl LastEventId {
    /// The id, if the client sent one.
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    fn wire(event: Event) -> String {
        String::from_utf8(event.finish().to_vec()).unwrap()
    }

    #[test]
    fn fields_are_written_in_the_standard_format() {
        let event = Event::default()
            .event("tick")
            .id("7")
            .retry(Duration::from_millis(1500))
            .comment("hi")
            .data("a\nb\r\nc\rd");
        assert_eq!(
            wire(event),
            "event: tick\nid: 7\nretry: 1500\n: hi\ndata: a\ndata: b\ndata: c\ndata: d\n\n"
        );
        assert_eq!(wire(Event::default().data("")), "data:\n\n");
        assert_eq!(wire(Event::default().comment("")), ":\n\n");
        let json = Event::default()
            .json_data(&serde_json::json!({"a": "x\ny"}))
            .unwrap();
        assert_eq!(wire(json), "data: {\"a\":\"x\\ny\"}\n\n");
    }

    #[test]
    fn a_value_that_would_break_the_framing_is_dropped() {
        let event = Event::default()
            .event("a\nevent: b")
            .id("1\r")
            .id("nul\0")
            .comment("x\ndata: injected");
        assert_eq!(wire(event), "\n");
    }

    #[tokio::test(start_paused = true)]
    async fn silence_is_filled_with_keep_alive_comments() {
        let (tx, rx) = tokio::sync::mpsc::channel::<Result<Event, std::io::Error>>(1);
        let stream =
            futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) });
        let response = Sse::new(stream)
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)).text("ping"))
            .into_response();
        assert_eq!(response.headers()[CONTENT_TYPE], "text/event-stream");
        let mut body = response.into_body();
        let frame = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(frame, ": ping\n\n");
        tx.send(Ok(Event::default().data("x"))).await.unwrap();
        let frame = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(frame, "data: x\n\n");
        drop(tx);
        assert!(body.frame().await.is_none());
    }
}
