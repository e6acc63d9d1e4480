//! The server span of a sampled request: what is kept of its head when it starts
//! ([`SpanStart`]), and the finished [`SpanRecord`] handed to the app's exporter when it is
//! answered, with OpenTelemetry's stable HTTP server attributes.
//!
//! Rules enforced here:
//! - only a sampled request of an app with an exporter gets here (`observe.rs` checks both
//!   first): the others build nothing, allocate nothing;
//! - the span is named `{method} {route template}` (`GET /item/{id}`), the method alone when no
//!   route answered, `HTTP` for a method outside the standard ones (whose `http.request.method` is
//!   `_OTHER`, the sent one in `http.request.method_original`), as the conventions say;
//! - `client.address` comes only from `X-Forwarded-For`, and only when the app says how many
//!   proxies in front of it add to that field (`Tracing::trusted_proxies`): the address the
//!   farthest trusted proxy saw; a client cannot put an address of its choosing there;
//! - a 5xx answer sets `error.type` to its status code and the span's status to error; 1xx–4xx
//!   leave it unset (a client's error is not the server's);
//! - the start is the answer's wall-clock time minus the request's latency on the monotonic
//!   clock, so one clock reading is taken per span.
//! - the events logged in the request outside the route's own spans are the span's events
//!   (`trace::RequestSpan`, which the request scope hands to the log): the status stays the
//!   HTTP conventions' whatever their level.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use hyper::header::HOST;
use hyper::http::request::Parts;
use hyper::{Method, Version};

use crate::metrics::MethodLabel;
use crate::trace::{
    Attribute, AttributeValue, RequestSpan, SpanKind, SpanRecord, SpanSink, SpanStatus, TraceIds, Tracer,
};

/// `X-Forwarded-For`, read when the app trusts proxies.
static X_FORWARDED_FOR: hyper::header::HeaderName = hyper::header::HeaderName::from_static("x-forwarded-for");

/// What a sampled request's span keeps of its head until it is answered.
pub(crate) struct SpanStart {
    /// Where its span goes, and the spans its route opens (the app's sink), and the events
    /// logged in it: shared with the threads that poll the request.
    span: Arc<RequestSpan>,
    version: Version,
    path: String,
    /// `server.address` and `server.port`, from `Host` (or the HTTP/2 authority).
    server: Option<(String, Option<u16>)>,
    client: Option<String>,
}

impl SpanStart {
    /// The start of the span of the request of head `request`, when `trace` is sampled and the
    /// app has an exporter.
    #[inline]
    pub(crate) fn of(tracer: &Tracer, trace: &TraceIds, request: &Parts) -> Option<Box<SpanStart>> {
        match tracer.sink() {
            Some(sink) if trace.is_sampled() => Some(Self::read(tracer, sink, request)),
            _ => None,
        }
    }

    #[cold]
    #[inline(never)]
    fn read(tracer: &Tracer, sink: &Arc<SpanSink>, request: &Parts) -> Box<SpanStart> {
        let authority = request
            .headers
            .get(HOST)
            .and_then(|host| host.to_str().ok())
            .or_else(|| request.uri.authority().map(|a| a.as_str()));
        Box::new(SpanStart {
            span: Arc::new(RequestSpan::new(sink.clone())),
            version: request.version,
            path: request.uri.path().to_owned(),
            server: authority.and_then(split_authority),
            client: client_address(request, tracer.trusted_proxies()),
        })
    }

    /// The request's open span: the request scope hands it to the log, which exports the
    /// route's own spans to its sink (`logging/route_span.rs`) and adds the events logged
    /// outside them to it.
    pub(crate) fn span(&self) -> &Arc<RequestSpan> {
        &self.span
    }

    /// Finish the span: the request was answered with `status` after `elapsed`, by the route of
    /// template `route` (`None`: no route).
    #[cold]
    #[inline(never)]
    pub(crate) fn finish(
        self,
        trace: &TraceIds,
        method: &Method,
        route: Option<&str>,
        status: u16,
        elapsed: Duration,
    ) {
        let end = SystemTime::now();
        let start = end.checked_sub(elapsed).unwrap_or(end);
        let label = MethodLabel::of(method);
        let known = label != MethodLabel::Other;
        let name_method = if known { label.semconv() } else { "HTTP" };
        let name = match route {
            Some(route) => format!("{name_method} {route}"),
            None => name_method.to_owned(),
        };
        let mut attributes = Vec::with_capacity(12);
        attributes.push(Attribute::new("http.request.method", label.semconv()));
        if !known {
            attributes.push(Attribute::new(
                "http.request.method_original",
                method.as_str().to_owned(),
            ));
        }
        if let Some(route) = route {
            attributes.push(Attribute::new("http.route", route.to_owned()));
        }
        attributes.push(Attribute::new("http.response.status_code", i64::from(status)));
        attributes.push(Attribute::new("url.path", self.path));
        attributes.push(Attribute::new("url.scheme", "http"));
        attributes.push(Attribute::new("network.protocol.name", "http"));
        attributes.push(Attribute::new(
            "network.protocol.version",
            protocol_version(self.version),
        ));
        if let Some((host, port)) = self.server {
            attributes.push(Attribute::new("server.address", host));
            if let Some(port) = port {
                attributes.push(Attribute::new("server.port", i64::from(port)));
            }
        }
        if let Some(client) = self.client {
            attributes.push(Attribute::new("client.address", client));
        }
        let status = if status >= 500 {
            attributes.push(Attribute {
                key: "error.type",
                value: AttributeValue::Str(status.to_string().into()),
            });
            SpanStatus::Error(format!("answered {status}"))
        } else {
            SpanStatus::Unset
        };
        let (events, dropped_events_count) = self.span.take_events();
        let sink = self.span.sink();
        sink.export(SpanRecord {
            trace_id: trace.trace_id,
            span_id: trace.span_id,
            parent_span_id: trace.parent_span_id,
            flags: trace.flags,
            name,
            kind: SpanKind::Server,
            start,
            end,
            attributes,
            events,
            dropped_events_count,
            status,
            resource: sink.resource().clone(),
        });
    }
}

/// `network.protocol.version` of `version`.
fn protocol_version(version: Version) -> &'static str {
    match version {
        Version::HTTP_09 => "0.9",
        Version::HTTP_10 => "1.0",
        Version::HTTP_2 => "2",
        Version::HTTP_3 => "3",
        _ => "1.1",
    }
}

/// `host[:port]` (or `[v6]:port`) split; `None` when empty or malformed.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let authority = authority.trim();
    if authority.is_empty() {
        return None;
    }
    if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest.split_once(']')?;
        let port = match after.strip_prefix(':') {
            Some(port) => Some(port.parse().ok()?),
            None if after.is_empty() => None,
            None => return None,
        };
        return Some((host.to_owned(), port));
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => Some((host.to_owned(), Some(port.parse().ok()?))),
        Some(_) => None,
        None => Some((authority.to_owned(), None)),
    }
}

/// The client's address as the farthest of `trusted` proxies saw it: the `trusted`-th entry of
/// `X-Forwarded-For` from the right (each proxy appends the address it was called from), over
/// all its fields in order; `None` when not trusting proxies or the field is shorter.
fn client_address(request: &Parts, trusted: usize) -> Option<String> {
    if trusted == 0 {
        return None;
    }
    let mut entries: Vec<&str> = Vec::new();
    for value in request.headers.get_all(&X_FORWARDED_FOR) {
        let text = value.to_str().ok()?;
        entries.extend(text.split(',').map(str::trim));
    }
    let index = entries.len().checked_sub(trusted)?;
    let entry = entries.get(index)?;
    let address = entry.parse::<std::net::IpAddr>().ok().or_else(|| {
        // `1.2.3.4:5678` or `[::1]:5678`, as some proxies write it.
        entry.parse::<std::net::SocketAddr>().ok().map(|a| a.ip())
    })?;
    Some(address.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(fields: &[(&str, &str)]) -> Parts {
        let mut request = hyper::Request::builder().uri("/x");
        for (name, value) in fields {
            request = request.header(*name, *value);
        }
        request.body(()).unwrap().into_parts().0
    }

    #[test]
    fn authorities_are_split() {
        assert_eq!(split_authority("example.com"), Some(("example.com".into(), None)));
        assert_eq!(
            split_authority("example.com:8080"),
            Some(("example.com".into(), Some(8080)))
        );
        assert_eq!(split_authority("[::1]:80"), Some(("::1".into(), Some(80))));
        assert_eq!(split_authority("[::1]"), Some(("::1".into(), None)));
        assert_eq!(split_authority("host:port"), None);
        assert_eq!(split_authority(""), None);
    }

    #[test]
    fn the_client_is_the_farthest_trusted_proxys_caller() {
        let one = head(&[("x-forwarded-for", "6.6.6.6, 10.0.0.1")]);
        assert_eq!(client_address(&one, 0), None, "no proxy trusted: nothing read");
        assert_eq!(client_address(&one, 1).as_deref(), Some("10.0.0.1"));
        assert_eq!(client_address(&one, 2).as_deref(), Some("6.6.6.6"));
        assert_eq!(client_address(&one, 3), None);
        let split = head(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "[2001:db8::1]:443"),
        ]);
        assert_eq!(client_address(&split, 1).as_deref(), Some("2001:db8::1"));
        let junk = head(&[("x-forwarded-for", "not-an-address")]);
        assert_eq!(client_address(&junk, 1), None);
    }
}
