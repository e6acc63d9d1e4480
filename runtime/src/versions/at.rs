//! The version a request is served at, seen by the models it reads and writes: a versioned
//! model (`#[since(..)]` on a field) reads its body, and writes its JSON, in the shape it had at
//! that version, wherever it sits in the request or the answer (a field of an unversioned model,
//! an item of a `Vec`, an `HttpError::json` body).
//!
//! Rules enforced here:
//! - the version is set on the thread only while the framework runs the route's own code
//!   synchronously for one request: its arguments' extraction, each poll of its handler, and
//!   the conversion of its output to a response; it is restored on the way out, a panic
//!   included, so nothing of one request is seen by another on the same thread;
//! - an app without versions never sets it: [`scoped`] with `None` is the closure, and a model
//!   without changes never reads it; nor does a request at the newest version, whose shapes
//!   are the models' own (what a model writes where none is set);
//! - a response body streamed after the handler returned (`StreamingResponse`, `Sse`) carries
//!   the version it was made at ([`Scoped`] as a stream, chosen when the body is made, so a
//!   stream made outside a version is polled as it is, without a test per item): each of its
//!   items is produced, and its models written, at that version, as the handler's own answer is;
//! - where it is not set (a task the handler spawned, a background task), a model is read and
//!   written in its newest shape.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

thread_local! {
    static AT: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// The version (`YYYY-MM-DD`) of the request whose code runs on this thread, if the app has
/// versions and it is not the newest; `None` elsewhere, the newest version included: both write
/// the models' own (newest) shapes, so a request at the newest version sets nothing. Generated
/// code reads it; a route that needs its version takes `ApiVersion` instead.
#[inline]
pub fn current() -> Option<&'static str> {
    AT.with(Cell::get)
}

/// Puts the previous version back when dropped (a panic unwinding included).
struct Restore(Option<&'static str>);

impl Drop for Restore {
    fn drop(&mut self) {
        AT.with(|at| at.set(self.0));
    }
}

/// Run `f` with the thread's version set to `at` (nothing to do for `None`: an app without
/// versions pays one test).
#[inline(always)]
pub(crate) fn scoped<R>(at: Option<&'static str>, f: impl FnOnce() -> R) -> R {
    match at {
        None => f(),
        Some(date) => scoped_at(date, f),
    }
}

#[inline(never)]
fn scoped_at<R>(date: &'static str, f: impl FnOnce() -> R) -> R {
    let _restore = Restore(AT.with(|at| at.replace(Some(date))));
    f()
}

pin_project_lite::pin_project! {
    /// A handler's future (or a streamed body's items) polled with its request's version set on
    /// the thread, each poll.
    pub(crate) struct Scoped<F> {
        at: &'static str,
        #[pin]
        future: F,
    }
}

impl<F> Scoped<F> {
    /// `future` (or a stream), polled at version `at`.
    pub(crate) fn new(at: &'static str, future: F) -> Self {
        Scoped { at, future }
    }
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        scoped_at(this.at, || this.future.poll(cx))
    }
}

impl<S: Stream> Stream for Scoped<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = self.project();
        scoped_at(this.at, || this.future.poll_next(cx))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.future.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_seen_inside_and_restored_after() {
        assert_eq!(current(), None);
        let seen = scoped(Some("2026-01-15"), || {
            let inner = scoped(Some("2026-03-01"), current);
            (current(), inner)
        });
        assert_eq!(seen, (Some("2026-01-15"), Some("2026-03-01")));
        assert_eq!(current(), None);
        assert_eq!(scoped(None, current), None);
    }

    #[tokio::test]
    async fn a_stream_made_at_a_version_yields_at_it_whenever_it_is_polled() {
        use futures_util::StreamExt;
        let seen = || futures_util::stream::iter(0..2).map(|_| current());
        let made_at = Scoped::new("2026-01-15", seen());
        assert_eq!(made_at.collect::<Vec<_>>().await, [Some("2026-01-15"); 2]);
        assert_eq!(seen().collect::<Vec<_>>().await, [None, None]);
        assert_eq!(current(), None);
    }

    #[test]
    fn a_panic_restores_it() {
        let result = std::panic::catch_unwind(|| scoped(Some("2026-01-15"), || panic!("boom")));
        assert!(result.is_err());
        assert_eq!(current(), None);
    }
}
