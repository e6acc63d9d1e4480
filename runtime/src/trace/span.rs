//! A finished span, in the framework's own types, and the trait that takes it away
//! ([`SpanExporter`]): what the request path hands over, so that an exporter (an in-process one
//! for tests, OTLP behind a feature) is added without touching that path.
//!
//! Rules enforced here:
//! - a [`SpanRecord`] is made only for a sampled request of an app with an exporter: an
//!   unsampled request never builds one (`dispatch/observe.rs` checks the flag first);
//! - attribute keys are OpenTelemetry's names (`http.request.method`, ...), as `&'static str`:
//!   the record owns only its values;
//! - a record carries the events logged in its span ([`SpanEvent`], at most
//!   [`MAX_EVENTS_PER_SPAN`](super::MAX_EVENTS_PER_SPAN), the others only counted: `events.rs`);
//! - [`SpanExporter::export`] runs on the thread that answered the request, once per sampled
//!   request: an exporter queues and returns, it never blocks or does I/O there.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;
use std::time::SystemTime;

use super::{Resource, SpanId, TraceId};

/// What a span stands for (OpenTelemetry's `SpanKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// A request this process answered.
    Server,
    /// A call this process made.
    Client,
    /// A message this process sent for another to handle later (a route's span with
    /// `otel.kind = "producer"`).
    Producer,
    /// A message this process handled (`otel.kind = "consumer"`).
    Consumer,
    /// Work inside this process.
    Internal,
}

impl SpanKind {
    /// The kind `name` stands for (`server`, `client`, `producer`, `consumer`, `internal`, in
    /// any case), as `tracing-opentelemetry` reads `otel.kind`; `None` for another name.
    pub fn from_name(name: &str) -> Option<SpanKind> {
        [
            ("server", SpanKind::Server),
            ("client", SpanKind::Client),
            ("producer", SpanKind::Producer),
            ("consumer", SpanKind::Consumer),
            ("internal", SpanKind::Internal),
        ]
        .into_iter()
        .find(|(known, _)| name.trim().eq_ignore_ascii_case(known))
        .map(|(_, kind)| kind)
    }
}

/// How a span ended (OpenTelemetry's span status). The framework sets an error on a server
/// span's 5xx; `Ok` and a route span's status are the route's to set (`otel.status_code`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanStatus {
    /// No error (the HTTP conventions leave a server span's 1xx–4xx unset).
    Unset,
    /// The operation succeeded, as the application says (a description is not kept with it).
    Ok,
    /// An error, with its description (a 5xx answer's, or the route's `otel.status_message`).
    Error(String),
}

/// An attribute's value.
#[derive(Debug, Clone, PartialEq)]
pub enum AttributeValue {
    /// A string.
    Str(Cow<'static, str>),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Double(f64),
    /// A boolean.
    Bool(bool),
}

impl AttributeValue {
    /// The string, when it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            AttributeValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer, when it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            AttributeValue::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl fmt::Display for AttributeValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttributeValue::Str(s) => f.write_str(s),
            AttributeValue::Int(i) => write!(f, "{i}"),
            AttributeValue::Double(d) => write!(f, "{d}"),
            AttributeValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

impl From<&'static str> for AttributeValue {
    fn from(value: &'static str) -> Self {
        AttributeValue::Str(Cow::Borrowed(value))
    }
}

impl From<String> for AttributeValue {
    fn from(value: String) -> Self {
        AttributeValue::Str(Cow::Owned(value))
    }
}

impl From<i64> for AttributeValue {
    fn from(value: i64) -> Self {
        AttributeValue::Int(value)
    }
}

/// One attribute: an OpenTelemetry name and its value.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribute {
    /// The name (`http.route`).
    pub key: &'static str,
    /// The value.
    pub value: AttributeValue,
}

impl Attribute {
    /// The attribute `key` = `value`.
    pub fn new(key: &'static str, value: impl Into<AttributeValue>) -> Self {
        Attribute {
            key,
            value: value.into(),
        }
    }
}

/// Something that happened during a span: an event logged in it (OpenTelemetry's `Span.Event`).
#[derive(Debug, Clone, PartialEq)]
pub struct SpanEvent {
    /// Its name: the event's message (else `tracing`'s name of the event, `event file:line`).
    pub name: String,
    /// When it was logged.
    pub time: SystemTime,
    /// Its fields, then `level` (`INFO`) and `target`, as `tracing-opentelemetry` names them.
    pub attributes: Vec<Attribute>,
}

/// A finished span, as an exporter receives it.
#[derive(Debug, Clone)]
pub struct SpanRecord {
    /// The trace it belongs to.
    pub trace_id: TraceId,
    /// Its own id.
    pub span_id: SpanId,
    /// Its parent's id (the caller's span), when it has one.
    pub parent_span_id: Option<SpanId>,
    /// The trace flags it was sampled with ([`SAMPLED`](super::SAMPLED) set).
    pub flags: u8,
    /// Its name: `{method} {route template}` for a server span (`GET /item/{id}`), the method
    /// alone when no route answered.
    pub name: String,
    /// What it stands for.
    pub kind: SpanKind,
    /// When it started (the request's head read).
    pub start: SystemTime,
    /// When it ended (the answer ready).
    pub end: SystemTime,
    /// Its attributes, by OpenTelemetry's HTTP semantic conventions.
    pub attributes: Vec<Attribute>,
    /// The events logged in it (a route's `tracing::info!(…)`), in the order logged, at most
    /// [`MAX_EVENTS_PER_SPAN`](super::MAX_EVENTS_PER_SPAN).
    pub events: Vec<SpanEvent>,
    /// The events logged in it past that cap, not kept.
    pub dropped_events_count: u32,
    /// How it ended.
    pub status: SpanStatus,
    /// The process it was recorded in.
    pub resource: Arc<Resource>,
}

impl SpanRecord {
    /// The value of attribute `key`, when the span has it.
    pub fn attribute(&self, key: &str) -> Option<&AttributeValue> {
        self.attributes
            .iter()
            .find(|attribute| attribute.key == key)
            .map(|attribute| &attribute.value)
    }
}

/// Where finished spans go: give one to `Tracing::exporter`. Called once per sampled request,
/// on the thread that answered it: queue the span and return (never block, never do I/O there).
pub trait SpanExporter: Send + Sync + 'static {
    /// Take a finished span.
    fn export(&self, span: SpanRecord);
}

/// Where an app's spans go: its exporter and its process's attributes, made once when the app
/// is built (`Tracing::compile`) and shared by every sampled request (its server span and the
/// spans its route opens, `logging/route_span.rs`) through one `Arc`.
pub(crate) struct SpanSink {
    exporter: Arc<dyn SpanExporter>,
    resource: Arc<Resource>,
}

impl SpanSink {
    /// The sink of `exporter`, the spans recorded under `resource`.
    pub(crate) fn new(exporter: Arc<dyn SpanExporter>, resource: Arc<Resource>) -> Self {
        SpanSink { exporter, resource }
    }

    /// Hand `span` to the exporter.
    pub(crate) fn export(&self, span: SpanRecord) {
        self.exporter.export(span);
    }

    /// The process's attributes.
    pub(crate) fn resource(&self) -> &Arc<Resource> {
        &self.resource
    }
}

impl<F> SpanExporter for F
where
    F: Fn(SpanRecord) + Send + Sync + 'static,
{
    fn export(&self, span: SpanRecord) {
        self(span)
    }
}
