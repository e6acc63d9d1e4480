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
//!   a character that can break or reorder a line ([`forges`]) is written quoted and escaped, so
//!   one line stays one line and reads in its order;
//! - in a text access line, the path and query (the client's) are written with every character
//!   that could end the line, start another, or reorder what a reader sees escaped
//!   (`text_safe`): C0 controls (`\n`, `\r`, ESC…) and DEL as `\xNN`, C1 controls (NEL, CSI…),
//!   line and paragraph separators, bidirectional controls and every other invisible format
//!   character (Unicode's `Cf`) as `\u{…}`, bytes that are not UTF-8 as `\xNN`, and `\` as
//!   `\\`, so an escape cannot be forged either. A path of printable ASCII (nearly all) is checked and copied,
//!   nothing more; the method is a token and the request id a well-formed one (`dispatch/observe.rs`),
//!   so they need no escaping, and no other field of the client's is logged;
//! - the timestamp is UTC with microseconds (`2026-11-26T08:01:22.123456Z`), of a monotonic
//!   reading (`clock.rs`) turned into wall-clock time from a reading of both clocks the thread renews every second (so
//!   an access line's timestamp and latency share one clock read); the date part is computed once
//!   per second per thread;
//! - no allocation per line: an event's line is built in buffers reused by each thread, an access
//!   line straight into the sink's buffer.

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing::Level;

use super::clock::{self, NANOS_PER_SEC};

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
        if s.bytes().all(|b| (b' '..0x7f).contains(&b)) {
            // The common case: nothing to escape.
            self.0.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        for c in s.chars() {
            if forges(c) {
                let _ = write!(Bytes(self.0), "{}", c.escape_default());
            } else {
                let mut utf8 = [0; 4];
                self.0.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
        Ok(())
    }
}

/// True for a character that can end a line, start another, or change the order in which a
/// reader sees a line's text: the controls (C0, DEL, C1: `\n`, `\r`, NEL, ESC, CSI…), the line
/// and paragraph separators, and Unicode's format characters (`Cf`, Unicode 16): the
/// bidirectional marks, embeddings, overrides and isolates (U+200E, U+200F, U+061C, U+202A–U+202E,
/// U+2066–U+2069), zero-width and invisible characters, tag characters.
pub(crate) fn forges(c: char) -> bool {
    c.is_control()
        || matches!(
            u32::from(c),
            0x00AD
                | 0x0600..=0x0605
                | 0x061C
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
        )
}

/// True for a byte written as it is by `text_safe`: printable ASCII but `\\` (a parsed path
/// holds no space).
#[inline(always)]
fn plain(b: u8) -> bool {
    b > b' ' && b < 0x7f && b != b'\\'
}

/// The most bytes `text_safe` writes per byte of its input (`\xNN` for one byte).
const ESCAPED_PER_BYTE: usize = 4;

/// Eight bytes of 1, and their high bits.
const ONES: u64 = u64::from_ne_bytes([1; 8]);
const HIGH: u64 = ONES * 0x80;

/// The high bit of each byte of `w` that may not be [`plain`] (none: every byte is). Exact as to
/// whether there is one: a byte with its high bit set is flagged as it is; below it, a byte
/// under `!` borrows into its own high bit, and so does a byte equal to DEL or `\\` once xored
/// to 0 (the classic "has a byte less than n" test, exact for n ≤ 128).
#[inline(always)]
fn odd_bytes(w: u64) -> u64 {
    let below = w.wrapping_sub(ONES * 0x21) & !w;
    let del = w ^ (ONES * 0x7f);
    let backslash = w ^ (ONES * u64::from(b'\\'));
    (w | below | (del.wrapping_sub(ONES) & !del) | (backslash.wrapping_sub(ONES) & !backslash)) & HIGH
}

/// Whether every byte of `bytes` is [`plain`], eight at a time: the first and the last eight
/// (overlapping when shorter than 16), then the words between. Checking `/item/42` byte by byte
/// cost ~75 instructions a request, about half the rest of the line (callgrind); a loop over
/// `chunks_exact` ~40, most of it the vectorised loop's set-up, which a path never needs.
#[inline]
fn all_plain(bytes: &[u8]) -> bool {
    let len = bytes.len();
    if len < 8 {
        return bytes.iter().all(|&b| plain(b));
    }
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|eight| <[u8; 8]>::try_from(eight).ok())
            .map_or(ONES, u64::from_le_bytes)
    };
    let mut odd = odd_bytes(word(0)) | odd_bytes(word(len - 8));
    let mut at = 8;
    while at + 8 < len {
        odd |= odd_bytes(word(at));
        at += 8;
    }
    odd == 0
}

/// Append `bytes` (what a client sent) to a text line, escaped as the module rules say: a
/// printable ASCII text is copied as it is after one pass over it.
#[inline]
fn text_safe(out: &mut Vec<u8>, bytes: &[u8]) {
    if all_plain(bytes) {
        out.extend_from_slice(bytes);
    } else {
        text_escape(out, bytes);
    }
}

#[cold]
fn text_escape(out: &mut Vec<u8>, bytes: &[u8]) {
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.extend_from_slice(b"\\\\");
            } else if c.is_ascii_control() {
                let _ = write!(Bytes(out), "\\x{:02x}", u32::from(c));
            } else if forges(c) {
                let _ = write!(Bytes(out), "\\u{{{:x}}}", u32::from(c));
            } else {
                let mut utf8 = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
        for b in chunk.invalid() {
            let _ = write!(Bytes(out), "\\x{b:02x}");
        }
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
    json_escape_bytes(out, s.as_bytes());
}

/// Append UTF-8 `bytes` to a JSON string's inside (bytes from a `str`: they are escaped as its
/// characters would be, multi-byte characters as they are).
fn json_escape_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
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

/// Append a text value: as it is, or quoted (`Debug`, which escapes every character [`forges`]
/// names) when it holds a space, `=`, `"`, a control or a character that forges a line.
fn text_value(out: &mut Vec<u8>, s: &str) {
    if !s.is_empty() && s.bytes().all(|b| CLASS[b as usize] == 1) && (s.is_ascii() || !s.chars().any(forges))
    {
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

/// `n` below 1,000 as exactly three digits. (Arithmetic, not a table of digit pairs: the
/// table's cache lines cost more than the divisions, which compile to multiplications.)
fn three_digits(n: u32) -> [u8; 3] {
    [
        b'0' + (n / 100 % 10) as u8,
        b'0' + (n / 10 % 10) as u8,
        b'0' + (n % 10) as u8,
    ]
}

/// Append `micros` microseconds as milliseconds with three decimals (`0.123`).
pub(crate) fn push_millis(out: &mut Vec<u8>, micros: u64) {
    let whole = micros / 1000;
    if whole < 10 {
        out.push(b'0' + whole as u8);
    } else {
        push_u64(out, whole);
    }
    let [a, b, c] = three_digits((micros % 1000) as u32);
    out.extend_from_slice(&[b'.', a, b, c]);
}

/// Append an HTTP status (three digits).
fn push_status(out: &mut Vec<u8>, status: u16) {
    if (100..1000).contains(&status) {
        out.extend_from_slice(&three_digits(u32::from(status)));
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

/// How long a thread turns monotonic instants into wall-clock times from one reading of both
/// clocks before reading them again: a change of the system clock shows within this, and a
/// slewing clock drifts from it by at most 0.5 ms (NTP's 500 ppm).
const REANCHOR: Duration = Duration::from_secs(1);

/// A thread's timestamp state, in one cache line (a line logged per request should touch few).
#[repr(align(64))]
struct ThreadStamp(RefCell<Stamp>);

struct Stamp {
    /// A monotonic reading (`clock.rs`) and the wall-clock time read with it (nanoseconds since
    /// the epoch); `NO_ANCHOR` before the first.
    anchor: (u64, u64),
    /// The second last formatted, and its timestamp with the fraction still zero: a line copies
    /// it whole and writes its six digits (copying the date alone, then the rest, cost ≈ 40
    /// instructions more per line: LLVM moved the date byte by byte).
    second: u64,
    text: [u8; 27],
}

impl Stamp {
    /// Move on to second `secs`. Out of line: inlined, LLVM merged the new date with the kept
    /// one byte by byte, and every line paid for it.
    #[cold]
    #[inline(never)]
    fn renew(&mut self, secs: u64) {
        self.text[..19].copy_from_slice(&civil(secs));
        self.second = secs;
    }
}

/// An anchor no reading is at or after: the first timestamp reads both clocks.
const NO_ANCHOR: (u64, u64) = (u64::MAX, 0);

thread_local! {
    static STAMP: ThreadStamp = const {
        ThreadStamp(RefCell::new(Stamp { anchor: NO_ANCHOR, second: u64::MAX, text: *b"0000-00-00T00:00:00.000000Z" }))
    };
}

/// Append the UTC time of `at` (a reading of `clock.rs`), `2026-11-26T08:01:22.123456Z`. A
/// request's access line is stamped with the reading that also ends its latency: one clock read
/// serves both.
pub(crate) fn timestamp_at(out: &mut Vec<u8>, at: u64) {
    let mut text = [0u8; 27];
    timestamp(&mut text, at);
    out.extend_from_slice(&text);
}

/// Write the UTC time of `at` into `text`, `2026-11-26T08:01:22.123456Z` (see [`timestamp_at`]).
/// Written in place, the rare paths out of line: returned by value, or merged with a date
/// computed inline, the text was moved byte by byte (≈ 40 instructions per line, callgrind).
fn timestamp(text: &mut [u8; 27], at: u64) {
    STAMP.with(|stamp| match stamp.0.try_borrow_mut() {
        Ok(mut stamp) => {
            let stamp = &mut *stamp;
            let (mono, real) = stamp.anchor;
            let nanos = if at >= mono && at - mono < REANCHOR_NANOS {
                real + (at - mono)
            } else {
                reanchor(&mut stamp.anchor, at)
            };
            let secs = nanos / NANOS_PER_SEC;
            if stamp.second != secs {
                stamp.renew(secs);
            }
            *text = stamp.text;
            put_micros(text, (nanos % NANOS_PER_SEC / 1000) as u32);
        }
        // Only if formatting a timestamp could log, which it does not.
        Err(_) => unanchored(text, at),
    });
}

/// [`timestamp`] without the thread's state: both clocks read again.
#[cold]
#[inline(never)]
fn unanchored(text: &mut [u8; 27], at: u64) {
    let nanos = wall_clock(at, clock::now(), real_now());
    *text = *b"0000-00-00T00:00:00.000000Z";
    text[..19].copy_from_slice(&civil(nanos / NANOS_PER_SEC));
    put_micros(text, (nanos % NANOS_PER_SEC / 1000) as u32);
}

/// [`REANCHOR`] in nanoseconds.
const REANCHOR_NANOS: u64 = REANCHOR.as_nanos() as u64;

/// Read both clocks again into `anchor`, and return the wall-clock time of `at` (nanoseconds
/// since the epoch).
#[cold]
fn reanchor(anchor: &mut (u64, u64), at: u64) -> u64 {
    let mono = clock::now();
    let real = real_now();
    *anchor = (mono, real);
    wall_clock(at, mono, real)
}

/// The system clock, in nanoseconds since the epoch.
fn real_now() -> u64 {
    nanos_since_epoch(SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default())
}

/// The wall-clock time of `at` (nanoseconds since the epoch), given that the monotonic reading
/// `mono` was taken with the wall-clock time `real`.
fn wall_clock(at: u64, mono: u64, real: u64) -> u64 {
    if at >= mono {
        real.saturating_add(at - mono)
    } else {
        real.saturating_sub(mono - at)
    }
}

/// A duration in nanoseconds (u64 holds them until the year 2554).
fn nanos_since_epoch(since: Duration) -> u64 {
    since
        .as_secs()
        .saturating_mul(1_000_000_000)
        .saturating_add(u64::from(since.subsec_nanos()))
}

/// Write `micros` (below a million) as the six digits of a timestamp's fraction.
fn put_micros(text: &mut [u8; 27], micros: u32) {
    let [a, b, c] = three_digits(micros / 1000);
    let [d, e, f] = three_digits(micros % 1000);
    text[20..26].copy_from_slice(&[a, b, c, d, e, f]);
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

/// The start of a line logged now: the timestamp and the level (JSON: and the target).
pub(crate) fn line_start(out: &mut Vec<u8>, style: Style, level: &Level, target: &str) {
    line_start_at(out, style, level, target, clock::now());
}

/// The start of a line stamped `at`: the timestamp and the level (JSON: and the target).
fn line_start_at(out: &mut Vec<u8>, style: Style, level: &Level, target: &str, at: u64) {
    match style.format {
        LogFormat::Text => {
            timestamp_at(out, at);
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
            timestamp_at(out, at);
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
    /// The path and query, as requested (UTF-8: a copy of a parsed `Uri`'s).
    pub(crate) path: &'a [u8],
    /// The route template, when a route matched.
    pub(crate) route: Option<&'a str>,
    pub(crate) status: u16,
    pub(crate) micros: u64,
    /// Written as it is: only ids that need no escaping are accepted or made (see
    /// `dispatch/observe.rs`).
    pub(crate) request_id: Option<&'a [u8]>,
    /// When it was answered (the line's timestamp): a reading of `clock.rs`.
    pub(crate) at: u64,
}

/// Write the access line, newline included: `GET /item/42 200 0.123ms request_id=…` in text; in
/// JSON that text as the message and each part as a key (`latency_ms` a number).
pub(crate) fn access(out: &mut Vec<u8>, style: Style, line: &AccessLine<'_>) {
    match style.format {
        LogFormat::Text if !style.ansi => {
            // The line's start in one piece: each append is a call and a capacity check.
            let mut start = *b"0000-00-00T00:00:00.000000Z  INFO ";
            if let Some((stamp, _)) = start.split_first_chunk_mut::<27>() {
                timestamp(stamp, line.at);
            }
            out.extend_from_slice(&start);
            access_text(out, line);
        }
        LogFormat::Text => {
            line_start_at(out, style, &Level::INFO, ACCESS_TARGET, line.at);
            access_text(out, line);
        }
        LogFormat::Json => {
            line_start_at(out, style, &Level::INFO, ACCESS_TARGET, line.at);
            access_json(out, line);
        }
    }
    out.push(b'\n');
}

/// The most bytes [`access`] writes for `line`: what the sink checks for room before the line is
/// written into it. Fixed parts are over-counted; an escaped JSON byte takes at most 6 (`\u001f`).
pub(crate) fn access_bound(style: Style, line: &AccessLine<'_>) -> usize {
    let id = line.request_id.map_or(0, <[u8]>::len);
    match style.format {
        LogFormat::Text => 128 + line.method.len() + ESCAPED_PER_BYTE * line.path.len() + id,
        LogFormat::Json => {
            300 + 12 * (line.method.len() + line.path.len()) + 6 * line.route.map_or(0, str::len) + id
        }
    }
}

/// The access line's text after the level.
fn access_text(out: &mut Vec<u8>, line: &AccessLine<'_>) {
    // A method is a token (hyper refuses anything else), written as it is; the path is the
    // client's and may hold any byte hyper lets through (UTF-8, say a U+2028 or U+202E).
    out.extend_from_slice(line.method.as_bytes());
    out.push(b' ');
    text_safe(out, line.path);
    push_outcome(out, line.status, line.micros, b"ms");
    match line.request_id {
        // A made id (32 bytes), with its key, in one append of known length: ≈ 12 instructions
        // fewer than two appends, the second of unknown length (callgrind `GET /item/42`).
        Some(id) if id.len() == MADE_ID_LEN => {
            let mut piece = [0u8; KEY.len() + MADE_ID_LEN];
            let (key, tail) = piece.split_at_mut(KEY.len());
            key.copy_from_slice(KEY);
            tail.copy_from_slice(id);
            out.extend_from_slice(&piece);
        }
        Some(id) => {
            out.extend_from_slice(KEY);
            out.extend_from_slice(id);
        }
        None => {}
    }
}

/// The key of a text line's request id.
const KEY: &[u8; 12] = b" request_id=";

/// The length of a request id the server made (`dispatch/observe.rs`).
const MADE_ID_LEN: usize = 32;

/// The access line's JSON keys after the target.
fn access_json(out: &mut Vec<u8>, line: &AccessLine<'_>) {
    out.extend_from_slice(b",\"message\":\"");
    json_escape(out, line.method);
    out.push(b' ');
    json_escape_bytes(out, line.path);
    push_outcome(out, line.status, line.micros, b"ms\",\"method\":");
    json_string(out, line.method);
    out.extend_from_slice(b",\"path\":\"");
    json_escape_bytes(out, line.path);
    out.push(b'"');
    if let Some(route) = line.route {
        out.extend_from_slice(b",\"route\":");
        json_string(out, route);
    }
    out.extend_from_slice(b",\"status\":");
    push_status(out, line.status);
    out.extend_from_slice(b",\"latency_ms\":");
    push_millis(out, line.micros);
    if let Some(id) = line.request_id {
        request_id(out, true, id);
    }
    out.push(b'}');
}

/// Append ` 200 0.123` (the status, and the latency in milliseconds), then `after`.
fn push_outcome<const N: usize>(out: &mut Vec<u8>, status: u16, micros: u64, after: &[u8; N]) {
    if (100..1000).contains(&status) && micros < 10_000 {
        // The common case, in one piece with `after`: a three-digit status, under 10 ms.
        let [s1, s2, s3] = three_digits(u32::from(status));
        let [m1, m2, m3] = three_digits((micros % 1000) as u32);
        let mut piece = [0u8; 32];
        piece[..10].copy_from_slice(&[
            b' ',
            s1,
            s2,
            s3,
            b' ',
            b'0' + (micros / 1000) as u8,
            b'.',
            m1,
            m2,
            m3,
        ]);
        if let Some(rest) = piece.get_mut(10..10 + N) {
            rest.copy_from_slice(after);
            out.extend_from_slice(&piece[..10 + N]);
            return;
        }
    }
    out.push(b' ');
    push_status(out, status);
    out.push(b' ');
    push_millis(out, micros);
    out.extend_from_slice(after);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(write: impl FnOnce(&mut Vec<u8>)) -> String {
        let mut out = Vec::new();
        write(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn civil_dates_match_the_calendar() {
        for (secs, expected) in [
            (0, "1970-01-01T00:00:00"),
            (951_782_400, "2000-02-29T00:00:00"),
            (1_795_680_082, "2026-11-26T08:01:22"),
            (4_102_444_799, "2099-12-31T23:59:59"),
            (253_402_300_799, "9999-12-31T23:59:59"),
        ] {
            assert_eq!(std::str::from_utf8(&civil(secs)).unwrap(), expected, "{secs}");
        }
    }

    #[test]
    fn microseconds_and_milliseconds_keep_their_zeros() {
        for (micros, expected) in [
            (0, "000000"),
            (5, "000005"),
            (120_034, "120034"),
            (999_999, "999999"),
        ] {
            let mut stamp = *b"0000-00-00T00:00:00.000000Z";
            put_micros(&mut stamp, micros);
            assert_eq!(&stamp[20..26], expected.as_bytes());
        }
        for (micros, expected) in [
            (0, "0.000"),
            (123, "0.123"),
            (9_999, "9.999"),
            (12_345_678, "12345.678"),
        ] {
            assert_eq!(text(|out| push_millis(out, micros)), expected);
        }
        // The one-piece common case and the general case agree.
        for (status, micros, expected) in [
            (200, 123, " 200 0.123"),
            (404, 9_999, " 404 9.999"),
            (503, 10_000, " 503 10.000"),
            (101, 45_000_001, " 101 45000.001"),
        ] {
            assert_eq!(text(|out| push_outcome(out, status, micros, b"")), expected);
            assert_eq!(
                text(|out| push_outcome(out, status, micros, b"ms\",\"method\":")),
                format!("{expected}ms\",\"method\":")
            );
        }
    }

    #[test]
    fn a_monotonic_reading_becomes_the_wall_clock_time_read_with_it() {
        let mono = 7_000_000_000;
        let real = 1_795_680_082_000_000_000;
        assert_eq!(
            wall_clock(mono + 1_500_000_000, mono, real),
            1_795_680_083_500_000_000
        );
        assert_eq!(wall_clock(mono - 250_000, mono, real), 1_795_680_081_999_750_000);
    }

    #[test]
    fn a_second_s_text_is_kept_and_renewed_when_the_second_changes() {
        // 2026-11-26T08:01:22.600000Z, read with the monotonic 5 s.
        let (mono, real) = (5 * NANOS_PER_SEC, 1_795_680_082_600_000_000);
        STAMP.with(|stamp| stamp.0.borrow_mut().anchor = (mono, real));
        let at = |nanos: u64| text(|out| timestamp_at(out, mono + nanos));
        assert_eq!(at(200_000_000), "2026-11-26T08:01:22.800000Z");
        assert_eq!(at(200_123_000), "2026-11-26T08:01:22.800123Z");
        assert_eq!(at(500_000_999), "2026-11-26T08:01:23.100000Z");
        assert_eq!(at(399_999_000), "2026-11-26T08:01:22.999999Z");
    }

    #[test]
    fn a_reading_before_the_anchor_or_long_after_it_reads_the_clocks_again() {
        // A reading of another thread taken before this thread's anchor, then one taken 2 s
        // after it: both within a millisecond of the system clock, not of the old anchor.
        let now = clock::now();
        let real = real_now();
        STAMP.with(|stamp| stamp.0.borrow_mut().anchor = (now + 10_000_000, 0));
        let stamp = text(|out| timestamp_at(out, now));
        assert_eq!(
            &stamp.as_bytes()[..4],
            &civil(real / NANOS_PER_SEC)[..4],
            "{stamp}"
        );
        STAMP.with(|stamp| stamp.0.borrow_mut().anchor = (now - 2 * NANOS_PER_SEC, 0));
        let stamp = text(|out| timestamp_at(out, now));
        assert_eq!(
            &stamp.as_bytes()[..4],
            &civil(real / NANOS_PER_SEC)[..4],
            "{stamp}"
        );
    }

    #[test]
    fn a_timestamp_is_the_system_clock_to_the_second() {
        // Within the same second on both sides (retried across a second's edge).
        for _ in 0..3 {
            let before = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
            let stamp = text(|out| timestamp_at(out, clock::now()));
            let after = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
            if before == after {
                assert_eq!(stamp.len(), 27);
                assert_eq!(&stamp.as_bytes()[..19], &civil(before));
                assert!(stamp.ends_with('Z'));
                return;
            }
        }
        panic!("the second changed three times in a row");
    }

    fn line(path: &'static str, id: Option<&'static str>) -> AccessLine<'static> {
        AccessLine {
            method: "GET",
            path: path.as_bytes(),
            route: Some("/items/{item_id}"),
            status: 200,
            micros: 1_234,
            request_id: id.map(str::as_bytes),
            at: clock::now(),
        }
    }

    #[test]
    fn the_text_access_line() {
        let style = Style {
            format: LogFormat::Text,
            ansi: false,
        };
        let written = text(|out| access(out, style, &line("/items/42?q=a", Some("abc-1"))));
        assert_eq!(
            &written[26..],
            "Z  INFO GET /items/42?q=a 200 1.234ms request_id=abc-1\n"
        );
        let written = text(|out| access(out, style, &line("/", None)));
        assert!(written.ends_with("Z  INFO GET / 200 1.234ms\n"), "{written}");
        // A made id's length (32) takes the one-piece path; one byte shorter or longer the other.
        for id in [
            "4bf92f3577b34da6a3ce929d0e0e4736",
            "4bf92f3577b34da6a3ce929d0e0e473",
            "4bf92f3577b34da6a3ce929d0e0e47361",
        ] {
            let written = text(|out| access(out, style, &line("/", Some(id))));
            assert!(
                written.ends_with(&format!("Z  INFO GET / 200 1.234ms request_id={id}\n")),
                "{written}"
            );
        }
        let coloured = Style { ansi: true, ..style };
        let written = text(|out| access(out, coloured, &line("/", None)));
        assert!(
            written.contains("\x1b[32m  INFO \x1b[0mGET / 200 1.234ms"),
            "{written:?}"
        );
    }

    #[test]
    fn the_json_access_line_parses_and_escapes() {
        let style = Style {
            format: LogFormat::Json,
            ansi: false,
        };
        let written = text(|out| access(out, style, &line("/items/\"quoted\"\\x/caf\u{e9}", Some("id-7"))));
        assert!(written.ends_with("}\n"));
        let value: serde_json::Value = serde_json::from_str(&written).unwrap();
        assert_eq!(value["level"], "INFO");
        assert_eq!(value["target"], ACCESS_TARGET);
        assert_eq!(value["message"], "GET /items/\"quoted\"\\x/caf\u{e9} 200 1.234ms");
        assert_eq!(value["method"], "GET");
        assert_eq!(value["path"], "/items/\"quoted\"\\x/caf\u{e9}");
        assert_eq!(value["route"], "/items/{item_id}");
        assert_eq!(value["status"], 200);
        assert_eq!(value["latency_ms"], 1.234);
        assert_eq!(value["request_id"], "id-7");
        assert_eq!(value["timestamp"].as_str().map(str::len), Some(27));
    }

    #[test]
    fn the_bound_holds_for_the_longest_lines() {
        let worst = "\u{1}".repeat(200);
        let id = "i".repeat(128);
        for format in [LogFormat::Text, LogFormat::Json] {
            for ansi in [false, true] {
                let style = Style { format, ansi };
                let line = AccessLine {
                    method: &worst,
                    path: worst.as_bytes(),
                    route: Some(&worst),
                    status: 65_535,
                    micros: u64::MAX,
                    request_id: Some(id.as_bytes()),
                    at: clock::now(),
                };
                let written = text(|out| access(out, style, &line)).len();
                assert!(
                    written <= access_bound(style, &line),
                    "{format} {ansi}: {written}"
                );
            }
        }
    }

    fn safe(path: &[u8]) -> String {
        let mut out = Vec::new();
        text_safe(&mut out, path);
        String::from_utf8(out).unwrap()
    }

    proptest::proptest! {
        #[test]
        fn eight_bytes_at_a_time_is_byte_by_byte(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            proptest::prop_assert_eq!(all_plain(&bytes), bytes.iter().all(|&b| plain(b)));
        }

        #[test]
        fn printable_paths_with_one_odd_byte(len in 0usize..40, at in 0usize..40, odd in proptest::sample::select(vec![0u8, b' ', b'\\', 0x7f, 0x80, 0xe2, 0x1f, 0x21, 0x7e])) {
            let mut bytes = vec![b'a'; len];
            if let Some(byte) = bytes.get_mut(at) {
                *byte = odd;
            }
            proptest::prop_assert_eq!(all_plain(&bytes), bytes.iter().all(|&b| plain(b)));
        }
    }

    #[test]
    fn a_printable_ascii_path_is_written_as_it_is() {
        assert_eq!(
            safe(b"/item/42?q=a%20b&x=%E2%80%A8"),
            "/item/42?q=a%20b&x=%E2%80%A8"
        );
    }

    #[test]
    fn controls_separators_and_bidi_marks_are_escaped_and_nothing_else() {
        let cases: [(&str, &str); 12] = [
            ("/a\nb\r\u{1b}[2K\u{7f}", "/a\\x0ab\\x0d\\x1b[2K\\x7f"),
            ("/a\u{85}b\u{9b}", "/a\\u{85}b\\u{9b}"),
            ("/a\u{2028}b\u{2029}", "/a\\u{2028}b\\u{2029}"),
            ("/\u{202e}txt.exe", "/\\u{202e}txt.exe"),
            (
                "/\u{2066}\u{2067}\u{2068}\u{2069}",
                "/\\u{2066}\\u{2067}\\u{2068}\\u{2069}",
            ),
            (
                "/\u{200e}\u{200f}\u{61c}\u{202a}",
                "/\\u{200e}\\u{200f}\\u{61c}\\u{202a}",
            ),
            (
                "/zero\u{200b}width\u{feff}\u{ad}",
                "/zero\\u{200b}width\\u{feff}\\u{ad}",
            ),
            ("/tag\u{e0041}", "/tag\\u{e0041}"),
            ("/caf\u{e9}/\u{4e2d}/\u{1f600}", "/caf\u{e9}/\u{4e2d}/\u{1f600}"),
            ("/back\\slash", "/back\\\\slash"),
            ("/forged\\u{2028}", "/forged\\\\u{2028}"),
            ("/ok", "/ok"),
        ];
        for (path, written) in cases {
            assert_eq!(safe(path.as_bytes()), written, "{path:?}");
        }
        assert_eq!(safe(b"/a\x85\xff"), "/a\\x85\\xff", "bytes that are not UTF-8");
    }

    #[test]
    fn an_escaped_path_keeps_its_line_whole_in_the_text_access_line() {
        let style = Style {
            format: LogFormat::Text,
            ansi: false,
        };
        let written = text(|out| access(out, style, &line("/x\u{2028}2026 ERROR forged\u{202e}", None)));
        assert_eq!(written.lines().count(), 1);
        assert!(
            written.contains("GET /x\\u{2028}2026 ERROR forged\\u{202e} 200"),
            "{written}"
        );
        assert!(!written.contains('\u{2028}') && !written.contains('\u{202e}'));
    }

    #[test]
    fn text_values_quote_what_forges_a_line() {
        let mut out = Vec::new();
        text_value(&mut out, "a\u{2028}b");
        text_value(&mut out, "caf\u{e9}");
        assert_eq!(String::from_utf8(out).unwrap(), "\"a\\u{2028}b\"caf\u{e9}");
        let mut out = Vec::new();
        let _ = TextValue(&mut out).write_str("m\u{202e}\u{85}");
        assert_eq!(String::from_utf8(out).unwrap(), "m\\u{202e}\\u{85}");
    }

    #[test]
    fn json_escaping_covers_controls() {
        let mut out = Vec::new();
        json_string(&mut out, "a\u{1}b\nc\t\"\\");
        assert_eq!(String::from_utf8(out).unwrap(), r#""a\u0001b\nc\t\"\\""#);
    }
}
