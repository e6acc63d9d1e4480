//! When a call is sent again, and after how long.
//!
//! Rules enforced here: only what cannot do harm twice is retried. A request that never reached
//! the server (no connection) may always be sent again. Otherwise a retry needs a request the
//! server may receive twice: a safe method (`GET`, `HEAD`, `OPTIONS`, `TRACE`) or one carrying an
//! `Idempotency-Key` (the server answers a repeat with its first answer). Such a request is
//! retried when no complete answer came (a cut connection, a timeout), on `503` or `429` with a
//! `Retry-After` the policy accepts, and, with a key, on `409` (the server is still running the
//! first attempt, or holds the key of one whose process died until its lease ends). Attempts are
//! bounded, and so is the time: no retry starts past the policy's budget from the call's start.
//! Waits grow exponentially with full jitter (so clients that failed together do not return
//! together), and honour `Retry-After` on `503`, `429` and `409` (the server knows when the key's
//! lease ends; issue 43: without it, four attempts within 0.7 s gave up with 409 while a killed
//! process's key was held). A streamed body can be sent only once, so its request is never
//! retried.

use std::time::{Duration, SystemTime};

use hyper::header::{HeaderMap, RETRY_AFTER};
use hyper::{Method, StatusCode};

use crate::error::{Error, ErrorKind};

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
    /// The most time a call spends before its last retry starts, counted from its first
    /// attempt: a retry whose wait would end later is not made, and the call ends with the
    /// answer or error it has. It bounds what `Retry-After`s add up to.
    pub budget: Duration,
}

impl RetryPolicy {
    /// Four attempts, waits from 100 ms up to 5 s, `Retry-After` up to 30 s, retries started
    /// within 30 s of the call: enough to outlast a ferrapi server's default idempotency lease
    /// (6 s), after which the key of a process that died is free.
    pub const fn new() -> Self {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(5),
            max_retry_after: Duration::from_secs(30),
            budget: Duration::from_secs(30),
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

    /// This policy with retries started within `budget` of the call's first attempt.
    pub const fn budget(mut self, budget: Duration) -> Self {
        self.budget = budget;
        self
    }

    /// `wait`, if a retry after it still starts within the budget, `elapsed` into the call.
    fn within_budget(&self, elapsed: Duration, wait: Duration) -> Option<Duration> {
        (elapsed.saturating_add(wait) <= self.budget).then_some(wait)
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

    /// The wait before sending it again after `error`, `elapsed` into the call, or `None` not
    /// to.
    pub(crate) fn after_error(
        &self,
        policy: &RetryPolicy,
        retry: u32,
        elapsed: Duration,
        error: &Error,
    ) -> Option<Duration> {
        if retry + 1 >= policy.max_attempts || !self.replayable {
            return None;
        }
        let again = match error.kind() {
            ErrorKind::Connect(_) => true,
            ErrorKind::Transport(_) | ErrorKind::Timeout(_) => self.repeatable(),
            _ => false,
        };
        policy.within_budget(elapsed, again.then(|| policy.backoff(retry))?)
    }

    /// The wait before sending it again after an answer of `status` with `headers`, `elapsed`
    /// into the call, or `None` to keep that answer.
    pub(crate) fn after_answer(
        &self,
        policy: &RetryPolicy,
        retry: u32,
        elapsed: Duration,
        status: StatusCode,
        headers: &HeaderMap,
    ) -> Option<Duration> {
        if retry + 1 >= policy.max_attempts || !self.repeatable() {
            return None;
        }
        // A `Retry-After` the policy accepts, and a little jitter so that clients told the same
        // time do not all come back at once.
        let told = |wait: Duration| (wait <= policy.max_retry_after).then(|| wait + policy.backoff(0) / 4);
        let wait = match status {
            StatusCode::SERVICE_UNAVAILABLE | StatusCode::TOO_MANY_REQUESTS => told(retry_after(headers)?)?,
            // A server that says when the key's lease ends is believed (a longer `Retry-After`
            // than the policy accepts ends the retries); one that does not is polled with
            // backoff, as before.
            StatusCode::CONFLICT if self.keyed => match retry_after(headers) {
                Some(wait) => told(wait)?,
                None => policy.backoff(retry),
            },
            _ => return None,
        };
        policy.within_budget(elapsed, wait)
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

    /// The wait before a keyed `POST`'s first retry, at the call's start, after `status` with
    /// `Retry-After: value`.
    fn keyed_wait(policy: &RetryPolicy, status: StatusCode, value: &'static str) -> Option<Duration> {
        attempt(&Method::POST, true).after_answer(
            policy,
            0,
            Duration::ZERO,
            status,
            &retry_after_header(value),
        )
    }

    #[test]
    fn a_request_never_sent_is_always_retried() {
        let policy = RetryPolicy::new();
        let connect = Error::from(ErrorKind::Connect("refused".into()));
        assert!(attempt(&Method::POST, false)
            .after_error(&policy, 0, Duration::ZERO, &connect)
            .is_some());
        assert!(
            attempt(&Method::POST, false)
                .after_error(&policy, 3, Duration::ZERO, &connect)
                .is_none(),
            "bounded"
        );
    }

    #[test]
    fn a_request_that_may_have_arrived_needs_a_safe_method_or_a_key() {
        let policy = RetryPolicy::new();
        let cut = Error::from(ErrorKind::Transport("closed".into()));
        assert!(attempt(&Method::GET, false)
            .after_error(&policy, 0, Duration::ZERO, &cut)
            .is_some());
        assert!(attempt(&Method::POST, true)
            .after_error(&policy, 0, Duration::ZERO, &cut)
            .is_some());
        assert!(attempt(&Method::POST, false)
            .after_error(&policy, 0, Duration::ZERO, &cut)
            .is_none());
        assert!(attempt(&Method::PUT, false)
            .after_error(&policy, 0, Duration::ZERO, &cut)
            .is_none());
        let streamed = Attempted {
            method: &Method::POST,
            keyed: true,
            replayable: false,
        };
        assert!(streamed
            .after_error(&policy, 0, Duration::ZERO, &ErrorKind::Connect("x".into()).into())
            .is_none());
    }

    #[test]
    fn a_503_is_retried_only_with_an_acceptable_retry_after() {
        let policy = RetryPolicy::new();
        let keyed = attempt(&Method::POST, true);
        let wait = keyed_wait(&policy, StatusCode::SERVICE_UNAVAILABLE, "1").expect("retried");
        assert!(
            wait >= Duration::from_secs(1) && wait <= Duration::from_millis(1025),
            "{wait:?}"
        );
        let without = HeaderMap::new();
        assert!(keyed
            .after_answer(
                &policy,
                0,
                Duration::ZERO,
                StatusCode::SERVICE_UNAVAILABLE,
                &without
            )
            .is_none());
        assert!(keyed
            .after_answer(
                &policy,
                0,
                Duration::ZERO,
                StatusCode::SERVICE_UNAVAILABLE,
                &retry_after_header("3600")
            )
            .is_none());
        assert!(attempt(&Method::POST, false)
            .after_answer(
                &policy,
                0,
                Duration::ZERO,
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
            .after_answer(&policy, 0, Duration::ZERO, StatusCode::CONFLICT, &headers)
            .is_some());
        assert!(attempt(&Method::DELETE, false)
            .after_answer(&policy, 0, Duration::ZERO, StatusCode::CONFLICT, &headers)
            .is_none());
    }

    #[test]
    fn a_409_waits_as_its_retry_after_says_or_backs_off_without_one() {
        let policy = RetryPolicy::new();
        let wait = keyed_wait(&policy, StatusCode::CONFLICT, "5").expect("retried");
        assert!(
            wait >= Duration::from_secs(5) && wait <= Duration::from_millis(5025),
            "the lease's end, not 0.1 s: {wait:?}"
        );
        let garbled = keyed_wait(&policy, StatusCode::CONFLICT, "soon");
        assert!(
            garbled.is_some_and(|wait| wait <= Duration::from_millis(100)),
            "backoff"
        );
        assert!(
            keyed_wait(&policy, StatusCode::CONFLICT, "3600").is_none(),
            "longer than the policy waits for: that answer"
        );
        assert!(
            attempt(&Method::GET, false)
                .after_answer(
                    &policy,
                    0,
                    Duration::ZERO,
                    StatusCode::CONFLICT,
                    &retry_after_header("1")
                )
                .is_none(),
            "a 409 without a key is an answer"
        );
    }

    #[test]
    fn no_retry_starts_past_the_budget() {
        let policy = RetryPolicy::new().attempts(100).budget(Duration::from_secs(10));
        let keyed = attempt(&Method::POST, true);
        let six = retry_after_header("6");
        assert!(keyed
            .after_answer(&policy, 1, Duration::from_secs(3), StatusCode::CONFLICT, &six)
            .is_some());
        assert!(
            keyed
                .after_answer(&policy, 1, Duration::from_secs(5), StatusCode::CONFLICT, &six)
                .is_none(),
            "5 s in, a 6 s wait ends past 10 s"
        );
        assert!(keyed
            .after_answer(
                &policy,
                1,
                Duration::from_secs(5),
                StatusCode::SERVICE_UNAVAILABLE,
                &six
            )
            .is_none());
        let cut = Error::from(ErrorKind::Transport("closed".into()));
        assert!(keyed
            .after_error(&policy, 1, Duration::from_millis(9_000), &cut)
            .is_some());
        assert!(keyed
            .after_error(&policy, 1, Duration::from_secs(10), &cut)
            .is_none());
    }

    #[test]
    fn the_default_policy_outlasts_a_default_lease() {
        // A killed process's key: the cut connection, a 409 telling the whole lease (6 s), then
        // the run. Within the default's attempts and budget, with room for a second 409.
        let policy = RetryPolicy::default();
        let keyed = attempt(&Method::POST, true);
        let cut = Error::from(ErrorKind::Transport("closed".into()));
        let first = keyed
            .after_error(&policy, 0, Duration::ZERO, &cut)
            .expect("retried after the cut");
        let elapsed = first + Duration::from_millis(50);
        let second = keyed
            .after_answer(
                &policy,
                1,
                elapsed,
                StatusCode::CONFLICT,
                &retry_after_header("6"),
            )
            .expect("retried after the lease");
        assert!(keyed
            .after_answer(
                &policy,
                2,
                elapsed + second,
                StatusCode::CONFLICT,
                &retry_after_header("6")
            )
            .is_some());
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
