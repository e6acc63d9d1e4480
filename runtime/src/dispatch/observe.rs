//! What is recorded of one request, beyond answering it: its id, its span, its access line, its
//! metrics. Kept only when one of them is on ([`Observed`]); otherwise the request path skips
//! all of it after one check.
//!
//! Rules enforced here:
//! - with request ids on (`App::request_ids`) every request gets an id: the incoming
//!   `X-Request-Id` when it is well-formed (1 to 128 characters, each an ASCII letter, digit, or one
//!   of `-_.:/+=@`; such an id needs no escaping in a header, a text log line or a JSON string) and
//!   sent once (two ids would name the request twice: a log reader could follow either), a
//!   new one otherwise (32 random hex digits: 128 bits, so ids of many processes do not collide);
//!   the id is returned in the response's `X-Request-Id`, every answer included;
//! - with request ids on, every line logged while the request is handled carries its id: the
//!   handler's polls run in the request. With ferrapi's own log installed that is a per-thread
//!   request context (`logging::RequestScope`, a few dozen instructions per poll; a `tracing`
//!   span cost ~1,500 per request), which is all that log writes of a span; with any other
//!   subscriber it is a `tracing` span (target `ferrapi::request`, name `request`, at `INFO`)
//!   with `request_id`, `method` and `route` (the template, or `unmatched`), and `status` and
//!   `latency_ms` recorded when it is answered;
//! - the access line (target `ferrapi::access`, `INFO`) is written when that level is on, after
//!   the response is ready: by ferrapi's log directly, or as a `tracing` event in the request span
//!   for another subscriber;
//! - the access line's client values are capped by the log (`logging::MAX_VALUE_BYTES` each, see
//!   `logging/format.rs`); of a longer path only that much is copied for it, with the length of
//!   the rest (a length comparison per request); with another subscriber, the method and path it
//!   is handed are cut to that many bytes, with `method_cut_bytes`/`path_cut_bytes` when cut;
//! - with tracing on (`App::tracing`), every request gets its trace context (`trace/`) before it
//!   is routed; it goes on the access line and on every line logged in the request (after the
//!   request id), down to the route (`RequestCx`, through a layer stack as a request extension),
//!   and, when asked, on the answer (`traceparent` or `traceresponse`); with
//!   `Tracing::trace_request_ids`, its trace id is the request id;
//! - a sampled request of an app with a span exporter (`Tracing::exporter`) keeps what its
//!   server span needs of its head (`span.rs`) and hands the finished span over when it is
//!   answered; any other request builds none (one flag and one `Option` checked);
//! - the clock is read only when the access line, the metrics or a span need it: at the start
//!   (before routing) and when the response is ready;
//! - a request dropped before it is answered (the client went away) leaves the in-flight gauge
//!   and closes its span, and is neither logged nor counted as answered.

use std::cell::RefCell;
use std::sync::Arc;

use bytes::Bytes;
use hyper::header::{HeaderName, HeaderValue};
use hyper::http::request::Parts;
use hyper::{Method, StatusCode, Uri};
use smallvec::SmallVec;
use tracing::field::Empty;
use tracing::Span;

use super::span::SpanStart;
use super::Compiled;
use crate::logging::{self, clock, AccessLine, ACCESS_TARGET, REQUEST_TARGET};
use crate::metrics::{MethodLabel, RouteKey, UNMATCHED};
use crate::response::Response;
use crate::trace::{random_pair, with_random, ResponseHeader, TraceIds, Tracer, TRACEPARENT, TRACERESPONSE};
use crate::versions::{Chosen, VersionSet, VersionSource};

/// `X-Request-Id`, to look for.
static X_REQUEST_ID: HeaderName = X_REQUEST_ID_NAME;

/// `X-Request-Id`, to insert: a constant's value is built where it is used, while a clone of the
/// static calls its bytes' clone function through their vtable (≈ 20 instructions more per
/// request, callgrind `GET /item/42`).
#[allow(clippy::declare_interior_mutable_const)] // only ever moved out, never borrowed
pub(crate) const X_REQUEST_ID_NAME: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id accepted.
const MAX_ID_LEN: usize = 128;

/// True for the bytes a request id may hold (see the module rules).
static ID_BYTE: [bool; 256] = {
    let mut ok = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        ok[b] =
            c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b':' | b'/' | b'+' | b'=' | b'@');
        b += 1;
    }
    ok
};

/// Whether `value` is a well-formed request id.
pub(crate) fn well_formed(value: &[u8]) -> bool {
    (1..=MAX_ID_LEN).contains(&value.len()) && value.iter().all(|&b| ID_BYTE[usize::from(b)])
}

/// A request's id: the one it came with, or one made for it, as the header value it is
/// returned in.
pub(crate) struct RequestId(HeaderValue);

impl RequestId {
    /// The incoming `X-Request-Id` if well-formed and sent once, else a new id.
    pub(crate) fn of(headers: &hyper::HeaderMap) -> Self {
        match sent_id(headers) {
            Some(value) if well_formed(value.as_bytes()) => RequestId(value.clone()),
            _ => RequestId(made_id()),
        }
    }

    /// The trace id of `trace` as the id (32 lowercase hex digits), for
    /// `Tracing::trace_request_ids`.
    pub(crate) fn of_trace(trace: &TraceIds) -> Self {
        // Hex digits are always a valid header value; the fallback is never taken.
        RequestId(
            HeaderValue::from_bytes(&trace.trace_id.to_hex())
                .unwrap_or_else(|_| HeaderValue::from_static("invalid-id")),
        )
    }

    /// The id's bytes (ASCII, see the module rules).
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// The id (ASCII, see the module rules), for `tracing` fields; ferrapi's log takes the bytes.
    pub(crate) fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }

    /// The id as a header value.
    pub(crate) fn into_header(self) -> HeaderValue {
        self.0
    }
}

/// The request's `X-Request-Id` when it sent exactly one (`head::sole_value`: a small head is
/// searched name by name, not hashed).
#[inline]
fn sent_id(headers: &hyper::HeaderMap) -> Option<&HeaderValue> {
    crate::head::sole_value(headers, &X_REQUEST_ID)
}

/// A new id (see [`new_id`]) as a header value: a slice of this thread's block of ids made ahead
/// (one allocation per 128 ids instead of one per id, ~100 instructions per request; a slice of a
/// frozen block costs ≈ 45 fewer than splitting each id off a growing buffer, measured).
fn made_id() -> HeaderValue {
    let bytes = ID_BLOCK.with(|block| match block.try_borrow_mut() {
        Ok(mut block) => {
            if block.next + ID_LEN > block.ids.len() {
                *block = IdBlock::fresh();
            }
            let at = block.next;
            block.next = at + ID_LEN;
            block.ids.slice(at..at + ID_LEN)
        }
        // Only if making an id could make another, which it does not.
        Err(_) => Bytes::copy_from_slice(&new_id()),
    });
    // Hex digits are always a valid header value; the fallback is never taken.
    HeaderValue::from_maybe_shared(bytes).unwrap_or_else(|_| HeaderValue::from_static("invalid-id"))
}

/// The length of a made id.
const ID_LEN: usize = 32;

/// The size of a thread's block of ids (128 ids). A block is freed when the thread has moved on
/// to the next and the last request holding one of its ids has its response head written (hyper
/// drops the header map then): at worst one block per request in flight, 4 MiB at the default
/// `max_concurrency` of 1,024.
const ID_SPACE_BYTES: usize = 4096;

/// Ids made ahead on one thread, handed out in order (see [`made_id`]).
struct IdBlock {
    ids: Bytes,
    /// Where the next id starts.
    next: usize,
}

impl IdBlock {
    /// A block of new ids, made with one visit to this thread's generator (a visit per id cost
    /// ≈ 6 instructions an id more, callgrind `GET /item/42`).
    #[cold]
    fn fresh() -> Self {
        // Each id made in place by a counted `map`, collected at once: appended one by one,
        // each append's length and capacity checks cost ≈ 20 instructions an id more, and a
        // zeroed block written over ≈ 30 (callgrind `GET /item/42`).
        let ids: Vec<[u8; ID_LEN]> = with_random(|s| {
            (0..ID_SPACE_BYTES / ID_LEN)
                .map(|_| {
                    let mut id = [0u8; ID_LEN];
                    put_id(&mut id, s);
                    id
                })
                .collect()
        });
        let ids = ids.into_flattened();
        IdBlock {
            ids: Bytes::from(ids),
            next: 0,
        }
    }
}

thread_local! {
    /// This thread's block of ids (see [`made_id`]); empty until its first id.
    static ID_BLOCK: RefCell<IdBlock> = const { RefCell::new(IdBlock { ids: Bytes::new(), next: 0 }) };
}

/// A new id: 32 lowercase hex digits of fresh random bits (see [`put_id`]).
fn new_id() -> [u8; ID_LEN] {
    let mut out = [0u8; ID_LEN];
    with_random(|s| put_id(&mut out, s));
    out
}

/// Write into `out` 32 lowercase hex digits of fresh random bits of the generator whose state is
/// `s`: each 64-bit half gives its low nibbles and its high nibbles, eight at a time, one to a
/// byte, made digits by arithmetic on the whole word (≈ 65 instructions an id with its append to
/// the block, callgrind `GET /item/42`; a table of the 256 digit pairs looked up byte by byte
/// cost ≈ 115). The digits need not keep the bits' order: they are random.
fn put_id(out: &mut [u8; ID_LEN], s: &mut u64) {
    let [high, low] = random_pair(s);
    for (digits, word) in out.chunks_exact_mut(8).zip([high, high >> 4, low, low >> 4]) {
        digits.copy_from_slice(&hex_digits(word & LOW_NIBBLES).to_le_bytes());
    }
}

/// The low nibble of every byte of a word.
const LOW_NIBBLES: u64 = 0x0f0f_0f0f_0f0f_0f0f;

/// Eight values below 16, one in each byte of `nibbles`, as eight lowercase hex digits (the
/// same bytes): `'0' + n`, plus `'a' - '0' - 10` where `n` is 10 or more (adding 6 carries such
/// a nibble into its byte's bit 4). No byte carries into the next: each stays below 0x67.
fn hex_digits(nibbles: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let letters = ((nibbles + 6 * ONES) >> 4) & ONES;
    nibbles + u64::from(b'0') * ONES + letters * u64::from(b'a' - b'0' - 10)
}

/// A copy of a request's path and query, inline when short (96 bytes), copied without first
/// zeroing the space. Cloning the `Uri` instead cost ~290 instructions per request: the first
/// clone of hyper's buffer-backed `Bytes` allocates its shared form, and dropping it frees that.
/// Of a path longer than the log writes of a value (`logging::MAX_VALUE_BYTES`), only that much is
/// kept (whole characters) and the length of the rest: a line cannot show more (every escape is at
/// least as long as what it escapes), and a 64 KiB path is not copied for a 2 KiB line.
struct PathCopy {
    bytes: SmallVec<[u8; 96]>,
    /// The bytes of the path left out of `bytes`.
    cut: usize,
}

impl PathCopy {
    fn of(uri: &Uri) -> Self {
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        if path.len() <= logging::MAX_VALUE_BYTES {
            PathCopy {
                bytes: SmallVec::from_slice(path.as_bytes()),
                cut: 0,
            }
        } else {
            Self::prefix(path)
        }
    }

    /// The first `logging::MAX_VALUE_BYTES` of a longer `path` (whole characters).
    #[cold]
    fn prefix(path: &str) -> Self {
        let kept = logging::prefix_of(path, logging::MAX_VALUE_BYTES);
        PathCopy {
            bytes: SmallVec::from_slice(kept.as_bytes()),
            cut: path.len() - kept.len(),
        }
    }

    /// The path's bytes kept (UTF-8: copied from a `str`, cut between characters).
    fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// What routing tells the observer of a request: where it went, and how to enter it. The
/// unobserved path passes `()`, for which it all compiles away.
pub(super) trait Hook {
    /// The request was routed to `key`.
    fn routed(&mut self, key: RouteKey);
    /// The docs pages answer `path`.
    fn docs(&mut self, path: &str);
    /// Enter the request on this thread, until the guard is dropped.
    fn enter(&self) -> Option<InRequest<'_>>;
    /// The request's trace context, when the app traces (by reference: a copy of its 40 bytes
    /// down every step cost an app that does not trace ≈ 30 instructions, callgrind
    /// `GET /item/42`).
    fn trace(&self) -> Option<&TraceIds>;
    /// In an app with versions: the request is answered at `chosen` of `versions`.
    fn versioned(&mut self, versions: &VersionSet, chosen: Chosen);
}

impl Hook for () {
    #[inline(always)]
    fn routed(&mut self, _key: RouteKey) {}
    #[inline(always)]
    fn docs(&mut self, _path: &str) {}
    #[inline(always)]
    fn enter(&self) -> Option<InRequest<'_>> {
        None
    }
    #[inline(always)]
    fn trace(&self) -> Option<&TraceIds> {
        None
    }
    #[inline(always)]
    fn versioned(&mut self, _versions: &VersionSet, _chosen: Chosen) {}
}

impl Hook for Observed {
    #[inline]
    fn routed(&mut self, key: RouteKey) {
        Observed::routed(self, key);
    }
    fn docs(&mut self, path: &str) {
        Observed::docs(self, path);
    }
    fn enter(&self) -> Option<InRequest<'_>> {
        Observed::enter(self)
    }
    #[inline]
    fn trace(&self) -> Option<&TraceIds> {
        self.trace.as_ref()
    }
    fn versioned(&mut self, versions: &VersionSet, chosen: Chosen) {
        self.version = versions.date(chosen.index).map(|date| (date, chosen.source));
    }
}

/// What one request records, from its start to its answer.
pub(crate) struct Observed {
    inner: Arc<Compiled>,
    /// When its head was read (when the access line or the metrics need the latency): a reading
    /// of `logging::clock`.
    started: Option<u64>,
    method: Method,
    /// The method as the metrics label it (read once, when the app has metrics).
    method_label: MethodLabel,
    /// The request's path and query, for the access line (`None` when it is off).
    path: Option<PathCopy>,
    id: Option<RequestId>,
    /// The request's trace context (when the app traces: `trace/`).
    trace: Option<TraceIds>,
    /// What its server span keeps, when it is sampled and the app exports spans.
    span_start: Option<Box<SpanStart>>,
    /// The request's span (with a subscriber other than ferrapi's log; else disabled).
    span: Span,
    /// ferrapi's log is installed: the request is entered as a `logging::RequestScope`.
    scoped: bool,
    key: RouteKey,
    /// The version served and where it came from, in an app with versions (for the access line).
    version: Option<(&'static str, VersionSource)>,
    /// Its answer has more to do in an app that traces (see [`Observed::record_traced`]): decided
    /// at the start, so an unsampled request without a response header skips a call.
    traced_answer: bool,
}

/// Inside a request, for as long as it is kept (see the module rules); held for its `Drop`.
pub(crate) enum InRequest<'a> {
    /// Its `tracing` span is entered.
    Span { _entered: tracing::span::Entered<'a> },
    /// Its id is this thread's request context.
    Scope { _scope: logging::RequestScope },
}

impl Observed {
    /// Start observing the request of head `request` (`log`: the access line is on).
    pub(crate) fn begin(inner: &Arc<Compiled>, request: &Parts, log: bool) -> Self {
        let metrics = inner.metrics.as_ref();
        // Read only for the metrics (unused otherwise).
        let method_label = match metrics {
            Some(metrics) => {
                let label = MethodLabel::of(&request.method);
                metrics.started(label);
                label
            }
            None => MethodLabel::Other,
        };
        // Each field made by its own expression, the struct built where it is returned: a
        // tuple of the id, trace and span start moved in, or the struct filled in a local,
        // cost ≈ 35 to 60 instructions per request more (callgrind `GET /item/42`). An app that
        // traces builds its own (out of line): the trace's fields and tests made the struct's
        // building ≈ 20 instructions dearer for every app.
        if let Some(tracer) = &inner.tracer {
            return Self::begin_traced(inner, tracer, request, (log, method_label));
        }
        Observed {
            inner: inner.clone(),
            started: (log || metrics.is_some()).then(clock::now),
            method: request.method.clone(),
            method_label,
            path: log.then(|| PathCopy::of(&request.uri)),
            id: inner.config.request_ids.then(|| RequestId::of(&request.headers)),
            trace: None,
            span_start: None,
            span: Span::none(),
            scoped: logging::is_installed(),
            key: RouteKey::Unmatched,
            version: None,
            traced_answer: false,
        }
    }

    /// [`begin`](Self::begin) in an app that traces with `tracer`.
    #[inline(never)]
    fn begin_traced(
        inner: &Arc<Compiled>,
        tracer: &Tracer,
        request: &Parts,
        (log, method_label): (bool, MethodLabel),
    ) -> Self {
        let trace = tracer.begin(&request.headers);
        let span_start = SpanStart::of(tracer, &trace, request);
        Observed {
            inner: inner.clone(),
            started: (log || inner.metrics.is_some() || span_start.is_some()).then(clock::now),
            method: request.method.clone(),
            method_label,
            path: log.then(|| PathCopy::of(&request.uri)),
            id: inner.config.request_ids.then(|| match tracer.trace_request_ids {
                true => RequestId::of_trace(&trace),
                false => RequestId::of(&request.headers),
            }),
            traced_answer: span_start.is_some() || tracer.response_header != ResponseHeader::None,
            trace: Some(trace),
            span_start,
            span: Span::none(),
            scoped: logging::is_installed(),
            key: RouteKey::Unmatched,
            version: None,
        }
    }

    /// The request was routed (to `key`): open its span (for another subscriber).
    #[inline]
    pub(crate) fn routed(&mut self, key: RouteKey) {
        self.key = key;
        if (self.id.is_some() || self.trace.is_some()) && !self.scoped {
            self.open_span();
        }
    }

    /// Open the request's span, for a subscriber other than ferrapi's log. Out of line, as every
    /// path taken only with another subscriber: its frame and spills cost the common path ≈ 10
    /// instructions each (callgrind `GET /item/42`).
    #[cold]
    #[inline(never)]
    fn open_span(&mut self) {
        let route = match self.key {
            RouteKey::Route(index) => self
                .inner
                .targets
                .get(index)
                .map_or(UNMATCHED, |t| t.matched.path()),
            _ => UNMATCHED,
        };
        let hex = self.trace.map(|t| {
            (
                t.trace_id.to_string(),
                t.span_id.to_string(),
                format!("{:02x}", t.flags),
            )
        });
        self.span = tracing::info_span!(
            target: REQUEST_TARGET,
            "request",
            request_id = self.id.as_ref().map(RequestId::as_str),
            method = logging::prefix_of(self.method.as_str(), logging::MAX_VALUE_BYTES),
            route,
            status = Empty,
            latency_ms = Empty,
            trace_id = hex.as_ref().map(|h| h.0.as_str()),
            span_id = hex.as_ref().map(|h| h.1.as_str()),
            trace_flags = hex.as_ref().map(|h| h.2.as_str()),
        );
    }

    /// Enter the request on this thread, until the guard is dropped; `None` without request ids
    /// or tracing.
    pub(crate) fn enter(&self) -> Option<InRequest<'_>> {
        if !self.scoped {
            return self.enter_span();
        }
        let _scope = match &self.trace {
            None => logging::enter_request(self.id.as_ref()?.as_bytes()),
            Some(trace) => logging::enter_traced(
                self.id.as_ref().map_or(&[][..], RequestId::as_bytes),
                trace,
                self.span_start.as_deref().map(SpanStart::span),
            ),
        };
        Some(InRequest::Scope { _scope })
    }

    /// [`enter`](Self::enter) with another subscriber: the request's span, when it has one.
    #[cold]
    #[inline(never)]
    fn enter_span(&self) -> Option<InRequest<'_>> {
        if self.id.is_none() && self.trace.is_none() {
            return None;
        }
        Some(InRequest::Span {
            _entered: self.span.enter(),
        })
    }

    /// The docs pages answered `path`.
    pub(crate) fn docs(&mut self, path: &str) {
        let key = match &self.inner.metrics {
            Some(metrics) => metrics.docs_key(path),
            None => RouteKey::Unmatched,
        };
        self.routed(key);
    }

    /// The response is ready: record it, log it, and give it its id. Called once; the in-flight
    /// gauge is left when the observer is dropped.
    pub(crate) fn record(&mut self, response: &mut Response) {
        // When it was answered, and its latency in nanoseconds.
        let timing = self.started.map(|started| {
            let now = clock::now();
            (now, now.saturating_sub(started))
        });
        let elapsed = timing.map(|(_, elapsed)| elapsed);
        let status = response.status();
        if !self.span.is_disabled() {
            self.record_in_span(status, elapsed);
        }
        if let (Some(path), Some((now, elapsed))) = (&self.path, timing) {
            let route = match self.key {
                RouteKey::Route(index) if !logging::access_skips_route() => {
                    self.inner.targets.get(index).map(|t| t.matched.path())
                }
                _ => None,
            };
            let line = AccessLine {
                method: self.method.as_str(),
                path: path.as_bytes(),
                path_cut: path.cut,
                route,
                status: status.as_u16(),
                micros: elapsed / 1000,
                request_id: self.id.as_ref().map(RequestId::as_bytes),
                trace: self.trace.as_ref(),
                at: now,
                version: self.version.map(|(date, source)| (date, source.as_str())),
            };
            if !logging::access_line(&line) {
                self.access_event(&line, elapsed);
            }
        }
        if let (Some(metrics), Some(elapsed)) = (&self.inner.metrics, elapsed) {
            let sampled = self.trace.as_ref().filter(|t| t.is_sampled());
            metrics.answered(self.key, self.method_label, status, elapsed as f64 / 1e9, sampled);
        }
        if let Some(id) = self.id.take() {
            response.headers_mut().insert(X_REQUEST_ID_NAME, id.into_header());
        }
        if self.traced_answer {
            self.record_traced(response, status, elapsed);
        }
    }

    /// What [`record`](Self::record) does in an app that traces: the server span handed over
    /// (a sampled request's), the trace context on the answer (when asked). Out of line: its
    /// tests in `record` cost an app that does not trace ≈ 10 instructions per request, and the
    /// call an unsampled request that needs neither ≈ 20.
    #[inline(never)]
    fn record_traced(&mut self, response: &mut Response, status: StatusCode, elapsed: Option<u64>) {
        if let Some(start) = self.span_start.take() {
            self.finish_span(*start, status, elapsed.unwrap_or_default());
        }
        if let (Some(trace), Some(tracer)) = (&self.trace, &self.inner.tracer) {
            if tracer.response_header != ResponseHeader::None {
                answer_trace(response, trace, tracer.response_header);
            }
        }
    }

    /// Hand the request's server span to the exporter (out of line: only sampled requests).
    #[cold]
    #[inline(never)]
    fn finish_span(&self, start: SpanStart, status: StatusCode, elapsed: u64) {
        let Some(trace) = &self.trace else { return };
        let route = match self.key {
            RouteKey::Route(index) => self.inner.targets.get(index).map(|t| t.matched.path()),
            _ => None,
        };
        start.finish(
            trace,
            &self.method,
            route,
            status.as_u16(),
            std::time::Duration::from_nanos(elapsed),
        );
    }

    /// Record the answer's `status` and latency (`elapsed` nanoseconds) in the request's span
    /// (another subscriber's; see [`Observed::open_span`] for why out of line).
    #[cold]
    #[inline(never)]
    fn record_in_span(&self, status: StatusCode, elapsed: Option<u64>) {
        self.span.record("status", status.as_u16());
        if let Some(elapsed) = elapsed {
            self.span.record("latency_ms", elapsed as f64 / 1e6);
        }
    }

    /// The access line as a `tracing` event in the request's span, for another subscriber (see
    /// [`Observed::open_span`] for why out of line).
    #[cold]
    #[inline(never)]
    fn access_event(&self, line: &AccessLine<'_>, elapsed: u64) {
        let _entered = self.span.enter();
        // The client's values as far as ferrapi's own lines write them (its escaping and caps
        // are the subscriber's): the first `MAX_VALUE_BYTES` of each, and how much was left out.
        let method = logging::prefix_of(line.method, logging::MAX_VALUE_BYTES);
        let method_cut = line.method.len() - method.len();
        tracing::info!(
            target: ACCESS_TARGET,
            method,
            method_cut_bytes = (method_cut > 0).then_some(method_cut),
            path = String::from_utf8_lossy(line.path).as_ref(),
            path_cut_bytes = (line.path_cut > 0).then_some(line.path_cut),
            route = line.route,
            status = line.status,
            latency_ms = elapsed as f64 / 1e6,
            api_version = line.version.map(|(date, _)| date),
            version_source = line.version.map(|(_, source)| source),
        );
    }
}

/// Put the request's `traceparent` on its answer, under the name `header` says (out of line: off
/// by default).
#[cold]
#[inline(never)]
fn answer_trace(response: &mut Response, trace: &TraceIds, header: ResponseHeader) {
    let name = match header {
        ResponseHeader::Traceparent => TRACEPARENT.clone(),
        ResponseHeader::Traceresponse => TRACERESPONSE.clone(),
        ResponseHeader::None => return,
    };
    // Lowercase hex and dashes: always a valid value.
    if let Ok(value) = HeaderValue::from_bytes(&trace.traceparent()) {
        response.headers_mut().insert(name, value);
    }
}

impl Drop for Observed {
    fn drop(&mut self) {
        if let Some(metrics) = &self.inner.metrics {
            metrics.ended(self.method_label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_and_made() {
        assert!(well_formed(b"4bf92f3577b34da6a3ce929d0e0e4736"));
        assert!(well_formed(b"f81d4fae-7dec-11d0-a765-00a0c91e6bf6"));
        assert!(well_formed(b"a"));
        assert!(well_formed(b"req:1/2+3=4@host_x.y"));
        assert!(well_formed("x".repeat(128).as_bytes()));
        assert!(!well_formed(b""));
        assert!(!well_formed("x".repeat(129).as_bytes()));
        assert!(!well_formed(b"has space"));
        assert!(!well_formed(b"quote\"d"));
        assert!(!well_formed(b"back\\slash"));
        assert!(!well_formed(b"line\nbreak"));
        assert!(!well_formed("caf\u{e9}".as_bytes()));
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        assert!(well_formed(&a));
        assert!(a.iter().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
    }

    #[test]
    fn hex_digits_are_computed_right() {
        for n in 0..16u64 {
            for place in 0..8 {
                // `n` in one byte, the others holding other nibbles (15 - n): no byte disturbs another.
                let word = (0..8).fold(0u64, |w, i| w | (if i == place { n } else { 15 - n }) << (8 * i));
                let digits = hex_digits(word).to_le_bytes();
                let expected = format!("{n:x}");
                assert_eq!(digits[place], expected.as_bytes()[0], "{n} at {place}");
                assert_eq!(
                    char::from(digits[(place + 1) % 8]),
                    format!("{:x}", 15 - n).chars().next().unwrap()
                );
            }
        }
    }

    #[test]
    fn made_ids_are_distinct_and_well_formed_across_id_spaces() {
        // Three times the ids of one space: the space is renewed twice on the way.
        let ids: Vec<HeaderValue> = (0..3 * ID_SPACE_BYTES / 32).map(|_| made_id()).collect();
        for id in &ids {
            assert_eq!(id.len(), 32);
            assert!(id
                .as_bytes()
                .iter()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        }
        let distinct: std::collections::HashSet<&[u8]> = ids.iter().map(HeaderValue::as_bytes).collect();
        assert_eq!(distinct.len(), ids.len());
    }

    #[test]
    fn made_ids_use_every_digit_in_every_place() {
        let mut seen = [[false; 16]; 32];
        for _ in 0..2000 {
            for (place, digit) in new_id().into_iter().enumerate() {
                let value = char::from(digit).to_digit(16).unwrap();
                seen[place][value as usize] = true;
            }
        }
        assert!(seen.iter().all(|place| place.iter().all(|&s| s)));
    }

    #[test]
    fn an_incoming_id_is_kept_only_when_well_formed() {
        let mut headers = hyper::HeaderMap::new();
        headers.insert(&X_REQUEST_ID, HeaderValue::from_static("req-42"));
        assert_eq!(RequestId::of(&headers).as_bytes(), b"req-42");
        headers.insert(&X_REQUEST_ID, HeaderValue::from_static("has space"));
        let made = RequestId::of(&headers);
        assert_eq!(made.as_bytes().len(), 32);
        assert_eq!(made.as_str().len(), 32);
        assert_eq!(made.into_header().as_bytes().len(), 32);
        assert_eq!(RequestId::of(&hyper::HeaderMap::new()).as_bytes().len(), 32);
    }

    #[test]
    fn an_incoming_id_sent_twice_is_replaced_in_small_and_large_heads() {
        // 17: more than `sole_value` walks by name.
        for fields in [0, 17] {
            let mut headers = hyper::HeaderMap::new();
            for i in 0..fields {
                let name = HeaderName::from_bytes(format!("x-field-{i}").as_bytes()).unwrap();
                headers.insert(name, HeaderValue::from_static("v"));
            }
            headers.insert(&X_REQUEST_ID, HeaderValue::from_static("req-42"));
            assert_eq!(
                RequestId::of(&headers).as_bytes(),
                b"req-42",
                "{fields} other fields"
            );
            headers.append(&X_REQUEST_ID, HeaderValue::from_static("req-43"));
            assert_eq!(
                RequestId::of(&headers).as_bytes().len(),
                32,
                "{fields} other fields"
            );
        }
    }
}
