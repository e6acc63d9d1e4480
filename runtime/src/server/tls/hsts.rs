//! `Strict-Transport-Security` on a TLS listener's answers (`TlsConfig::hsts`).
//!
//! Rules enforced here:
//! - the header's value is made once, when the server binds (`max-age=N`, and
//!   `; includeSubDomains` when asked for);
//! - it wraps the service of a TLS connection only, and only when the app asked for HSTS: a plain
//!   connection, and a TLS one without HSTS, are served by the service itself, so they pay
//!   nothing for it;
//! - every answer of the connection carries it, the server's own refusals (503, 400) too, unless
//!   the answer has one already (a route may send its own, say `max-age=0` to lift it).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::header::{HeaderValue, STRICT_TRANSPORT_SECURITY};

/// The header's value for `max_age` and `include_subdomains`.
pub(crate) fn value((max_age, include_subdomains): (Duration, bool)) -> HeaderValue {
    let text = if include_subdomains {
        format!("max-age={}; includeSubDomains", max_age.as_secs())
    } else {
        format!("max-age={}", max_age.as_secs())
    };
    // Digits and ASCII letters only: always a valid value.
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("max-age=0"))
}

/// A connection's service whose answers carry `Strict-Transport-Security`.
#[derive(Clone)]
pub(crate) struct WithHsts<S> {
    inner: S,
    value: HeaderValue,
}

impl<S> WithHsts<S> {
    /// `inner`, its answers carrying `value`.
    pub(crate) fn new(inner: S, value: HeaderValue) -> Self {
        WithHsts { inner, value }
    }
}

impl<S, Request, Body> hyper::service::Service<Request> for WithHsts<S>
where
    S: hyper::service::Service<Request, Response = hyper::Response<Body>>,
{
    type Response = hyper::Response<Body>;
    type Error = S::Error;
    type Future = Hsts<S::Future>;

    fn call(&self, request: Request) -> Self::Future {
        Hsts {
            inner: self.inner.call(request),
            value: Some(self.value.clone()),
        }
    }
}

pin_project_lite::pin_project! {
    /// An answer on its way, given the header when it is ready.
    pub(crate) struct Hsts<F> {
        #[pin]
        inner: F,
        value: Option<HeaderValue>,
    }
}

impl<F, Body, E> Future for Hsts<F>
where
    F: Future<Output = Result<hyper::Response<Body>, E>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut answer = match this.inner.poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(answer) => answer,
        };
        if let (Ok(response), Some(value)) = (&mut answer, this.value.take()) {
            response
                .headers_mut()
                .entry(STRICT_TRANSPORT_SECURITY)
                .or_insert(value);
        }
        Poll::Ready(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_value_names_the_age_in_seconds_and_the_subdomains() {
        assert_eq!(
            value((Duration::from_secs(31_536_000), false)),
            "max-age=31536000"
        );
        assert_eq!(
            value((Duration::from_secs(600), true)),
            "max-age=600; includeSubDomains"
        );
    }
}
