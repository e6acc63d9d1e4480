//! Graceful shutdown of open connections: tell each to finish its request and close, then wait
//! until all have.
//!
//! Rules enforced here:
//! - a connection counts as open from accept until its task ends, so [`Drain::shutdown`] also
//!   waits for connections still deciding their protocol (those give up when it starts: see
//!   [`Open::closing`]);
//! - the shutdown flag is set before waking the connections, and a connection registers for the
//!   wake-up before reading the flag, so none misses it;
//! - a connection polled again by the same task only reads the flag: hyper-util's
//!   `GracefulShutdown` polled a `watch` channel's `changed()` future, taking a lock, on every poll
//!   of every connection (≈ 110 instructions per request on `GET /item/42`, callgrind).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Waker;

use tokio::sync::Notify;

/// The open connections of one server.
#[derive(Default)]
pub(crate) struct Drain {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    closing: AtomicBool,
    /// Wakes every connection when `closing` is set.
    close: Notify,
    open: AtomicUsize,
    /// Wakes [`Drain::shutdown`] when the last connection ends.
    drained: Notify,
}

/// One open connection's place in the count (given back when dropped).
pub(crate) struct Open(Arc<Shared>);

impl Drop for Open {
    fn drop(&mut self) {
        if self.0.open.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.drained.notify_waiters();
        }
    }
}

impl Drain {
    /// Count a newly accepted connection.
    pub(crate) fn open(&self) -> Open {
        self.shared.open.fetch_add(1, Ordering::AcqRel);
        Open(self.shared.clone())
    }

    /// Ask every connection to close once its current request is answered, and wait until all
    /// have closed (the caller bounds the wait).
    pub(crate) async fn shutdown(&self) {
        self.shared.closing.store(true, Ordering::Release);
        self.shared.close.notify_waiters();
        loop {
            let drained = self.shared.drained.notified();
            let mut drained = std::pin::pin!(drained);
            drained.as_mut().enable();
            if self.shared.open.load(Ordering::Acquire) == 0 {
                return;
            }
            drained.await;
        }
    }
}

impl Open {
    /// Completes when the server starts closing (at once if it already has).
    pub(crate) async fn closing(&self) {
        let woken = self.0.close.notified();
        let mut woken = std::pin::pin!(woken);
        woken.as_mut().enable();
        if self.0.closing.load(Ordering::Acquire) {
            return;
        }
        woken.await;
    }

    /// Serve `conn` to its end; when the server starts closing, `close` is called on it once (it
    /// should finish the request in flight, then end).
    pub(crate) async fn serve<C: Future>(&self, conn: C, mut close: impl FnMut(Pin<&mut C>)) -> C::Output {
        let shared = &*self.0;
        let mut conn = std::pin::pin!(conn);
        let mut woken = std::pin::pin!(shared.close.notified());
        let mut registered: Option<Waker> = None;
        let mut closing = false;
        std::future::poll_fn(|cx| {
            if !closing {
                if !registered.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                    // Ready only after `closing` was set, which the load below then sees.
                    let _ = woken.as_mut().poll(cx);
                    registered = Some(cx.waker().clone());
                }
                if shared.closing.load(Ordering::Acquire) {
                    close(conn.as_mut());
                    closing = true;
                }
            }
            conn.as_mut().poll(cx)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::{Context, Poll};
    use std::time::Duration;

    use super::Drain;

    /// A connection that ends when asked to shut down (and counts the requests to).
    struct Conn {
        asked: Arc<AtomicUsize>,
    }

    impl Future for Conn {
        type Output = Result<(), std::io::Error>;

        fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Self::Output> {
            if self.asked.load(Ordering::SeqCst) > 0 {
                Poll::Ready(Ok(()))
            } else {
                Poll::Pending
            }
        }
    }

    /// What the server does to a connection when closing: ask it to shut down.
    fn ask(conn: Pin<&mut Conn>) {
        conn.asked.fetch_add(1, Ordering::SeqCst);
    }

    #[tokio::test]
    async fn shutdown_asks_every_connection_once_and_waits_for_all() {
        let drain = Drain::default();
        let asked = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..3 {
            let open = drain.open();
            let conn = Conn { asked: asked.clone() };
            tasks.push(tokio::spawn(async move { open.serve(conn, ask).await }));
        }
        // Let the connections start waiting.
        tokio::time::sleep(Duration::from_millis(20)).await;
        tokio::time::timeout(Duration::from_secs(5), drain.shutdown())
            .await
            .unwrap_or_else(|_| panic!("shutdown did not see the connections close"));
        for task in tasks {
            let served = task.await.unwrap_or_else(|err| panic!("task: {err}"));
            assert!(served.is_ok());
        }
        assert_eq!(asked.load(Ordering::SeqCst), 3, "each connection asked once");
    }

    #[tokio::test]
    async fn a_connection_that_starts_after_shutdown_began_is_asked_at_once() {
        let drain = Drain::default();
        let open = drain.open();
        let asked = Arc::new(AtomicUsize::new(0));
        let shutdown = drain.shutdown();
        let conn = Conn { asked: asked.clone() };
        let (served, ()) = tokio::time::timeout(Duration::from_secs(5), async {
            tokio::join!(
                async move {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    open.serve(conn, ask).await
                },
                shutdown
            )
        })
        .await
        .unwrap_or_else(|_| panic!("a late connection was never asked to close"));
        assert!(served.is_ok());
        assert_eq!(asked.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn closing_completes_when_shutdown_begins_or_has_begun() {
        let drain = Drain::default();
        let before = drain.open();
        let waiting = tokio::spawn(async move { before.closing().await });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!waiting.is_finished(), "closing completed before any shutdown");
        let after = drain.open();
        let shutdown = tokio::spawn(async move { drain.shutdown().await });
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .unwrap_or_else(|_| panic!("closing did not complete on shutdown"))
            .unwrap_or_else(|err| panic!("task: {err}"));
        tokio::time::timeout(Duration::from_secs(5), after.closing())
            .await
            .unwrap_or_else(|_| panic!("closing after shutdown began did not complete at once"));
        drop(after);
        tokio::time::timeout(Duration::from_secs(5), shutdown)
            .await
            .unwrap_or_else(|_| panic!("shutdown did not end once both were dropped"))
            .unwrap_or_else(|err| panic!("task: {err}"));
    }

    #[tokio::test]
    async fn shutdown_with_no_connection_returns_at_once() {
        let drain = Drain::default();
        tokio::time::timeout(Duration::from_millis(100), drain.shutdown())
            .await
            .unwrap_or_else(|_| panic!("shutdown waited for nothing"));
    }
}
