//! Shared by the tests that run the real `resource-api` binary: start it on a free loopback port
//! and find the address it logs, keep its log lines, signal or kill it. They talk to it with the
//! tests' one HTTP client, `ferrapi_tests::client`.
//!
//! Rules enforced here: the binary's stderr is always drained (so it never blocks on a full
//! pipe); a service that does not log its address within 30 s fails the test; no process
//! outlives its `Service`; the tests' own `EXPOSE_ENV` never leaks into the service.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The service binary, running.
pub struct Service {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    /// Set when the binary's stderr has ended (it exited): every line it wrote is in `log`.
    log_ended: Arc<std::sync::atomic::AtomicBool>,
}

impl Service {
    /// Start the binary on 127.0.0.1 with a free port, serving `group`, with
    /// `DB_CONN_STRING=db` and `RUST_LOG=info`.
    pub fn start(db: &str, group: &str) -> Service {
        Self::start_with(db, group, "info", &[])
    }

    /// [`Service::start`] with `RUST_LOG=rust_log` (it must keep `ferrapi::server` at `info`,
    /// which logs the address).
    pub fn start_logging(db: &str, group: &str, rust_log: &str) -> Service {
        Self::start_with(db, group, rust_log, &[])
    }

    /// The most general start: `RUST_LOG` and extra command-line arguments too.
    pub fn start_with(db: &str, group: &str, rust_log: &str, extra: &[&str]) -> Service {
        Self::start_env(db, group, rust_log, extra, &[])
    }

    /// [`Service::start_with`], with extra environment variables too.
    pub fn start_env(db: &str, group: &str, rust_log: &str, extra: &[&str], env: &[(&str, &str)]) -> Service {
        let mut child = Command::new(env!("CARGO_BIN_EXE_resource-api"))
            .args(["--host", "127.0.0.1", "--port", "0", "--group", group])
            .args(extra)
            .envs(env.iter().copied())
            .env("DB_CONN_STRING", db)
            .env("RUST_LOG", rust_log)
            .env_remove("EXPOSE_ENV")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start resource-api");
        let stderr = child.stderr.take().expect("stderr is piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let lines = log.clone();
        let log_ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ended = log_ended.clone();
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
                lines.lock().unwrap().push(line);
            }
            ended.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        let addr = port
            .recv_timeout(Duration::from_secs(30))
            .expect("the service logs its address within 30 s")
            .parse()
            .expect("a socket address");
        Service {
            child,
            addr,
            log,
            log_ended,
        }
    }

    /// True when some log line so far contains `needle`.
    pub fn logged(&self, needle: &str) -> bool {
        self.log.lock().unwrap().iter().any(|line| line.contains(needle))
    }

    /// The log lines so far.
    pub fn lines(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Every log line, once the binary has exited and its stderr ended (at most `within`).
    pub fn all_lines(&self, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        while !self.log_ended.load(std::sync::atomic::Ordering::SeqCst) {
            assert!(
                Instant::now() < deadline,
                "the service's stderr did not end within {within:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.lines()
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

    /// A field of the process's `/proc/PID/status` in bytes (`VmRSS`, `VmHWM`); 0 if it cannot
    /// be read.
    #[allow(dead_code)] // Used by `tests/clinic_memory`, which shares this module.
    pub fn status_bytes(&self, field: &str) -> u64 {
        std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            })
            .map_or(0, |kib| kib * 1024)
    }

    /// Reset the process's peak resident size (`VmHWM`) to its resident size now (Linux:
    /// `/proc/PID/clear_refs`), so the next peak read is what came after.
    #[allow(dead_code)] // Used by `tests/clinic_memory`, which shares this module.
    pub fn reset_peak(&self) {
        std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5").expect("reset VmHWM");
    }

    /// SIGTERM: a graceful shutdown.
    pub fn sigterm(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Wait (at most `within`) for the process to exit; its exit code.
    pub fn wait_exit(&mut self, within: Duration) -> Option<i32> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the service did not exit within {within:?}");
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
