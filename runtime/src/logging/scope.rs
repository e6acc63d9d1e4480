//! The request being handled on a thread ([`RequestScope`]): its id and trace context, which the
//! subscriber writes on every line logged while the request's future is polled, and the open
//! server span of a sampled request: its sink, where the spans its route opens go
//! (`route_span.rs`), and its events, where the events logged outside them go.
//!
//! Rules enforced here:
//! - the ids of the requests entered on a thread (a request can be handled inside another, by
//!   `Service::handle`) are one byte stack: each scope's id, then, when it has a trace context,
//!   that context's [`TRACE_RECORD`] bytes; a mark says where the innermost scope starts and
//!   whether its bytes end in a record. A line names the innermost request only: a request
//!   without a trace context inside one that has none shows no trace ids;
//! - a trace context is copied beside the id it goes with, in the one borrow of the one
//!   thread-local an untraced request takes too: kept apart, with the outer context saved and
//!   restored, an unsampled request of an app that traces paid ≈ 100 instructions more for it
//!   (callgrind `GET /item/42`);
//! - only a sampled request of an app that exports spans (or one inside such a request, which
//!   must hide its sink) touches the second thread-local, the stack of sinks; a line learns
//!   whether its request has one from the mark it reads anyway ([`current_request`]), so an event
//!   of any other request looks no further.

use std::cell::RefCell;
use std::sync::Arc;

use crate::trace::{RequestSpan, SpanId, SpanSink, TraceId, TraceIds};

thread_local! {
    /// The ids of the requests entered on this thread, one after the other, each followed by its
    /// trace record when it has one, and the innermost's mark (0, with no flag, outside a
    /// request).
    static REQUEST_IDS: RefCell<(Vec<u8>, usize)> = const { RefCell::new((Vec::new(), 0)) };
    /// The ids and sink of the innermost sampled request that exports its spans, and those it
    /// hides (an empty stack stands for none hidden).
    static EXPORTING: RefCell<(Option<Exporting>, Vec<Option<Exporting>>)> =
        const { RefCell::new((None, Vec::new())) };
}

/// A sampled request's trace context and its open server span (with the sink its route's spans
/// go to).
type Exporting = (TraceIds, Arc<RequestSpan>);

/// The request being handled on this thread, while its future is polled. Dropping the scope
/// leaves it.
#[must_use = "the scope ends when dropped"]
pub(crate) struct RequestScope {
    /// This scope's mark: where its id starts in the thread's stack, with [`TRACED`] when its
    /// bytes end in a trace record and [`EXPORTS`] when it has a sink.
    start: usize,
    /// The mark of the scope this one is in, given back when it is left. The flags ride in the
    /// marks' top bits: two flags of their own made the scope a word bigger, ≈ 25 instructions
    /// per request in an app that does not trace (callgrind `GET /item/42`).
    outer: usize,
}

/// The bit of a mark saying the scope's bytes end in a trace record.
const TRACED: usize = 1 << (usize::BITS - 1);

/// The bit of a mark saying the scope has a sink (it entered [`EXPORTING`]).
const EXPORTS: usize = 1 << (usize::BITS - 2);

/// Where a mark's scope starts in the stack; a stack of ids never comes near the flags' bits.
#[inline]
fn start_of(mark: usize) -> usize {
    mark & !(TRACED | EXPORTS)
}

/// The bytes a trace context takes after its id: the trace id, the span id, the flags.
pub(super) const TRACE_RECORD: usize = 25;

/// `trace` as the bytes it takes on the stack: its words in this machine's order (read back on
/// the same thread), not the ids' written order, which takes a byte swap each way.
#[inline]
fn record_of(trace: &TraceIds) -> [u8; TRACE_RECORD] {
    let mut record = [0u8; TRACE_RECORD];
    let words = [
        trace.trace_id.high(),
        trace.trace_id.low(),
        trace.span_id.to_u64(),
    ];
    for (bytes, word) in record.chunks_exact_mut(8).zip(words) {
        bytes.copy_from_slice(&word.to_ne_bytes());
    }
    record[TRACE_RECORD - 1] = trace.flags;
    record
}

/// The trace context a record holds (its parent span is not kept: no line shows it).
fn read_record(record: &[u8]) -> Option<TraceIds> {
    let (high, rest) = record.split_first_chunk::<8>()?;
    let (low, rest) = rest.split_first_chunk::<8>()?;
    let (span, rest) = rest.split_first_chunk::<8>()?;
    Some(TraceIds {
        trace_id: TraceId::from_words(u64::from_ne_bytes(*high), u64::from_ne_bytes(*low))?,
        span_id: SpanId::from_u64(u64::from_ne_bytes(*span))?,
        parent_span_id: None,
        flags: *rest.first()?,
    })
}

/// Enter the request with this id on this thread (see [`RequestScope`]), when it has no trace
/// context: an app that does not trace comes only here, to a scope as small as before traces
/// existed. Its own closure, not one shared with [`enter_traced`]: two callers of one made
/// the thread-local's access a call (≈ 15 instructions per request more, callgrind
/// `GET /item/42`).
#[inline]
pub(crate) fn enter_request(id: &[u8]) -> RequestScope {
    let scope = REQUEST_IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        let (stack, current) = &mut *ids;
        let start = stack.len();
        let scope = RequestScope {
            start,
            outer: std::mem::replace(current, start),
        };
        stack.extend_from_slice(id);
        scope
    });
    if scope.exports() {
        // Inside a sampled request: its sink is hidden.
        enter_exporting(None);
    }
    scope
}

/// Enter the request with this id (empty: none) and trace context on this thread (see
/// [`RequestScope`]); `span`: it is sampled, and the spans its route opens and the events logged
/// in it go there.
#[inline(never)]
pub(crate) fn enter_traced(id: &[u8], trace: &TraceIds, span: Option<&Arc<RequestSpan>>) -> RequestScope {
    let own = if span.is_some() { TRACED | EXPORTS } else { TRACED };
    let scope = REQUEST_IDS.with(|ids| {
        let mut ids = ids.borrow_mut();
        let (stack, current) = &mut *ids;
        let start = stack.len() | own;
        let scope = RequestScope {
            start,
            outer: std::mem::replace(current, start),
        };
        stack.extend_from_slice(id);
        stack.extend_from_slice(&record_of(trace));
        scope
    });
    if scope.exports() {
        enter_exporting(span.map(|span| (*trace, span.clone())));
    }
    scope
}

impl RequestScope {
    /// This scope has a sink, or is inside one that has: it replaced the thread's.
    #[inline]
    fn exports(&self) -> bool {
        (self.start | self.outer) & EXPORTS != 0
    }
}

impl Drop for RequestScope {
    #[inline]
    fn drop(&mut self) {
        REQUEST_IDS.with(|ids| {
            let mut ids = ids.borrow_mut();
            ids.0.truncate(start_of(self.start));
            ids.1 = self.outer;
        });
        if self.exports() {
            leave_exporting();
        }
    }
}

/// The id (empty outside a request, or for one without) and the trace context of the request
/// handled on this thread, for a line logged now; and whether that request is sampled and its
/// spans exported ([`request_span`] then has its span).
pub(super) fn current_request<R>(f: impl FnOnce(&[u8], Option<TraceIds>) -> R) -> Option<(R, bool)> {
    REQUEST_IDS.with(|ids| {
        let ids = ids.try_borrow().ok()?;
        let (stack, mark) = (&ids.0, ids.1);
        let bytes = stack.get(start_of(mark)..).unwrap_or_default();
        if mark & TRACED == 0 {
            return Some((f(bytes, None), false));
        }
        let (id, record) = bytes.split_at_checked(bytes.len().checked_sub(TRACE_RECORD)?)?;
        Some((f(id, read_record(record)), mark & EXPORTS != 0))
    })
}

/// A scope with a sink (or inside one that has) is entered: `exporting` is the thread's now, the
/// outer one kept (out of line: only sampled requests of apps that export come here).
#[inline(never)]
fn enter_exporting(exporting: Option<Exporting>) {
    EXPORTING.with(|cell| {
        let mut cell = cell.borrow_mut();
        let (current, outers) = &mut *cell;
        let outer = std::mem::replace(current, exporting);
        // Outside every other request (a server's request always is) there is nothing to keep:
        // an empty stack stands for an outer one of none.
        if outer.is_some() || !outers.is_empty() {
            outers.push(outer);
        }
    });
}

/// The scope [`enter_exporting`] entered is left: the outer sink is the thread's again.
#[inline(never)]
fn leave_exporting() {
    EXPORTING.with(|cell| {
        let mut cell = cell.borrow_mut();
        cell.0 = cell.1.pop().flatten();
    });
}

/// The ids and sink of the request handled on this thread, when it is sampled and its spans are
/// exported: the one check a span opened in any other request costs.
#[inline]
pub(super) fn sampled_request() -> Option<(TraceIds, Arc<SpanSink>)> {
    EXPORTING.with(|cell| {
        let cell = cell.try_borrow().ok()?;
        cell.0.as_ref().map(|(ids, span)| (*ids, span.sink().clone()))
    })
}

/// The open server span of the request handled on this thread, when it is sampled and its
/// spans are exported (taken out: adding an event to it formats a route's values, which may log).
#[cold]
#[inline(never)]
pub(super) fn request_span() -> Option<Arc<RequestSpan>> {
    EXPORTING.with(|cell| Some(cell.try_borrow().ok()?.0.as_ref()?.1.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{SpanId, TraceId};

    fn ids(n: u64) -> TraceIds {
        TraceIds {
            trace_id: TraceId::from_u128(u128::from(n) << 64 | 7).unwrap(),
            span_id: SpanId::from_u64(n).unwrap(),
            parent_span_id: None,
            flags: n as u8,
        }
    }

    /// The id and span id (of the trace context) a line logged now names.
    fn now() -> (Vec<u8>, Option<u64>) {
        current_request(|id, trace| (id.to_vec(), trace.map(|t| t.span_id.to_u64())))
            .unwrap()
            .0
    }

    #[test]
    fn a_record_keeps_what_a_line_shows() {
        let trace = ids(9);
        let read = read_record(&record_of(&trace)).unwrap();
        assert_eq!(read.trace_id, trace.trace_id);
        assert_eq!(read.span_id, trace.span_id);
        assert_eq!(read.flags, 9);
        assert_eq!(
            read_record(&[0; TRACE_RECORD]),
            None,
            "a zero trace id is no context"
        );
        assert_eq!(read_record(&[1; 10]), None, "a short record is none");
    }

    #[test]
    fn nested_request_scopes_name_the_innermost_request_and_restore_each_outer_one() {
        assert_eq!(now(), (vec![], None));
        {
            let _a = enter_traced(b"a", &ids(1), None);
            assert_eq!(now(), (b"a".to_vec(), Some(1)));
            {
                let _b = enter_request(b"bb");
                // An untraced request inside a traced one shows no trace ids.
                assert_eq!(now(), (b"bb".to_vec(), None));
                {
                    let _c = enter_traced(b"ccc", &ids(3), None);
                    assert_eq!(now(), (b"ccc".to_vec(), Some(3)));
                }
                assert_eq!(now(), (b"bb".to_vec(), None));
            }
            assert_eq!(now(), (b"a".to_vec(), Some(1)));
            {
                // No id, a trace context.
                let _d = enter_traced(b"", &ids(4), None);
                assert_eq!(now(), (vec![], Some(4)));
            }
            assert_eq!(now(), (b"a".to_vec(), Some(1)));
        }
        assert_eq!(now(), (vec![], None));
        {
            let _e = enter_request(b"e");
            assert_eq!(now(), (b"e".to_vec(), None));
        }
        assert_eq!(now(), (vec![], None));
    }

    #[test]
    fn only_scopes_with_a_sink_or_inside_one_touch_the_sinks() {
        /// The thread's sampled request's span id and the count of those it hides; checked: a
        /// line's mark says it has one exactly when it has, and its span is that one.
        fn sinks() -> (Option<u64>, usize) {
            let exports = current_request(|_, _| ()).unwrap().1;
            let (current, hidden) = EXPORTING.with(|cell| {
                let cell = cell.borrow();
                (cell.0.as_ref().map(|(ids, _)| ids.span_id.to_u64()), cell.1.len())
            });
            assert_eq!(
                exports,
                current.is_some(),
                "the mark says whether there is a span"
            );
            assert_eq!(request_span().is_some(), current.is_some());
            (current, hidden)
        }
        let exporter: Arc<dyn crate::trace::SpanExporter> = Arc::new(|_span: crate::trace::SpanRecord| {});
        let sink = Arc::new(RequestSpan::new(Arc::new(SpanSink::new(
            exporter,
            Arc::new(crate::trace::Resource::new("probe")),
        ))));
        assert_eq!(sinks(), (None, 0));
        {
            let _a = enter_traced(b"a", &ids(1), Some(&sink));
            // Outside every other request: nothing kept.
            assert_eq!(sinks(), (Some(1), 0));
            assert_eq!(sampled_request().map(|(ids, _)| ids.span_id.to_u64()), Some(1));
            {
                // Unsampled inside a sampled one: hides its sink.
                let _b = enter_traced(b"b", &ids(2), None);
                assert_eq!(sinks(), (None, 1));
                assert!(sampled_request().is_none());
                {
                    // Untraced inside the one that hides it: nothing more to hide.
                    let _u = enter_request(b"u");
                    assert_eq!(sinks(), (None, 1));
                    assert!(sampled_request().is_none());
                }
                assert_eq!(sinks(), (None, 1));
                {
                    let _c = enter_traced(b"c", &ids(3), Some(&sink));
                    assert_eq!(sinks(), (Some(3), 2));
                }
                assert_eq!(sinks(), (None, 1));
            }
            assert_eq!(sinks(), (Some(1), 0));
            {
                // Untraced right inside the sampled one: hides its sink.
                let _v = enter_request(b"v");
                assert_eq!(sinks(), (None, 1));
                assert!(sampled_request().is_none());
            }
            assert_eq!(sinks(), (Some(1), 0));
        }
        assert_eq!(sinks(), (None, 0));
        {
            // Traced but not exporting touches nothing of them.
            let _d = enter_traced(b"d", &ids(4), None);
            assert_eq!(sinks(), (None, 0));
        }
    }
}
