//! Servers with ferrapi's own log installed, each in a process of its own (a log is one per
//! process, and the framework's test binary installs none): the binaries' side (`tests/src/bin/`,
//! [`run`] and [`stdin_closed`]) and the tests' side ([`LogProcess`]).
//!
//! The protocol: the binary takes the log format (`text` or `json`) as its first argument, logs
//! to stderr, prints `listening on ADDR [ADDR..]` to stdout once it serves, and stops when its
//! standard input closes (so a test that dies takes it along).

use std::future::Future;
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrapi::logging::LogFormat;

/// A binary's `main`: `serve` with the log format of the first argument (`text` by default), on
/// a runtime of two workers.
pub fn run<F, Fut>(serve: F) -> Result<(), String>
where
    F: FnOnce(LogFormat) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let format: LogFormat = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "text".to_owned())
        .parse()?;
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?
        .block_on(serve(format))
}

/// Completes when the test closes this process's standard input (or dies).
pub async fn stdin_closed() {
    let _ = tokio::task::spawn_blocking(|| std::io::stdin().read(&mut [0; 1])).await;
}

/// A log-server binary started by a test: the addresses it serves on, its log lines gathered;
/// stopped when dropped.
pub struct LogProcess {
    child: Child,
    /// The addresses it printed, in order.
    pub addrs: Vec<SocketAddr>,
    lines: Arc<Mutex<Vec<String>>>,
}

impl LogProcess {
    /// Start `command` (a log-server binary with its arguments) and wait for its addresses.
    pub fn start(mut command: Command) -> LogProcess {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {command:?}: {e}"));
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("its addresses");
        let addrs: Vec<SocketAddr> = line
            .trim()
            .strip_prefix("listening on ")
            .map(|rest| rest.split(' ').filter_map(|a| a.parse().ok()).collect())
            .unwrap_or_default();
        assert!(!addrs.is_empty(), "{command:?} said {line:?}");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = lines.clone();
        let stderr = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                sink.lock().expect("not poisoned").push(line);
            }
        });
        LogProcess { child, addrs, lines }
    }

    /// The line containing `needle` (waiting up to 5 s: the log writes in batches).
    pub fn line_with(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(line) = self
                .lines
                .lock()
                .expect("not poisoned")
                .iter()
                .find(|l| l.contains(needle))
            {
                return line.clone();
            }
            assert!(
                Instant::now() < deadline,
                "no line with {needle:?}: {:?}",
                self.lines.lock().expect("not poisoned")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl LogProcess {
    /// Close its standard input and wait up to 10 s for it to stop on its own (a server drains,
    /// an exporter sends what it queued); true when it did.
    pub fn stop(&mut self) -> bool {
        drop(self.child.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for LogProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
