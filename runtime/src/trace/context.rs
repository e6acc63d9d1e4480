//! [`TraceContext`]: a request's trace context as a route sees it, taken as an argument
//! (`trace: TraceContext`, its `Extract` is in `extract/trace_context.rs`).
//!
//! Rules enforced here: the ids are the request's, the same the access line and the answer carry;
//! `tracestate` is read only when the request continued a valid `traceparent` (W3C Trace
//! Context forbids it otherwise) and the `tracecontext` propagator is on, `baggage` only when the
//! `baggage` one is; both are read when the argument is made, so only a route that takes it pays.

use hyper::HeaderMap;

use super::{tracestate, Baggage, Propagators, SpanId, TraceId, TraceIds};

/// A request's trace context: its trace and span ids, whether it is sampled, the caller's
/// `tracestate` and `baggage`. Take it as a route argument (`trace: TraceContext`) in an app with
/// tracing on (`App::tracing`); pass [`TraceContext::traceparent`] on to the services the route
/// calls, so their spans are children of this request's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceContext {
    ids: TraceIds,
    state: Option<String>,
    baggage: Baggage,
}

impl TraceContext {
    /// The context of a request with `ids`, its `tracestate` and `baggage` read from `headers` as
    /// `propagators` say.
    pub(crate) fn read(ids: TraceIds, headers: &HeaderMap, propagators: Propagators) -> Self {
        let continued = ids.parent_span_id.is_some() && propagators.trace_context;
        TraceContext {
            ids,
            state: if continued {
                tracestate::read(headers)
            } else {
                None
            },
            baggage: if propagators.baggage {
                Baggage::read(headers)
            } else {
                Baggage::default()
            },
        }
    }

    /// The trace's id.
    pub fn trace_id(&self) -> TraceId {
        self.ids.trace_id
    }

    /// The request's own span id (the parent of the spans of the calls it makes).
    pub fn span_id(&self) -> SpanId {
        self.ids.span_id
    }

    /// The caller's span id, when the request continued a trace.
    pub fn parent_span_id(&self) -> Option<SpanId> {
        self.ids.parent_span_id
    }

    /// The request is sampled (its span will be recorded).
    pub fn is_sampled(&self) -> bool {
        self.ids.is_sampled()
    }

    /// The ids and flags.
    pub fn ids(&self) -> TraceIds {
        self.ids
    }

    /// The `traceparent` to send on a call the route makes: this request's span as the parent.
    pub fn traceparent(&self) -> String {
        String::from_utf8_lossy(&self.ids.traceparent()).into_owned()
    }

    /// The caller's `tracestate`, as sent (within the specification's limits), to send on too.
    pub fn trace_state(&self) -> Option<&str> {
        self.state.as_deref()
    }

    /// The caller's baggage.
    pub fn baggage(&self) -> &Baggage {
        &self.baggage
    }
}
