//! HTTP/2's deadlines, which hyper does not keep: an idle connection is closed, and a stream whose
//! client stops taking its response (a closed flow-control window) is cut.
//!
//! Rules enforced here:
//! - a connection counts its requests from the moment hyper hands one to the app until its
//!   response body has been handed to the connection or dropped ([`Active`]), in its state word
//!   (`conn_state.rs`); with none for `idle_timeout` (the header-read timeout: what an idle
//!   HTTP/1 connection gets) it is sent a `GOAWAY` and given `write_timeout` more to finish what
//!   it was sending, then dropped. A connection that sends its preface and then nothing, or part
//!   of a `HEADERS` frame, is idle;
//! - an idle connection asked to leave to make room for a new one (`connections.rs`) is sent a
//!   `GOAWAY` (hyper's graceful shutdown: a `GOAWAY` naming no last stream yet, and a `PING`;
//!   once the client answers, a `GOAWAY` naming the last stream, and the connection ends), so
//!   its client knows not to open streams on it; it is dropped after [`EVICTION_GRACE`], or when
//!   the streams that arrived meanwhile are done (within `write_timeout`). Before, it was closed
//!   without a word. One with a request in progress declines;
//! - keep-alive pings (`Config::http2_keep_alive`) are hyper's own;
//! - each stream's task (hyper spawns one per request, through [`StreamExecutor`]) is watched:
//!   while its response waits for the client (the head or a frame handed to hyper, the body not
//!   asked for more since), a clock runs; while the app is producing (the handler running, a
//!   stream or an event source waiting for its next item) it does not. After `write_timeout` the
//!   task is dropped: h2 resets the stream (`RST_STREAM`), and the response and the request's
//!   place under the concurrency limit are freed;
//! - the stream a task belongs to reaches its response body through a thread-local set only while
//!   that task is being polled ([`current_stream`]); HTTP/1 never sets it and never reads it.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::time::{Instant, Sleep};

use super::conn_state::ConnState;
use super::refusals::Refusals;
use crate::body::Heard;
use crate::metrics::Refusal;

thread_local! {
    /// The stream whose task this thread is polling, if it is an HTTP/2 stream.
    static POLLING: Cell<Option<Arc<StreamClock>>> = const { Cell::new(None) };
}

/// The stream being polled on this thread (inside a stream task of an HTTP/2 connection).
pub(crate) fn current_stream() -> Option<Arc<StreamClock>> {
    POLLING.with(|slot| {
        let stream = slot.take();
        let copy = stream.clone();
        slot.set(stream);
        copy
    })
}

/// Since when a stream's response has been waiting for the client.
#[derive(Debug)]
pub(crate) struct StreamClock {
    born: Instant,
    /// Milliseconds after `born`; [`NOT_WAITING`] while the app is producing.
    waiting_since: AtomicU64,
}

const NOT_WAITING: u64 = u64::MAX;

impl StreamClock {
    fn new() -> Self {
        StreamClock {
            born: Instant::now(),
            waiting_since: AtomicU64::new(NOT_WAITING),
        }
    }

    /// The response (its head or a frame) was handed to hyper: the client's turn.
    pub(crate) fn waiting_for_client(&self) {
        let ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(NOT_WAITING - 1);
        self.waiting_since.store(ms, Ordering::Relaxed);
    }

    /// The body was asked for more and has none yet: the app's turn.
    pub(crate) fn producing(&self) {
        self.waiting_since.store(NOT_WAITING, Ordering::Relaxed);
    }

    /// When the client's turn ends the stream, if it is the client's turn.
    fn deadline(&self, timeout: Duration) -> Option<Instant> {
        match self.waiting_since.load(Ordering::Relaxed) {
            NOT_WAITING => None,
            ms => Some(self.born + Duration::from_millis(ms) + timeout),
        }
    }
}

/// hyper's executor for the stream tasks of HTTP/2 connections: each runs watched (see the
/// module rules).
#[derive(Clone)]
pub(crate) struct StreamExecutor {
    pub(crate) write_timeout: Duration,
    pub(crate) refusals: Arc<Refusals>,
}

impl<F> hyper::rt::Executor<F> for StreamExecutor
where
    F: Future<Output = ()> + Send + 'static,
{
    fn execute(&self, stream: F) {
        tokio::spawn(Watched {
            stream,
            clock: Arc::new(StreamClock::new()),
            timer: None,
            timeout: self.write_timeout,
            refusals: self.refusals.clone(),
        });
    }
}

pin_project_lite::pin_project! {
    /// A stream task, dropped when its client holds up its response too long.
    struct Watched<F> {
        #[pin]
        stream: F,
        clock: Arc<StreamClock>,
        timer: Option<Pin<Box<Sleep>>>,
        timeout: Duration,
        refusals: Arc<Refusals>,
    }
}

impl<F: Future<Output = ()>> Future for Watched<F> {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.project();
        let outer = POLLING.with(|slot| slot.replace(Some(this.clock.clone())));
        let polled = this.stream.poll(cx);
        POLLING.with(|slot| slot.set(outer));
        if polled.is_ready() {
            return Poll::Ready(());
        }
        let Some(deadline) = this.clock.deadline(*this.timeout) else {
            return Poll::Pending;
        };
        if Instant::now() >= deadline {
            tracing::debug!(
                "an HTTP/2 client took nothing of a response within the write timeout; stream reset"
            );
            this.refusals.count(Refusal::WriteTimeout);
            return Poll::Ready(());
        }
        let timer = match this.timer {
            Some(timer) => {
                if timer.deadline() != deadline {
                    timer.as_mut().reset(deadline);
                }
                timer
            }
            None => this.timer.insert(Box::pin(tokio::time::sleep_until(deadline))),
        };
        // Registers the wake-up; if it has fired, the next poll finds the deadline passed.
        if timer.as_mut().poll(cx).is_ready() {
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}

/// The requests in progress on one HTTP/2 connection (counted in its state word), and since when
/// it has had none.
#[derive(Debug)]
pub(crate) struct Activity {
    born: Instant,
    state: Arc<ConnState>,
    /// Milliseconds after `born` when the last request ended.
    idle_since: AtomicU64,
}

impl Activity {
    /// The activity of the connection whose state is `state`.
    pub(crate) fn new(state: Arc<ConnState>) -> Arc<Self> {
        Arc::new(Activity {
            born: Instant::now(),
            state,
            idle_since: AtomicU64::new(0),
        })
    }

    /// Where its streams' bodies tell what became of them (`body/handed.rs`).
    pub(crate) fn heard(&self) -> &Arc<Heard> {
        self.state.heard()
    }

    /// A request started; it ends when the returned guard is dropped.
    pub(crate) fn start(self: &Arc<Self>) -> Active {
        self.state.request_started();
        Active(self.clone())
    }

    /// When the connection, idle since its last request, reaches `timeout`; `None` while a
    /// request is in progress.
    fn idle_deadline(&self, timeout: Duration) -> Option<Instant> {
        if self.state.requests() > 0 {
            return None;
        }
        let since = Duration::from_millis(self.idle_since.load(Ordering::Acquire));
        Some(self.born + since + timeout)
    }
}

/// One request in progress on an HTTP/2 connection.
pub(crate) struct Active(Arc<Activity>);

impl Active {
    /// Where its request's body tells what became of it.
    pub(crate) fn heard(&self) -> &Arc<Heard> {
        self.0.heard()
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        let activity = &*self.0;
        let ms = u64::try_from(activity.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        activity.idle_since.store(ms, Ordering::Release);
        activity.state.request_ended();
    }
}

pin_project_lite::pin_project! {
    /// An HTTP/2 connection closed when idle (see the module rules).
    pub(crate) struct IdleClose<C> {
        #[pin]
        conn: C,
        // Asks the connection to finish its streams and close (hyper's `graceful_shutdown`).
        shutdown: fn(Pin<&mut C>),
        activity: Arc<Activity>,
        idle_timeout: Duration,
        grace: Duration,
        timer: Pin<Box<Sleep>>,
        // Set once the connection was sent its `GOAWAY` for being idle: the timer then ends the
        // grace time.
        closing: bool,
        // Set while the connection has its `GOAWAY` for room: the timer ends `EVICTION_GRACE`.
        evicted: bool,
    }
}

/// How long an idle connection asked to leave has, after its `GOAWAY`, to see its client answer
/// and end, before it is dropped (a client on loopback answers within a millisecond; one that
/// never answers must not hold the place a newcomer waits for).
pub(crate) const EVICTION_GRACE: Duration = Duration::from_millis(100);

impl<C> IdleClose<C> {
    /// `conn`, whose requests `activity` counts, asked to finish by `shutdown`.
    pub(crate) fn new(
        conn: C,
        shutdown: fn(Pin<&mut C>),
        activity: Arc<Activity>,
        idle_timeout: Duration,
        grace: Duration,
    ) -> Self {
        IdleClose {
            conn,
            shutdown,
            activity,
            idle_timeout,
            grace,
            timer: Box::pin(tokio::time::sleep(idle_timeout)),
            closing: false,
            evicted: false,
        }
    }

    /// Ask the connection to finish its streams and close (the server's drain bounds the wait).
    pub(crate) fn graceful_shutdown(self: Pin<&mut Self>) {
        let this = self.project();
        (this.shutdown)(this.conn);
    }
}

impl<C, T> Future for IdleClose<C>
where
    C: Future<Output = Result<(), T>>,
{
    type Output = Result<(), T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        loop {
            let mut this = self.as_mut().project();
            // Checked before the connection is polled: a stream that starts after the `GOAWAY`
            // is served, not cut.
            if !*this.evicted && this.activity.state.should_leave() {
                tracing::debug!("an idle HTTP/2 connection asked to make room for a new one; GOAWAY");
                *this.evicted = true;
                *this.closing = true;
                this.timer.as_mut().reset(Instant::now() + EVICTION_GRACE);
                (this.shutdown)(this.conn.as_mut());
            }
            if let Poll::Ready(done) = this.conn.as_mut().poll(cx) {
                return Poll::Ready(done);
            }
            if this.timer.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            if *this.evicted && this.activity.state.requests() > 0 {
                // Streams that arrived before the client heard: they get the write timeout.
                *this.evicted = false;
                this.timer.as_mut().reset(Instant::now() + *this.grace);
                continue;
            }
            if *this.closing {
                tracing::debug!(
                    "an HTTP/2 connection did not finish within the write timeout of its GOAWAY; closed"
                );
                return Poll::Ready(Ok(()));
            }
            match this.activity.idle_deadline(*this.idle_timeout) {
                Some(deadline) if Instant::now() >= deadline => {
                    tracing::debug!("HTTP/2 connection idle for the header-read timeout; GOAWAY");
                    *this.closing = true;
                    this.timer.as_mut().reset(Instant::now() + *this.grace);
                    (this.shutdown)(this.conn);
                }
                Some(deadline) => this.timer.as_mut().reset(deadline),
                None => {
                    let next = Instant::now() + *this.idle_timeout;
                    this.timer.as_mut().reset(next);
                }
            }
        }
    }
}
