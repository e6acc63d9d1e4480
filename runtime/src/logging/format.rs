//! How a log line is written: text for people, JSON lines for log shippers.
//!
//! Rules enforced here:
//! - a text line is `TIMESTAMP LEVEL message key=value ...`, the fields of the event, then the
//!   fields of the spans it is in (outermost first); a JSON line is one object with
//!   `timestamp`, `level`, `target`, `message` (when there is one), then the same fields as keys;
//! - a line logged while a request is handled ends with its `request_id` ([`request_id`]);
//! - the access line (target [`ACCESS_TARGET`], written by [`access`] without going through a
//!   `tracing` event) reads `GET /item/42 200 0.123ms request_id=…` in text; in JSON that text is
//!   its `message` and `method`, `path`, `route`, `status`, `latency_ms` and `request_id` are keys;
//! - JSON strings are escaped as RFC 8259 requires (quote, backslash, control characters), so a
//!   value can never end the line or the object early; a text value holding a space, `=`, `"` or
//!   a control character is written quoted and escaped, so one line stays one line;
//! - the timestamp is UTC with microseconds (`2026-11-26T08:01:22.123456Z`); the date part is
//!   computed once per second per thread;
//! - no allocation per line: lines are built in buffers reused by each thread.

use std::cell::Cell;
use std::fmt::{self, Write as _};
use std::time::{SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::Level;

/// The target of the framework's access line (one per request, at `INFO`).
pub(crate) const ACCESS_TARGET: &str = "ferrapi::access";

/// The target of the framework's request span (opened for subscribers other than ferrapi's).
pub(crate) const REQUEST_TARGET: &str = "ferrapi::request";

/// The log's line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LogFormat {
    /// `2026-11-26T08:01:22.123456Z  INFO GET /item/42 200 0.123ms request_id=…`
    #[default]
    Text,
    /// One JSON object per line (JSON Lines).
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            other => Err(format!("unknown log format {other:?} (expected text or json)")),
        }
    }
}

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LogFormat::Text => "text",
            LogFormat::Json => "json",
        })
    }
}

/// How lines are written: the format, and colours (text at a terminal only).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub(crate) format: LogFormat,
    pub(crate) ansi: bool,
}

/// `fmt::Write` into a byte buffer.
pub(crate) struct Bytes<'a>(pub(crate) &'a mut Vec<u8>);

impl fmt::Write for Bytes<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// `fmt::Write` into a JSON string's inside (escaping as it goes).
struct JsonText<'a>(&'a mut Vec<u8>);

impl fmt::Write for JsonText<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        json_escape(self.0, s);
        Ok(())
    }
}

/// `fmt::Write` into a text value, escaping what would break the line.
struct TextValue<'a>(&'a mut Vec<u8>);

impl fmt::Write for TextValue<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if !s.bytes().any(|b| b < b' ' || b == 0x7f) {
            // The common case: nothing to escape.
            self.0.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        for c in s.chars() {
            if c.is_control() {
                let _ = write!(Bytes(self.0), "{}", c.escape_default());
            } else {
                let mut utf8 = [0; 4];
                self.0.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
        Ok(())
    }
}

/// Byte classes: 1 = written as it is everywhere; 2 = also in a JSON string, but quoted in a text
/// value (space, `=`); 0 = escaped in both (controls, `"`, `\\`).
static CLASS: [u8; 256] = {
    let mut class = [1u8; 256];
    let mut b = 0;
    while b < 0x20 {
        class[b] = 0;
        b += 1;
    }
    class[0x7f] = 0;
    class[b'"' as usize] = 0;
    class[b'\\' as usize] = 0;
    class[b' ' as usize] = 2;
    class[b'=' as usize] = 2;
    class
};

/// Append `s` to a JSON string's inside.
pub(crate) fn json_escape(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if bytes.iter().all(|&b| CLASS[b as usize] != 0) {
        out.extend_from_slice(bytes);
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let escaped: &[u8] = match b {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if escaped.is_empty() {
            let _ = write!(Bytes(out), "\\u{b:04x}");
        } else {
            out.extend_from_slice(escaped);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// Append `s` as a quoted JSON string.
pub(crate) fn json_string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    json_escape(out, s);
    out.push(b'"');
}

/// Append a text value: as it is, or quoted when it holds a space, `=`, `"` or a control.
fn text_value(out: &mut Vec<u8>, s: &str) {
    if !s.is_empty() && s.bytes().all(|b| CLASS[b as usize] == 1) {
        out.extend_from_slice(s.as_bytes());
    } else {
        let _ = write!(Bytes(out), "{s:?}");
    }
}

/// Append an unsigned integer in decimal.
pub(crate) fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

fn push_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    push_u64(out, n.unsigned_abs());
}

/// Append `micros` microseconds as milliseconds with three decimals (`0.123`).
pub(crate) fn push_millis(out: &mut Vec<u8>, micros: u64) {
    let whole = micros / 1000;
    if whole < 10 {
        out.push(b'0' + whole as u8);
    } else {
        push_u64(out, whole);
    }
    let frac = (micros % 1000) as u16;
    out.extend_from_slice(&[
        b'.',
        b'0' + (frac / 100) as u8,
        b'0' + (frac / 10 % 10) as u8,
        b'0' + (frac % 10) as u8,
    ]);
}

/// Append an HTTP status (three digits).
fn push_status(out: &mut Vec<u8>, status: u16) {
    if (100..1000).contains(&status) {
        out.extend_from_slice(&[
            b'0' + (status / 100) as u8,
            b'0' + (status / 10 % 10) as u8,
            b'0' + (status % 10) as u8,
        ]);
    } else {
        push_u64(out, u64::from(status));
    }
}

fn push_f64(out: &mut Vec<u8>, json: bool, value: f64) {
    if value.is_finite() {
        let _ = write!(Bytes(out), "{value}");
    } else if json {
        // JSON has no NaN or infinity.
        json_string(out, &value.to_string());
    } else {
        let _ = write!(Bytes(out), "{value}");
    }
}

thread_local! {
    /// The second last formatted on this thread, and its `YYYY-MM-DDTHH:MM:SS`.
    static SECOND: Cell<u64> = const { Cell::new(u64::MAX) };
    static SECOND_TEXT: Cell<[u8; 19]> = const { Cell::new([0; 19]) };
}

/// Append the current UTC time, `2026-11-26T08:01:22.123456Z`.
pub(crate) fn timestamp(out: &mut Vec<u8>) {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    let text = if SECOND.get() == secs {
        SECOND_TEXT.get()
    } else {
        let text = civil(secs);
        SECOND.set(secs);
        SECOND_TEXT.set(text);
        text
    };
    let micros = now.subsec_micros();
    let mut stamp = [0u8; 27];
    stamp[..19].copy_from_slice(&text);
    stamp[19] = b'.';
    let mut n = micros;
    for slot in stamp[20..26].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    stamp[26] = b'Z';
    out.extend_from_slice(&stamp);
}

/// `YYYY-MM-DDTHH:MM:SS` of a Unix time (proleptic Gregorian, UTC; Howard Hinnant's
/// `civil_from_days`).
fn civil(secs: u64) -> [u8; 19] {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (hour, minute, second) = (rem / 3600, rem / 60 % 60, rem % 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let mut out = [0u8; 19];
    let mut put = |at: usize, value: i64, width: usize| {
        let mut v = value.unsigned_abs();
        for i in (0..width).rev() {
            out[at + i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, year, 4);
    put(5, month, 2);
    put(8, day, 2);
    put(11, hour as i64, 2);
    put(14, minute as i64, 2);
    put(17, second as i64, 2);
    out[4] = b'-';
    out[7] = b'-';
    out[10] = b'T';
    out[13] = b':';
    out[16] = b':';
    out
}

/// The start of a line: the timestamp and the level (JSON: and the target).
pub(crate) fn line_start(out: &mut Vec<u8>, style: Style, level: &Level, target: &str) {
    match style.format {
        LogFormat::Text => {
            timestamp(out);
            let (name, colour): (&[u8], &[u8]) = match *level {
                Level::ERROR => (b" ERROR ", b"\x1b[31m"),
                Level::WARN => (b"  WARN ", b"\x1b[33m"),
                Level::INFO => (b"  INFO ", b"\x1b[32m"),
                Level::DEBUG => (b" DEBUG ", b"\x1b[34m"),
                _ => (b" TRACE ", b"\x1b[35m"),
            };
            if style.ansi {
                out.extend_from_slice(colour);
                out.extend_from_slice(name);
                out.extend_from_slice(b"\x1b[0m");
            } else {
                out.extend_from_slice(name);
            }
        }
        LogFormat::Json => {
            out.extend_from_slice(b"{\"timestamp\":\"");
            timestamp(out);
            out.extend_from_slice(b"\",\"level\":\"");
            out.extend_from_slice(level.as_str().as_bytes());
            out.extend_from_slice(b"\",\"target\":");
            json_string(out, target);
        }
    }
}

/// Writes an event's or a span's fields: the message into `message`, the rest into `fields`, in
/// the line's format (` key=value` or `,"key":value`).
pub(crate) struct Fields<'a> {
    pub(crate) json: bool,
    pub(crate) message: &'a mut Vec<u8>,
    pub(crate) fields: &'a mut Vec<u8>,
}

impl Fields<'_> {
    /// Where `field` goes, with its key written; `None` when it is left out.
    fn slot(&mut self, field: &Field) -> Option<&mut Vec<u8>> {
        let name = field.name();
        if name == "message" {
            return Some(&mut *self.message);
        }
        let out = &mut *self.fields;
        if self.json {
            out.extend_from_slice(b",\"");
            json_escape(out, name);
            out.extend_from_slice(b"\":");
        } else {
            out.push(b' ');
            out.extend_from_slice(name.as_bytes());
            out.push(b'=');
        }
        Some(out)
    }

    fn is_message(field: &Field) -> bool {
        field.name() == "message"
    }
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        let (json, message) = (self.json, Self::is_message(field));
        if let Some(out) = self.slot(field) {
            match (json, message) {
                (true, true) => json_escape(out, value),
                (true, false) => json_string(out, value),
                (false, true) => {
                    let _ = TextValue(out).write_str(value);
                }
                (false, false) => text_value(out, value),
            }
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        if let Some(out) = self.slot(field) {
            push_u64(out, value);
        }
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        if let Some(out) = self.slot(field) {
            push_i64(out, value);
        }
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        let json = self.json && !Self::is_message(field);
        if let Some(out) = self.slot(field) {
            push_f64(out, json, value);
        }
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        if let Some(out) = self.slot(field) {
            out.extend_from_slice(if value { b"true" } else { b"false" });
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        let (json, message) = (self.json, Self::is_message(field));
        if let Some(out) = self.slot(field) {
            match (json, message) {
                (true, true) => {
                    let _ = write!(JsonText(out), "{value:?}");
                }
                (true, false) => {
                    out.push(b'"');
                    let _ = write!(JsonText(out), "{value:?}");
                    out.push(b'"');
                }
                (false, true) => {
                    let _ = write!(TextValue(out), "{value:?}");
                }
                (false, false) => text_value(out, &format!("{value:?}")),
            }
        }
    }
}

/// Append the `request_id` of the request a line was logged in (` request_id=…` or
/// `,"request_id":"…"`): written as it is, since only ids that need no escaping are accepted or
/// made (see `dispatch/observe.rs`).
pub(crate) fn request_id(out: &mut Vec<u8>, json: bool, id: &[u8]) {
    if json {
        out.extend_from_slice(b",\"request_id\":\"");
        out.extend_from_slice(id);
        out.push(b'"');
    } else {
        out.extend_from_slice(b" request_id=");
        out.extend_from_slice(id);
    }
}

/// The access line of one request: what [`access`] writes.
pub(crate) struct AccessLine<'a> {
    pub(crate) method: &'a str,
    /// The path and query, as requested.
    pub(crate) path: &'a str,
    /// The route template, when a route matched.
    pub(crate) route: Option<&'a str>,
    pub(crate) status: u16,
    pub(crate) micros: u64,
    /// Written as it is: only ids that need no escaping are accepted or made (see
    /// `dispatch/observe.rs`).
    pub(crate) request_id: Option<&'a str>,
}

/// Write the access line, newline included: `GET /item/42 200 0.123ms request_id=…` in text; in
/// JSON that text as the message and each part as a key (`latency_ms` a number).
pub(crate) fn access(out: &mut Vec<u8>, style: Style, line: &AccessLine<'_>) {
    line_start(out, style, &Level::INFO, ACCESS_TARGET);
    match style.format {
        LogFormat::Text => {
            // A method is a token and a parsed path holds no space or control character (hyper
            // refuses them), so both are written as they are.
            out.extend_from_slice(line.method.as_bytes());
            out.push(b' ');
            out.extend_from_slice(line.path.as_bytes());
            out.push(b' ');
            push_status(out, line.status);
            out.push(b' ');
            push_millis(out, line.micros);
            out.extend_from_slice(b"ms");
            if let Some(id) = line.request_id {
                request_id(out, false, id.as_bytes());
            }
        }
        LogFormat::Json => {
            out.extend_from_slice(b",\"message\":\"");
            json_escape(out, line.method);
            out.push(b' ');
            json_escape(out, line.path);
            out.push(b' ');
            push_status(out, line.status);
            out.push(b' ');
            push_millis(out, line.micros);
            out.extend_from_slice(b"ms\",\"method\":");
            json_string(out, line.method);
            out.extend_from_slice(b",\"path\":");
            json_string(out, line.path);
            if let Some(route) = line.route {
                out.extend_from_slice(b",\"route\":");
                json_string(out, route);
            }
            out.extend_from_slice(b",\"status\":");
            push_status(out, line.status);
            out.extend_from_slice(b",\"latency_ms\":");
            push_millis(out, line.micros);
            if let Some(id) = line.request_id {
                request_id(out, true, id.as_bytes());
            }
            out.push(b'}');
        }
    }
    out.push(b'\n');
}
