//! The socket of one connection as hyper sees it: the bytes read while choosing the protocol are
//! handed over first, and a write that waits too long for the client ends the connection.
//!
//! Rules enforced here:
//! - the first bytes (read, not peeked, by `protocol::sniff`) reach hyper before anything else;
//!   afterwards a read costs one comparison more than the socket's own;
//! - on HTTP/1 every byte read passes through the strict scanner (`strict.rs`) before hyper sees
//!   it, and a read that waits while the connection waits for a head is bounded by the head
//!   deadline (`conn_timer.rs`), which each flush keeps armed;
//! - a write (or flush) that cannot proceed starts a clock; any write that proceeds stops it; when
//!   it reaches `write_timeout` the write fails with [`WriteStalled`] (an `io::ErrorKind::TimedOut`
//!   error), hyper drops the connection, and what the response held (its body, hyper's buffers)
//!   is freed. A client that reads nothing can therefore hold a response for `write_timeout` at
//!   most. The clock's timer is made at the first stall and re-armed afterwards, never per write;
//! - while a write waits, the connection's state says so (`conn_state.rs`): a connection with an
//!   answer still to write is not idle, and is never closed to make room for a new one.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use super::conn_state::ConnState;
use super::conn_timer::HeadClock;
use super::protocol::Sniffed;
use super::strict::Scanner;

/// The error a stalled write ends its connection with.
#[derive(Debug)]
pub(crate) struct WriteStalled;

impl std::fmt::Display for WriteStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the client read nothing of its response within the write timeout")
    }
}

impl std::error::Error for WriteStalled {}

/// True when `error` (a connection's error, as hyper reports it) is, or was caused by, a stalled
/// write.
pub(crate) fn is_write_stall(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if let Some(io) = error.downcast_ref::<io::Error>() {
            if io.get_ref().is_some_and(|inner| inner.is::<WriteStalled>()) {
                return true;
            }
        }
        next = error.source();
    }
    false
}

/// One connection's socket (see the module rules): a TCP stream, or (the `tls` feature) a TLS
/// stream over one, whose reads and writes are the decrypted bytes.
pub(crate) struct ConnIo<S = TcpStream> {
    stream: S,
    first: Sniffed,
    /// HTTP/1 only.
    scanner: Option<Scanner>,
    /// HTTP/1 only.
    head: Option<HeadClock>,
    write_timeout: Duration,
    /// Set while writes are stalled; the timer outlives a stall, to be re-armed for the next.
    stalled: bool,
    timer: Option<Pin<Box<Sleep>>>,
    state: Arc<ConnState>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> ConnIo<S> {
    /// `stream`, whose `first` bytes were read already, with writes cut after `write_timeout`, and
    /// (HTTP/1) its reads scanned by `scanner` and bounded by `head`; its stalls are told to
    /// `state`.
    pub(crate) fn new(
        stream: S,
        first: Sniffed,
        (scanner, head): (Option<Scanner>, Option<HeadClock>),
        write_timeout: Duration,
        state: Arc<ConnState>,
    ) -> Self {
        ConnIo {
            stream,
            first,
            scanner,
            head,
            write_timeout,
            stalled: false,
            timer: None,
            state,
        }
    }

    /// A write would wait: start the clock (at the first wait of a stall), or fail the write once
    /// it has run out.
    #[cold]
    fn write_waits<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        if !self.stalled {
            self.stalled = true;
            self.state.write_waits();
            let deadline = Instant::now() + self.write_timeout;
            match &mut self.timer {
                Some(timer) => timer.as_mut().reset(deadline),
                None => self.timer = Some(Box::pin(tokio::time::sleep_until(deadline))),
            }
        }
        let fired = self
            .timer
            .as_mut()
            .is_some_and(|timer| timer.as_mut().poll(cx).is_ready());
        if fired {
            Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, WriteStalled)))
        } else {
            Poll::Pending
        }
    }

    /// A write proceeded after a stall.
    #[cold]
    fn write_resumed(&mut self) {
        self.stalled = false;
        self.state.write_resumed();
    }

    /// What a write returned: a write that proceeds ends a stall.
    #[inline(always)]
    fn wrote<T>(&mut self, cx: &mut Context<'_>, polled: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match polled {
            Poll::Pending => self.write_waits(cx),
            ready => {
                if self.stalled {
                    self.write_resumed();
                }
                ready
            }
        }
    }
}

/// A connection's [`ConnIo`] as hyper reads and writes it. Reads go through hyper-util's
/// `TokioIo` (the bridge between the two read-buffer types needs `unsafe`, which the workspace
/// forbids); writes go straight to the `ConnIo`, always inlined into hyper's writer: through
/// `TokioIo` the compiler called the flush out of line once the socket could be TLS, and every
/// plain answer paid the call (callgrind `GET /` of the hello example, `tls` compiled in).
pub(crate) struct HyperIo<S = TcpStream>(TokioIo<ConnIo<S>>);

impl<S> HyperIo<S> {
    /// `io` for hyper.
    pub(crate) fn new(io: ConnIo<S>) -> Self {
        HyperIo(TokioIo::new(io))
    }

    fn conn(self: Pin<&mut Self>) -> Pin<&mut ConnIo<S>>
    where
        S: Unpin,
    {
        Pin::new(self.get_mut().0.inner_mut())
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> hyper::rt::Read for HyperIo<S> {
    #[inline(always)]
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> hyper::rt::Write for HyperIo<S> {
    #[inline(always)]
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        self.conn().poll_write(cx, buf)
    }

    #[inline(always)]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.conn().poll_flush(cx)
    }

    #[inline(always)]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.conn().poll_shutdown(cx)
    }

    #[inline(always)]
    fn is_write_vectored(&self) -> bool {
        self.0.inner().is_write_vectored()
    }

    #[inline(always)]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.conn().poll_write_vectored(cx, bufs)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for ConnIo<S> {
    #[inline]
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        if this.first.pending() {
            this.first.copy_into(buf);
        } else if let Poll::Ready(read) = Pin::new(&mut this.stream).poll_read(cx, buf) {
            read?;
        } else {
            return match this.head.as_mut().and_then(|head| head.read_waits(cx)) {
                Some(ended) => Poll::Ready(ended),
                None => Poll::Pending,
            };
        }
        if let Some(scanner) = &mut this.scanner {
            scanner.scan(&mut buf.filled_mut()[before..]);
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for ConnIo<S> {
    #[inline]
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.wrote(cx, polled)
    }

    #[inline]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.wrote(cx, polled)
    }

    #[inline]
    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    // Always inlined, through `HyperIo`, into hyper's flush: every answer flushes (see `HyperIo`).
    #[inline(always)]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_flush(cx);
        let polled = this.wrote(cx, polled);
        if polled.is_ready() {
            if let Some(head) = &mut this.head {
                head.flushed(cx);
            }
        }
        polled
    }

    #[inline]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.stream).poll_shutdown(cx);
        this.wrote(cx, polled)
    }
}
