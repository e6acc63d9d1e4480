//! Which HTTP version a new connection speaks, decided once from its first bytes.
//!
//! Rules enforced here:
//! - a connection that opens with the HTTP/2 connection preface is HTTP/2 (prior knowledge, as
//!   `curl --http2-prior-knowledge` and gRPC clients do); anything else, including a connection
//!   closed before sending a byte, is HTTP/1.1 and left to hyper's parser to accept or refuse;
//! - the bytes are only peeked, never consumed, so the chosen connection reads the stream from
//!   its first byte with no wrapper in between: hyper-util's `auto` builder decides the same way
//!   but keeps a rewind wrapper around every later read (≈ 175 instructions per request,
//!   measured with callgrind);
//! - the caller bounds the wait (the header-read timeout), since a client may send nothing.

use std::io;
use std::time::Duration;

use tokio::net::TcpStream;

/// The first bytes of every HTTP/2 connection (RFC 9113, section 3.4).
const H2_PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// How long to wait before peeking again when only part of the preface has arrived. Peeking
/// again at once would see the same bytes and spin.
const PARTIAL_PREFACE_PAUSE: Duration = Duration::from_millis(5);

/// The protocol a connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Protocol {
    /// HTTP/1.0 or HTTP/1.1 (or bytes hyper will refuse).
    Http1,
    /// HTTP/2 with prior knowledge.
    Http2,
}

/// What the bytes seen so far say, or `None` while they are a strict prefix of the preface.
pub(crate) fn classify(first_bytes: &[u8]) -> Option<Protocol> {
    let seen = first_bytes.len().min(H2_PREFACE.len());
    if first_bytes.is_empty() || first_bytes[..seen] != H2_PREFACE[..seen] {
        Some(Protocol::Http1)
    } else if seen == H2_PREFACE.len() {
        Some(Protocol::Http2)
    } else {
        None
    }
}

/// Peek at `stream` until its protocol is known. Unbounded in time: the caller adds the timeout.
pub(crate) async fn sniff(stream: &TcpStream) -> io::Result<Protocol> {
    let mut buf = [0u8; H2_PREFACE.len()];
    loop {
        let n = stream.peek(&mut buf).await?;
        if let Some(protocol) = classify(&buf[..n]) {
            return Ok(protocol);
        }
        tokio::time::sleep(PARTIAL_PREFACE_PAUSE).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{classify, Protocol, H2_PREFACE};

    #[test]
    fn the_full_preface_is_http2() {
        assert_eq!(classify(H2_PREFACE), Some(Protocol::Http2));
    }

    #[test]
    fn a_request_line_or_nothing_is_http1() {
        assert_eq!(classify(b"GET / HTTP/1.1\r\n"), Some(Protocol::Http1));
        assert_eq!(classify(b"PRI * HTTP/1.1\r\n"), Some(Protocol::Http1));
        assert_eq!(
            classify(b"\x16\x03\x01"),
            Some(Protocol::Http1),
            "a TLS hello is hyper's to refuse"
        );
        assert_eq!(classify(b""), Some(Protocol::Http1), "closed before a byte");
    }

    #[test]
    fn part_of_the_preface_waits_for_more() {
        assert_eq!(classify(b"P"), None);
        assert_eq!(classify(b"PRI * HTTP/2.0\r\n"), None);
        assert_eq!(classify(&H2_PREFACE[..23]), None);
    }
}
