//! Typed Server-Sent Events: an [`Sse<T>`] whose events' data is a `T` written as JSON, so the
//! route's document can say what each event holds.
//!
//! Rules enforced here:
//! - an event's data is serialized when the stream yields it, inside the response's stream
//!   (polled at the request's version, as every `Sse`'s: a versioned model takes that
//!   version's shape), and written by [`Event::json_data`] (one `data:` line: JSON has no raw
//!   line break); its other fields are [`Event`]'s, with its framing rules;
//! - data that cannot be serialized, or an `Err` item of [`Sse::json_events`]'s stream, ends the
//!   response as an untyped `Sse`'s error does (logged, the connection closed).

use std::convert::Infallible;
use std::time::Duration;

use futures_core::Stream;
use futures_util::StreamExt;
use serde::Serialize;

use super::body::BoxError;
use super::sse::{Event, Sse};

/// One event of an [`Sse<T>`]: its data, a `T` sent as JSON, and the fields of an [`Event`]
/// (`event`, `id`, `retry`, comments): `JsonEvent::new(tick).event("tick").id("7")`.
#[derive(Debug, Clone)]
pub struct JsonEvent<T> {
    fields: Event,
    data: T,
}

impl<T> JsonEvent<T> {
    /// An event whose data is `data`.
    pub fn new(data: T) -> Self {
        JsonEvent {
            fields: Event::default(),
            data,
        }
    }

    /// Set the event type ([`Event::event`]).
    pub fn event(mut self, event: impl AsRef<str>) -> Self {
        self.fields = self.fields.event(event);
        self
    }

    /// Set the event's id ([`Event::id`]).
    pub fn id(mut self, id: impl AsRef<str>) -> Self {
        self.fields = self.fields.id(id);
        self
    }

    /// Tell the client how long to wait before reconnecting ([`Event::retry`]).
    pub fn retry(mut self, after: Duration) -> Self {
        self.fields = self.fields.retry(after);
        self
    }

    /// Add a comment line ([`Event::comment`]).
    pub fn comment(mut self, text: impl AsRef<str>) -> Self {
        self.fields = self.fields.comment(text);
        self
    }
}

impl<T: Serialize> JsonEvent<T> {
    /// The event on the wire: its fields, then its data's JSON.
    fn into_event(self) -> Result<Event, BoxError> {
        Ok(self.fields.json_data(&self.data)?)
    }
}

impl<T: Serialize + 'static> Sse<T> {
    /// Send each item of `stream` as an event whose data is the item's JSON (no other field).
    pub fn json<S>(stream: S) -> Self
    where
        S: Stream<Item = T> + Send + 'static,
    {
        Self::json_events(stream.map(|data| Ok::<_, Infallible>(JsonEvent::new(data))))
    }

    /// Send the events of `stream`, each with its fields and its data as JSON; an `Err` item
    /// ends the response (logged, the connection closed).
    pub fn json_events<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<JsonEvent<T>, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        Sse::from_events(stream.map(|item| item.map_err(Into::into)?.into_event()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::response::IntoResponse;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn each_item_is_an_event_of_json_data() {
        let items = futures_util::stream::iter([serde_json::json!({"n": 1, "s": "a\nb"})]);
        let response = Sse::json(items).into_response();
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        let body = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(body, "data: {\"n\":1,\"s\":\"a\\nb\"}\n\n");
    }

    #[tokio::test]
    async fn an_events_fields_come_before_its_data() {
        let event = JsonEvent::new(7)
            .event("tick")
            .id("7")
            .retry(Duration::from_secs(1))
            .comment("c");
        let response = Sse::json_events(futures_util::stream::iter([Ok::<_, Infallible>(event)]));
        let body = response
            .into_response()
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes();
        assert_eq!(body, "event: tick\nid: 7\nretry: 1000\n: c\ndata: 7\n\n");
    }

    #[tokio::test]
    async fn an_error_or_unwritable_data_ends_the_response() {
        let items = [Ok(JsonEvent::new(1)), Err(std::io::Error::other("gone"))];
        let mut body = Sse::json_events(futures_util::stream::iter(items))
            .into_response()
            .into_body();
        assert_eq!(
            body.frame().await.unwrap().unwrap().into_data().unwrap(),
            "data: 1\n\n"
        );
        assert_eq!(body.frame().await.unwrap().unwrap_err().to_string(), "gone");

        let unwritable = std::collections::BTreeMap::from([(vec![1u8], 1)]);
        let mut body = Sse::json(futures_util::stream::iter([unwritable]))
            .into_response()
            .into_body();
        let error = body.frame().await.unwrap().unwrap_err();
        assert!(error.to_string().contains("key must be a string"), "{error}");
    }
}
