//! TLS on a listener (the `tls` feature): rustls with the `ring` provider, named explicitly (no
//! process-wide default is installed, so an app that also holds another provider is not
//! confused), through tokio-rustls.
//!
//! Rules enforced here:
//! - the certificate chain and key come from PEM files (`certs.rs`), read when the server binds:
//!   a missing file, a file without a certificate or key, or a key that is not the first
//!   certificate's, stops the start with one line naming the file;
//! - TLS 1.3 and 1.2 only; ALPN offers `h2` then `http/1.1` on the one port, and the protocol the
//!   handshake chose is the one served: a connection whose first bytes speak the other is closed
//!   (`server/mod.rs`). A client that offers no ALPN is served as a plain connection is, by its
//!   first bytes; one that offers only protocols we do not speak is refused by rustls (alert
//!   `no_application_protocol`);
//! - the handshake is inside the connection's protections (`handshake.rs`): its connection took
//!   its place under `max_connections` at accept, is idle (so closed for room like a connection
//!   reading a head) until its first request, and the whole handshake has `handshake_timeout`;
//!   the server's synchronous computing of handshakes is capped at `max_handshakes` at once,
//!   while waiting for a client's answer holds no place (`places.rs`);
//! - session resumption: rustls's defaults (an in-memory cache of 256 sessions for TLS 1.2 ids
//!   and TLS 1.3 stateful tickets);
//! - the pair is reloaded without a restart, on `SIGHUP` and when its files change
//!   (`reload.rs`): new handshakes use the new pair, open connections keep theirs, a bad pair is
//!   refused with a log line and the old one kept;
//! - with `TlsConfig::hsts`, every answer of a TLS connection carries `Strict-Transport-Security`
//!   (`hsts.rs`), a plain connection's never;
//! - a failed or late handshake is counted (`http_refusals{reason="tls_handshake"}`) and
//!   reported once a second, like every other refusal.

mod certs;
mod handshake;
mod hsts;
mod places;
mod reload;

pub(crate) use handshake::Tls;
