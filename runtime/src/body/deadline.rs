//! A request body's deadline as its readers meet it: the error a body that missed it ends with,
//! the answer to it, and the contract of the first look ([`FirstWait`]). The deadline itself
//! (`Config::body_timeout`, `Config::body_min_rate`) is the server's (`server/body_deadline.rs`).
//!
//! Rules enforced here:
//! - a body that missed its deadline ends with the error [`BodyTimedOut`]; every reader of a
//!   body answers it with [`body_timed_out`]: 408 `{"detail": …}`, `Connection: close` (the rest
//!   of the body may still be on its way, and would otherwise be read as the next request), marked
//!   [`BodyDeadlineMissed`] so the server counts it apart from a route's own 408. Found however
//!   the error is wrapped ([`is_body_timeout`]: a layer's `BodyError`, a multipart parser's
//!   source);
//! - the first look: a reader may poll a body once where no task can be woken (the dispatcher,
//!   inside the server's call of the service: `BodyReader::first_look`), and then, before it
//!   waits, polls it again with its task's waker. So a body with a deadline starts no clock at its
//!   first wait ([`FirstWait`]): a timer armed then could wake no one, and on `POST /item` the
//!   bytes are there at the next poll (arming it at the look cost ~1,300 instructions a request,
//!   callgrind). It wakes that first wait's waker instead, so a reader that did poll from a task
//!   (an upload read by the route, a layer) is polled again at once and starts the clock then.
//!   The order of the polls decides it, not which waker polls: this contract replaced a
//!   comparison with one no-op waker's address, which broke once when a file moved (two codegen
//!   units need not share a constant's address: every POST then armed the timer, +1,150
//!   instructions).

use std::task::Context;

use hyper::header::{HeaderValue, CONNECTION};
use hyper::StatusCode;
use serde_json::json;

use super::cause;
use crate::response::{error_response, Response};

/// The error a request body ends with when it missed its deadline (`Config::body_timeout`): the
/// server's timed body raises it, the readers of bodies answer it with [`body_timed_out`].
#[derive(Debug)]
pub(crate) struct BodyTimedOut;

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body was not received in time")
    }
}

impl std::error::Error for BodyTimedOut {}

/// True when `error` is, or wraps (as a [`BodyError`](crate::BodyError) or a source), a missed
/// body deadline.
pub(crate) fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    cause::<BodyTimedOut>(error).is_some()
}

/// Marks the 408 of [`body_timed_out`] (a response extension), so the server counts it apart
/// from a route's own 408.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyDeadlineMissed;

/// 408 for a body that missed its deadline; the connection is closed after it (the rest of the
/// body may still be on its way, and would otherwise be read as the next request).
#[cold]
pub(crate) fn body_timed_out() -> Response {
    let mut response = error_response(
        StatusCode::REQUEST_TIMEOUT,
        &json!("The request body was not received in time"),
    );
    response
        .headers_mut()
        .insert(CONNECTION, HeaderValue::from_static("close"));
    response.extensions_mut().insert(BodyDeadlineMissed);
    response
}

/// The first wait of a body with a deadline (see the module rules): held by the body, asked each
/// time a poll would wait.
#[derive(Debug, Default)]
pub(crate) struct FirstWait {
    passed: bool,
}

impl FirstWait {
    /// The body would wait: true at its first wait, which starts no clock and wakes `cx`'s
    /// waker (its reader polls again, and the clock starts at that wait); false ever after.
    #[inline]
    pub(crate) fn first(&mut self, cx: &Context<'_>) -> bool {
        if self.passed {
            return false;
        }
        self.passed = true;
        cx.waker().wake_by_ref();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::{Wake, Waker};

    struct Count(AtomicUsize);

    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn only_the_first_wait_is_a_look_and_its_waker_is_woken() {
        let woken = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(woken.clone());
        let cx = Context::from_waker(&waker);
        let mut wait = FirstWait::default();
        assert!(wait.first(&cx), "the first wait starts no clock");
        assert_eq!(woken.0.load(Ordering::SeqCst), 1, "its reader is polled again");
        assert!(!wait.first(&cx), "the second starts it");
        assert!(!wait.first(&cx));
        assert_eq!(woken.0.load(Ordering::SeqCst), 1, "woken once only");
    }

    /// An error caused by another, as a multipart parser reports a stream that failed.
    #[derive(Debug)]
    struct Caused(BodyTimedOut);

    impl std::fmt::Display for Caused {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("caused")
        }
    }

    impl std::error::Error for Caused {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_missed_deadline_is_found_as_the_source_of_another_error() {
        assert!(is_body_timeout(&BodyTimedOut));
        assert!(is_body_timeout(&Caused(BodyTimedOut)));
        let other: crate::response::BoxError = "other".into();
        assert!(!is_body_timeout(&*other));
        let answer = body_timed_out();
        assert_eq!(answer.status(), StatusCode::REQUEST_TIMEOUT);
        assert_eq!(answer.headers()[CONNECTION], "close");
        assert!(answer.extensions().get::<BodyDeadlineMissed>().is_some());
    }
}
