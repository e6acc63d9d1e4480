//! The log's output: finished lines are appended to a bounded buffer in memory, and one thread
//! writes the buffer out in batches.
//!
//! Rules enforced here:
//! - a thread that logs never waits for the output: it copies its line into the buffer (an access
//!   line is formatted there) under a short lock, and when the buffer is full (the output cannot
//!   keep up: a slow disk, a pipe nobody reads) the line is dropped and counted, never blocking
//!   the request that logged it; the writer reports the count in a line of its own once it
//!   catches up;
//! - lines are written in the order they were appended, whole, in batches: the writer wakes for
//!   the first line after a quiet spell (written at once, so a lone line is not delayed), then at
//!   most every [`PACE`], or sooner when [`HIGH_WATER`] bytes wait; under load that is one `write`
//!   per tens of kilobytes instead of one per line;
//! - a thread that logs makes a system call only to wake the writer, at most once per batch;
//! - [`Sink::flush`] returns once every line appended before it was called is written (or after
//!   a bounded wait), so a graceful shutdown loses no line;
//! - memory stays bounded: two buffers (the one being filled, the one being written), each at most
//!   the limit, and a buffer that grew in a burst is given back afterwards.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The longest a line waits in the buffer while lines keep coming.
pub(crate) const PACE: Duration = Duration::from_millis(50);

/// Bytes waiting that wake the writer before [`PACE`] is up.
pub(crate) const HIGH_WATER: usize = 64 * 1024;

/// Formats the line that reports dropped lines (in the log's format).
pub(crate) type Notice = Box<dyn Fn(u64, &mut Vec<u8>) + Send + Sync>;

/// The buffer and its writer thread.
pub(crate) struct Sink {
    shared: Mutex<Shared>,
    /// Wakes the writer.
    more: Condvar,
    /// Wakes [`Sink::flush`] callers once a batch is written.
    written: Condvar,
    /// Lines dropped since start.
    dropped: AtomicU64,
    /// The most bytes the buffer holds.
    limit: usize,
}

struct Shared {
    buf: Vec<u8>,
    /// The writer waits without a deadline (the buffer was empty): the next line wakes it.
    idle: bool,
    /// A wake-up is on its way; no need for another.
    woken: bool,
    /// Flushes asked for, and flushes done (a flush is done when the batch taken after it was
    /// asked for is written).
    requested: u64,
    done: u64,
}

impl Sink {
    /// A sink writing to `out` on a thread of its own, holding at most `limit` bytes.
    pub(crate) fn start(
        out: Box<dyn Write + Send>,
        limit: usize,
        notice: Notice,
    ) -> std::io::Result<Arc<Sink>> {
        let sink = Arc::new(Sink {
            shared: Mutex::new(Shared {
                buf: Vec::with_capacity(HIGH_WATER.min(limit)),
                idle: false,
                woken: false,
                requested: 0,
                done: 0,
            }),
            more: Condvar::new(),
            written: Condvar::new(),
            dropped: AtomicU64::new(0),
            limit,
        });
        let writer = sink.clone();
        std::thread::Builder::new()
            .name("ferrapi-log".to_owned())
            .spawn(move || writer.run(out, &notice))?;
        Ok(sink)
    }

    fn lock(&self) -> MutexGuard<'_, Shared> {
        // Nothing panics while holding the lock; should it, the buffer is still consistent.
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Append one finished line (newline included), or drop it when the buffer is full.
    pub(crate) fn append(&self, line: &[u8]) {
        self.append_with(line.len(), |buf| buf.extend_from_slice(line));
    }

    /// Append the line `write` appends to the buffer (newline included), at most `bound` bytes;
    /// drop it when `bound` more bytes would take the buffer past its limit. Writing in place
    /// saves formatting the line elsewhere and copying it in; checking the bound first keeps a
    /// line that will be dropped from growing the buffer past its limit. `write` runs under the
    /// lock, so it must be short and must not log.
    pub(crate) fn append_with(&self, bound: usize, write: impl FnOnce(&mut Vec<u8>)) {
        let mut shared = self.lock();
        let start = shared.buf.len();
        if start.saturating_add(bound) > self.limit {
            drop(shared);
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        write(&mut shared.buf);
        if shared.buf.len() > self.limit {
            // Only if `write` broke its bound.
            shared.buf.truncate(start);
            drop(shared);
            self.dropped.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let wake = !shared.woken && (shared.idle || shared.buf.len() >= HIGH_WATER);
        shared.woken |= wake;
        drop(shared);
        if wake {
            self.more.notify_one();
        }
    }

    /// Lines dropped since start because the buffer was full.
    pub(crate) fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Wait until every line appended before this call is written, at most `timeout`; false if
    /// the time ran out.
    pub(crate) fn flush(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut shared = self.lock();
        shared.requested += 1;
        let target = shared.requested;
        shared.woken = true;
        self.more.notify_one();
        while shared.done < target {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            shared = self
                .written
                .wait_timeout(shared, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        true
    }

    /// The writer thread: take the buffer when there is reason to, write it, repeat.
    fn run(&self, mut out: Box<dyn Write + Send>, notice: &Notice) {
        let mut batch = Vec::with_capacity(HIGH_WATER.min(self.limit));
        let mut reported = 0;
        // Whether the last round wrote something: then wait up to PACE for more, else idle.
        let mut pacing = false;
        loop {
            let target = {
                let mut shared = self.lock();
                if pacing {
                    let deadline = Instant::now() + PACE;
                    while !shared.woken {
                        let left = deadline.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            break;
                        }
                        shared = self
                            .more
                            .wait_timeout(shared, left)
                            .unwrap_or_else(PoisonError::into_inner)
                            .0;
                    }
                }
                while shared.buf.is_empty() && !shared.woken {
                    shared.idle = true;
                    shared = self.more.wait(shared).unwrap_or_else(PoisonError::into_inner);
                }
                shared.idle = false;
                shared.woken = false;
                std::mem::swap(&mut shared.buf, &mut batch);
                shared.requested
            };
            let dropped = self.dropped();
            if dropped > reported {
                notice(dropped - reported, &mut batch);
                reported = dropped;
            }
            pacing = !batch.is_empty();
            if pacing {
                // A failed write has nowhere to be reported; the lines are lost, not retried.
                let _ = out.write_all(&batch);
            }
            let _ = out.flush();
            batch.clear();
            if batch.capacity() > 4 * HIGH_WATER {
                batch = Vec::with_capacity(HIGH_WATER.min(self.limit));
            }
            let mut shared = self.lock();
            shared.done = target;
            drop(shared);
            self.written.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// An output that hands each write to the test, and can be held (a slow disk).
    struct Held {
        gate: Arc<Mutex<()>>,
        writes: mpsc::Sender<Vec<u8>>,
    }

    impl Write for Held {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let _open = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = self.writes.send(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn notice() -> Notice {
        Box::new(|n, out: &mut Vec<u8>| out.extend_from_slice(format!("dropped {n}\n").as_bytes()))
    }

    #[test]
    fn lines_come_out_in_order_and_flush_waits_for_them() {
        let gate = Arc::new(Mutex::new(()));
        let (tx, rx) = mpsc::channel();
        let sink = Sink::start(Box::new(Held { gate, writes: tx }), 1 << 20, notice()).unwrap();
        for i in 0..1000 {
            sink.append(format!("line {i}\n").as_bytes());
        }
        assert!(sink.flush(Duration::from_secs(10)));
        let text: String = rx.try_iter().map(|w| String::from_utf8(w).unwrap()).collect();
        let expected: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        assert_eq!(text, expected);
        assert_eq!(sink.dropped(), 0);
    }

    /// A sink of `limit` bytes whose output is stuck at `gate` (which the caller holds): the
    /// writer has taken a first line and waits, so the buffer only fills.
    fn stuck_sink(gate: &Arc<Mutex<()>>, limit: usize) -> (Arc<Sink>, mpsc::Receiver<Vec<u8>>) {
        let (tx, rx) = mpsc::channel();
        let output = Held {
            gate: gate.clone(),
            writes: tx,
        };
        let sink = Sink::start(Box::new(output), limit, notice()).unwrap();
        sink.append(b"first\n");
        let started = Instant::now();
        while {
            let shared = sink.lock();
            shared.woken || !shared.buf.is_empty()
        } {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the writer never took the line"
            );
            std::thread::yield_now();
        }
        (sink, rx)
    }

    #[test]
    fn a_line_that_would_not_fit_is_dropped_before_it_is_written() {
        let gate = Arc::new(Mutex::new(()));
        let _held = gate.lock().unwrap();
        let (sink, _rx) = stuck_sink(&gate, 1024);
        sink.append(&[b'x'; 900]);
        let mut written = false;
        sink.append_with(300, |buf| {
            written = true;
            buf.extend_from_slice(&[b'y'; 300]);
        });
        assert!(!written, "a line past the limit was formatted");
        assert_eq!(sink.dropped(), 1);
        let shared = sink.lock();
        assert_eq!(shared.buf.len(), 900);
        assert!(
            shared.buf.capacity() <= 1024,
            "the buffer grew to {}",
            shared.buf.capacity()
        );
    }

    #[test]
    fn a_full_buffer_drops_and_counts_instead_of_blocking() {
        // The output is stuck: the writer holds the first line, the buffer takes the next few,
        // and the rest are dropped at once.
        let gate = Arc::new(Mutex::new(()));
        let held = gate.lock().unwrap();
        let (sink, rx) = stuck_sink(&gate, 100);
        let appended = Instant::now();
        for _ in 0..100 {
            sink.append(b"0123456789\n");
        }
        assert!(
            appended.elapsed() < Duration::from_secs(1),
            "appending waited for the output"
        );
        assert_eq!(sink.dropped(), 91);
        drop(held);
        assert!(sink.flush(Duration::from_secs(10)));
        let text: String = rx.try_iter().map(|w| String::from_utf8(w).unwrap()).collect();
        assert_eq!(text, format!("first\n{}dropped 91\n", "0123456789\n".repeat(9)));
    }
}
