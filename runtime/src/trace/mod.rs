//! Trace context: W3C `traceparent`, `tracestate` and `baggage` read from every request, the
//! request's own span id, the sampling decision, and what goes back on the answer. The first
//! part of OpenTelemetry support (issue 45); spans, metrics and export build on it.
//!
//! Its files: `ids` (trace and span ids: made, written), `traceparent` (the field read and
//! written), `tracestate` and `baggage` (read when asked), `sampler` (OpenTelemetry's samplers,
//! and whom to trust), `context` ([`TraceContext`], what a route takes as an argument), `span`
//! (a finished span and the [`SpanExporter`] it is handed to), `events` (the events logged in a
//! span, bounded, and a sampled request's open server span), `resource` (the process's
//! attributes, [`Resource`]), `otlp` (with the `otlp` feature: the OTLP/HTTP exporter).
//!
//! Rules enforced here:
//! - a request of an app with tracing on ([`Tracing`], `App::tracing`) gets [`TraceIds`] before
//!   it is routed: the caller's trace continued when its one `traceparent` is valid (two are
//!   none, as the W3C test suite expects), a new trace otherwise; a new span id of its own
//!   either way; never an error;
//! - whether it is sampled is the sampler's decision; a caller's sampled flag counts only when
//!   the app trusts its callers' ([`Tracing::trust_parent`], off by default), so a client cannot
//!   force sampling;
//! - what a request that does not use them pays for: finding `traceparent` among its fields (a
//!   walk of the names for a small head), two random numbers, the sampler's comparison; the
//!   `tracestate` and `baggage` are read only by a route that takes the context;
//! - nothing here allocates per request, and nothing is read from the environment after the app
//!   is built.

use std::fmt;
use std::sync::Arc;

use hyper::header::HeaderName;
use hyper::HeaderMap;

mod baggage;
mod context;
mod events;
mod hex;
mod ids;
#[cfg(feature = "otlp")]
pub mod otlp;
mod resource;
mod sampler;
mod span;
mod traceparent;
mod tracestate;

pub use baggage::{Baggage, BaggageItem, BAGGAGE};
pub use context::TraceContext;
pub use events::MAX_EVENTS_PER_SPAN;
pub(crate) use events::{RequestSpan, SpanEvents};
pub(crate) use ids::{random_one, random_pair, with_random, write_ids};
pub use ids::{SpanId, TraceId};
pub use resource::Resource;
use sampler::Decider;
pub use sampler::Sampler;
pub(crate) use span::SpanSink;
pub use span::{Attribute, AttributeValue, SpanEvent, SpanExporter, SpanKind, SpanRecord, SpanStatus};
pub use traceparent::{TraceParent, RANDOM, SAMPLED};
pub use tracestate::TRACESTATE;

/// `traceparent`, to look for and to send.
pub static TRACEPARENT: HeaderName = HeaderName::from_static("traceparent");

/// `traceresponse` (Trace Context Level 2's earlier drafts), to send.
pub static TRACERESPONSE: HeaderName = HeaderName::from_static("traceresponse");

/// What goes back on the answer of a traced request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResponseHeader {
    /// Nothing (the default).
    #[default]
    None,
    /// `traceparent: 00-{trace id}-{the request's span id}-{flags}`: the answer names the span
    /// that answered, a child of the caller's.
    Traceparent,
    /// `traceresponse:` with the same value (the name Trace Context Level 2's drafts used until
    /// 2025).
    Traceresponse,
}

impl std::str::FromStr for ResponseHeader {
    type Err = String;

    /// `none`, `traceparent` or `traceresponse` (any case).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Ok(ResponseHeader::None),
            "traceparent" => Ok(ResponseHeader::Traceparent),
            "traceresponse" => Ok(ResponseHeader::Traceresponse),
            other => Err(format!(
                "unknown trace response header {other:?} (expected none, traceparent or traceresponse)"
            )),
        }
    }
}

/// Which parts of a request's context are read (OpenTelemetry's `OTEL_PROPAGATORS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Propagators {
    /// `traceparent` and `tracestate` (`tracecontext`).
    pub trace_context: bool,
    /// `baggage` (`baggage`).
    pub baggage: bool,
}

impl Default for Propagators {
    /// Both, OpenTelemetry's default (`tracecontext,baggage`).
    fn default() -> Self {
        Propagators {
            trace_context: true,
            baggage: true,
        }
    }
}

/// The app's span exporter, compared by identity.
#[derive(Clone)]
struct Exporter(Arc<dyn SpanExporter>);

impl fmt::Debug for Exporter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SpanExporter")
    }
}

impl PartialEq for Exporter {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The tracing of an app (`App::tracing`): how a request's trace context is read, sampled and
/// answered, and where its spans go. `Tracing::from_env()` reads OpenTelemetry's variables.
#[derive(Debug, Clone, PartialEq)]
pub struct Tracing {
    sampler: Sampler,
    trust_parent: bool,
    response_header: ResponseHeader,
    trace_request_ids: bool,
    propagators: Propagators,
    exporter: Option<Exporter>,
    resource: Arc<Resource>,
    trusted_proxies: usize,
}

impl Default for Tracing {
    fn default() -> Self {
        Self::new()
    }
}

impl Tracing {
    /// OpenTelemetry's defaults (sampler `parentbased_always_on`, propagators `tracecontext` and
    /// `baggage`), callers' sampled flags not trusted, nothing added to the answer.
    pub fn new() -> Self {
        Tracing {
            sampler: Sampler::default(),
            trust_parent: false,
            response_header: ResponseHeader::None,
            trace_request_ids: false,
            propagators: Propagators::default(),
            exporter: None,
            resource: Arc::new(Resource::default()),
            trusted_proxies: 0,
        }
    }

    /// [`Tracing::new`], with `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`,
    /// `OTEL_PROPAGATORS`, `OTEL_SDK_DISABLED` (`true`: nothing is sampled; contexts still
    /// travel), `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` (the [`Resource`]) read from
    /// the environment. A value it cannot use is logged as a warning and its
    /// default kept.
    pub fn from_env() -> Self {
        let (tracing, warnings) = Self::from_lookup(|name| std::env::var(name).ok());
        for warning in warnings {
            tracing::warn!("{warning}");
        }
        tracing
    }

    /// [`Tracing::from_env`] with the variables from `lookup`; the warnings returned, not logged.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut tracing = Tracing::new();
        let (resource, mut warnings) = Resource::from_lookup(&lookup);
        tracing.resource = Arc::new(resource);
        if let Some(name) = lookup("OTEL_TRACES_SAMPLER").filter(|n| !n.trim().is_empty()) {
            let arg = lookup("OTEL_TRACES_SAMPLER_ARG");
            match Sampler::from_env_values(&name, arg.as_deref()) {
                Ok(sampler) => tracing.sampler = sampler,
                Err(why) => warnings.push(format!("{why}; using parentbased_always_on")),
            }
        }
        if let Some(list) = lookup("OTEL_PROPAGATORS").filter(|l| !l.trim().is_empty()) {
            let mut chosen = Propagators {
                trace_context: false,
                baggage: false,
            };
            for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                match name {
                    "tracecontext" => chosen.trace_context = true,
                    "baggage" => chosen.baggage = true,
                    "none" => {}
                    other => warnings.push(format!(
                        "OTEL_PROPAGATORS: {other:?} is not a propagator ferrapi has (tracecontext, baggage, none); left out"
                    )),
                }
            }
            tracing.propagators = chosen;
        }
        if lookup("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
            tracing.sampler = Sampler::AlwaysOff;
        }
        (tracing, warnings)
    }

    /// The sampler (default `parentbased_always_on`).
    pub fn sampler(mut self, sampler: Sampler) -> Self {
        self.sampler = sampler;
        self
    }

    /// Trust callers' sampled flags (default off): a `parentbased_*` sampler then follows the
    /// caller's decision. Turn it on only where every caller is yours (behind a gateway that
    /// removes or sets `traceparent`): otherwise any client could make every request of its own
    /// sampled, and recorded, at will.
    pub fn trust_parent(mut self, trusted: bool) -> Self {
        self.trust_parent = trusted;
        self
    }

    /// What goes back on the answer (default nothing).
    pub fn response_header(mut self, header: ResponseHeader) -> Self {
        self.response_header = header;
        self
    }

    /// With request ids on (`App::request_ids`), a request's id is its trace id (32 lowercase
    /// hex digits), not its `X-Request-Id` or a made one, so one id names the request in the
    /// logs and in the traces (default off).
    pub fn trace_request_ids(mut self, on: bool) -> Self {
        self.trace_request_ids = on;
        self
    }

    /// Which parts of the context are read (default both; `OTEL_PROPAGATORS`).
    pub fn propagators(mut self, propagators: Propagators) -> Self {
        self.propagators = propagators;
        self
    }

    /// Hand every sampled request's server span, when it is answered, to `exporter` (default
    /// none: nothing is built). See [`SpanExporter`] for what it may do there.
    pub fn exporter(mut self, exporter: impl SpanExporter) -> Self {
        self.exporter = Some(Exporter(Arc::new(exporter)));
        self
    }

    /// The attributes of this process on its spans (default [`Resource::default`];
    /// [`Tracing::from_env`] reads `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`).
    pub fn resource(mut self, resource: Resource) -> Self {
        self.resource = Arc::new(resource);
        self
    }

    /// How many proxies in front of the app add the address they were called from to
    /// `X-Forwarded-For` (default 0): a span's `client.address` is then the address the farthest
    /// of them saw. With 0 it has none: whatever a client writes in that field is its own.
    pub fn trusted_proxies(mut self, count: usize) -> Self {
        self.trusted_proxies = count;
        self
    }

    /// The settings as a request applies them.
    pub(crate) fn compile(&self) -> Tracer {
        Tracer {
            decider: self.sampler.compile(),
            trust_parent: self.trust_parent,
            response_header: self.response_header,
            trace_request_ids: self.trace_request_ids,
            propagators: self.propagators,
            sink: self
                .exporter
                .as_ref()
                .map(|e| Arc::new(SpanSink::new(e.0.clone(), self.resource.clone()))),
            trusted_proxies: self.trusted_proxies,
        }
    }
}

/// The mark an app that traces leaves in its state map, which a [`TraceContext`] argument checks
/// for when the app is built (`extract/trace_context.rs`).
pub(crate) struct TracingOn;

/// An app's tracing, compiled once (see [`Tracing`]).
#[derive(Clone)]
pub(crate) struct Tracer {
    decider: Decider,
    trust_parent: bool,
    pub(crate) response_header: ResponseHeader,
    pub(crate) trace_request_ids: bool,
    pub(crate) propagators: Propagators,
    /// Where the spans go, when the app has an exporter.
    sink: Option<Arc<SpanSink>>,
    trusted_proxies: usize,
}

impl fmt::Debug for Tracer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tracer")
            .field("decider", &self.decider)
            .field("exporter", &self.sink.is_some())
            .finish_non_exhaustive()
    }
}

/// The ids of a request's span: its trace, its own span id, its caller's, the flags it passes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceIds {
    /// The trace: the caller's, or a new one.
    pub trace_id: TraceId,
    /// The request's own span.
    pub span_id: SpanId,
    /// The caller's span, when the request continued a trace.
    pub parent_span_id: Option<SpanId>,
    /// The trace flags passed on ([`SAMPLED`], [`RANDOM`]).
    pub flags: u8,
}

impl TraceIds {
    /// The request is sampled.
    pub fn is_sampled(&self) -> bool {
        self.flags & SAMPLED != 0
    }

    /// The `traceparent` naming the request's span (55 bytes): what it sends on to the next hop,
    /// and what the answer carries.
    pub fn traceparent(&self) -> [u8; 55] {
        traceparent::format(self.trace_id, self.span_id, self.flags)
    }
}

impl Tracer {
    /// Where the spans go (the exporter and the resource), when the app has an exporter.
    #[inline]
    pub(crate) fn sink(&self) -> Option<&Arc<SpanSink>> {
        self.sink.as_ref()
    }

    /// How many proxies are trusted (see [`Tracing::trusted_proxies`]).
    pub(crate) fn trusted_proxies(&self) -> usize {
        self.trusted_proxies
    }

    /// The trace context of the request of `headers` (see the module rules).
    #[inline]
    pub(crate) fn begin(&self, headers: &HeaderMap) -> TraceIds {
        let parent = if self.propagators.trace_context {
            crate::head::sole_value(headers, &TRACEPARENT)
                .and_then(|value| TraceParent::parse(value.as_bytes()))
        } else {
            None
        };
        match parent {
            None => self.root(),
            Some(parent) => self.child(&parent),
        }
    }

    /// A new trace: its id and the span's from one visit to the generator, three draws (inlined
    /// into the request's start, and the zero ids' redraw out of line: ≈ 30 instructions fewer
    /// than two pairs of draws, a `u128` zero test and a call, callgrind `GET /item/42`).
    #[inline]
    fn root(&self) -> TraceIds {
        let (high, low, span) = with_random(|s| {
            let [high, low] = random_pair(s);
            (high, low, random_one(s))
        });
        let (trace_id, span_id) = match (TraceId::from_words(high, low), SpanId::from_u64(span)) {
            (Some(trace_id), Some(span_id)) => (trace_id, span_id),
            // A zero id has a chance of 2^-64 a draw: made again then.
            _ => fresh_ids(),
        };
        let sampled = self.decider.sampled(None, trace_id.low());
        TraceIds {
            trace_id,
            span_id,
            parent_span_id: None,
            flags: RANDOM | u8::from(sampled),
        }
    }

    /// The caller's trace, continued.
    #[cold]
    fn child(&self, parent: &TraceParent) -> TraceIds {
        let sampled = if self.trust_parent {
            self.decider
                .sampled(Some(parent.flags & SAMPLED != 0), parent.trace_id.low())
        } else {
            // The caller chose the trace id: a draw of our own decides (see `sampler.rs`).
            let draw = if self.decider.fixed() {
                0
            } else {
                with_random(|s| random_pair(s)[0])
            };
            self.decider.sampled(None, draw)
        };
        TraceIds {
            trace_id: parent.trace_id,
            span_id: SpanId::random(),
            parent_span_id: Some(parent.parent_id),
            flags: (parent.flags & RANDOM) | u8::from(sampled),
        }
    }
}

/// A lookup of environment variables from `pairs`, for the tests of the `OTEL_*` readers.
#[cfg(test)]
pub(crate) fn test_vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| (*v).to_owned())
    }
}

/// New non-zero trace and span ids, drawn until they are.
#[cold]
#[inline(never)]
fn fresh_ids() -> (TraceId, SpanId) {
    (TraceId::random(), SpanId::random())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::head::head_of as headers;

    const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn a_valid_parent_is_continued_else_a_trace_starts() {
        let tracer = Tracing::new().compile();
        let child = tracer.begin(&headers(&[("traceparent", PARENT)]));
        assert_eq!(child.trace_id.to_string(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(
            child.parent_span_id.map(|s| s.to_string()).as_deref(),
            Some("00f067aa0ba902b7")
        );
        assert_ne!(child.span_id.to_string(), "00f067aa0ba902b7");
        for fields in [
            vec![],
            vec![(
                "traceparent",
                "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            )],
            // Two are none (the W3C suite's test_traceparent_duplicated), in small and large heads.
            vec![("traceparent", PARENT), ("traceparent", PARENT)],
            vec![("trace-parent", PARENT)],
        ] {
            let fresh = tracer.begin(&headers(&fields));
            assert_ne!(
                fresh.trace_id.to_string(),
                "4bf92f3577b34da6a3ce929d0e0e4736",
                "{fields:?}"
            );
            assert_eq!(fresh.parent_span_id, None);
            assert_eq!(fresh.flags & RANDOM, RANDOM, "a new trace's id is random");
        }
        let mut many: Vec<(String, &str)> = (0..20).map(|i| (format!("x-f{i}"), "v")).collect();
        many.push(("traceparent".into(), PARENT));
        let big: Vec<(&str, &str)> = many.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        assert!(tracer.begin(&headers(&big)).parent_span_id.is_some());
        let mut twice = big.clone();
        twice.push(("traceparent", PARENT));
        assert!(tracer.begin(&headers(&twice)).parent_span_id.is_none());
    }

    #[test]
    fn an_untrusted_flag_decides_nothing_a_trusted_one_does() {
        let never = Sampler::ParentBasedTraceIdRatio(0.0);
        let sampled = headers(&[("traceparent", PARENT)]);
        let unsampled = headers(&[("traceparent", &PARENT.replace("-01", "-00"))]);
        let untrusted = Tracing::new().sampler(never).compile();
        assert!(
            !untrusted.begin(&sampled).is_sampled(),
            "the client's flag is not honoured"
        );
        let trusted = Tracing::new().sampler(never).trust_parent(true).compile();
        assert!(trusted.begin(&sampled).is_sampled());
        assert!(!trusted.begin(&unsampled).is_sampled());
        // Untrusted, a ratio is drawn by the server, whatever trace id the client picked.
        let half = Tracing::new()
            .sampler(Sampler::ParentBasedTraceIdRatio(0.5))
            .compile();
        let picked = headers(&[(
            "traceparent",
            "00-4bf92f3577b34da60000000000000001-00f067aa0ba902b7-01",
        )]);
        let hits = (0..2000).filter(|_| half.begin(&picked).is_sampled()).count();
        assert!((800..1200).contains(&hits), "{hits}");
        // The random flag is the caller's when continuing.
        assert_eq!(untrusted.begin(&sampled).flags & RANDOM, 0);
        let random = headers(&[("traceparent", &PARENT.replace("-01", "-03"))]);
        assert_eq!(untrusted.begin(&random).flags & RANDOM, RANDOM);
    }

    #[test]
    fn propagators_and_the_environment() {
        let off = Tracing::new()
            .propagators(Propagators {
                trace_context: false,
                baggage: true,
            })
            .compile();
        assert!(off
            .begin(&headers(&[("traceparent", PARENT)]))
            .parent_span_id
            .is_none());
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let (t, warnings) = Tracing::from_lookup(vars(&[
            ("OTEL_TRACES_SAMPLER", "traceidratio"),
            ("OTEL_TRACES_SAMPLER_ARG", "0.1"),
            ("OTEL_PROPAGATORS", "baggage, b3"),
        ]));
        assert_eq!(t.sampler, Sampler::TraceIdRatio(0.1));
        assert_eq!(
            t.propagators,
            Propagators {
                trace_context: false,
                baggage: true
            }
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let (t, warnings) = Tracing::from_lookup(vars(&[
            ("OTEL_TRACES_SAMPLER", "xray"),
            ("OTEL_SDK_DISABLED", "TRUE"),
        ]));
        assert_eq!(t.sampler, Sampler::AlwaysOff);
        assert_eq!(warnings.len(), 1);
        let (t, warnings) = Tracing::from_lookup(|_| None);
        assert_eq!(t, Tracing::new());
        assert!(warnings.is_empty());
    }
}
