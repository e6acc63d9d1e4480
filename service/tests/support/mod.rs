//! Shared by the tests that run the real `resource-api` binary: start it on a free loopback port
//! and find the address it logs, kill it (SIGKILL) or let it be killed when dropped.
//!
//! Rules enforced here: the binary's stderr is always drained (so it never blocks on a full
//! pipe); a service that does not log its address within 30 s fails the test; no process
//! outlives its `Service`.

#![allow(dead_code, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The service binary, running.
pub struct Service {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Service {
    /// Start the binary on 127.0.0.1 with a free port, serving `group`, with
    /// `DB_CONN_STRING=db`.
    pub fn start(db: &str, group: &str) -> Service {
        Self::start_logging(db, group, "info")
    }

    /// [`Service::start`] with `RUST_LOG=rust_log` (it must keep `ferrapi::server` at `info`,
    /// which logs the address).
    pub fn start_logging(db: &str, group: &str, rust_log: &str) -> Service {
        let mut child = Command::new(env!("CARGO_BIN_EXE_resource-api"))
            .args(["--host", "127.0.0.1", "--port", "0", "--group", group])
            .env("DB_CONN_STRING", db)
            .env("RUST_LOG", rust_log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start resource-api");
        let stderr = child.stderr.take().expect("stderr is piped");
        let (found, port) = mpsc::channel();
        std::thread::spawn(move || {
            // Read every line (so the service never blocks on a full pipe); report the address.
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    let addr: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
                        .collect();
                    let _ = found.send(addr);
                }
            }
        });
        let addr = port
            .recv_timeout(Duration::from_secs(30))
            .expect("the service logs its address within 30 s")
            .parse()
            .expect("a socket address");
        Service { child, addr }
    }

    /// The process's resident memory (`VmRSS`), in KiB; 0 if it cannot be read.
    pub fn rss_kib(&self) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmRSS:"))
                    .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
            })
            .unwrap_or(0)
    }

    /// SIGKILL: nothing is flushed on the way out.
    pub fn kill(mut self) {
        self.child.kill().expect("SIGKILL the service");
        let _ = self.child.wait();
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
