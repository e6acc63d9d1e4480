//! The request's trace context as a route argument ([`TraceContext`]): an extractor, documented
//! nowhere in the OpenAPI document (the trace fields are the server's, not the API's).
//!
//! Rules enforced here: an app whose route takes it and that does not trace does not build (the
//! argument would have no context to give); the context is the one the request was observed
//! with (`dispatch/observe.rs`), its `tracestate` and `baggage` read now (`trace/context.rs`).

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use super::state::StateMap;
use crate::trace::{SpanId, TraceContext, TraceId, TraceIds, TracingOn, RANDOM};
use crate::validate::ValidationErrors;

impl Extract for TraceContext {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let propagators = cx.tracer.map(|tracer| tracer.propagators).unwrap_or_default();
        // Every request of an app that traces has its ids (`check` refuses an app that does not):
        // the fresh unsampled context is for a caller of the handler outside the pipeline.
        let ids = cx.trace.copied().unwrap_or_else(|| TraceIds {
            trace_id: TraceId::random(),
            span_id: SpanId::random(),
            parent_span_id: None,
            flags: RANDOM,
        });
        Some(TraceContext::read(ids, cx.headers(), propagators))
    }

    fn check(state: &StateMap) -> Result<(), String> {
        if state.contains(std::any::TypeId::of::<TracingOn>()) {
            Ok(())
        } else {
            Err("a route takes a `TraceContext`, but the app does not trace: turn it on with `App::tracing(Tracing::from_env())`".to_owned())
        }
    }
}
