//! A route's own `tracing` spans as OpenTelemetry spans (issue 45, item 2): the bridge between
//! the subscriber's span table (`subscriber.rs`) and the app's span sink (its exporter, the one
//! the request's server span goes to, and its resource; `trace::SpanSink`, one `Arc` per app).
//! No `tracing-opentelemetry`: this subscriber keeps the open spans already, so an exported span
//! is one more field of a slot, filled only in a sampled request.
//!
//! Rules enforced here:
//! - a span is exported only when it is opened inside one that is (its `tracing` parent), or
//!   while a sampled request of an app with an exporter is being handled on the thread (its
//!   request scope, `logging::RequestScope`); deciding it is one read of a thread-local, and
//!   in any other case nothing of this file runs and nothing is allocated;
//! - it is a child of the enclosing exported span, else of the request's server span: same
//!   trace, same flags, a new random span id, kind `Internal`, named as the `tracing` span is;
//! - its fields are its attributes, under the names they are written with (a field recorded
//!   later replaces its value, an empty one is none); a text value keeps at most
//!   [`MAX_VALUE_BYTES`] (whole characters): it may be a client's;
//! - it starts when it is opened and ends when it is closed (its last handle dropped, which
//!   comes after its children's), both on the wall clock; it is handed to the exporter there,
//!   on the thread that closed it (an exporter queues and returns, see
//!   [`SpanExporter`](crate::trace::SpanExporter)).

use std::fmt::{self, Write as _};
use std::sync::Arc;
use std::time::SystemTime;

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Record};

use super::format::{Prefix, MAX_VALUE_BYTES};
use crate::trace::{Attribute, AttributeValue, SpanId, SpanKind, SpanRecord, SpanSink, SpanStatus, TraceIds};

/// A route's span being recorded: kept in its slot of the subscriber's table while it is open.
pub(super) struct RouteSpan {
    ids: TraceIds,
    sink: Arc<SpanSink>,
    name: &'static str,
    start: SystemTime,
    attributes: Vec<Attribute>,
}

impl RouteSpan {
    /// The span `attrs` opens, a child of the span (the request's or a route's) of `parent`.
    #[cold]
    #[inline(never)]
    pub(super) fn start(parent: &TraceIds, sink: Arc<SpanSink>, attrs: &Attributes<'_>) -> Box<RouteSpan> {
        let mut span = Box::new(RouteSpan {
            ids: TraceIds {
                trace_id: parent.trace_id,
                span_id: SpanId::random(),
                parent_span_id: Some(parent.span_id),
                flags: parent.flags,
            },
            sink,
            name: attrs.metadata().name(),
            start: SystemTime::now(),
            attributes: Vec::with_capacity(attrs.metadata().fields().len()),
        });
        attrs.record(&mut AttributeFields(&mut span.attributes));
        span
    }

    /// Its ids (its own span id, its parent's): what its children descend from, and what a line
    /// logged in it carries.
    pub(super) fn ids(&self) -> &TraceIds {
        &self.ids
    }

    /// Where it goes, which its children share.
    pub(super) fn sink(&self) -> &Arc<SpanSink> {
        &self.sink
    }

    /// Fields recorded after it was opened (`Span::record`).
    pub(super) fn record(&mut self, values: &Record<'_>) {
        values.record(&mut AttributeFields(&mut self.attributes));
    }

    /// It was closed: hand it to the exporter.
    #[cold]
    #[inline(never)]
    pub(super) fn finish(self) {
        let end = SystemTime::now();
        let RouteSpan {
            ids,
            sink,
            name,
            start,
            attributes,
        } = self;
        sink.export(SpanRecord {
            trace_id: ids.trace_id,
            span_id: ids.span_id,
            parent_span_id: ids.parent_span_id,
            flags: ids.flags,
            name: name.to_owned(),
            kind: SpanKind::Internal,
            start,
            end: end.max(start),
            attributes,
            status: SpanStatus::Unset,
            resource: sink.resource().clone(),
        });
    }
}

/// Records a span's fields as its attributes.
struct AttributeFields<'a>(&'a mut Vec<Attribute>);

impl AttributeFields<'_> {
    fn set(&mut self, field: &Field, value: AttributeValue) {
        let key = field.name();
        match self.0.iter_mut().find(|attribute| attribute.key == key) {
            Some(attribute) => attribute.value = value,
            None => self.0.push(Attribute { key, value }),
        }
    }
}

impl Visit for AttributeFields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let mut end = value.len().min(MAX_VALUE_BYTES);
        while !value.is_char_boundary(end) {
            end -= 1;
        }
        let kept = value.get(..end).unwrap_or_default();
        self.set(field, AttributeValue::from(kept.to_owned()));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.set(field, AttributeValue::Int(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        match i64::try_from(value) {
            Ok(value) => self.set(field, AttributeValue::Int(value)),
            // OTLP's integers are signed: a larger one is written out.
            Err(_) => self.set(field, AttributeValue::from(value.to_string())),
        }
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.set(field, AttributeValue::Double(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.set(field, AttributeValue::Bool(value));
    }

    /// `Debug` and `Display` values (`?x`, `%x`), formatted up to the cap and no further.
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let mut text = String::new();
        let mut prefix = Prefix::new(&mut text);
        let _ = write!(prefix, "{value:?}");
        self.set(field, AttributeValue::from(text));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    use crate::trace::{Resource, SpanExporter, TraceId};

    /// A subscriber that hands each new span's attributes to a [`RouteSpan`], and its records.
    struct Probe(Mutex<Option<Box<RouteSpan>>>, Arc<Mutex<Vec<SpanRecord>>>);

    impl tracing::Subscriber for Probe {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, attrs: &Attributes<'_>) -> tracing::span::Id {
            let collected = self.1.clone();
            let exporter: Arc<dyn SpanExporter> = Arc::new(move |span: SpanRecord| {
                collected.lock().unwrap().push(span);
            });
            let parent = TraceIds {
                trace_id: TraceId::from_u128(7).unwrap(),
                span_id: SpanId::from_u64(9).unwrap(),
                parent_span_id: None,
                flags: 1,
            };
            let sink = Arc::new(SpanSink::new(exporter, Arc::new(Resource::new("probe"))));
            *self.0.lock().unwrap() = Some(RouteSpan::start(&parent, sink, attrs));
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, values: &Record<'_>) {
            if let Some(span) = self.0.lock().unwrap().as_mut() {
                span.record(values);
            }
        }
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, _: &tracing::Event<'_>) {}
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
        fn try_close(&self, _: tracing::span::Id) -> bool {
            if let Some(span) = self.0.lock().unwrap().take() {
                (*span).finish();
            }
            true
        }
    }

    #[test]
    fn fields_become_attributes_and_the_span_a_child() {
        let records = Arc::new(Mutex::new(Vec::new()));
        let probe = Probe(Mutex::new(None), records.clone());
        tracing::subscriber::with_default(probe, || {
            let long = "é".repeat(MAX_VALUE_BYTES);
            let span = tracing::info_span!(
                "load",
                id = 7_i64,
                big = u64::MAX,
                ratio = 0.5,
                hit = true,
                who = "ann",
                shown = %"display",
                long = long.as_str(),
                later = tracing::field::Empty,
            );
            span.record("later", 3_i64);
            span.record("id", 8_i64);
        });
        let records = records.lock().unwrap();
        let [span] = &records[..] else {
            panic!("one span: {records:?}");
        };
        assert_eq!(span.name, "load");
        assert_eq!(span.kind, SpanKind::Internal);
        assert_eq!(span.trace_id, TraceId::from_u128(7).unwrap());
        assert_eq!(span.parent_span_id, SpanId::from_u64(9));
        assert_ne!(span.span_id, SpanId::from_u64(9).unwrap());
        assert!(span.end >= span.start);
        assert_eq!(span.attribute("id"), Some(&AttributeValue::Int(8)), "replaced");
        assert_eq!(span.attribute("later"), Some(&AttributeValue::Int(3)));
        assert_eq!(
            span.attribute("big").and_then(AttributeValue::as_str),
            Some("18446744073709551615")
        );
        assert_eq!(span.attribute("ratio"), Some(&AttributeValue::Double(0.5)));
        assert_eq!(span.attribute("hit"), Some(&AttributeValue::Bool(true)));
        assert_eq!(
            span.attribute("who").and_then(AttributeValue::as_str),
            Some("ann")
        );
        assert_eq!(
            span.attribute("shown").and_then(AttributeValue::as_str),
            Some("display")
        );
        let long = span.attribute("long").and_then(AttributeValue::as_str).unwrap();
        assert_eq!(long.len(), MAX_VALUE_BYTES, "capped on a character's boundary");
        assert_eq!(span.attributes.len(), 8, "an empty field is no attribute");
    }
}
