//! An accepted WebSocket connection, [`WebSocket`]: messages in and out over tokio-tungstenite.
//!
//! Rules enforced here:
//! - a message over the maximum size closes the connection with 1009 before `recv` returns its
//!   error;
//! - `send` waits for room when the write buffer is full (tokio-tungstenite's `Sink` fails with
//!   `WriteBufferFull` instead): pongs owed to a slow peer never make a route's message fail,
//!   only a message larger than the whole buffer does.

use futures_util::{SinkExt, StreamExt};
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::WebSocketStream;

use super::{CloseCode, CloseFrame, Error, Message, Utf8Bytes, WatchedIo};

/// An accepted WebSocket connection: [`recv`](WebSocket::recv) and [`send`](WebSocket::send)
/// messages; dropping it closes the connection.
#[derive(Debug)]
pub struct WebSocket {
    inner: WebSocketStream<WatchedIo<TokioIo<Upgraded>>>,
}

impl WebSocket {
    pub(super) fn new(inner: WebSocketStream<WatchedIo<TokioIo<Upgraded>>>) -> Self {
        WebSocket { inner }
    }

    /// The next message (pings are answered on the way), `None` once the connection is closed.
    /// A message over the maximum size is an error, after which the connection has been closed
    /// with 1009; a peer that stopped reading is an [`Error::Io`] (see
    /// [`WebSocketUpgrade::write_timeout`](super::WebSocketUpgrade::write_timeout)).
    /// Cancel-safe: usable in `tokio::select!`.
    pub async fn recv(&mut self) -> Option<Result<Message, Error>> {
        match self.inner.next().await {
            Some(Err(Error::Capacity(error))) => {
                tracing::debug!(error = %error, "WebSocket message over the limit; closing with 1009");
                let frame = CloseFrame {
                    code: CloseCode::Size,
                    reason: Utf8Bytes::from_static("message too big"),
                };
                let _ = self.inner.close(Some(frame)).await;
                Some(Err(Error::Capacity(error)))
            }
            other => other,
        }
    }

    /// Send `message` (and flush it). Waits while the write buffer is full; fails with
    /// [`Error::WriteBufferFull`] for a message larger than the buffer's limit, and with an
    /// [`Error::Io`] when the peer stopped reading (see
    /// [`WebSocketUpgrade::write_timeout`](super::WebSocketUpgrade::write_timeout)).
    pub async fn send(&mut self, message: Message) -> Result<(), Error> {
        send_waiting(&mut self.inner, message).await
    }

    /// Close the connection with `code` and `reason`, and wait for it to be sent.
    pub async fn close(mut self, code: CloseCode, reason: &str) -> Result<(), Error> {
        let frame = CloseFrame {
            code,
            reason: Utf8Bytes::from(reason),
        };
        self.inner.close(Some(frame)).await
    }

    /// The tokio-tungstenite stream (a `Stream` and a `Sink` of messages), e.g. to split it. Its
    /// `Sink` returns [`Error::WriteBufferFull`] when the buffer is full instead of waiting
    /// ([`WebSocket::send`] waits).
    pub fn into_inner(self) -> WebSocketStream<WatchedIo<TokioIo<Upgraded>>> {
        self.inner
    }
}

/// Send `message` on `stream`, waiting for room in its write buffer.
async fn send_waiting<S>(stream: &mut WebSocketStream<S>, message: Message) -> Result<(), Error>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    match stream.send(message).await {
        // Pongs queued while the peer was slow can leave no room: wait for them to go out
        // (bounded by the write timeout), then try once more; the error hands the frame back.
        Err(Error::WriteBufferFull(message)) => {
            stream.flush().await?;
            stream.send(*message).await
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_tungstenite::tungstenite::protocol::Role;

    use super::*;

    /// A masked ping of 125 bytes, as a client sends it.
    fn ping() -> Vec<u8> {
        [0x89, 0x80 | 125, 0, 0, 0, 0]
            .into_iter()
            .chain([b'p'; 125])
            .collect()
    }

    #[tokio::test]
    async fn a_send_waits_for_pongs_to_go_out_instead_of_failing() {
        // The peer's socket holds 256 bytes each way; the server may hold 1 KiB more.
        let (ours, peer) = tokio::io::duplex(256);
        let (mut from_peer, mut to_peer) = tokio::io::split(peer);
        let (config, _) = super::super::tungstenite_config(1024, Some(1024));
        let mut server = WebSocketStream::from_raw_socket(ours, Role::Server, Some(config)).await;
        // Twenty pings, their pongs not read yet: two go out, the buffer fills with the rest.
        let pinger = tokio::spawn(async move { to_peer.write_all(&ping().repeat(20)).await });
        let pings = async {
            for _ in 0..20 {
                assert!(matches!(server.next().await, Some(Ok(Message::Ping(_)))));
            }
        };
        tokio::time::timeout(Duration::from_secs(5), pings)
            .await
            .expect("twenty pings read");
        pinger.await.expect("pinger").expect("pings sent");
        // tokio-tungstenite's own `send` fails: there is no room for 900 bytes.
        let message = Message::binary(vec![1u8; 900]);
        let Err(Error::WriteBufferFull(frame)) = server.send(message).await else {
            panic!("the buffer was not full");
        };
        // Ours waits until the peer reads.
        let reader = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let mut seen = Vec::new();
            let mut chunk = [0u8; 512];
            while !seen.ends_with(&[1u8; 900]) {
                let n = from_peer.read(&mut chunk).await.expect("read");
                assert!(n > 0, "closed");
                seen.extend_from_slice(&chunk[..n]);
            }
        });
        tokio::time::timeout(Duration::from_secs(5), send_waiting(&mut server, *frame))
            .await
            .expect("sent once the peer read")
            .expect("no error");
        tokio::time::timeout(Duration::from_secs(5), reader)
            .await
            .expect("the message arrived")
            .expect("reader");
    }

    #[tokio::test]
    async fn a_message_larger_than_the_buffer_fails_even_with_room() {
        let (ours, _peer) = tokio::io::duplex(1 << 16);
        let (config, _) = super::super::tungstenite_config(1024, Some(1024));
        let mut server = WebSocketStream::from_raw_socket(ours, Role::Server, Some(config)).await;
        let result = send_waiting(&mut server, Message::binary(vec![1u8; 2000])).await;
        assert!(matches!(result, Err(Error::WriteBufferFull(_))), "{result:?}");
    }
}
