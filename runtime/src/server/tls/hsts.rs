//! `Strict-Transport-Security` on a TLS listener's answers (`TlsConfig::hsts`).
//!
//! Rules enforced here:
//! - the header's value is made once, when the server binds (`max-age=N`, and
//!   `; includeSubDomains` when asked for);
//! - a TLS connection's service carries it only when the app asked for HSTS (`server/admit.rs`,
//!   which adds it): a plain connection, and a TLS one without HSTS, pay one test for it;
//! - every answer of the connection carries it, the server's own refusals (503, 400) too, unless
//!   the answer has one already (a route may send its own, say `max-age=0` to lift it).

use std::time::Duration;

use hyper::header::HeaderValue;

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
