//! The one socket type every connection is served over: a TCP stream, or (the `tls` feature) a
//! TLS stream over one.
//!
//! Rules enforced here:
//! - hyper's HTTP/1 and HTTP/2 servers are instantiated once, over this type, whatever the
//!   listeners: served as two types, plain and TLS, each of hyper's generic functions came twice,
//!   and the compiler kept out of line what it had inlined when there was one (callgrind
//!   `GET /item/42` on plain HTTP: +190 instructions per request with the `tls` feature compiled
//!   in and unused, one codegen unit; BENCHMARKS.md);
//! - a plain read or write costs one test of the variant more than the TCP stream's own (none
//!   without the `tls` feature: the enum has one variant); the TLS stream is boxed, so a plain
//!   connection's socket stays the size of a TCP stream.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A connection's socket (see the module rules).
pub(crate) enum Socket {
    /// Plain HTTP.
    Plain(TcpStream),
    /// HTTPS: the stream after its handshake.
    #[cfg(feature = "tls")]
    Tls(Box<TlsStream>),
}

impl AsyncRead for Socket {
    #[inline(always)]
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Socket::Plain(stream) => Pin::new(stream).poll_read(cx, buf),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => tls_read(stream, cx, buf),
        }
    }
}

impl AsyncWrite for Socket {
    #[inline(always)]
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Socket::Plain(stream) => Pin::new(stream).poll_write(cx, buf),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => tls_write(stream, cx, buf),
        }
    }

    #[inline(always)]
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Socket::Plain(stream) => Pin::new(stream).poll_write_vectored(cx, bufs),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => tls_write_vectored(stream, cx, bufs),
        }
    }

    #[inline(always)]
    fn is_write_vectored(&self) -> bool {
        match self {
            Socket::Plain(stream) => stream.is_write_vectored(),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => stream.is_write_vectored(),
        }
    }

    #[inline(always)]
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Socket::Plain(stream) => Pin::new(stream).poll_flush(cx),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => tls_flush(stream, cx),
        }
    }

    #[inline(always)]
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Socket::Plain(stream) => Pin::new(stream).poll_shutdown(cx),
            #[cfg(feature = "tls")]
            Socket::Tls(stream) => tls_shutdown(stream, cx),
        }
    }
}

/// A TLS stream, as [`Socket`] holds it.
#[cfg(feature = "tls")]
type TlsStream = tokio_rustls::server::TlsStream<TcpStream>;

// The TLS stream's calls, out of line: inlined into each of the socket's calls, the stream's
// code made them too big to inline into hyper's, and a plain connection paid for the calls.

#[cfg(feature = "tls")]
#[inline(never)]
fn tls_read(stream: &mut TlsStream, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
    Pin::new(stream).poll_read(cx, buf)
}

#[cfg(feature = "tls")]
#[inline(never)]
fn tls_write(stream: &mut TlsStream, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
    Pin::new(stream).poll_write(cx, buf)
}

#[cfg(feature = "tls")]
#[inline(never)]
fn tls_write_vectored(
    stream: &mut TlsStream,
    cx: &mut Context<'_>,
    bufs: &[io::IoSlice<'_>],
) -> Poll<io::Result<usize>> {
    Pin::new(stream).poll_write_vectored(cx, bufs)
}

#[cfg(feature = "tls")]
#[inline(never)]
fn tls_flush(stream: &mut TlsStream, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
    Pin::new(stream).poll_flush(cx)
}

#[cfg(feature = "tls")]
#[inline(never)]
fn tls_shutdown(stream: &mut TlsStream, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
    Pin::new(stream).poll_shutdown(cx)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_plain_socket_reads_and_writes_its_stream() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let client = tokio::spawn(async move {
            let mut client = TcpStream::connect(address).await.unwrap();
            client.write_all(b"ping").await.unwrap();
            let mut answer = [0u8; 4];
            client.read_exact(&mut answer).await.unwrap();
            answer
        });
        let (stream, _) = listener.accept().await.unwrap();
        let mut socket = Socket::Plain(stream);
        assert!(socket.is_write_vectored());
        let mut asked = [0u8; 4];
        socket.read_exact(&mut asked).await.unwrap();
        assert_eq!(&asked, b"ping");
        socket.write_all(b"pong").await.unwrap();
        socket.flush().await.unwrap();
        assert_eq!(&client.await.unwrap(), b"pong");
        socket.shutdown().await.unwrap();
    }
}
