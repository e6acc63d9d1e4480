//! The `tracing` subscriber [`init`](super::init) installs: filters by target and level, keeps
//! the spans that are open, and writes each event as one line to the [`Sink`].
//!
//! Rules enforced here:
//! - whether a callsite is on is decided once per callsite (the filter is static), so a disabled
//!   event or span costs its callsite's cached check and nothing more;
//! - a span's fields are written out once, when it is created (and again for a field recorded
//!   later), in the line's format, into a buffer the span's slot keeps for the next span: an
//!   event in a span copies those bytes, it does not format the span again;
//! - a line logged while a request is handled ends with that request's `request_id` (from the
//!   thread's request context, `logging::RequestScope`), after the fields of its spans, then its
//!   `trace_id`, `span_id` and `trace_flags` when the app traces;
//! - open spans live in one table behind a short lock (taken to open, close and read a span; a
//!   span is closed when its last handle is dropped); which span is current is kept per thread,
//!   as the stack of spans entered on it, so entering and leaving a span takes no lock;
//! - span ids are the table's slot numbers: reused once a span is closed, as `tracing` allows;
//! - an event is formatted into buffers of its thread's and handed to the sink whole, each of its
//!   values (message and fields, the spans' too) capped as `format` says (`MAX_VALUE_BYTES`): a
//!   value may be a client's, and a subscriber cannot tell;
//! - a span opened in a sampled request of an app with an exporter, or in a span that is
//!   exported, is exported too (`route_span.rs`): its slot keeps it until it is closed, and a
//!   line logged in it names its span id rather than the request's; in any other request opening
//!   a span costs one thread-local read more (taken under the table's lock, which a new span takes
//!   once for itself and its parent's handle, not twice as before).

use std::cell::RefCell;
use std::num::NonZeroU64;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};
use tracing_core::span::Current;
use tracing_subscriber::filter::{LevelFilter, Targets};

use super::format::{
    access, access_bound, json_cut_note, line_start, request_id, trace_ids, AccessLine, Fields, LogFormat,
    Style, ACCESS_TARGET,
};
use super::otel_fields::span_event;
use super::route_span::RouteSpan;
use super::scope::{current_request, request_span, sampled_request};
use super::sink::Sink;
use crate::trace::TraceIds;

/// The subscriber.
pub(crate) struct Logger {
    filter: Targets,
    max_level: LevelFilter,
    /// The access line passes `filter` (decided once: the filter does not change).
    access_on: bool,
    style: Style,
    spans: Mutex<Spans>,
    sink: Arc<Sink>,
}

/// The open spans, by slot.
#[derive(Default)]
struct Spans {
    slots: Vec<Slot>,
    free: Vec<usize>,
}

struct Slot {
    /// Handles to the span; 0 when the slot is free.
    refs: usize,
    metadata: &'static Metadata<'static>,
    parent: Option<Id>,
    /// The span's fields, written as a line carries them.
    fields: Vec<u8>,
    /// The span as it is exported, when it is (see the module rules).
    exported: Option<Box<RouteSpan>>,
}

/// Bytes of a span's fields a freed slot keeps for the next span.
const SLOT_KEEP: usize = 256;

/// A span nests this deep at most in the lines (deeper ones are left out).
const MAX_DEPTH: usize = 32;

thread_local! {
    /// The spans entered on this thread, innermost last.
    static ENTERED: RefCell<Vec<Id>> = const { RefCell::new(Vec::new()) };
    /// A line being built: the start and message, the event's fields, the spans' fields.
    static LINE: RefCell<(Vec<u8>, Vec<u8>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new(), Vec::new())) };
}

fn slot_of(id: &Id) -> usize {
    (id.into_u64() - 1) as usize
}

fn id_of(slot: usize) -> Id {
    Id::from_non_zero_u64(NonZeroU64::MIN.saturating_add(slot as u64))
}

impl Logger {
    pub(crate) fn new(filter: Targets, format: LogFormat, ansi: bool, sink: Arc<Sink>) -> Self {
        let max_level = filter
            .iter()
            .map(|(_, level)| level)
            .chain(filter.default_level())
            .max()
            .unwrap_or(LevelFilter::OFF);
        let access_on = filter.would_enable(ACCESS_TARGET, &tracing::Level::INFO);
        Logger {
            filter,
            max_level,
            access_on,
            style: Style {
                format,
                ansi: ansi && format == LogFormat::Text,
            },
            spans: Mutex::default(),
            sink,
        }
    }

    fn spans(&self) -> MutexGuard<'_, Spans> {
        // Nothing panics while holding the lock; should it, the table is still consistent.
        self.spans.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Write the access line of a request (see `format::access`), straight into the sink.
    pub(crate) fn access(&self, line: &AccessLine<'_>) {
        let style = self.style;
        self.sink
            .append_with(access_bound(style, line), |out| access(out, style, line));
    }

    /// Whether the access line (target `ferrapi::access`, `INFO`) passes the filter.
    pub(crate) fn access_on(&self) -> bool {
        self.access_on
    }

    /// Lines are JSON (else text).
    pub(crate) fn json(&self) -> bool {
        self.style.format == LogFormat::Json
    }

    /// The current span of this thread.
    fn current(&self) -> Option<Id> {
        ENTERED.with(|entered| entered.borrow().last().cloned())
    }

    /// Append to `out` the fields of `span` and its parents, outermost first; the ids and slot of
    /// the innermost of them that is exported, when one is.
    fn span_fields(&self, span: &Id, out: &mut Vec<u8>) -> Option<(TraceIds, usize)> {
        let spans = self.spans();
        let mut chain = [0usize; MAX_DEPTH];
        let mut depth = 0;
        let mut exported = None;
        let mut next = Some(slot_of(span));
        while let Some(index) = next {
            let Some(slot) = spans.slots.get(index).filter(|slot| slot.refs > 0) else {
                break;
            };
            if depth == MAX_DEPTH {
                break;
            }
            if exported.is_none() {
                exported = slot.exported.as_ref().map(|span| (*span.ids(), index));
            }
            chain[depth] = index;
            depth += 1;
            next = slot.parent.as_ref().map(slot_of);
        }
        for &index in chain[..depth].iter().rev() {
            if let Some(slot) = spans.slots.get(index) {
                out.extend_from_slice(&slot.fields);
            }
        }
        exported
    }

    /// Add `event` to the exported span in slot `index` (the one of `ids`, still open) unless
    /// it is full (an error-level one makes the span an error even then); built without the table's lock, as formatting a route's values may open a
    /// span.
    #[cold]
    #[inline(never)]
    fn route_span_event(&self, index: usize, ids: &TraceIds, event: &Event<'_>) {
        let error = *event.metadata().level() == tracing::Level::ERROR;
        let room = self.with_route_span(index, ids, |span| {
            if error {
                span.error_logged();
            }
            span.event_room()
        });
        if room != Some(true) {
            return;
        }
        let built = span_event(event);
        self.with_route_span(index, ids, |span| span.add_event(built));
    }

    /// Run `f` on the exported span of slot `index` when it is still `ids`' (a slot is reused
    /// once closed); `None` when it is not.
    fn with_route_span<R>(
        &self,
        index: usize,
        ids: &TraceIds,
        f: impl FnOnce(&mut RouteSpan) -> R,
    ) -> Option<R> {
        let mut spans = self.spans();
        spans
            .slots
            .get_mut(index)
            .filter(|slot| slot.refs > 0)
            .and_then(|slot| slot.exported.as_deref_mut())
            .filter(|span| span.ids().span_id == ids.span_id)
            .map(f)
    }
}

/// Add `event` to the server span of the sampled request handled on this thread.
#[cold]
#[inline(never)]
fn request_span_event(event: &Event<'_>) {
    if let Some(span) = request_span() {
        span.add_event(|| span_event(event));
    }
}

impl Subscriber for Logger {
    fn register_callsite(&self, metadata: &'static Metadata<'static>) -> Interest {
        if self.enabled(metadata) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        self.filter.would_enable(metadata.target(), metadata.level())
    }

    fn max_level_hint(&self) -> Option<LevelFilter> {
        Some(self.max_level)
    }

    fn new_span(&self, attrs: &Attributes<'_>) -> Id {
        let metadata = attrs.metadata();
        let parent = if attrs.is_contextual() {
            self.current()
        } else {
            attrs.parent().cloned()
        };
        let mut spans = self.spans();
        // A child keeps its parent open, as its fields are part of the child's lines; it descends
        // from its parent's exported span, else from the sampled request's.
        let parent_slot = parent
            .as_ref()
            .and_then(|parent| spans.slots.get_mut(slot_of(parent)))
            .filter(|slot| slot.refs > 0);
        let from = match parent_slot {
            Some(slot) => {
                slot.refs += 1;
                slot.exported
                    .as_ref()
                    .map(|span| (*span.ids(), span.sink().clone()))
            }
            None => None,
        };
        let exported = from
            .or_else(sampled_request)
            .map(|(ids, sink)| RouteSpan::start(&ids, sink, attrs));
        let index = match spans.free.pop() {
            Some(index) => index,
            None => {
                spans.slots.push(Slot {
                    refs: 0,
                    metadata,
                    parent: None,
                    fields: Vec::new(),
                    exported: None,
                });
                spans.slots.len() - 1
            }
        };
        let json = self.json();
        if let Some(slot) = spans.slots.get_mut(index) {
            slot.refs = 1;
            slot.metadata = metadata;
            slot.parent = parent;
            slot.fields.clear();
            slot.exported = exported;
            let mut message = Vec::new();
            attrs.record(&mut Fields::new(json, &mut message, &mut slot.fields));
        }
        id_of(index)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        let json = self.json();
        let mut spans = self.spans();
        if let Some(slot) = spans.slots.get_mut(slot_of(span)) {
            let mut message = Vec::new();
            values.record(&mut Fields::new(json, &mut message, &mut slot.fields));
            if let Some(exported) = slot.exported.as_mut() {
                exported.record(values);
            }
        }
    }

    fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let metadata = event.metadata();
        let parent = if event.is_contextual() {
            self.current()
        } else {
            event.parent().cloned()
        };
        let json = self.json();
        let style = self.style;
        LINE.with(|line| {
            let Ok(mut line) = line.try_borrow_mut() else {
                // An event logged while formatting another (from a `Debug` impl): left out.
                return;
            };
            let (out, message, fields) = &mut *line;
            out.clear();
            message.clear();
            fields.clear();
            line_start(out, style, metadata.level(), metadata.target());
            let mut visitor = Fields::new(json, message, fields);
            event.record(&mut visitor);
            let message_cut = visitor.message_cut;
            if json {
                if !message.is_empty() {
                    out.extend_from_slice(b",\"message\":\"");
                    out.extend_from_slice(message);
                    out.push(b'"');
                    json_cut_note(out, "message", message_cut);
                }
                out.extend_from_slice(fields);
            } else if message.is_empty() {
                out.extend_from_slice(fields.strip_prefix(b" ").unwrap_or(fields));
            } else {
                out.extend_from_slice(message);
                out.extend_from_slice(fields);
            }
            let in_span = parent.as_ref().and_then(|parent| self.span_fields(parent, out));
            let request_exports = current_request(|id, trace| {
                if !id.is_empty() {
                    request_id(out, json, id);
                }
                // The innermost exported span names the line, else the request's span.
                if let Some(trace) = in_span.map(|(ids, _)| ids).or(trace) {
                    trace_ids(out, json, &trace);
                }
            })
            .is_some_and(|(_, exports)| exports);
            if json {
                out.push(b'}');
            }
            out.push(b'\n');
            self.sink.append(out);
            // The span the line names keeps the event, when it is exported. Still in the line's
            // borrow: an event logged while formatting this one's values is left out, as above.
            match in_span {
                Some((ids, index)) => self.route_span_event(index, &ids, event),
                None if request_exports => request_span_event(event),
                None => {}
            }
        });
    }

    fn enter(&self, span: &Id) {
        ENTERED.with(|entered| entered.borrow_mut().push(span.clone()));
    }

    fn exit(&self, span: &Id) {
        ENTERED.with(|entered| {
            let mut entered = entered.borrow_mut();
            if let Some(at) = entered.iter().rposition(|id| id == span) {
                entered.remove(at);
            }
        });
    }

    fn clone_span(&self, span: &Id) -> Id {
        let mut spans = self.spans();
        if let Some(slot) = spans.slots.get_mut(slot_of(span)) {
            if slot.refs > 0 {
                slot.refs += 1;
            }
        }
        span.clone()
    }

    fn try_close(&self, span: Id) -> bool {
        let mut spans = self.spans();
        let index = slot_of(&span);
        let Some(slot) = spans.slots.get_mut(index) else {
            return false;
        };
        if slot.refs == 0 {
            return false;
        }
        slot.refs -= 1;
        if slot.refs > 0 {
            return false;
        }
        let parent = slot.parent.take();
        let exported = slot.exported.take();
        if slot.fields.capacity() > SLOT_KEEP {
            slot.fields = Vec::new();
        }
        spans.free.push(index);
        drop(spans);
        // Before its parent is closed, so a parent ends after its children.
        if let Some(exported) = exported {
            (*exported).finish();
        }
        if let Some(parent) = parent {
            self.try_close(parent);
        }
        true
    }

    fn current_span(&self) -> Current {
        let Some(id) = self.current() else {
            return Current::none();
        };
        let spans = self.spans();
        match spans.slots.get(slot_of(&id)).filter(|slot| slot.refs > 0) {
            Some(slot) => Current::new(id, slot.metadata),
            None => Current::none(),
        }
    }
}
