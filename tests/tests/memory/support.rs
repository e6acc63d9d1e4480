//! The server under test, in a process of its own, and what the tests read of it.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use ferrapi_tests::client::{request, try_parse};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::{Mutex, MutexGuard};

static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Hold this while measuring.
pub async fn exclusive() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

/// [`exclusive`], for a test outside the runtime.
pub fn exclusive_blocking() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.blocking_lock()
}

/// `memory-server`, its allocator set as the service sets its own (`service/src/main.rs`): blocks
/// of 128 KiB or more mapped, and unmapped when freed. By default glibc raises that threshold to
/// each mapped block freed, and a flood's 1 MiB bodies then stay in its per-thread arenas: a
/// budget of bytes cannot count an allocator's retention, and the floods' peaks went up by
/// ~10 MiB once bodies were charged what they hold rather than twice (issue 41).
pub fn memory_server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_memory-server"));
    command.env("MALLOC_MMAP_THRESHOLD_", "131072");
    command
}

/// A `memory-server serve` process; stopped (its input closed, then killed) when dropped.
pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Server {
    /// Start one with a memory budget of `budget` bytes (0: none).
    pub fn start(budget: usize) -> Server {
        let mut child = memory_server()
            .args(["serve", &budget.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("memory-server: {e}"));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap_or_else(|| panic!("no stdout"));
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .unwrap_or_else(|e| panic!("memory-server: {e}"));
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("memory-server said {line:?}"));
        Server { child, stdin, addr }
    }

    /// A field of its `/proc/PID/status`, in bytes (`VmHWM`: the most it has held resident).
    pub fn status(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|kb| kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One request on a new connection (`Connection: close`): its status and body, or `None` when
/// no answer came within 30 s.
pub async fn send(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> Option<(u16, Vec<u8>)> {
    let exchange = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let mut headers = vec![("Connection", "close")];
        if body.is_some() {
            headers.push(("Content-Type", "application/json"));
        }
        stream
            .write_all(&request("t", method, path, &headers, body))
            .await
            .ok()?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).await.ok()?;
        try_parse(&reply).ok().map(|reply| (reply.status, reply.body))
    };
    tokio::time::timeout(Duration::from_secs(30), exchange)
        .await
        .ok()
        .flatten()
}

/// One mebibyte of JSON: an object of arrays nested `depth` deep, over and over.
pub fn nested_body(depth: usize) -> Vec<u8> {
    let unit = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let count = ((1 << 20) - 40) / (unit.len() + 1);
    format!(
        "{{\"name\":\"n\",\"d\":[{}]}}",
        vec![unit.as_str(); count].join(",")
    )
    .into_bytes()
}

/// One mebibyte of JSON: an object with a flat array of zeros under `lines`.
pub fn flat_body() -> Vec<u8> {
    let count = ((1 << 20) - 40) / 2;
    format!("{{\"name\":\"n\",\"lines\":[{}]}}", vec!["0"; count].join(",")).into_bytes()
}

/// Mebibytes, for messages.
pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}
