//! Which HTTP version a new connection speaks, decided once from its first bytes.
//!
//! Rules enforced here:
//! - a connection that opens with the HTTP/2 connection preface is HTTP/2 (prior knowledge, as
//!   `curl --http2-prior-knowledge` and gRPC clients do); anything else, including a connection
//!   closed before sending a byte, is HTTP/1.1 and left to hyper's parser to accept or refuse;
//! - the bytes are read (at most the preface's 24) and kept in a [`Sniffed`], which the
//!   connection's socket (`io.rs`) hands to hyper first: one comparison per later read, where
//!   hyper-util's `auto` builder keeps a rewind wrapper that costs ≈ 175 instructions per request
//!   (callgrind). They are read rather than peeked because a peek sees the same bytes again at
//!   once: a client that sends part of the preface and stops kept the task polling (every 5 ms
//!   with a pause; 6,000 such connections took 93 % of a core). A read waits for new bytes;
//! - the caller bounds the wait (the header-read timeout), since a client may send nothing.

use std::io;

use tokio::io::{AsyncReadExt, ReadBuf};

/// The first bytes of every HTTP/2 connection (RFC 9113, section 3.4).
const H2_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// The bytes read to decide the protocol, not yet handed to hyper. Kept inline: no allocation
/// per connection.
#[derive(Debug, Default)]
pub(crate) struct Sniffed {
    bytes: [u8; H2_PREFACE.len()],
    len: u8,
    handed: u8,
}

impl Sniffed {
    /// True while some of the bytes are still to be handed over.
    #[inline(always)]
    pub(crate) fn pending(&self) -> bool {
        self.handed < self.len
    }

    /// Hand over as many of the remaining bytes as `buf` takes.
    pub(crate) fn copy_into(&mut self, buf: &mut ReadBuf<'_>) {
        let rest = &self.bytes[usize::from(self.handed)..usize::from(self.len)];
        let n = rest.len().min(buf.remaining());
        buf.put_slice(&rest[..n]);
        // n ≤ 24.
        self.handed += n as u8;
    }

    /// The bytes read, handed over or not.
    #[cfg(test)]
    fn as_slice(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// The protocol a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// HTTP/1.0 or HTTP/1.1 (or bytes hyper will refuse).
    Http1,
    /// HTTP/2 with prior knowledge.
    Http2,
}

/// What the bytes seen so far say, or `None` while they are a strict prefix of the preface.
pub(crate) fn recognise(first_bytes: &[u8]) -> Option<Protocol> {
    let seen = first_bytes.len().min(H2_PREFACE.len());
    if first_bytes.is_empty() || first_bytes[..seen] != H2_PREFACE[..seen] {
        Some(Protocol::Http1)
    } else if seen == H2_PREFACE.len() {
        Some(Protocol::Http2)
    } else {
        None
    }
}

/// Read from `stream` until its protocol is known (a connection closed early is HTTP/1, whose
/// parser sees the end). Unbounded in time: the caller adds the timeout.
pub(crate) async fn sniff<R: tokio::io::AsyncRead + Unpin>(
    stream: &mut R,
) -> io::Result<(Protocol, Sniffed)> {
    let mut sniffed = Sniffed::default();
    loop {
        let len = usize::from(sniffed.len);
        let n = stream.read(&mut sniffed.bytes[len..]).await?;
        // len + n ≤ 24.
        sniffed.len += n as u8;
        let seen = &sniffed.bytes[..usize::from(sniffed.len)];
        if n == 0 {
            return Ok((Protocol::Http1, sniffed));
        }
        if let Some(protocol) = recognise(seen) {
            return Ok((protocol, sniffed));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{recognise, sniff, Protocol, H2_PREFACE};
    use tokio::io::AsyncWriteExt;

    #[tokio::test]
    async fn sniffing_reads_no_more_than_the_preface_and_keeps_what_it_read() {
        let (mut client, mut server) = tokio::io::duplex(64);
        client
            .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .unwrap_or_default();
        let (protocol, sniffed) = sniff(&mut server).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(protocol, Protocol::Http1);
        assert_eq!(
            sniffed.as_slice(),
            b"GET / HTTP/1.1\r\nHost: x\r",
            "24 bytes at most"
        );
    }

    #[tokio::test]
    async fn a_preface_split_in_pieces_is_read_piece_by_piece_without_polling_in_between() {
        let (mut client, mut server) = tokio::io::duplex(64);
        let task = tokio::spawn(async move { sniff(&mut server).await });
        for piece in H2_PREFACE.chunks(5) {
            client.write_all(piece).await.unwrap_or_default();
            tokio::task::yield_now().await;
        }
        let (protocol, sniffed) = task
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(protocol, Protocol::Http2);
        assert_eq!(sniffed.as_slice(), H2_PREFACE);
    }

    #[tokio::test]
    async fn a_connection_closed_after_part_of_the_preface_is_http1() {
        let (mut client, mut server) = tokio::io::duplex(64);
        client.write_all(b"PRI").await.unwrap_or_default();
        drop(client);
        let (protocol, sniffed) = sniff(&mut server).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(protocol, Protocol::Http1);
        assert_eq!(sniffed.as_slice(), b"PRI");
    }

    #[test]
    fn the_full_preface_is_http2() {
        assert_eq!(recognise(H2_PREFACE), Some(Protocol::Http2));
    }

    #[test]
    fn a_request_line_or_nothing_is_http1() {
        assert_eq!(recognise(b"GET / HTTP/1.1\r\n"), Some(Protocol::Http1));
        assert_eq!(recognise(b"PRI * HTTP/1.1\r\n"), Some(Protocol::Http1));
        assert_eq!(
            recognise(b"\x16\x03\x01"),
            Some(Protocol::Http1),
            "a TLS hello is hyper's to refuse"
        );
        assert_eq!(recognise(b""), Some(Protocol::Http1), "closed before a byte");
    }

    #[test]
    fn part_of_the_preface_waits_for_more() {
        assert_eq!(recognise(b"P"), None);
        assert_eq!(recognise(b"PRI * HTTP/2.0\r\n"), None);
        assert_eq!(recognise(&H2_PREFACE[..23]), None);
    }
}
