//! When a call is sent again, and after how long.
//!
//! Rules enforced here: only what cannot do harm twice is retried. A request that never reached
//! the server (no connection) may always be sent again. Otherwise a retry needs a request the
//! server may receive twice: a safe method (`GET`, `HEAD`, `OPTIONS`, `TRACE`) or one carrying an
//! `Idempotency-Key` (the server answers a repeat with its first answer). Such a request is
//! retried when no complete answer came (a cut connection, a timeout), on `503` or `429` with a
//! `Retry-After` the policy accepts, and, with a key, on `409` (the server is still running the
//! first attempt). Attempts are bounded; waits grow exponentially with full jitter (so clients
//! that failed together do not return together), and honour `Retry-After`. A streamed body can
//! be sent only once, so its request is never retried.

use std::time::{Duration, SystemTime};

use hyper::header::{HeaderMap, RETRY_AFTER};
use hyper::{Method, StatusCode};

use crate::error::Error;

/// How a call is retried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1: never retry).
    pub max_attempts: u32,
    /// The wait before the first retry (before jitter); it doubles with each retry.
    pub base_delay: Duration,
    /// The longest wait between two attempts (before jitter).
    pub max_delay: Duration,
    /// The longest `Retry-After` waited for; a longer one ends the retries with that answer.
    pub max_retry_after: Duration,
}

impl RetryPolicy {
    /// Four attempts, waits from 100 ms up to 5 s, `Retry-After` up to 30 s.
    pub const fn new() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
            max_retry_after: Duration::from_secs(30),
        }
    }

    /// Never retry.
    pub const fn none() -> Self {
        RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::new()
        }
    }

    /// This policy with `attempts` attempts in all.
    pub const fn attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// The wait before retry number `retry` (0 for the first), jittered: a random time between
    /// zero and the exponential backoff ("full jitter").
    pub(crate) fn backoff(&self, retry: u32) -> Duration {
        let exponential = self
            .base_delay
            .saturating_mul(1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX))
            .min(self.max_delay);
        let millis = u64::try_from(exponential.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(crate::random::below(millis))
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy::new()
    }
}

/// What is known of a request when deciding whether to send it again.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attempted<'a> {
    pub(crate) method: &'a Method,
    /// It carries an `Idempotency-Key`.
    pub(crate) keyed: bool,
    /// Its body can be sent again.
    pub(crate) replayable: bool,
}

impl Attempted<'_> {
    /// The server may receive it twice.
    fn repeatable(&self) -> bool {
        self.replayable
            && (self.keyed
                || matches!(
                    *self.method,
                    Method::GET | Method::HEAD | Method::OPTIONS | Method::TRACE
                ))
    }

    /// The wait before sending it again after `error`, or `None` not to.
    pub(crate) fn after_error(&self, policy: &RetryPolicy, retry: u32, error: &Error) -> Option<Duration> {
        if retry + 1 >= policy.max_attempts || !self.replayable {
            return None;
        }
        let again = match error {
            Error::Connect(_) => true,
            Error::Transport(_) | Error::Timeout(_) => self.repeatable(),
            _ => false,
        };
        again.then(|| policy.backoff(retry))
    }

    /// The wait before sending it again after an answer of `status` with `headers`, or `None`
    /// to keep that answer.
    pub(crate) fn after_answer(
        &self,
        policy: &RetryPolicy,
        retry: u32,
        status: StatusCode,
        headers: &HeaderMap,
    ) -> Option<Duration> {
        if retry + 1 >= policy.max_attempts || !self.repeatable() {
            return None;
        }
        match status {
            StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS => {
                let wait = retry_after(headers)?;
                (wait <= policy.max_retry_after).then(|| wait + policy.backoff(0) / 4)
            }
            StatusCode::CONFLICT if self.keyed => Some(policy.backoff(retry)),
            _ => None,
        }
    }
}

/// `Retry-After`: seconds, or an HTTP date (the wait until then).
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let text = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(text).ok()?;
    Some(when.duration_since(SystemTime::now()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn attempt(method: &Method, keyed: bool) -> Attempted<'_> {
        Attempted {
            method,
            keyed,
            replayable: true,
        }
    }

    fn retry_after_header(value: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static(value));
        headers
    }

    #[test]
    fn a_request_never_sent_is_always_retried() {
        let policy = RetryPolicy::new();
        let connect = Error::Connect("refused".into());
        assert!(attempt(&Method::POST, false)
            .after_error(&policy, 0, &connect)
            .is_some());
        assert!(
            attempt(&Method::POST, false)
                .after_error(&policy, 3, &connect)
                .is_none(),
            "bounded"
        );
    }

    #[test]
    fn a_request_that_may_have_arrived_needs_a_safe_method_or_a_key() {
        let policy = RetryPolicy::new();
        let cut = Error::Transport("closed".into());
        assert!(attempt(&Method::GET, false)
            .after_error(&policy, 0, &cut)
            .is_some());
        assert!(attempt(&Method::POST, true)
            .after_error(&policy, 0, &cut)
            .is_some());
        assert!(attempt(&Method::POST, false)
            .after_error(&policy, 0, &cut)
            .is_none());
        assert!(attempt(&Method::PUT, false)
            .after_error(&policy, 0, &cut)
            .is_none());
        let streamed = Attempted {
            method: &Method::POST,
            keyed: true,
            replayable: false,
        };
        assert!(streamed
            .after_error(&policy, 0, &Error::Connect("x".into()))
            .is_none());
    }

    #[test]
    fn a_503_is_retried_only_with_an_acceptable_retry_after() {
        let policy = RetryPolicy::new();
        let keyed = attempt(&Method::POST, true);
        let wait = keyed
            .after_answer(
                &policy,
                0,
                StatusCode::SERVICE_UNAVAILABLE,
                &retry_after_header("1"),
            )
            .expect("retried");
        assert!(
            wait >= Duration::from_secs(1) && wait <= Duration::from_millis(1025),
            "{wait:?}"
        );
        let without = HeaderMap::new();
        assert!(keyed
            .after_answer(&policy, 0, StatusCode::SERVICE_UNAVAILABLE, &without)
            .is_none());
        assert!(keyed
            .after_answer(
                &policy,
                0,
                StatusCode::SERVICE_UNAVAILABLE,
                &retry_after_header("3600")
            )
            .is_none());
        assert!(attempt(&Method::POST, false)
            .after_answer(
                &policy,
                0,
                StatusCode::SERVICE_UNAVAILABLE,
                &retry_after_header("1")
            )
            .is_none());
    }

    #[test]
    fn a_409_is_retried_only_with_a_key() {
        let policy = RetryPolicy::new();
        let headers = HeaderMap::new();
        assert!(attempt(&Method::POST, true)
            .after_answer(&policy, 0, StatusCode::CONFLICT, &headers)
            .is_some());
        assert!(attempt(&Method::DELETE, false)
            .after_answer(&policy, 0, StatusCode::CONFLICT, &headers)
            .is_none());
    }

    #[test]
    fn backoff_is_jittered_and_capped() {
        let policy = RetryPolicy::new();
        for retry in 0..30 {
            assert!(policy.backoff(retry) <= policy.max_delay);
        }
        assert!(policy.backoff(0) <= Duration::from_millis(100));
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(
            retry_after(&retry_after_header("7")),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            retry_after(&retry_after_header("Wed, 21 Oct 2015 07:28:00 GMT")),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after(&retry_after_header("soon")), None);
    }
}
