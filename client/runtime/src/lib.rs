//! The runtime of the Rust clients that `ferrapi-client-gen` generates from an OpenAPI 3.1
//! document: a ferrapi service's, a FastAPI service's, any that describes its API the same way.
//!
//! A generated client is a thin layer over this crate: one method per operation builds its
//! request with a [`RequestBuilder`] and sends it with [`Client::call`], which every call goes
//! through (the timeout, the retries, the decoding); the answer is an [`Answer`] holding the
//! operation's enum of documented statuses. What a generated operation looks like, how to match
//! its answers, stream, retry safely and test an app in-process is the "Clients" chapter of
//! ferrapi's manual.
//!
//! - Transport: hyper-util's pooled client ([`HyperTransport`]), HTTP/1.1 and HTTP/2, TLS with
//!   the `rustls` feature; or any [`Transport`], such as an app's `tower::Service` answering
//!   in-process ([`ServiceTransport`]).
//! - Answers: every status is an answer (a variant per documented status, `Unexpected` for the
//!   rest), with its status, headers and (read whole) its body's bytes as received
//!   ([`Answer::raw_body`]); [`Error`] is only for no answer (no connection, a timeout, a cut
//!   connection) or a body that is not what the document says.
//! - Request ids: every call sends an `X-Request-Id` (its own, or one made per call and kept
//!   across its retries; [`ClientBuilder::request_ids`]), and every [`Error`] names it.
//! - Streams: [`ByteStream`] for downloads, [`EventStream`] for Server-Sent Events (typed data,
//!   reconnection with `Last-Event-ID`), [`JsonLines`]; a list that pages as [`Pages`] and
//!   [`Items`] (ending with [`ErrorKind::PageLimit`] where the server stops serving pages).
//! - Values: [`Nullable`] for a property that is absent, `null` or a value; with the `chrono`,
//!   `uuid`, `decimal` and `url` features, the value crates the document's formats map to (a
//!   generated client names the ones it needs, [`require_features!`]).
//! - Traces and metrics (the `otel` feature): a client span per call (`{method} {route}`, a
//!   child of the current OpenTelemetry context), its retries as child spans, `traceparent`
//!   injected by the global propagator, the `http.client.request.duration` histogram.
//! - Safe writes: an `Idempotency-Key` per logical call ([`idempotency_key`]), retried as
//!   [`RetryPolicy`] allows; an [`ETag`] carried from an answer into `If-Match`.
//!
//! Rules enforced here: this crate knows HTTP and the document's conventions, never a server's
//! crate (a client of a ferrapi service compiles no server); nothing on a call's path panics.

#![forbid(unsafe_code)]

mod answer;
mod bodies;
mod body;
mod client;
mod decode;
mod error;
mod etag;
mod features;
mod form;
mod json;
mod multipart;
mod nullable;
#[cfg(feature = "otel")]
mod otel;
mod param;
mod random;
mod request;
mod request_id;
mod retry;
mod stream;
pub mod tagged;
mod transport;
#[cfg(feature = "chrono")]
mod value;

pub use answer::{Answer, Outcome, Rejected, IDEMPOTENT_REPLAYED, X_REQUEST_ID};
pub use bodies::{HttpError, ProblemDetails, Unexpected};
pub use body::{ChunkStream, RequestBody, ResponseBody};
pub use client::{Call, CallOptions, Client, ClientBuilder, DEFAULT_TIMEOUT};
pub use decode::{Decode, Incoming, Raw};
pub use error::{BoxError, DecodeError, Error, ErrorKind, PageLimitError, StatusError};
pub use etag::{ETag, InvalidETag};
pub use json::{InvalidNumber, Json, JsonNumber, JsonObject};
pub use multipart::{File, Multipart, ToParts};
pub use nullable::Nullable;
pub use param::{ParamValues, ToParam};
pub use random::idempotency_key;
pub use request::{RequestBuilder, IDEMPOTENCY_KEY};
pub use retry::RetryPolicy;
pub use stream::{ByteStream, Event, EventStream, Items, JsonLines, Pages, Paging};
pub use transport::{BoxFuture, HyperSettings, HyperTransport, ServiceTransport, Transport};
#[cfg(feature = "chrono")]
pub use value::{DateTime, Duration, Time};

// The crates generated code names, re-exported so a generated client depends on this crate alone
// (and names the versions this crate reads and writes).
pub use bytes;
pub use hyper::http;
pub use hyper::{HeaderMap, Method, StatusCode};
pub use serde;
pub use serde_json;

#[cfg(feature = "chrono")]
pub use chrono;
/// The OpenTelemetry API this crate's `otel` feature reports to (its version, so a program sets
/// the same global providers and context).
#[cfg(feature = "otel")]
pub use opentelemetry;
#[cfg(feature = "decimal")]
pub use rust_decimal;
#[cfg(feature = "url")]
pub use url;
#[cfg(feature = "uuid")]
pub use uuid;
