//! The listening socket.
//!
//! Rules enforced here:
//! - the queue of connections the kernel completed and the server has not accepted yet holds
//!   [`BACKLOG`] (the kernel caps it at `net.core.somaxconn`), not std's 128: at the connection
//!   limit the server accepts only as fast as connections leave, and a connection the full queue
//!   refuses is retried by its client after 1 s, then 3 s (the SYN's retransmission), where in
//!   the queue it waits its turn. Measured (issue 41, `bench/attacks.py --attack idle-churn`: 400
//!   idle connections reopened as soon as they are closed, 192 places): with 128, 4 of 30 fresh
//!   clients took 1–2 s to connect; with 1024, none;
//! - every address `addr` resolves to is tried in order, as `TcpListener::bind` does, with
//!   `SO_REUSEADDR` (a restarted server binds while its old connections are in `TIME_WAIT`).

use std::io;

use tokio::net::{lookup_host, TcpListener, TcpSocket, ToSocketAddrs};

/// The longest queue of connections waiting to be accepted asked of the kernel.
pub(crate) const BACKLOG: u32 = 1024;

/// A listener on the first address of `addr` that can be bound.
pub(crate) async fn listen(addr: impl ToSocketAddrs) -> io::Result<TcpListener> {
    let mut last = None;
    for addr in lookup_host(addr).await? {
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()?
        } else {
            TcpSocket::new_v6()?
        };
        let bound = socket
            .set_reuseaddr(true)
            .and_then(|()| socket.bind(addr))
            .and_then(|()| socket.listen(BACKLOG));
        match bound {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the address resolved to no address to listen on",
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn listens_on_the_first_address_that_binds() {
        let listener = listen("127.0.0.1:0").await.unwrap();
        assert!(listener.local_addr().unwrap().port() > 0);
        // The same port again is refused while the first listens.
        let taken = listener.local_addr().unwrap();
        assert_eq!(listen(taken).await.unwrap_err().kind(), io::ErrorKind::AddrInUse);
    }

    #[tokio::test]
    async fn connections_beyond_std_s_backlog_wait_in_the_queue() {
        // Nothing is accepted: with std's 128 the 130th connect's SYN is dropped and retried a
        // second later (Linux), past the timeout below.
        // The kernel caps the queue at `net.core.somaxconn` (128 before Linux 5.4): there this
        // cannot be seen.
        let cap: usize = std::fs::read_to_string("/proc/sys/net/core/somaxconn")
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or(4096);
        if cap <= 128 {
            eprintln!("net.core.somaxconn is {cap}: the backlog cannot exceed std's here");
            return;
        }
        let listener = listen("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut held = Vec::new();
        for n in 0..cap.min(300) {
            let connect = tokio::net::TcpStream::connect(addr);
            match tokio::time::timeout(std::time::Duration::from_millis(500), connect).await {
                Ok(Ok(stream)) => held.push(stream),
                other => panic!("connection {n} not queued: {other:?}"),
            }
        }
        drop(listener);
    }
}
