//! A plain listener that sends every request to HTTPS ([`Scheme::HttpRedirect`](super::Scheme)).
//!
//! Rules enforced here:
//! - the connection is accepted, placed under the connection limit, given its deadlines and, on
//!   HTTP/1, judged by the strict scanner as any plain one (`server/mod.rs`); only what answers
//!   its requests differs: the connection's service answers them with [`Redirect::answer`]
//!   (`admit.rs`), never the app, so no route, layer or dependency runs and the concurrency
//!   limit is not taken (an answer is made at once from the head);
//! - every request is answered `308 Permanent Redirect` (the method and body are kept by the
//!   client, unlike 301) with `Location: https://{host}{:port}{path?query}`: the host the request
//!   named (HTTP/1: the absolute-form target's, else `Host`; HTTP/2: `:authority`) without its
//!   port, the server's TLS port unless it is 443, the target's path and query as sent (`*`
//!   becomes `/`); the body is one short line of text;
//! - a request naming no host, or one that is not a host (userinfo, bad characters), is
//!   answered 400 `{"detail": …}` and its connection closed, as is a head the strict scanner
//!   refuses; a request with a body (unread) or asking for an upgrade is answered and its
//!   connection closed, so nothing of it is ever read as a next request.

use std::sync::Arc;

use hyper::body::Incoming;
use hyper::header::{
    HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, LOCATION, TRANSFER_ENCODING,
};
use hyper::http::uri::Authority;
use hyper::{Request, StatusCode, Version};

use super::refusals::Refusals;
use super::strict::Verdict;
use crate::metrics::Refusal;
use crate::response::{error_response, Body, Response};

/// Where requests are sent: the TLS listener's port.
#[derive(Debug)]
pub(crate) struct Redirect {
    /// `""` for 443, else `:port`.
    port: String,
}

impl Redirect {
    /// Requests sent to the TLS listener on `port`.
    pub(crate) fn to_port(port: u16) -> Arc<Self> {
        let port = if port == 443 {
            String::new()
        } else {
            format!(":{port}")
        };
        Arc::new(Redirect { port })
    }

    /// The answer to `request`, whose head the scanner judged `verdict` (see the module rules);
    /// a refusal is counted in `refusals`.
    pub(crate) fn answer(
        &self,
        request: &Request<Incoming>,
        verdict: Verdict,
        refusals: &Refusals,
    ) -> Response {
        let location = match verdict {
            Verdict::Refuse(violation) => Err((violation.status(), violation.detail())),
            Verdict::Serve | Verdict::Upgrade => self
                .location(request)
                .map_err(|detail| (StatusCode::BAD_REQUEST, detail)),
        };
        let mut response = match location {
            Ok(location) => {
                let text = format!("Moved to {}\n", location.to_str().unwrap_or("HTTPS"));
                let mut response = Response::new(Body::from(text));
                *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
                let headers = response.headers_mut();
                headers.insert(LOCATION, location);
                headers.insert(
                    CONTENT_TYPE,
                    HeaderValue::from_static("text/plain; charset=utf-8"),
                );
                response
            }
            Err((status, detail)) => {
                tracing::debug!(status = status.as_u16(), detail, "malformed request refused");
                refusals.count(Refusal::Malformed);
                let mut response = error_response(status, &serde_json::json!(detail));
                response
                    .headers_mut()
                    .insert(CONNECTION, HeaderValue::from_static("close"));
                return response;
            }
        };
        let has_body = request.headers().contains_key(TRANSFER_ENCODING)
            || request
                .headers()
                .get(CONTENT_LENGTH)
                .is_some_and(|length| length.as_bytes() != b"0");
        if request.version() != Version::HTTP_2 && (has_body || matches!(verdict, Verdict::Upgrade)) {
            response
                .headers_mut()
                .insert(CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }

    /// The `Location` of `request`, or why there is none.
    fn location<B>(&self, request: &Request<B>) -> Result<HeaderValue, &'static str> {
        let named = match (request.version(), request.uri().authority()) {
            (_, Some(authority)) => authority.as_str().as_bytes(),
            (Version::HTTP_2, None) => return Err("The request names no :authority"),
            (_, None) => match request.headers().get(HOST) {
                Some(host) => host.as_bytes(),
                None => return Err("The request names no Host"),
            },
        };
        let authority = Authority::try_from(named).map_err(|_| "The Host is not a host name")?;
        let host = authority.host();
        if host.is_empty() || authority.as_str().contains('@') {
            return Err("The Host is not a host name");
        }
        let target = match request.uri().path_and_query().map(|pq| pq.as_str()) {
            None | Some("*") | Some("") => "/",
            Some(target) => target,
        };
        HeaderValue::try_from(format!("https://{host}{}{target}", self.port))
            .map_err(|_| "The request target cannot be redirected")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn location(port: u16, request: Request<()>) -> Result<HeaderValue, &'static str> {
        Redirect::to_port(port).location(&request)
    }

    fn get(target: &str, host: Option<&str>) -> Request<()> {
        let mut request = Request::get(target);
        if let Some(host) = host {
            request = request.header(HOST, host);
        }
        request.body(()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_port_is_omitted_for_443_only() {
        let to = location(443, get("/a?b=1", Some("example.com:80")));
        assert_eq!(to, Ok(HeaderValue::from_static("https://example.com/a?b=1")));
        let to = location(8443, get("/a", Some("example.com")));
        assert_eq!(to, Ok(HeaderValue::from_static("https://example.com:8443/a")));
    }

    #[test]
    fn the_host_comes_from_the_absolute_target_then_host_and_keeps_ipv6_brackets() {
        let to = location(443, get("http://target.example/x?y", Some("other.example")));
        assert_eq!(to, Ok(HeaderValue::from_static("https://target.example/x?y")));
        let to = location(8443, get("/", Some("[::1]:8080")));
        assert_eq!(to, Ok(HeaderValue::from_static("https://[::1]:8443/")));
        let to = location(443, get("*", Some("example.com")));
        assert_eq!(to, Ok(HeaderValue::from_static("https://example.com/")));
    }

    #[test]
    fn no_host_or_a_host_with_userinfo_is_refused() {
        assert!(location(443, get("/", None)).is_err());
        assert!(location(443, get("/", Some("user@evil.example"))).is_err());
        assert!(location(443, get("/", Some(":8080"))).is_err());
        assert!(location(443, get("/", Some("a b"))).is_err());
    }
}
