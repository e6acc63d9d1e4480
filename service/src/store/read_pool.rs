//! The embedded store's readers: at most [`max_readers`] threads, each owning one read-only
//! SQLite connection, fed from one queue.
//!
//! Rules enforced here:
//! - a read never runs on an async worker, and never on tokio's blocking pool: that pool grows a
//!   thread whenever none is idle at the instant of a spawn, so 64 concurrent lookups left ~35
//!   threads (and their stacks and malloc arenas) behind, each opening its own connection;
//! - threads are started on demand (the first at open), so an idle service holds one thread and no
//!   connection, and never more than [`max_readers`];
//! - a connection whose read failed (or panicked) is dropped and reopened by the next read, so the
//!   pool recovers by itself once the file is usable again;
//! - dropping the pool closes the queue: every thread finishes its current read and exits.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::Connection;
use tokio::sync::oneshot;

use super::StoreError;

/// Reader threads at most: twice the cores, between 2 and 8. Reads are mostly CPU work on cached
/// pages, so more threads than that only cost memory (each holds a connection with its page
/// cache, a stack and a malloc arena: ≈ 270 KiB measured under load); twice the cores keeps the
/// CPUs busy while some reads wait on the disk.
pub(super) fn max_readers() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (2 * cores).clamp(2, 8)
}

/// One read: given the thread's connection (or why there is none), it answers its caller and
/// says whether the connection can be trusted again.
type ReadJob = Box<dyn FnOnce(Result<&Connection, StoreError>) -> bool + Send>;

/// The queue and the reader threads behind it.
#[derive(Debug)]
pub(super) struct ReadPool {
    jobs: Sender<ReadJob>,
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    path: PathBuf,
    busy_timeout: Duration,
    queue: Mutex<Receiver<ReadJob>>,
    /// Threads started (and not exited).
    threads: AtomicUsize,
    /// The most threads this pool starts.
    max_threads: usize,
    /// Threads waiting for a job.
    idle: AtomicUsize,
    /// Jobs queued and not yet taken by a thread.
    pending: AtomicUsize,
}

impl ReadPool {
    /// A pool reading `path`; starts its first thread now, so a machine that cannot start threads
    /// fails at open rather than at the first read.
    pub(super) fn open(path: PathBuf, busy_timeout: Duration) -> Result<Self, StoreError> {
        let (jobs, queue) = channel();
        let pool = ReadPool {
            jobs,
            shared: Arc::new(Shared {
                path,
                busy_timeout,
                queue: Mutex::new(queue),
                threads: AtomicUsize::new(0),
                max_threads: max_readers(),
                idle: AtomicUsize::new(0),
                pending: AtomicUsize::new(0),
            }),
        };
        pool.start_thread()?;
        Ok(pool)
    }

    /// Run `f` on a reader thread's connection and wait (asynchronously) for its result.
    pub(super) async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel();
        let job: ReadJob = Box::new(move |conn| {
            let result = conn.and_then(f);
            let trusted = result.is_ok();
            let _ = reply.send(result);
            trusted
        });
        self.shared.pending.fetch_add(1, Ordering::AcqRel);
        if self.jobs.send(job).is_err() {
            self.shared.pending.fetch_sub(1, Ordering::AcqRel);
            return Err(StoreError::unavailable("the store's readers have stopped"));
        }
        self.grow();
        answer
            .await
            .map_err(|_| StoreError::unavailable("a reader thread stopped during a read"))?
    }

    /// Start one more thread when more reads are queued than threads are waiting (a burst queued
    /// faster than a waiting thread wakes counts too) and the limit allows. A thread that cannot
    /// be started is logged; the queued read is served by the threads already running.
    fn grow(&self) {
        let pending = self.shared.pending.load(Ordering::Acquire);
        if pending <= self.shared.idle.load(Ordering::Acquire) {
            return;
        }
        if self.shared.threads.load(Ordering::Acquire) >= self.shared.max_threads {
            return;
        }
        if let Err(err) = self.start_thread() {
            tracing::warn!(error = %err, "embedded store: cannot start another reader thread");
        }
    }

    fn start_thread(&self) -> Result<(), StoreError> {
        let claimed = self
            .shared
            .threads
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.shared.max_threads).then_some(n + 1)
            });
        let Ok(number) = claimed else {
            return Ok(());
        };
        let shared = self.shared.clone();
        std::thread::Builder::new()
            .name(format!("sqlite-reader-{number}"))
            .spawn(move || reader(&shared))
            .map(drop)
            .map_err(|err| {
                self.shared.threads.fetch_sub(1, Ordering::AcqRel);
                StoreError::unavailable(format!("cannot start a reader thread: {err}"))
            })
    }
}

/// One reader thread: take a job, give it the connection (opened on first use), repeat until the
/// pool is dropped.
fn reader(shared: &Shared) {
    let mut conn: Option<Connection> = None;
    loop {
        shared.idle.fetch_add(1, Ordering::AcqRel);
        let job = shared.queue.lock().unwrap_or_else(|p| p.into_inner()).recv();
        shared.idle.fetch_sub(1, Ordering::AcqRel);
        let Ok(job) = job else { break };
        shared.pending.fetch_sub(1, Ordering::AcqRel);
        let connection = match conn {
            Some(ref connection) => connection,
            None => match open_reader(&shared.path, shared.busy_timeout) {
                Ok(opened) => conn.insert(opened),
                Err(err) => {
                    job(Err(err));
                    continue;
                }
            },
        };
        let trusted = catch_unwind(AssertUnwindSafe(|| job(Ok(connection)))).unwrap_or_else(|_| {
            tracing::error!("embedded store: a read panicked; its connection is reopened");
            false
        });
        if !trusted {
            conn = None;
        }
    }
    shared.threads.fetch_sub(1, Ordering::AcqRel);
}

fn open_reader(path: &Path, busy_timeout: Duration) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)
        .map_err(|err| StoreError::unavailable(format!("cannot open {}: {err}", path.display())))?;
    conn.busy_timeout(busy_timeout)
        .map_err(|err| StoreError::unavailable(err.to_string()))?;
    conn.pragma_update(None, "query_only", true)
        .map_err(|err| StoreError::unavailable(err.to_string()))?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    use super::ReadPool;
    use crate::store::StoreError;

    /// A database of its own for each test (removed when the guard drops).
    struct Scratch(std::path::PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("read-pool-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|err| panic!("scratch dir: {err}"));
        Scratch(dir)
    }

    fn pool(dir: &Scratch) -> ReadPool {
        let path = dir.0.join("read-pool.sqlite");
        rusqlite::Connection::open(&path)
            .and_then(|conn| conn.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7);"))
            .map_err(|err| err.to_string())
            .unwrap_or_else(|err| panic!("cannot create the test database: {err}"));
        ReadPool::open(path, Duration::from_secs(1)).unwrap_or_else(|err| panic!("open: {}", err.cause()))
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn many_concurrent_reads_share_at_most_max_readers_threads() {
        let dir = scratch("concurrent");
        let pool = Arc::new(pool(&dir));
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let mut reads = Vec::new();
        for _ in 0..64 {
            let (pool, running, peak) = (pool.clone(), running.clone(), peak.clone());
            reads.push(tokio::spawn(async move {
                pool.read(move |conn| {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    running.fetch_sub(1, Ordering::SeqCst);
                    conn.query_row("SELECT x FROM t", [], |row| row.get::<_, i64>(0))
                        .map_err(|err| StoreError::unavailable(err.to_string()))
                })
                .await
            }));
        }
        for read in reads {
            let value = read.await.unwrap_or_else(|err| panic!("task: {err}"));
            assert_eq!(value.map_err(|err| err.cause().to_owned()), Ok(7));
        }
        let threads = pool.shared.threads.load(Ordering::SeqCst);
        let peak = peak.load(Ordering::SeqCst);
        let most = pool.shared.max_threads;
        assert!((2..=8).contains(&most), "{most} reader threads allowed");
        assert!(threads <= most, "{threads} reader threads");
        assert!(peak <= most, "{peak} reads ran at once");
        assert!(peak >= 2, "the pool never grew beyond one thread (peak {peak})");
    }

    #[tokio::test]
    async fn a_failed_read_reopens_the_connection_and_the_next_read_succeeds() {
        let dir = scratch("failed");
        let pool = pool(&dir);
        let failed: Result<(), StoreError> = pool.read(|_| Err(StoreError::unavailable("boom"))).await;
        assert!(failed.is_err());
        let panicked: Result<(), StoreError> = pool.read(|_| panic!("a read that panics")).await;
        assert!(panicked.is_err(), "a panicking read answers an error, not a hang");
        let value = pool
            .read(|conn| {
                conn.query_row("SELECT x FROM t", [], |row| row.get::<_, i64>(0))
                    .map_err(|err| StoreError::unavailable(err.to_string()))
            })
            .await;
        assert_eq!(value.map_err(|err| err.cause().to_owned()), Ok(7));
    }
}
