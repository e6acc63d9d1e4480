//! A span's events (`SpanEvent`, OpenTelemetry's `Span.Event`): what a route logs while a
//! sampled request runs (`logging/otel_fields.rs` makes them), kept with the span they were
//! logged in until it ends. A route's own span keeps its list in the log's span table; the
//! request's server span in a [`RequestSpan`], which the request's observer and the threads that
//! poll the request share.
//!
//! Rules enforced here:
//! - a span keeps at most [`MAX_EVENTS_PER_SPAN`] events (OpenTelemetry's default span limit):
//!   the ones after are dropped and counted (`SpanRecord::dropped_events_count`), so a route
//!   that logs in a loop holds a bounded amount of memory per span whatever it logs;
//! - a full span says so before an event is built ([`SpanEvents::room`]): an event past the
//!   cap costs its check and count, not its formatting;
//! - once the server span has ended (`RequestSpan::take_events`), an event logged later in
//!   its request (a body still streaming) is not kept: nobody would read it.

use super::{SpanEvent, SpanSink};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// The most events a span keeps (OpenTelemetry's `OTEL_SPAN_EVENT_COUNT_LIMIT` default).
pub const MAX_EVENTS_PER_SPAN: usize = 128;

/// The events of one span, at most [`MAX_EVENTS_PER_SPAN`], and how many more were dropped.
#[derive(Debug, Default)]
pub(crate) struct SpanEvents {
    kept: Vec<SpanEvent>,
    dropped: u32,
}

impl SpanEvents {
    /// Whether one more event is kept; when not, it is counted as dropped (call before building
    /// it, see the module rules).
    pub(crate) fn room(&mut self) -> bool {
        if self.kept.len() < MAX_EVENTS_PER_SPAN {
            true
        } else {
            self.dropped = self.dropped.saturating_add(1);
            false
        }
    }

    /// Keep `event`, or count it dropped when the span is full (another thread's came first).
    pub(crate) fn push(&mut self, event: SpanEvent) {
        if self.kept.len() < MAX_EVENTS_PER_SPAN {
            self.kept.push(event);
        } else {
            self.dropped = self.dropped.saturating_add(1);
        }
    }

    /// The events kept, in the order logged, and the count of those dropped.
    pub(crate) fn into_parts(self) -> (Vec<SpanEvent>, u32) {
        (self.kept, self.dropped)
    }
}

/// The server span of a sampled request while it is open, as the log sees it: where the
/// request's spans go, and the events logged in the request outside any span of the route's.
/// Made only for a sampled request of an app with an exporter (`dispatch/span.rs`), one `Arc`
/// the request's observer keeps and its request scope hands to each thread that polls it.
pub(crate) struct RequestSpan {
    sink: Arc<SpanSink>,
    /// `None` once the span has ended.
    events: Mutex<Option<SpanEvents>>,
}

impl RequestSpan {
    /// The open span of a request whose spans go to `sink`.
    pub(crate) fn new(sink: Arc<SpanSink>) -> Self {
        RequestSpan {
            sink,
            events: Mutex::new(Some(SpanEvents::default())),
        }
    }

    /// Where the request's spans go.
    pub(crate) fn sink(&self) -> &Arc<SpanSink> {
        &self.sink
    }

    fn events(&self) -> MutexGuard<'_, Option<SpanEvents>> {
        // Nothing panics while holding the lock; should it, the list is still consistent.
        self.events.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Add the event `build` makes, unless the span is full (counted) or has ended; `build`
    /// runs without the lock held (it formats a route's values, which may log).
    pub(crate) fn add_event(&self, build: impl FnOnce() -> SpanEvent) {
        if !self.events().as_mut().is_some_and(SpanEvents::room) {
            return;
        }
        let event = build();
        if let Some(events) = self.events().as_mut() {
            events.push(event);
        }
    }

    /// The span ends: its events (in the order logged) and the count dropped; later ones are not
    /// kept.
    pub(crate) fn take_events(&self) -> (Vec<SpanEvent>, u32) {
        self.events()
            .take()
            .map(SpanEvents::into_parts)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Resource, SpanExporter, SpanRecord};
    use std::time::SystemTime;

    fn event(n: usize) -> SpanEvent {
        SpanEvent {
            name: format!("e{n}"),
            time: SystemTime::UNIX_EPOCH,
            attributes: Vec::new(),
        }
    }

    #[test]
    fn a_span_keeps_the_first_events_and_counts_the_rest() {
        let exporter: Arc<dyn SpanExporter> = Arc::new(|_span: SpanRecord| {});
        let span = RequestSpan::new(Arc::new(SpanSink::new(exporter, Arc::new(Resource::new("t")))));
        let mut built = 0;
        for n in 0..MAX_EVENTS_PER_SPAN + 5 {
            span.add_event(|| {
                built += 1;
                event(n)
            });
        }
        assert_eq!(built, MAX_EVENTS_PER_SPAN, "no event built past the cap");
        let (kept, dropped) = span.take_events();
        assert_eq!(kept.len(), MAX_EVENTS_PER_SPAN);
        assert_eq!(kept[0].name, "e0");
        assert_eq!(
            kept[MAX_EVENTS_PER_SPAN - 1].name,
            format!("e{}", MAX_EVENTS_PER_SPAN - 1)
        );
        assert_eq!(dropped, 5);
        span.add_event(|| panic!("not built once the span ended"));
        assert_eq!(span.take_events(), (Vec::new(), 0));
        // A push that finds the span full (another thread's came first) counts too.
        let mut events = SpanEvents::default();
        for n in 0..=MAX_EVENTS_PER_SPAN {
            events.push(event(n));
        }
        assert_eq!(events.into_parts().1, 1);
    }
}
