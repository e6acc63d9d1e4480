//! Prometheus metrics of an app, opt-in (`App::metrics`): requests by method, route template and
//! status, their latency, the requests in flight and those refused for overload, served at one
//! path (`/metrics` by default) in the Prometheus text format, or OpenMetrics when the scraper
//! asks for it. Built on `prometheus-client`, re-exported as [`prometheus_client`] so an app can
//! register metrics of its own in the same registry ([`Metrics::registry`]).
//!
//! Rules enforced here:
//! - an app without metrics pays nothing for them: nothing here runs, and the request path only
//!   checks whether the app observes its requests at all;
//! - labels have bounded values: `route` is a route's template (`/item/{id}`), a path the docs
//!   pages or this endpoint answer, or `unmatched` (for 404 and 405); `method` is one of the
//!   standard methods or `OTHER`; `status` is a status code; so a client cannot grow the series
//!   by sending new paths or methods;
//! - recording a request finds its counter and histogram without hashing its labels: each route
//!   keeps the handles it has used, by method and status, behind a read lock; a label set is
//!   hashed once, when a route first answers with a method and status;
//! - latencies are histograms with fixed buckets (100 µs to 10 s), so recording costs the same
//!   and memory stays constant whatever the traffic; both request histograms are our own
//!   (`histogram`: an atomic add to the bucket and to the sum, no lock; prometheus-client's took
//!   a mutex, and with exemplars a read-write lock and a map, per observation), written by
//!   prometheus-client's encoders, so a scrape reads exactly as before;
//! - a scrape encodes the registry at the time of the request; metrics of the app registered in
//!   the same registry come out with them;
//! - OpenTelemetry's stable HTTP server metrics are recorded beside them, under the names
//!   OpenTelemetry's Prometheus exporter gives them: `http.server.request.duration`
//!   (`http_server_request_duration_seconds`, the semantic conventions' buckets, labelled
//!   `http_request_method`, `http_route`, `http_response_status_code`, `url_scheme` and, for a
//!   5xx, `error_type`) and `http.server.active_requests` (`http_server_active_requests`, by
//!   `http_request_method` and `url_scheme`); a sampled request's trace and span ids are the
//!   exemplar of the bucket it fell in (written when scraped as OpenMetrics, `duration`), an
//!   unsampled one sets none.

use std::fmt;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};
use std::time::SystemTime;

use hyper::header::{HeaderValue, ACCEPT, CONTENT_TYPE};
use hyper::{HeaderMap, Method, StatusCode};
pub use prometheus_client;
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{
    DescriptorEncoder, EncodeLabel, EncodeLabelSet, EncodeLabelValue, EncodeMetric, LabelSetEncoder,
    LabelValueEncoder,
};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::{Registry, Unit};

use crate::response::{Body, Response};
use crate::trace::TraceIds;

mod duration;
mod histogram;
#[cfg(feature = "otlp")]
pub mod otlp;

use duration::{DurationFamily, DurationHistogram};
use histogram::{AtomicHistogram, SharedHistogram};

/// The request latency buckets, in seconds: 100 µs to 10 s.
pub const LATENCY_BUCKETS: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The buckets of `http.server.request.duration`, in seconds: those OpenTelemetry's HTTP
/// semantic conventions advise.
pub const SERVER_DURATION_BUCKETS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

/// The `url_scheme` label: the server speaks plain HTTP (TLS is a proxy's, for now).
pub(crate) const SCHEME: &str = "http";

/// The `route` label of a request no route answered (404, 405).
pub const UNMATCHED: &str = "unmatched";

/// The metrics of an app: give it to `App::metrics` to record every request and serve
/// them at [`Metrics::path`] (default `/metrics`).
///
/// ```
/// use ferrapi::metrics::{prometheus_client::metrics::counter::Counter, Metrics};
///
/// let mut metrics = Metrics::new();
/// let logins = Counter::<u64>::default();
/// metrics.registry().register("logins", "Successful logins", logins.clone());
/// let app = ferrapi::App::new().metrics(metrics);
/// # let _ = app;
/// ```
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    path: String,
    /// What an exporter reads besides the registry (`otlp`), shared with the request metrics.
    shared: Shared,
}

/// The request metrics' state an exporter reads (`otlp::MetricsExporter`): clones share it with
/// the request path.
#[derive(Debug, Clone)]
pub(crate) struct Shared {
    /// `http.server.request.duration`'s series.
    pub(crate) duration: DurationFamily,
    /// `http.server.active_requests` by method, set when a method's gauge is made.
    pub(crate) active: Arc<[OnceLock<Gauge>; MethodLabel::COUNT]>,
    /// When the metrics were made: the start of their cumulative counts.
    // Read by the exporter only, which the `otlp` feature compiles.
    #[cfg_attr(not(feature = "otlp"), allow(dead_code))]
    pub(crate) start: SystemTime,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// An empty registry, served at `/metrics`.
    pub fn new() -> Self {
        Metrics {
            registry: Registry::default(),
            path: "/metrics".to_owned(),
            shared: Shared {
                duration: DurationFamily::default(),
                active: Arc::default(),
                start: SystemTime::now(),
            },
        }
    }

    /// Serve the metrics at `path` instead of `/metrics`.
    pub fn path(mut self, path: impl Into<String>) -> Self {
        let path = path.into();
        self.path = if path.starts_with('/') {
            path
        } else {
            format!("/{path}")
        };
        self
    }

    /// Where the metrics are served.
    pub fn served_at(&self) -> &str {
        &self.path
    }

    /// The registry, to register metrics of the app's own; they are served with the requests'.
    pub fn registry(&mut self) -> &mut Registry {
        &mut self.registry
    }
}

/// A request method as a label: a standard method, or `OTHER`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum MethodLabel {
    Get,
    Head,
    Post,
    Put,
    Delete,
    Patch,
    Options,
    Connect,
    Trace,
    Other,
}

impl MethodLabel {
    pub(crate) fn of(method: &Method) -> Self {
        match *method {
            Method::GET => MethodLabel::Get,
            Method::HEAD => MethodLabel::Head,
            Method::POST => MethodLabel::Post,
            Method::PUT => MethodLabel::Put,
            Method::DELETE => MethodLabel::Delete,
            Method::PATCH => MethodLabel::Patch,
            Method::OPTIONS => MethodLabel::Options,
            Method::CONNECT => MethodLabel::Connect,
            Method::TRACE => MethodLabel::Trace,
            _ => MethodLabel::Other,
        }
    }

    /// The value OpenTelemetry's `http.request.method` takes: a known method, or `_OTHER`.
    pub(crate) fn semconv(self) -> &'static str {
        match self {
            MethodLabel::Other => "_OTHER",
            known => known.as_str(),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            MethodLabel::Get => "GET",
            MethodLabel::Head => "HEAD",
            MethodLabel::Post => "POST",
            MethodLabel::Put => "PUT",
            MethodLabel::Delete => "DELETE",
            MethodLabel::Patch => "PATCH",
            MethodLabel::Options => "OPTIONS",
            MethodLabel::Connect => "CONNECT",
            MethodLabel::Trace => "TRACE",
            MethodLabel::Other => "OTHER",
        }
    }

    /// How many there are.
    const COUNT: usize = 10;

    /// Every method label, in order (its index is `label as usize`).
    #[cfg_attr(not(feature = "otlp"), allow(dead_code))]
    pub(crate) const ALL: [MethodLabel; Self::COUNT] = [
        MethodLabel::Get,
        MethodLabel::Head,
        MethodLabel::Post,
        MethodLabel::Put,
        MethodLabel::Delete,
        MethodLabel::Patch,
        MethodLabel::Options,
        MethodLabel::Connect,
        MethodLabel::Trace,
        MethodLabel::Other,
    ];
}

impl EncodeLabelValue for MethodLabel {
    fn encode(&self, encoder: &mut LabelValueEncoder<'_>) -> Result<(), fmt::Error> {
        EncodeLabelValue::encode(&self.as_str(), encoder)
    }
}

/// The labels of a request's series.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RequestLabels {
    method: MethodLabel,
    route: Arc<str>,
    status: u16,
}

impl EncodeLabelSet for RequestLabels {
    fn encode(&self, encoder: &mut LabelSetEncoder<'_>) -> Result<(), fmt::Error> {
        ("method", self.method).encode(encoder.encode_label())?;
        ("route", &*self.route).encode(encoder.encode_label())?;
        ("status", self.status).encode(encoder.encode_label())
    }
}

/// The per-route latency histogram of one label set.
type LatencyHistogram = SharedHistogram<{ LATENCY_BUCKETS.len() }>;

type HistogramFamily = Family<RequestLabels, LatencyHistogram, fn() -> LatencyHistogram>;

/// The labels of `http.server.request.duration`: OpenTelemetry's attributes, named as its
/// Prometheus exporter names them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ServerLabels {
    pub(crate) method: MethodLabel,
    /// The route's template; `None` for a request no route answered (the conventions leave
    /// `http.route` out then).
    pub(crate) route: Option<Arc<str>>,
    pub(crate) status: u16,
}

impl EncodeLabelSet for ServerLabels {
    fn encode(&self, encoder: &mut LabelSetEncoder<'_>) -> Result<(), fmt::Error> {
        ("http_request_method", self.method.semconv()).encode(encoder.encode_label())?;
        if let Some(route) = &self.route {
            ("http_route", &**route).encode(encoder.encode_label())?;
        }
        ("http_response_status_code", self.status).encode(encoder.encode_label())?;
        ("url_scheme", SCHEME).encode(encoder.encode_label())?;
        if self.status >= 500 {
            ("error_type", self.status).encode(encoder.encode_label())?;
        }
        Ok(())
    }
}

/// The labels of `http.server.active_requests`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ActiveLabels(MethodLabel);

impl EncodeLabelSet for ActiveLabels {
    fn encode(&self, encoder: &mut LabelSetEncoder<'_>) -> Result<(), fmt::Error> {
        ("http_request_method", self.0.semconv()).encode(encoder.encode_label())?;
        ("url_scheme", SCHEME).encode(encoder.encode_label())
    }
}

/// Why the server refused a request or cut a connection or stream: the `reason` label of
/// `http_refusals`, and what the server's warnings count (`server/refusals.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Refusal {
    /// 503: the concurrency limit was reached.
    Overload,
    /// 408: a request body missed its deadline.
    BodyTimeout,
    /// A connection (HTTP/1) or stream (HTTP/2) cut: its client read nothing for the write
    /// timeout.
    WriteTimeout,
    /// A connection accepted at the connection limit: the oldest idle one is closed to make
    /// room, or, all busy, it waits for a place.
    ConnectionLimit,
    /// An idle connection closed to make room for a new one at the connection limit.
    Evicted,
    /// 400 or 501: a request the strict HTTP/1.1 rules refuse, or an HTTP/2 `Host` that is not
    /// its `:authority`.
    Malformed,
    /// 503 or 413: a request or response the memory budget had no room for.
    MemoryBudget,
    /// 503 and closed (HTTP/2: the stream reset): a body that made no progress while its memory
    /// was needed, reset to give it back.
    MemoryReset,
    /// A TLS handshake that failed (not TLS, no protocol or version in common, a bad record) or
    /// did not finish within its deadline; the connection is closed.
    TlsHandshake,
}

impl Refusal {
    /// Every reason, in label order.
    pub(crate) const ALL: [Refusal; 9] = [
        Refusal::Overload,
        Refusal::BodyTimeout,
        Refusal::WriteTimeout,
        Refusal::ConnectionLimit,
        Refusal::Evicted,
        Refusal::Malformed,
        Refusal::MemoryBudget,
        Refusal::MemoryReset,
        Refusal::TlsHandshake,
    ];

    /// The label value.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Refusal::Overload => "overload",
            Refusal::BodyTimeout => "body_timeout",
            Refusal::WriteTimeout => "write_timeout",
            Refusal::ConnectionLimit => "connection_limit",
            Refusal::Evicted => "evicted",
            Refusal::Malformed => "malformed",
            Refusal::MemoryBudget => "memory_budget",
            Refusal::MemoryReset => "memory_reset",
            Refusal::TlsHandshake => "tls_handshake",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RefusalLabels(Refusal);

impl EncodeLabelSet for RefusalLabels {
    fn encode(&self, encoder: &mut LabelSetEncoder<'_>) -> Result<(), fmt::Error> {
        ("reason", self.0.label()).encode(encoder.encode_label())
    }
}

fn latency_histogram() -> LatencyHistogram {
    SharedHistogram(Arc::new(AtomicHistogram::new(&LATENCY_BUCKETS)))
}

/// The series of one method and status of a route.
struct Series {
    method: MethodLabel,
    status: u16,
    count: Counter,
    latency: Arc<AtomicHistogram<{ LATENCY_BUCKETS.len() }>>,
    /// `http.server.request.duration`.
    duration: Arc<DurationHistogram>,
}

/// The series one route has answered with, by method and status.
type Seen = Vec<Series>;

impl Series {
    /// Count one answer that took `seconds`, with its trace as the exemplar when `sampled`.
    #[inline]
    fn record(&self, seconds: f64, sampled: Option<&TraceIds>) {
        self.count.inc();
        self.latency.observe(seconds);
        match sampled {
            None => self.duration.observe(seconds),
            // Out of line: most requests are not sampled.
            Some(ids) => self.duration.observe_with_exemplar(seconds, ids),
        }
    }
}

/// One label value of `route` and the handles used with it.
struct Slot {
    route: Arc<str>,
    /// The template as `http.route` (`None` for the unmatched slot).
    http_route: Option<Arc<str>>,
    /// The series of the slot's first method and status, read without a lock: most routes
    /// answer one method with one status, and the lock of `seen` cost each answer ≈ 25
    /// instructions (callgrind `GET /item/42` with `METRICS=true`).
    first: OnceLock<Series>,
    /// The slot's other series.
    seen: RwLock<Seen>,
}

/// Where a request's series are: which [`Slot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RouteKey {
    /// The route of this index.
    Route(usize),
    /// The docs path of this index (see [`HttpMetrics::docs_key`]).
    Docs(usize),
    /// The metrics endpoint.
    Endpoint,
    /// No route (404, 405).
    Unmatched,
}

/// The request metrics of a built app, and the registry they are served from.
pub(crate) struct HttpMetrics {
    registry: Registry,
    path: String,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily,
    in_flight: Gauge,
    server_duration: DurationFamily,
    active_family: Family<ActiveLabels, Gauge>,
    /// `http.server.active_requests` by method, made at a method's first request (so a scrape
    /// shows only methods seen, and counting hashes nothing after).
    active: [OnceLock<Gauge>; MethodLabel::COUNT],
    /// The same gauges, as an exporter reads them (set when made; the request path reads the
    /// array above, one pointer less).
    published: Arc<[OnceLock<Gauge>; MethodLabel::COUNT]>,
    rejected: Counter,
    /// The `http_refusals` counters, by [`Refusal`] (made at start, so counting hashes nothing).
    refusals: [Counter; Refusal::ALL.len()],
    routes: Vec<Slot>,
    docs: Vec<Slot>,
    endpoint: Slot,
    unmatched: Slot,
}

impl fmt::Debug for HttpMetrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpMetrics")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

fn slot(route: &str) -> Slot {
    let route: Arc<str> = route.into();
    Slot {
        http_route: Some(route.clone()),
        route,
        first: OnceLock::new(),
        seen: RwLock::new(Vec::new()),
    }
}

/// Reports the lines the log dropped, read at each scrape.
#[derive(Debug)]
struct DroppedLogLines;

impl Collector for DroppedLogLines {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), fmt::Error> {
        let counter = ConstCounter::new(crate::logging::dropped_lines());
        let metric = encoder.encode_descriptor(
            "log_lines_dropped",
            "Log lines dropped because the log output could not keep up",
            None,
            counter.metric_type(),
        )?;
        counter.encode(metric)
    }
}

impl HttpMetrics {
    /// Register the request metrics in `metrics`' registry, for routes with these templates (by
    /// declaration index) and these docs paths.
    pub(crate) fn new(metrics: Metrics, routes: &[&str], docs: &[&str]) -> Self {
        let Metrics {
            mut registry,
            path,
            shared,
        } = metrics;
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = HistogramFamily::new_with_constructor(latency_histogram as fn() -> LatencyHistogram);
        let in_flight = Gauge::default();
        let rejected = Counter::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by method, route template and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time from reading a request's head to its response, by method, route template and status",
            latency.clone(),
        );
        registry.register(
            "http_requests_in_flight",
            "HTTP requests being answered",
            in_flight.clone(),
        );
        registry.register(
            "http_requests_rejected",
            "HTTP requests refused with 503 because the server was at its concurrency limit",
            rejected.clone(),
        );
        let server_duration = shared.duration;
        registry.register_with_unit(
            "http_server_request_duration",
            "Duration of HTTP server requests (OpenTelemetry's http.server.request.duration)",
            Unit::Seconds,
            server_duration.clone(),
        );
        let active_family = Family::<ActiveLabels, Gauge>::default();
        registry.register(
            "http_server_active_requests",
            "Number of active HTTP server requests (OpenTelemetry's http.server.active_requests)",
            active_family.clone(),
        );
        let refusal_family = Family::<RefusalLabels, Counter>::default();
        registry.register(
            "http_refusals",
            "Requests refused and connections or streams cut by the server's limits and deadlines, by reason",
            refusal_family.clone(),
        );
        let refusals =
            Refusal::ALL.map(|reason| refusal_family.get_or_create(&RefusalLabels(reason)).clone());
        registry.register_collector(Box::new(DroppedLogLines));
        HttpMetrics {
            refusals,
            routes: routes.iter().map(|route| slot(route)).collect(),
            docs: docs.iter().map(|route| slot(route)).collect(),
            endpoint: slot(&path),
            unmatched: Slot {
                http_route: None,
                ..slot(UNMATCHED)
            },
            server_duration,
            active_family,
            active: Default::default(),
            published: shared.active,
            registry,
            path,
            requests,
            latency,
            in_flight,
            rejected,
        }
    }

    /// True when `path` is the metrics endpoint's. The last bytes are compared before the rest:
    /// a route's path of the same length rarely ends as the endpoint's, and the call to
    /// `memcmp` an equal length led to cost every request ≈ 19 instructions (callgrind
    /// `GET /item/42` with `METRICS=true`).
    #[inline]
    pub(crate) fn owns(&self, path: &str) -> bool {
        path.len() == self.path.len()
            && path.as_bytes().last() == self.path.as_bytes().last()
            && self.path == path
    }

    /// The key of a docs path the docs pages answered.
    pub(crate) fn docs_key(&self, path: &str) -> RouteKey {
        let path = match path.strip_suffix('/') {
            Some(stripped) if !stripped.is_empty() => stripped,
            _ => path,
        };
        match self.docs.iter().position(|slot| &*slot.route == path) {
            Some(index) => RouteKey::Docs(index),
            None => RouteKey::Unmatched,
        }
    }

    fn slot(&self, key: RouteKey) -> &Slot {
        match key {
            RouteKey::Route(index) => self.routes.get(index).unwrap_or(&self.unmatched),
            RouteKey::Docs(index) => self.docs.get(index).unwrap_or(&self.unmatched),
            RouteKey::Endpoint => &self.endpoint,
            RouteKey::Unmatched => &self.unmatched,
        }
    }

    /// A request with `method` started.
    #[inline]
    pub(crate) fn started(&self, method: MethodLabel) {
        self.in_flight.inc();
        self.active(method).inc();
    }

    /// A request with `method` started has ended, answered or not.
    #[inline]
    pub(crate) fn ended(&self, method: MethodLabel) {
        self.in_flight.dec();
        self.active(method).dec();
    }

    /// The `http.server.active_requests` gauge of `method`.
    #[inline]
    fn active(&self, method: MethodLabel) -> &Gauge {
        match self.active.get(method as usize) {
            Some(cell) => cell.get_or_init(|| self.made_active(method)),
            // Never: the array has a place for every method.
            None => &self.in_flight,
        }
    }

    /// The `http.server.active_requests` gauge of `method`, made (once) and published.
    #[cold]
    fn made_active(&self, method: MethodLabel) -> Gauge {
        let gauge = self.active_family.get_or_create_owned(&ActiveLabels(method));
        if let Some(published) = self.published.get(method as usize) {
            let _ = published.set(gauge.clone());
        }
        gauge
    }

    /// A request was refused for overload.
    pub(crate) fn rejected(&self) {
        self.rejected.inc();
    }

    /// The server refused or cut something, for `reason`.
    pub(crate) fn refused(&self, reason: Refusal) {
        if let Some(counter) = self.refusals.get(reason as usize) {
            counter.inc();
        }
    }

    /// A request was answered; `sampled`: its trace ids, when it was sampled (the exemplar).
    pub(crate) fn answered(
        &self,
        key: RouteKey,
        method: MethodLabel,
        status: StatusCode,
        seconds: f64,
        sampled: Option<&TraceIds>,
    ) {
        let slot = self.slot(key);
        let status = status.as_u16();
        if let Some(series) = slot.first.get() {
            if series.method == method && series.status == status {
                series.record(seconds, sampled);
                return;
            }
        }
        {
            let seen = slot.seen.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(series) = seen.iter().find(|s| s.method == method && s.status == status) {
                series.record(seconds, sampled);
                return;
            }
        }
        self.first_answer(slot, (method, status), seconds, sampled);
    }

    /// The first answer of a slot with this method and status: find (or make) its series.
    #[cold]
    fn first_answer(
        &self,
        slot: &Slot,
        (method, status): (MethodLabel, u16),
        seconds: f64,
        sampled: Option<&TraceIds>,
    ) {
        let labels = RequestLabels {
            method,
            route: slot.route.clone(),
            status,
        };
        let series = Series {
            method,
            status,
            count: self.requests.get_or_create_owned(&labels),
            latency: self.latency.get_or_create_owned(&labels).0,
            duration: self.server_duration.get_or_create(&ServerLabels {
                method,
                route: slot.http_route.clone(),
                status,
            }),
        };
        series.record(seconds, sampled);
        // The first series of the slot goes where it is read without a lock; when another
        // thread's first answer took that place, or for any later series, the locked list.
        // Either way a label set is counted once: its counters are the families' own.
        let Err(series) = slot.first.set(series) else {
            return;
        };
        let mut seen = slot.seen.write().unwrap_or_else(PoisonError::into_inner);
        let taken = slot
            .first
            .get()
            .is_some_and(|first| first.method == method && first.status == status);
        if !taken && !seen.iter().any(|s| s.method == method && s.status == status) {
            seen.push(series);
        }
    }

    /// The metrics endpoint's answer: Prometheus text, or OpenMetrics when `Accept` asks for it.
    pub(crate) fn respond(&self, headers: &HeaderMap) -> Response {
        let openmetrics = headers
            .get_all(ACCEPT)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .any(|accept| accept.contains("application/openmetrics-text"));
        let mut text = String::with_capacity(16 * 1024);
        let (encoded, content_type) = if openmetrics {
            let encoded = prometheus_client::encoding::text::encode(&mut text, &self.registry);
            self.server_duration.add_exemplars(&mut text);
            (
                encoded,
                "application/openmetrics-text; version=1.0.0; charset=utf-8",
            )
        } else {
            (
                prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry),
                prometheus_client::encoding::prometheus_text::CONTENT_TYPE,
            )
        };
        if encoded.is_err() {
            tracing::error!("the metrics could not be encoded; answering 500");
            return crate::response::internal_error();
        }
        let mut response = Response::new(Body::from(text));
        *response.status_mut() = StatusCode::OK;
        response
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Prometheus text of `metrics`' registry.
    fn scrape(metrics: &HttpMetrics) -> String {
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &metrics.registry).unwrap();
        text
    }

    #[test]
    fn a_route_s_first_series_and_its_others_are_each_counted_once() {
        let metrics = HttpMetrics::new(Metrics::new(), &["/items/{id}"], &[]);
        let route = RouteKey::Route(0);
        for _ in 0..3 {
            metrics.answered(route, MethodLabel::Get, StatusCode::OK, 0.001, None);
        }
        metrics.answered(route, MethodLabel::Get, StatusCode::NOT_FOUND, 0.001, None);
        metrics.answered(route, MethodLabel::Post, StatusCode::OK, 0.001, None);
        metrics.answered(route, MethodLabel::Get, StatusCode::NOT_FOUND, 0.001, None);
        let text = scrape(&metrics);
        let count = |method: &str, status: &str| {
            text.lines()
                .find(|line| {
                    line.starts_with("http_requests_total{")
                        && line.contains(&format!("method=\"{method}\""))
                        && line.contains(&format!("status=\"{status}\""))
                })
                .and_then(|line| line.rsplit(' ').next())
                .map(str::to_owned)
        };
        assert_eq!(count("GET", "200").as_deref(), Some("3"), "{text}");
        assert_eq!(count("GET", "404").as_deref(), Some("2"), "{text}");
        assert_eq!(count("POST", "200").as_deref(), Some("1"), "{text}");
        // The lock-free place holds the first series; the others are in the list, once each.
        let slot = metrics.slot(route);
        let first = slot.first.get().map(|s| (s.method, s.status));
        assert_eq!(first, Some((MethodLabel::Get, 200)));
        assert_eq!(slot.seen.read().unwrap().len(), 2);
    }

    #[test]
    fn first_answers_racing_on_threads_share_one_series() {
        let metrics = Arc::new(HttpMetrics::new(Metrics::new(), &["/a"], &[]));
        let threads: Vec<_> = (0..4)
            .map(|i| {
                let metrics = metrics.clone();
                std::thread::spawn(move || {
                    let status = if i % 2 == 0 {
                        StatusCode::OK
                    } else {
                        StatusCode::CREATED
                    };
                    for _ in 0..500 {
                        metrics.answered(RouteKey::Route(0), MethodLabel::Get, status, 0.01, None);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let slot = metrics.slot(RouteKey::Route(0));
        let listed = usize::from(slot.first.get().is_some()) + slot.seen.read().unwrap().len();
        assert_eq!(listed, 2, "one series per status");
        let text = scrape(&metrics);
        for status in ["200", "201"] {
            assert!(
                text.lines().any(|line| line.starts_with("http_requests_total{")
                    && line.contains(&format!("status=\"{status}\""))
                    && line.ends_with(" 1000")),
                "{status}: {text}"
            );
        }
    }
}
