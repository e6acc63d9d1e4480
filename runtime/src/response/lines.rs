//! JSON Lines: a response streaming models, one JSON value a line (`application/jsonl`), each
//! written as the client takes it.
//!
//! Rules enforced here:
//! - an item is serialized when the body is polled for it, by the streamed body's machinery
//!   ([`Body::from_stream`]): at the request's version, so a versioned model takes that
//!   version's shape, and only as fast as the client reads (backpressure, nothing buffered);
//! - each item is one line, one chunk: its JSON (which has no raw line break) and `\n`;
//! - an item that cannot be serialized, or an `Err` item of [`JsonLines::try_new`]'s stream, ends
//!   the response as any streamed body's error does (logged, the connection closed without the
//!   body's end), so a client never takes a cut stream for a complete one;
//! - the media type is `application/jsonl`: FastAPI's for its streamed JSON lines and OpenAPI
//!   3.2's example of a sequential JSON media type (`application/x-ndjson` is the older,
//!   unregistered spelling of the same format; the generated client reads both);
//! - the item type is in the return type (`JsonLines<T>`), so the route's document gives each
//!   item's schema (`openapi::items`).

use std::convert::Infallible;
use std::marker::PhantomData;

use bytes::Bytes;
use futures_core::Stream;
use futures_util::StreamExt;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use serde::Serialize;

use super::body::{Body, BoxError};
use super::{IntoResponse, Response};

const APPLICATION_JSONL: HeaderValue = HeaderValue::from_static("application/jsonl");

/// A response streaming the items of a stream as JSON lines (`application/jsonl`): each item's
/// JSON on one line, sent when the client can take it. A route returning `JsonLines<T>` is
/// documented with `T`'s schema as its items' (`x-itemSchema`, the manual's *Streaming* chapter).
///
/// `T` is what is written: in an app with versions, a versioned model is written in the shape of
/// the request's version, item by item. The stream is dropped when the client goes away.
pub struct JsonLines<T> {
    body: Body,
    item: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for JsonLines<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLines").finish_non_exhaustive()
    }
}

impl<T: Serialize + 'static> JsonLines<T> {
    /// Send each item of `stream` as a line.
    pub fn new<S>(stream: S) -> Self
    where
        S: Stream<Item = T> + Send + 'static,
    {
        Self::try_new(stream.map(Ok::<T, Infallible>))
    }

    /// Send each `Ok` item of `stream` as a line; an `Err` item ends the response (logged, the
    /// connection closed without the body's end).
    pub fn try_new<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<T, E>> + Send + 'static,
        E: Into<BoxError>,
    {
        let lines = stream.map(|item| line(&item.map_err(Into::into)?));
        JsonLines {
            body: Body::from_stream(lines),
            item: PhantomData,
        }
    }
}

/// `value`'s JSON and a line feed.
fn line<T: Serialize>(value: &T) -> Result<Bytes, BoxError> {
    let mut line = serde_json::to_vec(value)?;
    line.push(b'\n');
    Ok(Bytes::from(line))
}

// Not recommended: kept out of the return types a compile error lists (the common ones).
#[diagnostic::do_not_recommend]
impl<T> IntoResponse for JsonLines<T> {
    fn into_response(self) -> Response {
        let mut response = hyper::Response::new(self.body);
        response.headers_mut().insert(CONTENT_TYPE, APPLICATION_JSONL);
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    #[tokio::test]
    async fn each_item_is_one_line_sent_as_it_comes() {
        let items = futures_util::stream::iter([json_value("a\nb"), json_value("c")]);
        let response = JsonLines::new(items).into_response();
        assert_eq!(response.headers()[CONTENT_TYPE], "application/jsonl");
        let mut body = response.into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "{\"s\":\"a\\nb\"}\n");
        assert_eq!(body.collect().await.unwrap().to_bytes(), "{\"s\":\"c\"}\n");
    }

    fn json_value(s: &str) -> serde_json::Value {
        serde_json::json!({ "s": s })
    }

    #[tokio::test]
    async fn an_error_item_ends_the_response() {
        let items = futures_util::stream::iter([Ok(1), Err(std::io::Error::other("store gone")), Ok(3)]);
        let mut body = JsonLines::try_new(items).into_response().into_body();
        let first = body.frame().await.unwrap().unwrap().into_data().unwrap();
        assert_eq!(first, "1\n");
        let error = body.frame().await.unwrap().unwrap_err();
        assert_eq!(error.to_string(), "store gone");
    }

    /// A value serde cannot write (a map with a non-string key) ends the response too.
    #[tokio::test]
    async fn an_unwritable_item_ends_the_response() {
        let unwritable = std::collections::BTreeMap::from([(vec![1u8], 1)]);
        let mut body = JsonLines::new(futures_util::stream::iter([unwritable]))
            .into_response()
            .into_body();
        let error = body.frame().await.unwrap().unwrap_err();
        assert!(error.to_string().contains("key must be a string"), "{error}");
    }
}
