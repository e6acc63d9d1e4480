//! Log set-up: `tracing` events as text or JSON lines on stderr, level from `RUST_LOG` (default
//! `info`), written in batches by a thread of their own. Its files: `subscriber` (filtering, the
//! open spans, one line per event), `format` (text and JSON lines), `sink` (the bounded buffer and
//! its writer thread), `clock` (the monotonic readings of timestamps and latencies),
//! `route_span` (a route's own spans exported as OpenTelemetry spans in a sampled request),
//! `otel_fields` (the fields of those spans and of the events logged in them, read as
//! `tracing-opentelemetry` reads them), `scope` (the request handled on a thread, for its lines).
//!
//! Rules enforced here:
//! - one subscriber per process: the first [`init`] installs it, later calls change nothing;
//! - logging never blocks a request: lines go to a bounded buffer; when the output cannot keep
//!   up, lines are dropped and counted ([`dropped_lines`]) and the count is logged;
//! - a line has a maximum size: each value a client can choose (the method, the path and query,
//!   every field of an event) takes at most [`MAX_VALUE_BYTES`] once escaped, its cut noted with
//!   the bytes left out (`format`), so a request makes a few KiB of log whatever it sends;
//! - no line is lost on a graceful shutdown: the server flushes the log when it has drained, and
//!   so does dropping the [`LogGuard`] (or calling [`flush`]); a process that ends otherwise
//!   (`std::process::exit`, a crash) loses at most the last 50 ms of lines.
//! - a request's id reaches every line logged while it is handled through a per-thread request
//!   context (`RequestScope`, entered around each poll of the request), not a `tracing` span:
//!   opening, entering and closing a span per request cost ~1,500 instructions, the context a few
//!   dozen; with another subscriber installed the framework opens a real span instead;
//! - a route's own `tracing` spans nest under its request's server span when the request is
//!   sampled and the app exports spans, and the events it logs become span events of the
//!   innermost of those spans (else of the server span), their lines written as ever: this
//!   subscriber is the bridge (`route_span`), so it needs this log installed; another subscriber
//!   sees the request's `tracing` span instead.

use std::io::IsTerminal;
use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tracing_subscriber::filter::Targets;

pub(crate) mod clock;
mod format;
mod otel_fields;
mod route_span;
mod scope;
mod sink;
mod subscriber;

pub(crate) use format::prefix_of;
use format::{json_string, line_start, Style};
pub(crate) use format::{AccessLine, ACCESS_TARGET, REQUEST_TARGET};
pub use format::{LogFormat, MAX_VALUE_BYTES};
pub(crate) use scope::{enter_request, enter_traced, RequestScope};
use sink::Sink;
use subscriber::Logger;

/// The sink of the installed subscriber, once [`init`] has run.
static SINK: OnceLock<Arc<Sink>> = OnceLock::new();

/// The installed subscriber, when it is this module's.
static LOGGER: OnceLock<Arc<Logger>> = OnceLock::new();

/// How long [`flush`] waits for the output at most.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(5);

/// The default size of the buffer of lines waiting to be written (1 MiB).
pub const DEFAULT_BUFFER_BYTES: usize = 1 << 20;

/// Install the log with its defaults: text lines on stderr, the level from `RUST_LOG` (`info`
/// when unset). Keep the guard until `main` returns: dropping it writes out the lines still
/// buffered. Calling it twice is harmless.
pub fn init() -> LogGuard {
    Logging::new().init()
}

/// Options of the log, then [`Logging::init`]: `Logging::new().format(LogFormat::Json).init()`.
#[derive(Debug, Clone)]
pub struct Logging {
    format: LogFormat,
    filter: Option<String>,
    buffer_bytes: usize,
}

impl Default for Logging {
    fn default() -> Self {
        Self::new()
    }
}

impl Logging {
    /// Text lines, the filter from `RUST_LOG`, a 1 MiB buffer.
    pub fn new() -> Self {
        Logging {
            format: LogFormat::Text,
            filter: None,
            buffer_bytes: DEFAULT_BUFFER_BYTES,
        }
    }

    /// The line format (text, or JSON lines).
    pub fn format(mut self, format: LogFormat) -> Self {
        self.format = format;
        self
    }

    /// The filter (`RUST_LOG`'s syntax: `info`, `warn,ferrapi=debug`, ...) instead of `RUST_LOG`.
    pub fn filter(mut self, spec: impl Into<String>) -> Self {
        self.filter = Some(spec.into());
        self
    }

    /// The most bytes of lines kept waiting for the output; beyond it lines are dropped (and
    /// counted) rather than making requests wait.
    pub fn buffer_bytes(mut self, bytes: usize) -> Self {
        self.buffer_bytes = bytes.max(1024);
        self
    }

    /// Install the subscriber (the first call in a process; later calls change nothing).
    pub fn init(self) -> LogGuard {
        if SINK.get().is_some() {
            return LogGuard(());
        }
        let spec = match self.filter {
            Some(spec) => spec,
            None => std::env::var("RUST_LOG").unwrap_or_default(),
        };
        let filter =
            Targets::from_str(if spec.trim().is_empty() { "info" } else { &spec }).unwrap_or_else(|err| {
                eprintln!("RUST_LOG={spec:?} is not a valid filter ({err}); using `info`");
                Targets::new().with_default(tracing::Level::INFO)
            });
        // Colour codes only for a person at a terminal, not in log files.
        let ansi = std::io::stderr().is_terminal();
        let style = Style {
            format: self.format,
            ansi: ansi && self.format == LogFormat::Text,
        };
        let notice = Box::new(move |dropped: u64, out: &mut Vec<u8>| dropped_notice(style, dropped, out));
        let sink = match Sink::start(Box::new(std::io::stderr()), self.buffer_bytes, notice) {
            Ok(sink) => sink,
            Err(err) => {
                eprintln!("cannot start the log's writer thread ({err}); logging is off");
                return LogGuard(());
            }
        };
        let logger = Arc::new(Logger::new(filter, self.format, ansi, sink.clone()));
        if tracing::subscriber::set_global_default(logger.clone()).is_ok() {
            let _ = SINK.set(sink);
            let _ = LOGGER.set(logger);
        }
        LogGuard(())
    }
}

/// The line reporting `dropped` lines, in the log's format.
fn dropped_notice(style: Style, dropped: u64, out: &mut Vec<u8>) {
    let message = format!(
        "{dropped} log line(s) dropped: the log output could not keep up (see logging::dropped_lines)"
    );
    line_start(out, style, &tracing::Level::WARN, "ferrapi::logging");
    match style.format {
        LogFormat::Text => out.extend_from_slice(message.as_bytes()),
        LogFormat::Json => {
            out.extend_from_slice(b",\"message\":");
            json_string(out, &message);
            out.extend_from_slice(b",\"dropped\":");
            format::push_u64(out, dropped);
            out.push(b'}');
        }
    }
    out.push(b'\n');
}

/// Writes out the buffered lines when dropped (see [`init`]).
#[derive(Debug)]
pub struct LogGuard(());

impl Drop for LogGuard {
    fn drop(&mut self) {
        flush();
    }
}

/// Write out every line logged so far (waiting at most 5 s for the output). The server calls it
/// once it has drained on shutdown.
pub fn flush() {
    if let Some(sink) = SINK.get() {
        sink.flush(FLUSH_TIMEOUT);
    }
}

/// Lines dropped since [`init`] because the output could not keep up.
pub fn dropped_lines() -> u64 {
    SINK.get().map_or(0, |sink| sink.dropped())
}

/// Write a request's access line through this module's subscriber, without a `tracing` event;
/// false when another subscriber is installed (the caller then logs an event).
pub(crate) fn access_line(line: &AccessLine<'_>) -> bool {
    match LOGGER.get() {
        Some(logger) => {
            logger.access(line);
            true
        }
        None => false,
    }
}

/// Whether the access line leaves the route template out (ferrapi's text lines do), so the
/// caller need not look it up (a cache line the request would not touch otherwise).
pub(crate) fn access_skips_route() -> bool {
    LOGGER.get().is_some_and(|logger| !logger.json())
}

/// Whether this module's subscriber writes access lines; `None` when another subscriber is
/// installed (the caller then asks `tracing`). Decided once at [`init`], so a request pays an
/// atomic load, not a filter lookup.
#[inline]
pub(crate) fn access_on() -> Option<bool> {
    LOGGER.get().map(|logger| logger.access_on())
}

/// True when this module's subscriber is installed: requests then carry their id in a
/// [`RequestScope`] rather than a `tracing` span.
pub(crate) fn is_installed() -> bool {
    LOGGER.get().is_some()
}
