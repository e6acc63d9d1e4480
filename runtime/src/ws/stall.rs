//! The connection under a WebSocket, watched for a peer that takes none of what the server
//! writes: [`WatchedIo`].
//!
//! Rules enforced here:
//! - a write is *stalled* from the first time the peer's socket takes none of it until it takes
//!   a byte again (only then: an idle connection is never stalled);
//! - a write stalled for the write timeout fails the connection (`TimedOut`): a route waiting in
//!   `send` for a peer that stopped reading gets an error instead of waiting for ever; a timer
//!   wakes the route at the deadline, so nothing has to poll;
//! - a peer that keeps sending while a write is stalled (a ping flood that never reads its pongs)
//!   fails the connection once it has sent more than its budget (the write buffer limit) with
//!   the stall confirmed after it: only bytes followed by a write that still found the peer
//!   taking nothing count, so a route that reads while a cancelled `send` left bytes behind is
//!   not cut off for it;
//! - once failed, every read and write fails with the same error: the route sees it whichever
//!   way it turns, and the connection goes when the route drops the socket.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

/// Why a connection was failed (kept, since an `io::Error` cannot be cloned).
#[derive(Debug, Clone, Copy)]
enum Failure {
    TimedOut,
    Flood,
}

impl Failure {
    fn error(self) -> io::Error {
        match self {
            Failure::TimedOut => io::Error::new(
                io::ErrorKind::TimedOut,
                "the WebSocket peer took none of the data written to it within the write timeout",
            ),
            Failure::Flood => io::Error::new(
                io::ErrorKind::ConnectionAborted,
                "the WebSocket peer kept sending while taking none of the data written to it",
            ),
        }
    }
}

/// A stalled write.
#[derive(Debug)]
struct Stall {
    /// Bytes read from the peer with the stall confirmed after them.
    read: usize,
    /// Bytes read since the last write attempt.
    unconfirmed: usize,
}

/// The connection a [`WebSocket`](super::WebSocket) runs on: the upgraded HTTP connection,
/// failed with an I/O error when its peer stops taking what is written to it (see
/// [`WebSocketUpgrade::write_timeout`](super::WebSocketUpgrade::write_timeout)).
#[derive(Debug)]
pub struct WatchedIo<S> {
    io: S,
    timeout: Duration,
    budget: usize,
    stall: Option<Stall>,
    /// Created at the first stall; a connection that never stalls allocates none.
    timer: Option<Pin<Box<Sleep>>>,
    failed: Option<Failure>,
}

impl<S> WatchedIo<S> {
    /// Watch `io`: a write may stall `timeout`, and the peer may send `budget` bytes meanwhile.
    pub(super) fn new(io: S, timeout: Duration, budget: usize) -> Self {
        WatchedIo {
            io,
            timeout,
            budget,
            stall: None,
            timer: None,
            failed: None,
        }
    }

    /// The connection watched.
    pub fn get_ref(&self) -> &S {
        &self.io
    }

    /// Record a write attempt the peer took nothing of; the failure it is the last straw for.
    fn stalled(&mut self, cx: &mut Context<'_>) -> Option<Failure> {
        match &mut self.stall {
            Some(stall) => {
                stall.read = stall.read.saturating_add(std::mem::take(&mut stall.unconfirmed));
                if stall.read > self.budget {
                    return Some(Failure::Flood);
                }
            }
            None => {
                self.stall = Some(Stall {
                    read: 0,
                    unconfirmed: 0,
                });
                // A timeout too long to add (`Duration::MAX` for "never") waits 30 years.
                let now = Instant::now();
                let deadline = now
                    .checked_add(self.timeout)
                    .unwrap_or_else(|| now + Duration::from_secs(30 * 365 * 86_400));
                match &mut self.timer {
                    Some(timer) => timer.as_mut().reset(deadline),
                    None => self.timer = Some(Box::pin(tokio::time::sleep_until(deadline))),
                }
            }
        }
        // Polled so that the deadline wakes the task even if the peer never moves again.
        let timer = self.timer.as_mut()?;
        timer.as_mut().poll(cx).is_ready().then_some(Failure::TimedOut)
    }

    /// The outcome of a write-side poll, with the stall it starts, confirms or ends.
    fn watch<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
        took: bool,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Pending => match self.stalled(cx) {
                Some(failure) => self.fail(failure),
                None => Poll::Pending,
            },
            Poll::Ready(Ok(value)) => {
                if took {
                    self.stall = None;
                }
                Poll::Ready(Ok(value))
            }
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
        }
    }

    fn fail<T>(&mut self, failure: Failure) -> Poll<io::Result<T>> {
        tracing::debug!(error = %failure.error(), "WebSocket connection failed");
        self.failed = Some(failure);
        Poll::Ready(Err(failure.error()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WatchedIo<S> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(failure) = this.failed {
            return Poll::Ready(Err(failure.error()));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.io).poll_read(cx, buf))?;
        if let Some(stall) = &mut this.stall {
            stall.unconfirmed = stall.unconfirmed.saturating_add(buf.filled().len() - before);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WatchedIo<S> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if let Some(failure) = this.failed {
            return Poll::Ready(Err(failure.error()));
        }
        let poll = Pin::new(&mut this.io).poll_write(cx, data);
        let took = matches!(poll, Poll::Ready(Ok(n)) if n > 0);
        this.watch(cx, poll, took)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(failure) = this.failed {
            return Poll::Ready(Err(failure.error()));
        }
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        // Only a write that takes a byte ends a stall: a flush moves nothing of its own.
        this.watch(cx, poll, false)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

    /// A watched end whose peer buffers 64 bytes, and the peer.
    fn pair(timeout_ms: u64, budget: usize) -> (WatchedIo<DuplexStream>, DuplexStream) {
        let (ours, theirs) = tokio::io::duplex(64);
        (
            WatchedIo::new(ours, Duration::from_millis(timeout_ms), budget),
            theirs,
        )
    }

    /// Write `data` until the peer's buffer is full; true if the write is then pending.
    fn fill(io: &mut WatchedIo<DuplexStream>) -> bool {
        let waker = futures_util::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        loop {
            match Pin::new(&mut *io).poll_write(&mut cx, &[0; 32]) {
                Poll::Ready(Ok(_)) => continue,
                Poll::Ready(Err(_)) => return false,
                Poll::Pending => return true,
            }
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_write_stalled_for_the_timeout_fails_and_stays_failed() {
        let (mut io, _peer) = pair(500, 1 << 20);
        assert!(fill(&mut io));
        let started = Instant::now();
        let error = io.write_all(&[1]).await.expect_err("the peer reads nothing");
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert_eq!(started.elapsed(), Duration::from_millis(500));
        let mut buf = [0; 8];
        let error = io.read(&mut buf).await.expect_err("failed for good");
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test(start_paused = true)]
    async fn a_timeout_of_duration_max_never_fires() {
        let (mut io, _peer) = pair(0, 1 << 20);
        io.timeout = Duration::MAX;
        assert!(fill(&mut io));
        let write = tokio::time::timeout(Duration::from_secs(3600), io.write_all(&[1]));
        assert!(write.await.is_err(), "still waiting after an hour");
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_that_takes_bytes_in_time_is_not_cut_off() {
        let (mut io, mut peer) = pair(500, 1 << 20);
        for _ in 0..10 {
            assert!(fill(&mut io));
            tokio::time::sleep(Duration::from_millis(400)).await;
            let mut buf = [0; 64];
            peer.read_exact(&mut buf).await.expect("the peer reads");
        }
        io.write_all(&[1])
            .await
            .expect("4 s of slow reads, never 500 ms without one");
    }

    #[tokio::test(start_paused = true)]
    async fn a_peer_sending_past_its_budget_during_a_stall_is_cut_off() {
        let (mut io, mut peer) = pair(60_000, 100);
        assert!(fill(&mut io));
        let waker = futures_util::task::noop_waker();
        let mut cx = Context::from_waker(&waker);
        let mut buf = [0; 64];
        let mut result = Ok(());
        for _ in 0..4 {
            // 40 bytes from the peer, then a write that still finds no room: as a ping read,
            // then its pong.
            peer.write_all(&[9; 40]).await.expect("the peer sends");
            io.read_exact(&mut buf[..40]).await.expect("read");
            if let Poll::Ready(Err(error)) = Pin::new(&mut io).poll_write(&mut cx, &[0; 8]) {
                result = Err(error);
                break;
            }
        }
        let error = result.expect_err("160 bytes sent past a budget of 100");
        assert_eq!(error.kind(), io::ErrorKind::ConnectionAborted);
    }

    #[tokio::test(start_paused = true)]
    async fn bytes_read_with_no_write_tried_after_them_do_not_count() {
        let (mut io, mut peer) = pair(60_000, 100);
        assert!(fill(&mut io));
        let mut buf = [0; 64];
        for _ in 0..10 {
            peer.write_all(&[9; 40]).await.expect("the peer sends");
            io.read_exact(&mut buf[..40])
                .await
                .expect("reading is not cut off");
        }
        // The peer reads, and the write that had stalled goes on.
        let mut drained = [0; 64];
        peer.read_exact(&mut drained).await.expect("drain");
        io.write_all(&[1; 8]).await.expect("room again");
    }
}
