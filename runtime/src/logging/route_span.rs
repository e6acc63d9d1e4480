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
//!   trace, same flags, a new random span id, kind `Internal` and named as the `tracing` span
//!   is, unless its `otel.*` fields say otherwise (`otel_fields.rs`, as `tracing-opentelemetry`
//!   reads them: name, kind, status);
//! - its other fields are its attributes, under the names they are written with (a field
//!   recorded later replaces its value, an empty one is none), read by `otel_fields.rs`;
//! - the events logged in it (the subscriber finds the innermost exported span of an event) are
//!   its span events, at most `MAX_EVENTS_PER_SPAN`, the others counted
//!   (`trace/events.rs`);
//! - it starts when it is opened and ends when it is closed (its last handle dropped, which
//!   comes after its children's), both on the wall clock; it is handed to the exporter there,
//!   on the thread that closed it (an exporter queues and returns, see
//!   [`SpanExporter`](crate::trace::SpanExporter)).

use std::sync::Arc;
use std::time::SystemTime;

use tracing::span::{Attributes, Record};

use super::otel_fields::{span_fields, SpanOverrides};
use crate::trace::{Attribute, SpanEvent, SpanEvents, SpanId, SpanRecord, SpanSink, TraceIds};

/// A route's span being recorded: kept in its slot of the subscriber's table while it is open.
pub(super) struct RouteSpan {
    ids: TraceIds,
    sink: Arc<SpanSink>,
    name: &'static str,
    start: SystemTime,
    attributes: Vec<Attribute>,
    /// What its `otel.*` fields say.
    overrides: SpanOverrides,
    events: SpanEvents,
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
            overrides: SpanOverrides::default(),
            events: SpanEvents::default(),
        });
        let RouteSpan {
            attributes,
            overrides,
            ..
        } = &mut *span;
        attrs.record(&mut span_fields(attributes, overrides));
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
        values.record(&mut span_fields(&mut self.attributes, &mut self.overrides));
    }

    /// Whether one more event is kept (else it is counted as dropped): asked before the event is
    /// built.
    pub(super) fn event_room(&mut self) -> bool {
        self.events.room()
    }

    /// An error-level event was logged in it (kept or not): unless its `otel.*` fields set its
    /// status, it is an error.
    pub(super) fn error_logged(&mut self) {
        self.overrides.error_logged();
    }

    /// An event logged in it.
    pub(super) fn add_event(&mut self, event: SpanEvent) {
        self.events.push(event);
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
            mut overrides,
            events,
        } = self;
        let (events, dropped_events_count) = events.into_parts();
        sink.export(SpanRecord {
            trace_id: ids.trace_id,
            span_id: ids.span_id,
            parent_span_id: ids.parent_span_id,
            flags: ids.flags,
            name: overrides.name().unwrap_or_else(|| name.to_owned()),
            kind: overrides.kind(),
            start,
            end: end.max(start),
            attributes,
            events,
            dropped_events_count,
            status: overrides.status(),
            resource: sink.resource().clone(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    use crate::logging::otel_fields::span_event;
    use crate::trace::{
        AttributeValue, Resource, SpanExporter, SpanKind, SpanStatus, TraceId, MAX_EVENTS_PER_SPAN,
    };

    /// A subscriber that hands each new span's attributes to a [`RouteSpan`], its records and
    /// events (while there is room), and its records.
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
        fn event(&self, event: &tracing::Event<'_>) {
            if let Some(span) = self.0.lock().unwrap().as_mut() {
                if span.event_room() {
                    span.add_event(span_event(event));
                }
            }
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
        fn try_close(&self, _: tracing::span::Id) -> bool {
            if let Some(span) = self.0.lock().unwrap().take() {
                (*span).finish();
            }
            true
        }
    }

    /// The one span `open` opens and closes, as exported.
    fn exported(open: impl FnOnce()) -> SpanRecord {
        let records = Arc::new(Mutex::new(Vec::new()));
        tracing::subscriber::with_default(Probe(Mutex::new(None), records.clone()), open);
        let mut records = records.lock().unwrap();
        assert_eq!(records.len(), 1, "one span: {records:?}");
        records.pop().unwrap()
    }

    #[test]
    fn a_span_is_a_child_with_its_fields_as_attributes() {
        let span = exported(|| {
            let span = tracing::info_span!("load", id = 7_i64, later = tracing::field::Empty);
            span.record("later", 3_i64);
        });
        assert_eq!(span.name, "load");
        assert_eq!(span.kind, SpanKind::Internal);
        assert_eq!(span.status, SpanStatus::Unset);
        assert_eq!(span.trace_id, TraceId::from_u128(7).unwrap());
        assert_eq!(span.parent_span_id, SpanId::from_u64(9));
        assert_ne!(span.span_id, SpanId::from_u64(9).unwrap());
        assert!(span.end >= span.start);
        assert_eq!(span.attribute("id"), Some(&AttributeValue::Int(7)));
        assert_eq!(span.attribute("later"), Some(&AttributeValue::Int(3)));
        assert!(span.events.is_empty());
        assert_eq!(span.dropped_events_count, 0);
    }

    #[test]
    fn its_otel_fields_name_it_and_its_events_are_kept_up_to_the_cap() {
        let span = exported(|| {
            let span = tracing::info_span!(
                "load",
                otel.name = "load order",
                otel.kind = "client",
                otel.status_code = tracing::field::Empty,
            );
            let _in = span.enter();
            for n in 0..MAX_EVENTS_PER_SPAN + 3 {
                tracing::info!(n, "step");
            }
            span.record("otel.status_code", "ok");
        });
        assert_eq!(span.name, "load order");
        assert_eq!(span.kind, SpanKind::Client);
        assert_eq!(span.status, SpanStatus::Ok);
        assert!(span.attributes.is_empty(), "{:?}", span.attributes);
        assert_eq!(span.events.len(), MAX_EVENTS_PER_SPAN);
        assert_eq!(span.dropped_events_count, 3);
        let first = &span.events[0];
        assert_eq!(first.name, "step");
        assert_eq!(first.attributes[0], Attribute::new("n", 0_i64));
        assert!(span.start <= first.time && first.time <= span.end);
        let last = &span.events[MAX_EVENTS_PER_SPAN - 1];
        assert_eq!(
            last.attributes[0],
            Attribute::new("n", MAX_EVENTS_PER_SPAN as i64 - 1)
        );
    }
}
