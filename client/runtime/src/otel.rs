//! OpenTelemetry for a call (the `otel` feature): a client span per logical call, a child span per
//! retry, `traceparent` (and whatever else the global propagator writes) on every attempt, and the
//! `http.client.request.duration` histogram, all through the `opentelemetry` API crate and its
//! global providers, so the program that calls chooses the SDK, the sampler and the exporter.
//!
//! Rules enforced here:
//! - the call's span is a child of the current `opentelemetry` [`Context`] when the call starts
//!   (a handler makes its request's trace context current, `FutureExt::with_context`); it is
//!   named `{method} {route template}` (`{method}` for a call without a template) and has kind
//!   client, with the stable HTTP client conventions' attributes (`http.request.method`,
//!   `server.address`, `server.port`, `url.full`, `http.response.status_code`, `error.type`,
//!   and `url.template`);
//! - the first attempt is the call's span; each retry is a child span of it, with
//!   `http.request.resend_count`, and its request carries the retry span's `traceparent`;
//! - so is each reconnection of the event stream a call answers ([`Reconnections`]): a child
//!   span of the call's, its `http.request.resend_count` the reconnection's number in the stream
//!   (1 for the first), its request carrying its `traceparent`, ended when its answer's head
//!   comes (or it fails), a point of the histogram like any attempt;
//! - `url.full` has no user information and no value of a query parameter the call added
//!   ([`CallOptions::query`](crate::CallOptions::query), where an API key goes) or that the
//!   conventions name as secret: a credential never reaches a collector;
//! - a status of 400 or more, or no answer, is an error (`error.type` the status or the kind of
//!   failure), as the conventions say for a client;
//! - the tracer and the histogram are taken from the global providers once, when the
//!   [`Client`](crate::Client) is built; a span that is not recorded (not sampled, no SDK) gets
//!   no attributes built.

use std::borrow::Cow;
use std::time::Instant;

use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use hyper::http::uri::{Authority, Scheme};
use hyper::{Method, StatusCode};
use opentelemetry::global::{self, BoxedTracer};
use opentelemetry::metrics::Histogram;
use opentelemetry::propagation::Injector;
use opentelemetry::trace::{Span, SpanKind, Status, TraceContextExt, Tracer};
use opentelemetry::{Context, InstrumentationScope, KeyValue};

use crate::error::{Error, ErrorKind};

/// The histogram's bucket boundaries, in seconds: the ones the conventions advise.
const BOUNDARIES: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
];

/// Query parameters whose values the conventions say to redact in `url.full`.
const SECRET_QUERY: [&str; 4] = ["AWSAccessKeyId", "Signature", "sig", "X-Goog-Signature"];

/// A client's tracer and histogram, and its server's address as the attributes write it.
#[derive(Clone)]
pub(crate) struct Instruments {
    tracer: std::sync::Arc<BoxedTracer>,
    duration: Histogram<f64>,
    scheme: &'static str,
    address: String,
    port: i64,
    /// `scheme://authority` without user information.
    origin: String,
}

impl Instruments {
    /// The global providers' tracer and histogram, for a client of `scheme://authority`.
    pub(crate) fn new(scheme: &Scheme, authority: &Authority) -> Self {
        let scope = InstrumentationScope::builder("ferrapi-client")
            .with_version(env!("CARGO_PKG_VERSION"))
            .build();
        let tracer = global::tracer_with_scope(scope.clone());
        let duration = global::meter_with_scope(scope)
            .f64_histogram("http.client.request.duration")
            .with_unit("s")
            .with_description("Duration of HTTP client requests.")
            .with_boundaries(BOUNDARIES.to_vec())
            .build();
        let https = *scheme == Scheme::HTTPS;
        let host = authority.host();
        let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
        let shown = match authority.port_u16() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let scheme = if https { "https" } else { "http" };
        Instruments {
            tracer: std::sync::Arc::new(tracer),
            duration,
            scheme,
            // An IPv6 literal is written without its brackets.
            address: host.trim_start_matches('[').trim_end_matches(']').to_owned(),
            port: i64::from(port),
            origin: format!("{scheme}://{shown}"),
        }
    }
}

/// One logical call's span, from its start to its outcome.
pub(crate) struct CallSpan<'a> {
    instruments: &'a Instruments,
    method: &'static str,
    /// The method as sent, when `method` is `_OTHER`.
    original: Option<String>,
    template: Option<&'static str>,
    /// The current context with the call's span in it: the parent of its retries.
    cx: Context,
    recording: bool,
}

impl<'a> CallSpan<'a> {
    /// Start the span of a call of `method` to `template`, a child of the current context.
    pub(crate) fn start(
        instruments: &'a Instruments,
        method: &Method,
        template: Option<&'static str>,
    ) -> Self {
        let name = method_name(method);
        let original = (name == "_OTHER").then(|| method.as_str().to_owned());
        let method = name;
        let parent = Context::current();
        let span = instruments
            .tracer
            .span_builder(span_name(method, template))
            .with_kind(SpanKind::Client)
            .start_with_context(&*instruments.tracer, &parent);
        let recording = span.is_recording();
        let call = CallSpan {
            instruments,
            method,
            original,
            template,
            cx: parent.with_span(span),
            recording,
        };
        if recording {
            call.cx.span().set_attributes(call.span_attributes());
        }
        call
    }

    /// The attributes every span and point of this call has.
    fn common(&self) -> Vec<KeyValue> {
        let mut attributes = vec![
            KeyValue::new("http.request.method", self.method),
            KeyValue::new("server.address", self.instruments.address.clone()),
            KeyValue::new("server.port", self.instruments.port),
        ];
        if let Some(template) = self.template {
            attributes.push(KeyValue::new("url.template", template));
        }
        attributes
    }

    /// [`common`](Self::common), and a span's own: the method as sent when it is not a standard
    /// one (never on the histogram: any text, unbounded).
    fn span_attributes(&self) -> Vec<KeyValue> {
        let mut attributes = self.common();
        if let Some(original) = &self.original {
            attributes.push(KeyValue::new("http.request.method_original", original.clone()));
        }
        attributes
    }

    /// Attempt `retry` (0 for the first) of the call: its span (the call's, or a child for a
    /// retry), whose trace context is written into `headers`; `target` is the request's path and
    /// query, `added` the query parameters the call added.
    pub(crate) fn attempt(
        &self,
        retry: u32,
        headers: &mut HeaderMap,
        target: &str,
        added: &[(String, String)],
    ) -> Attempt {
        let url = (self.recording || retry > 0).then(|| url_full(&self.instruments.origin, target, added));
        let cx = if retry == 0 {
            if let Some(url) = url {
                self.cx.span().set_attribute(KeyValue::new("url.full", url));
            }
            None
        } else {
            let span = self
                .instruments
                .tracer
                .span_builder(span_name(self.method, self.template))
                .with_kind(SpanKind::Client)
                .start_with_context(&*self.instruments.tracer, &self.cx);
            let cx = self.cx.with_span(span);
            if cx.span().is_recording() {
                let mut attributes = self.span_attributes();
                attributes.push(KeyValue::new("http.request.resend_count", i64::from(retry)));
                if let Some(url) = url {
                    attributes.push(KeyValue::new("url.full", url));
                }
                cx.span().set_attributes(attributes);
            }
            Some(cx)
        };
        let current = cx.as_ref().unwrap_or(&self.cx);
        global::get_text_map_propagator(|propagator| {
            propagator.inject_context(current, &mut Headers(headers))
        });
        Attempt {
            retry: cx,
            started: Instant::now(),
        }
    }

    /// The attempt `attempt` ended with `outcome`: its point on the histogram, its retry span
    /// ended.
    pub(crate) fn attempted(&self, attempt: Attempt, outcome: Outcome<'_>) {
        let seconds = attempt.started.elapsed().as_secs_f64();
        let mut attributes = self.common();
        attributes.push(KeyValue::new("url.scheme", self.instruments.scheme));
        let details = outcome.attributes();
        attributes.extend(details.iter().cloned());
        self.instruments.duration.record(seconds, &attributes);
        if let Some(cx) = attempt.retry {
            let span = cx.span();
            if span.is_recording() {
                span.set_attributes(details);
                if let Some(status) = outcome.status() {
                    span.set_status(status);
                }
            }
            span.end();
        }
    }

    /// The call ended with `outcome` (its last attempt's, or why none was made).
    pub(crate) fn end(self, outcome: Outcome<'_>) {
        let span = self.cx.span();
        if self.recording {
            span.set_attributes(outcome.attributes());
            if let Some(status) = outcome.status() {
                span.set_status(status);
            }
        }
        span.end();
    }
}

/// What the reconnections of an event stream need of the call that opened it: its span's
/// context (their parent), what names and describes it, the instruments. Made only for a call
/// that keeps what a reconnection needs (`CallOptions::resumable`).
#[derive(Clone)]
pub(crate) struct Reconnections {
    instruments: Instruments,
    method: &'static str,
    original: Option<String>,
    template: Option<&'static str>,
    cx: Context,
    /// The request's path and query, for `url.full`.
    target: String,
    /// The names of the query parameters the call added (their values redacted in `url.full`;
    /// the values are not kept).
    added: Vec<(String, String)>,
}

impl CallSpan<'_> {
    /// What the reconnections of the stream this call answers need to be spans under it;
    /// `target` and `added` as [`attempt`](Self::attempt) takes them.
    pub(crate) fn reconnections(&self, target: &str, added: &[(String, String)]) -> Reconnections {
        Reconnections {
            instruments: self.instruments.clone(),
            method: self.method,
            original: self.original.clone(),
            template: self.template,
            cx: self.cx.clone(),
            target: target.to_owned(),
            added: added
                .iter()
                .map(|(name, _)| (name.clone(), String::new()))
                .collect(),
        }
    }
}

impl Reconnections {
    /// The call, as its attempts see it.
    fn call(&self) -> CallSpan<'_> {
        CallSpan {
            instruments: &self.instruments,
            method: self.method,
            original: self.original.clone(),
            template: self.template,
            cx: self.cx.clone(),
            recording: false,
        }
    }

    /// Reconnection `count` (1 for the first) is sent: its span, a child of the call's, whose
    /// trace context is written into `headers` (a retry's, with `count` as its resend count).
    pub(crate) fn attempt(&self, count: u32, headers: &mut HeaderMap) -> Attempt {
        self.call()
            .attempt(count.max(1), headers, &self.target, &self.added)
    }

    /// The reconnection `attempt` ended with `outcome`: its point, its span ended.
    pub(crate) fn attempted(&self, attempt: Attempt, outcome: Outcome<'_>) {
        self.call().attempted(attempt, outcome);
    }
}

/// One attempt in flight: its retry span (none for the first) and when it was sent.
pub(crate) struct Attempt {
    retry: Option<Context>,
    started: Instant,
}

/// How an attempt or a call ended.
#[derive(Clone, Copy)]
pub(crate) enum Outcome<'e> {
    /// An answer with this status.
    Answered(StatusCode),
    /// No (usable) answer.
    Failed(&'e Error),
}

impl Outcome<'_> {
    /// `http.response.status_code` and `error.type`, as they apply.
    fn attributes(self) -> Vec<KeyValue> {
        let mut attributes = Vec::with_capacity(2);
        let status = match self {
            Outcome::Answered(status) => Some(status),
            Outcome::Failed(error) => error.status(),
        };
        if let Some(status) = status {
            attributes.push(KeyValue::new(
                "http.response.status_code",
                i64::from(status.as_u16()),
            ));
        }
        if let Some(kind) = self.error_type() {
            attributes.push(KeyValue::new("error.type", kind));
        }
        attributes
    }

    /// The conventions' `error.type`: the status of an answer of 400 or more, else what failed.
    fn error_type(self) -> Option<Cow<'static, str>> {
        match self {
            Outcome::Answered(status) if status.as_u16() >= 400 => {
                Some(Cow::Owned(status.as_str().to_owned()))
            }
            Outcome::Answered(_) => None,
            Outcome::Failed(error) => Some(Cow::Borrowed(match error.kind() {
                ErrorKind::InvalidRequest(_) => "invalid_request",
                ErrorKind::Connect(_) => "connect",
                ErrorKind::Transport(_) => "transport",
                ErrorKind::Timeout(_) => "timeout",
                ErrorKind::Body(_) => "body",
                ErrorKind::Decode(_) => "decode",
                ErrorKind::Status(_) => "status",
                ErrorKind::PageLimit(_) => "page_limit",
            })),
        }
    }

    /// The span's status: an error with its description, or none (unset).
    fn status(self) -> Option<Status> {
        self.error_type().map(|kind| match self {
            Outcome::Failed(error) => Status::error(error.to_string()),
            Outcome::Answered(_) => Status::error(format!("answered {kind}")),
        })
    }
}

/// A request's headers as the propagator writes into them (a value that is not a valid header
/// is left out).
struct Headers<'h>(&'h mut HeaderMap);

impl Injector for Headers<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(key), HeaderValue::try_from(value)) {
            self.0.insert(name, value);
        }
    }
}

/// `{method} {template}`, or `{method}` without a template; `HTTP` for a method outside the
/// standard ones (as the conventions name it).
fn span_name(method: &str, template: Option<&str>) -> Cow<'static, str> {
    let method = if method == "_OTHER" { "HTTP" } else { method };
    match template {
        Some(template) => Cow::Owned(format!("{method} {template}")),
        None => Cow::Owned(method.to_owned()),
    }
}

/// The method as `http.request.method` writes it: a standard one, else `_OTHER`.
fn method_name(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::TRACE => "TRACE",
        Method::CONNECT => "CONNECT",
        _ => "_OTHER",
    }
}

/// `origin` + `target`, with the values of secret query parameters and of those in `added`
/// replaced by `REDACTED`.
fn url_full(origin: &str, target: &str, added: &[(String, String)]) -> String {
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    let mut url = format!("{origin}{path}");
    if let Some(query) = query {
        url.push('?');
        for (i, pair) in query.split('&').enumerate() {
            if i > 0 {
                url.push('&');
            }
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decoded = percent_encoding::percent_decode_str(name).decode_utf8_lossy();
            let secret =
                SECRET_QUERY.contains(&&*decoded) || added.iter().any(|(added, _)| *added == decoded);
            url.push_str(name);
            if pair.contains('=') {
                url.push('=');
                url.push_str(if secret { "REDACTED" } else { value });
            }
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_and_added_query_values_are_redacted() {
        let added = vec![("api_key".to_owned(), "k".to_owned())];
        assert_eq!(
            url_full("http://h:1", "/a/b?q=1&sig=s&api_key=k&flag", &added),
            "http://h:1/a/b?q=1&sig=REDACTED&api_key=REDACTED&flag"
        );
        assert_eq!(url_full("https://h", "/a", &[]), "https://h/a");
    }

    #[test]
    fn the_name_is_the_method_and_template() {
        assert_eq!(span_name("GET", Some("/item/{id}")), "GET /item/{id}");
        assert_eq!(span_name("GET", None), "GET");
        assert_eq!(span_name("_OTHER", Some("/x")), "HTTP /x");
        assert_eq!(
            method_name(&Method::from_bytes(b"PURGE").unwrap_or_default()),
            "_OTHER"
        );
    }
}
