//! How a log line is written: text for people, JSON lines for log shippers.
//!
//! Rules enforced here:
//! - a text line is `TIMESTAMP LEVEL message key=value ...`, the fields of the event, then the
//!   fields of the spans it is in (outermost first); a JSON line is one object with
//!   `timestamp`, `level`, `target`, `message` (when there is one), then the same fields as keys;
//! - a line logged while a request is handled ends with its `request_id` ([`request_id`]);
//! - the access line (target [`ACCESS_TARGET`], written by [`access`] without going through a
//!   `tracing` event) reads `GET /item/42 200 0.123ms request_id=…` in text; in JSON `method`,
//!   `path`, `route`, `status`, `latency_ms` and `request_id` are keys and the `message` names the
//!   route's template instead of the path (`GET /item/{id} 200 0.123ms`; without a route
//!   `GET 404 0.123ms`), so the path is written once;
//! - a line of a traced request (the access line, an event in it) ends, after everything else,
//!   with ` trace_id=… span_id=… trace_flags=01` in text, the same keys in JSON ([`trace_ids`]);
//! - JSON strings are escaped as RFC 8259 requires (quote, backslash, control characters), so a
//!   value can never end the line or the object early; a text value holding a space, `=`, `"` or
//!   a character that can break or reorder a line ([`forges`]) is written quoted and escaped, so
//!   one line stays one line and reads in its order;
//! - in a text access line, the path and query (the client's) are written with every character
//!   that could end the line, start another, or reorder what a reader sees escaped
//!   (`text_safe`): C0 controls (`\n`, `\r`, ESC…) and DEL as `\xNN`, C1 controls (NEL, CSI…),
//!   line and paragraph separators, bidirectional controls and every other invisible format
//!   character (Unicode's `Cf`) as `\u{…}`, bytes that are not UTF-8 (and a space, which no
//!   parsed path holds) as `\xNN`, and `\` as `\\`, so an escape cannot be forged either. A path of printable ASCII (nearly all) is checked and copied,
//!   nothing more; the method is a token and the request id a well-formed one (`dispatch/observe.rs`),
//!   so they need no escaping, and no other field of the client's is logged;
//! - a line has a maximum size: every value a client can choose (the method, the path and query,
//!   and every field and message of an event, since the subscriber cannot tell whose a value is)
//!   takes at most [`MAX_VALUE_BYTES`] (2 KiB) once escaped. A longer one is cut after escaping,
//!   between whole characters and whole escapes (a cut never splits a UTF-8 sequence, nor leaves
//!   half of `\u{2028}` to read as something else), and the cut is noted with the bytes of the
//!   value, as received, left out: in text inside the value, `…[+58012B]` (no space, so a path
//!   stays one word; a client's own `…`, U+2026, is written `\u{2026}`, so the note cannot be
//!   forged); in JSON as a key of its own after the value, `"path_cut_bytes":58012`
//!   (`<key>_cut_bytes`; `message_cut_bytes` for the message), the string itself staying valid.
//!   The request id is at most 128 bytes (`dispatch/observe.rs`), the route template is the
//!   app's; so an access line is at most ~4.4 KiB in text and ~6.5 KiB in JSON whatever the
//!   request, and an event at most its callsite's fields (32 at most) of 2 KiB each. A value
//!   that fits costs one length comparison more than before;
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
use crate::trace::TraceIds;

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

/// The most bytes one value takes in a log line once escaped (2 KiB), before the note of a cut
/// (see the module rules). A line holds values a client chooses (the method, the path and query,
/// whatever a route logs of a request), and escaping multiplies them: a 58 KiB path of NEL
/// (U+0085, two bytes, written `\u{85}`) made a 176 KiB text access line, 60,000 backslashes a
/// 235 KiB JSON one, so a client wrote the log three to four times faster than it sent, filling
/// the disk and crowding other lines out of the log's buffer. 2 KiB keeps whole any path a route
/// of the service is called with, and keeps a request's lines under 8 KiB whatever it sends (an
/// access line is at most ~4.4 KiB in text, ~6.5 KiB in JSON, where the method is written twice).
pub const MAX_VALUE_BYTES: usize = 2048;

/// The character that starts the note of a cut in a text line (`…[+58012B]`); a client's own is
/// written escaped (`\u{2026}`), so no client can forge the note.
const CUT_MARK: char = '\u{2026}';

/// The most bytes a cut's note takes (`…[+18446744073709551615B]`).
const NOTE_MAX: usize = 27;

/// The most bytes the key of a cut's JSON note takes besides the field's name
/// (`,"":18446744073709551615` and `_cut_bytes`).
const JSON_NOTE_MAX: usize = 35;

/// Append the note of a cut of `dropped` bytes (none when 0): `…[+58012B]`, the bytes of the
/// value, as received, that the line leaves out.
fn cut_note(out: &mut Vec<u8>, dropped: usize) {
    if dropped > 0 {
        out.extend_from_slice("\u{2026}[+".as_bytes());
        push_u64(out, dropped as u64);
        out.extend_from_slice(b"B]");
    }
}

/// Append the JSON note of a cut of `dropped` bytes of field `key` (none when 0):
/// `,"path_cut_bytes":58012`, a key of its own so that a parser reads it and no client text can
/// forge it.
pub(crate) fn json_cut_note(out: &mut Vec<u8>, key: &str, dropped: usize) {
    if dropped > 0 {
        out.extend_from_slice(b",\"");
        json_escape(out, key);
        out.extend_from_slice(b"_cut_bytes\":");
        push_u64(out, dropped as u64);
    }
}

/// One character as a line writes it: itself, or its escape (at most `\u{10ffff}`, 10 bytes).
#[derive(Clone, Copy)]
struct Unit {
    bytes: [u8; 10],
    len: u8,
}

impl Unit {
    /// These bytes (at most 10).
    fn of(bytes: &[u8]) -> Unit {
        let mut unit = Unit {
            bytes: [0; 10],
            len: 0,
        };
        let len = bytes.len().min(10);
        unit.bytes[..len].copy_from_slice(&bytes[..len]);
        unit.len = len as u8;
        unit
    }

    /// `c` as it is.
    fn char(c: char) -> Unit {
        let mut unit = Unit {
            bytes: [0; 10],
            len: 0,
        };
        unit.len = c.encode_utf8(&mut unit.bytes).len() as u8;
        unit
    }

    /// `\u{…}`: `c` in lowercase hex.
    fn braced(c: char) -> Unit {
        let mut unit = Unit::of(b"\\u{");
        let code = u32::from(c);
        let digits = (32 - code.leading_zeros()).div_ceil(4).max(1);
        for i in (0..digits).rev() {
            unit.push(HEX[(code >> (4 * i) & 0xf) as usize]);
        }
        unit.push(b'}');
        unit
    }

    /// `\xNN`: a byte in lowercase hex.
    fn hex_byte(b: u8) -> Unit {
        Unit::of(&[b'\\', b'x', HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]])
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.bytes.get_mut(usize::from(self.len)) {
            *slot = b;
            self.len += 1;
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

/// Lowercase hex digits.
const HEX: &[u8; 16] = b"0123456789abcdef";

/// A character of a client's text in a text line (the access line's path and method; see the
/// module rules).
fn text_unit(c: char) -> Unit {
    match c {
        '\\' => Unit::of(b"\\\\"),
        // A space too, so that a value stays one word of the line whatever its source.
        c if c.is_ascii_control() || c == ' ' => Unit::hex_byte(c as u8),
        c if forges(c) || c == CUT_MARK => Unit::braced(c),
        c => Unit::char(c),
    }
}

/// A character of a text line's message: escaped (as `char::escape_default` writes it) only
/// when it can forge a line, or could be read as a cut's note.
fn message_unit(c: char) -> Unit {
    match c {
        '\t' => Unit::of(b"\\t"),
        '\r' => Unit::of(b"\\r"),
        '\n' => Unit::of(b"\\n"),
        c if forges(c) || c == CUT_MARK => Unit::braced(c),
        c => Unit::char(c),
    }
}

/// A character of a quoted text value: as `str`'s `Debug` writes it (a message's escapes, and
/// the quote, the backslash, NUL and what `Debug` finds unprintable), and the cut's mark escaped.
fn quoted_unit(c: char) -> Unit {
    match c {
        '"' => Unit::of(b"\\\""),
        '\\' => Unit::of(b"\\\\"),
        '\0' => Unit::of(b"\\0"),
        '\'' => Unit::char(c),
        c if !matches!(c, '\t' | '\r' | '\n') && c.escape_debug().len() > 1 => Unit::braced(c),
        c => message_unit(c),
    }
}

/// A character of a JSON string's inside (RFC 8259: quote, backslash and controls escaped).
fn json_unit(c: char) -> Unit {
    match c {
        '"' => Unit::of(b"\\\""),
        '\\' => Unit::of(b"\\\\"),
        '\n' => Unit::of(b"\\n"),
        '\r' => Unit::of(b"\\r"),
        '\t' => Unit::of(b"\\t"),
        c if u32::from(c) < 0x20 => {
            let b = c as u8;
            Unit::of(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ])
        }
        c => Unit::char(c),
    }
}

/// A byte that is not UTF-8, in a JSON string: U+FFFD (a JSON text is UTF-8).
fn json_invalid(_: u8) -> Unit {
    Unit::of(b"\\ufffd")
}

/// Append `bytes` escaped character by character (`unit`; `invalid` for a byte that is not
/// UTF-8), stopping before the escaped text passes `cap` bytes: only whole characters and whole
/// escapes are written, so a cut never splits a UTF-8 sequence, nor leaves half an escape that
/// could read as another character. Returns the bytes of `bytes` left out.
fn escape_capped(
    out: &mut Vec<u8>,
    bytes: &[u8],
    cap: usize,
    unit: fn(char) -> Unit,
    invalid: fn(u8) -> Unit,
) -> usize {
    let mut room = cap;
    let mut done = 0;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let unit = unit(c);
            let Some(left) = room.checked_sub(usize::from(unit.len)) else {
                return bytes.len() - done;
            };
            room = left;
            out.extend_from_slice(unit.as_bytes());
            done += c.len_utf8();
        }
        for &b in chunk.invalid() {
            let unit = invalid(b);
            let Some(left) = room.checked_sub(usize::from(unit.len)) else {
                return bytes.len() - done;
            };
            room = left;
            out.extend_from_slice(unit.as_bytes());
            done += 1;
        }
    }
    0
}

/// The first [`MAX_VALUE_BYTES`] bytes of a value's text (whole characters), and the length of
/// the whole: what a line can show of a value formatted with `Debug` or `Display`, collected
/// without keeping the rest (every character's escape is at least as long as the character, so
/// no more of the text can fit).
pub(super) struct Prefix<'a> {
    text: &'a mut String,
    /// The bytes of the whole text so far.
    total: usize,
}

impl<'a> Prefix<'a> {
    /// An empty prefix collected into `text` (cleared first).
    pub(super) fn new(text: &'a mut String) -> Self {
        text.clear();
        Prefix { text, total: 0 }
    }

    /// The bytes of the text left out of `text`.
    fn cut(&self) -> usize {
        self.total - self.text.len()
    }
}

impl fmt::Write for Prefix<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Once a piece was cut, nothing after it is kept (a later, shorter piece would fit the
        // room left, and the kept text would no longer be the text's start).
        let whole = self.cut() == 0;
        self.total += s.len();
        let room = MAX_VALUE_BYTES.saturating_sub(self.text.len());
        if whole && s.len() <= room {
            self.text.push_str(s);
        } else if whole {
            self.text.push_str(prefix_of(s, room));
        }
        Ok(())
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends between two characters: how a
/// value too long for a line is cut (the log's values, a route span's attributes, the request
/// head's method and path the access line keeps).
#[inline]
pub(crate) fn prefix_of(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

thread_local! {
    /// The text of a value being formatted (see [`Prefix`]), kept for the thread's next one.
    static SCRATCH: RefCell<String> = const { RefCell::new(String::new()) };
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

/// Append `bytes` (what a client sent; `cut` more bytes of it were not kept) to a text line,
/// escaped and capped as the module rules say: a printable ASCII text of at most
/// [`MAX_VALUE_BYTES`] is copied as it is after one pass over it (the cap costs a comparison).
#[inline]
fn text_safe(out: &mut Vec<u8>, bytes: &[u8], cut: usize) {
    if cut == 0 && bytes.len() <= MAX_VALUE_BYTES && all_plain(bytes) {
        out.extend_from_slice(bytes);
    } else {
        text_escape(out, bytes, cut);
    }
}

/// [`text_safe`] for a text to escape or to cut.
#[cold]
fn text_escape(out: &mut Vec<u8>, bytes: &[u8], cut: usize) {
    let dropped = escape_capped(out, bytes, MAX_VALUE_BYTES, text_unit, Unit::hex_byte);
    cut_note(out, dropped + cut);
}

/// Append a token (the method) to a text line: as it is (a token needs no escaping), or cut to
/// [`MAX_VALUE_BYTES`] with its note.
#[inline]
fn text_token(out: &mut Vec<u8>, token: &str) {
    if token.len() <= MAX_VALUE_BYTES {
        out.extend_from_slice(token.as_bytes());
    } else {
        text_escape(out, token.as_bytes(), 0);
    }
}

/// Append a text line's message: as it is when it is printable ASCII, else with what forges a
/// line escaped ([`message_unit`]); cut to [`MAX_VALUE_BYTES`], `cut` bytes already left out.
fn text_message(out: &mut Vec<u8>, s: &str, cut: usize) {
    if cut == 0 && s.len() <= MAX_VALUE_BYTES && s.bytes().all(|b| (b' '..0x7f).contains(&b)) {
        // The common case: nothing to escape.
        out.extend_from_slice(s.as_bytes());
        return;
    }
    let dropped = escape_capped(out, s.as_bytes(), MAX_VALUE_BYTES, message_unit, Unit::hex_byte);
    cut_note(out, dropped + cut);
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

/// The most bytes [`json_escape_bytes`] writes per byte of its input (`\u001f`).
const JSON_PER_BYTE: usize = 6;

/// Append UTF-8 `bytes` (`cut` more bytes of the value were not kept) to a JSON string's inside,
/// capped to [`MAX_VALUE_BYTES`]; returns the bytes of the value left out, for the caller's note
/// ([`json_cut_note`]).
#[inline]
fn json_capped(out: &mut Vec<u8>, bytes: &[u8], cut: usize) -> usize {
    if cut == 0 && bytes.len() <= MAX_VALUE_BYTES / JSON_PER_BYTE {
        json_escape_bytes(out, bytes);
        0
    } else {
        json_cut(out, bytes, cut)
    }
}

/// [`json_capped`] for a value that may need cutting.
#[cold]
fn json_cut(out: &mut Vec<u8>, bytes: &[u8], cut: usize) -> usize {
    if cut == 0 && bytes.len() <= MAX_VALUE_BYTES && bytes.iter().all(|&b| CLASS[b as usize] != 0) {
        out.extend_from_slice(bytes);
        return 0;
    }
    escape_capped(out, bytes, MAX_VALUE_BYTES, json_unit, json_invalid) + cut
}

/// Append a text value (`cut` more bytes of it were not kept): as it is, or quoted and escaped
/// as `str`'s `Debug` writes it ([`quoted_unit`]: every character [`forges`] names, and the cut's
/// mark) when it holds a space, `=`, `"`, a control or a character that forges a line; cut to
/// [`MAX_VALUE_BYTES`], the note inside the quotes.
fn text_value(out: &mut Vec<u8>, s: &str, cut: usize) {
    let bare = !s.is_empty()
        && s.bytes().all(|b| CLASS[b as usize] == 1)
        && (s.is_ascii() || !s.chars().any(|c| forges(c) || c == CUT_MARK));
    if bare && cut == 0 && s.len() <= MAX_VALUE_BYTES {
        out.extend_from_slice(s.as_bytes());
    } else if bare {
        // Printable characters only: cut, unquoted (the note holds no space either).
        let dropped = escape_capped(out, s.as_bytes(), MAX_VALUE_BYTES, Unit::char, Unit::hex_byte);
        cut_note(out, dropped + cut);
    } else {
        out.push(b'"');
        let dropped = escape_capped(out, s.as_bytes(), MAX_VALUE_BYTES, quoted_unit, Unit::hex_byte);
        cut_note(out, dropped + cut);
        out.push(b'"');
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
    /// Bytes of the message left out by its cap (JSON: the caller notes them after the message
    /// as `message_cut_bytes`; text: the message ends with its note).
    pub(crate) message_cut: usize,
}

impl<'a> Fields<'a> {
    /// A visitor writing the message into `message` and the other fields into `fields`.
    pub(crate) fn new(json: bool, message: &'a mut Vec<u8>, fields: &'a mut Vec<u8>) -> Self {
        Fields {
            json,
            message,
            fields,
            message_cut: 0,
        }
    }

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

    /// Write a text value of `field`, of which `cut` more bytes were not kept: escaped and capped
    /// (see the module rules).
    fn record_text(&mut self, field: &Field, value: &str, cut: usize) {
        let (json, message) = (self.json, Self::is_message(field));
        let Some(out) = self.slot(field) else {
            return;
        };
        match (json, message) {
            (true, true) => {
                let dropped = json_capped(out, value.as_bytes(), cut);
                self.message_cut += dropped;
            }
            (true, false) => {
                out.push(b'"');
                let dropped = json_capped(out, value.as_bytes(), cut);
                out.push(b'"');
                json_cut_note(out, field.name(), dropped);
            }
            (false, true) => text_message(out, value, cut),
            (false, false) => text_value(out, value, cut),
        }
    }
}

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.record_text(field, value, 0);
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

    /// The value's text is formatted into a buffer of the thread's, of which only what the line
    /// can show is kept ([`Prefix`]); then written as a text value.
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        SCRATCH.with(|scratch| {
            let mut kept = scratch.try_borrow_mut();
            // Only if formatting the value logs (a span opened in a `Debug` impl): a buffer of
            // its own.
            let mut fresh = String::new();
            let text = match kept.as_deref_mut() {
                Ok(text) => text,
                Err(_) => &mut fresh,
            };
            let mut prefix = Prefix::new(text);
            let _ = write!(prefix, "{value:?}");
            let cut = prefix.cut();
            self.record_text(field, prefix.text, cut);
        });
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

/// Append the trace context of the request a line was logged in, as OpenTelemetry's "Trace
/// Context in non-OTLP Log Formats" names its fields: ` trace_id=… span_id=… trace_flags=01`, or
/// `,"trace_id":"…","span_id":"…","trace_flags":"01"`. Lowercase hex, never escaped; the text
/// form in one append of known length (82 bytes).
pub(crate) fn trace_ids(out: &mut Vec<u8>, json: bool, trace: &TraceIds) {
    if json {
        trace_ids_json(out, trace);
    } else {
        trace_ids_text(out, trace);
    }
}

/// The text form of [`trace_ids`]: the piece's fixed bytes appended at once, then the digits
/// written in place (inlined into the access line: out of line, with its digits made in arrays
/// and copied, it cost ≈ 167 instructions, callgrind `GET /item/42`).
#[inline]
fn trace_ids_text(out: &mut Vec<u8>, trace: &TraceIds) {
    const PIECE: &[u8; TRACE_IDS_TEXT] =
        b" trace_id=00000000000000000000000000000000 span_id=0000000000000000 trace_flags=00";
    let at = out.len();
    out.extend_from_slice(PIECE);
    if let Some(piece) = out.get_mut(at..at + TRACE_IDS_TEXT) {
        let (head, rest) = piece.split_at_mut(42);
        let (span, flags) = rest.split_at_mut(25);
        crate::trace::write_ids(&mut head[10..], trace.trace_id, &mut span[9..], trace.span_id);
        flags[13] = HEX[usize::from(trace.flags >> 4)];
        flags[14] = HEX[usize::from(trace.flags & 0xf)];
    }
}

/// The text form's length.
const TRACE_IDS_TEXT: usize = 82;

/// The JSON form of [`trace_ids`].
fn trace_ids_json(out: &mut Vec<u8>, trace: &TraceIds) {
    let flags = [
        HEX[usize::from(trace.flags >> 4)],
        HEX[usize::from(trace.flags & 0xf)],
    ];
    out.extend_from_slice(b",\"trace_id\":\"");
    out.extend_from_slice(&trace.trace_id.to_hex());
    out.extend_from_slice(b"\",\"span_id\":\"");
    out.extend_from_slice(&trace.span_id.to_hex());
    out.extend_from_slice(b"\",\"trace_flags\":\"");
    out.extend_from_slice(&flags);
    out.push(b'"');
}

/// The most bytes [`trace_ids`] writes.
const TRACE_IDS_MAX: usize = 96;

/// The access line of one request: what [`access`] writes.
pub(crate) struct AccessLine<'a> {
    pub(crate) method: &'a str,
    /// The path and query, as requested (UTF-8: a copy of a parsed `Uri`'s), or the first
    /// [`MAX_VALUE_BYTES`] of them: no more of it can be written (see [`Prefix`]).
    pub(crate) path: &'a [u8],
    /// The bytes of the path and query that `path` does not hold (written as the cut's note).
    pub(crate) path_cut: usize,
    /// The route template, when a route matched.
    pub(crate) route: Option<&'a str>,
    pub(crate) status: u16,
    pub(crate) micros: u64,
    /// Written as it is: only ids that need no escaping are accepted or made (see
    /// `dispatch/observe.rs`).
    pub(crate) request_id: Option<&'a [u8]>,
    /// The request's trace context, when the app traces: written after everything else.
    pub(crate) trace: Option<&'a TraceIds>,
    /// When it was answered (the line's timestamp): a reading of `clock.rs`.
    pub(crate) at: u64,
    /// In an app with API versions, the version served and where it came from (`header`,
    /// `path`, `default`): written last, only when present, so an app without versions writes
    /// the line it wrote before.
    pub(crate) version: Option<(&'a str, &'a str)>,
}

/// Write the access line, newline included: `GET /item/42 200 0.123ms request_id=…` in text; in
/// JSON the parts as keys (`latency_ms` a number). Inlined into the sink's append, as it was
/// before the caps made the line's code larger: out of line, the call cost the text line about
/// 20 instructions (one callgrind run each of `GET /item/42`: 12,271 → 12,248).
#[inline]
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
/// written into it. Fixed parts are over-counted; an escaped text byte takes at most 4 (`\xNN`),
/// an escaped JSON byte 6 (`\u001f`); a client's value at most [`MAX_VALUE_BYTES`] and its note.
pub(crate) fn access_bound(style: Style, line: &AccessLine<'_>) -> usize {
    let id = line.request_id.map_or(0, <[u8]>::len)
        + line.trace.map_or(0, |_| TRACE_IDS_MAX)
        + line.version.map_or(0, |_| VERSION_MAX);
    let value = |len: usize, per_byte: usize| len.saturating_mul(per_byte).min(MAX_VALUE_BYTES) + NOTE_MAX;
    match style.format {
        LogFormat::Text => {
            128 + value(line.method.len(), ESCAPED_PER_BYTE) + value(line.path.len(), ESCAPED_PER_BYTE) + id
        }
        LogFormat::Json => {
            300 + 2 * (value(line.method.len(), JSON_PER_BYTE) + JSON_NOTE_MAX)
                + value(line.path.len(), JSON_PER_BYTE)
                + JSON_NOTE_MAX
                + 12 * line.route.map_or(0, str::len)
                + id
        }
    }
}

/// The access line's text after the level.
fn access_text(out: &mut Vec<u8>, line: &AccessLine<'_>) {
    // A method is a token (hyper refuses anything else), written as it is; the path is the
    // client's and may hold any byte hyper lets through (UTF-8, say a U+2028 or U+202E). Both
    // are capped: a length comparison each when they fit.
    text_token(out, line.method);
    out.push(b' ');
    text_safe(out, line.path, line.path_cut);
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
    if let Some(trace) = line.trace {
        trace_ids_text(out, trace);
    }
    if let Some(version) = line.version {
        version_text(out, version);
    }
}

/// The access line's version part in text: ` api_version=2026-01-15 version_source=header`
/// (both ferrapi's own ASCII: a checked date, a fixed word).
#[inline(never)]
fn version_text(out: &mut Vec<u8>, (date, source): (&str, &str)) {
    out.extend_from_slice(b" api_version=");
    out.extend_from_slice(date.as_bytes());
    out.extend_from_slice(b" version_source=");
    out.extend_from_slice(source.as_bytes());
}

/// The most bytes of the version part: a date and the longest source word, with their keys.
const VERSION_MAX: usize = 64;

/// The key of a text line's request id.
const KEY: &[u8; 12] = b" request_id=";

/// The length of a request id the server made (`dispatch/observe.rs`).
const MADE_ID_LEN: usize = 32;

/// The access line's JSON keys after the target. The client's values are written once each,
/// as keys (the method also in the message): the message names the route's template, not the
/// path, so a long path is not written twice. Out of line: it is not the default format, and it
/// keeps [`access`], which the sink's append inlines, small.
#[inline(never)]
fn access_json(out: &mut Vec<u8>, line: &AccessLine<'_>) {
    out.extend_from_slice(b",\"message\":\"");
    let method_cut = json_capped(out, line.method.as_bytes(), 0);
    // The message is text for people: a cut method ends with the text note.
    cut_note(out, method_cut);
    if let Some(route) = line.route {
        out.push(b' ');
        json_escape(out, route);
    }
    push_outcome(out, line.status, line.micros, b"ms\",\"method\":\"");
    json_capped(out, line.method.as_bytes(), 0);
    out.push(b'"');
    json_cut_note(out, "method", method_cut);
    out.extend_from_slice(b",\"path\":\"");
    let path_cut = json_capped(out, line.path, line.path_cut);
    out.push(b'"');
    json_cut_note(out, "path", path_cut);
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
    if let Some(trace) = line.trace {
        trace_ids(out, true, trace);
    }
    if let Some((date, source)) = line.version {
        out.extend_from_slice(b",\"api_version\":");
        json_string(out, date);
        out.extend_from_slice(b",\"version_source\":");
        json_string(out, source);
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

    #[test]
    fn a_prefix_ends_between_two_characters() {
        assert_eq!(prefix_of("abc", 5), "abc");
        assert_eq!(prefix_of("abc", 2), "ab");
        // `é` is two bytes: a cut inside it keeps the text before it.
        assert_eq!(prefix_of("aé", 2), "a");
        assert_eq!(prefix_of("aé", 3), "aé");
        assert_eq!(prefix_of("é", 1), "");
        assert_eq!(prefix_of("", 0), "");
    }

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
            path_cut: 0,
            route: Some("/items/{item_id}"),
            status: 200,
            micros: 1_234,
            request_id: id.map(str::as_bytes),
            trace: None,
            at: clock::now(),
            version: None,
        }
    }

    #[test]
    fn the_version_is_written_last_only_when_served() {
        let unversioned = line("/items/1", Some("id-1"));
        let plain = text(|out| access(out, TEXT, &unversioned));
        assert!(plain.ends_with(" request_id=id-1\n"), "{plain}");
        let versioned = AccessLine {
            version: Some(("2026-01-15", "path")),
            ..unversioned
        };
        let written = text(|out| access(out, TEXT, &versioned));
        assert_eq!(
            written,
            plain.replace('\n', " api_version=2026-01-15 version_source=path\n")
        );
        let json = text(|out| access(out, JSON, &versioned));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["api_version"], "2026-01-15");
        assert_eq!(value["version_source"], "path");
        assert!(json.ends_with("\"version_source\":\"path\"}\n"), "{json}");
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
        assert_eq!(value["message"], "GET /items/{item_id} 200 1.234ms");
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
        let id = "i".repeat(128);
        for worst in [
            "\u{1}".repeat(200),
            "\u{1}".repeat(60_000),
            "\u{85}".repeat(30_000),
        ] {
            for format in [LogFormat::Text, LogFormat::Json] {
                for ansi in [false, true] {
                    let style = Style { format, ansi };
                    for path_cut in [0, usize::MAX / 2] {
                        let line = AccessLine {
                            method: &worst,
                            path: worst.as_bytes(),
                            path_cut,
                            route: Some("/items/{item_id}"),
                            status: 65_535,
                            micros: u64::MAX,
                            request_id: Some(id.as_bytes()),
                            trace: None,
                            at: clock::now(),
                            version: Some(("2026-01-15", "default")),
                        };
                        let written = text(|out| access(out, style, &line)).len();
                        assert!(
                            written <= access_bound(style, &line),
                            "{format} {ansi}: {written}"
                        );
                    }
                }
            }
        }
    }

    fn safe(path: &[u8]) -> String {
        let mut out = Vec::new();
        text_safe(&mut out, path, 0);
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
            written.contains("GET /x\\u{2028}2026\\x20ERROR\\x20forged\\u{202e} 200"),
            "{written}"
        );
        assert!(!written.contains('\u{2028}') && !written.contains('\u{202e}'));
    }

    #[test]
    fn text_values_quote_what_forges_a_line() {
        let mut out = Vec::new();
        text_value(&mut out, "a\u{2028}b", 0);
        text_value(&mut out, "caf\u{e9}", 0);
        assert_eq!(String::from_utf8(out).unwrap(), "\"a\\u{2028}b\"caf\u{e9}");
        let mut out = Vec::new();
        text_message(&mut out, "m\u{202e}\u{85}", 0);
        assert_eq!(String::from_utf8(out).unwrap(), "m\\u{202e}\\u{85}");
    }

    #[test]
    fn json_escaping_covers_controls() {
        let mut out = Vec::new();
        json_string(&mut out, "a\u{1}b\nc\t\"\\");
        assert_eq!(String::from_utf8(out).unwrap(), r#""a\u0001b\nc\t\"\\""#);
    }

    /// What a client value written in a text line stands for: its escapes read back (`\\`,
    /// `\xNN`, `\u{…}`), and the bytes its note says were left out; `None` for an escape cut
    /// short or unknown, or a note that does not parse.
    fn read_back(written: &str) -> Option<(Vec<u8>, usize)> {
        let (value, dropped) = match written.rsplit_once("\u{2026}[+") {
            Some((value, note)) => (value, note.strip_suffix("B]")?.parse().ok()?),
            None => (written, 0),
        };
        let mut bytes = Vec::new();
        let mut rest = value;
        while let Some(at) = rest.find('\\') {
            bytes.extend_from_slice(&rest.as_bytes()[..at]);
            let escape = &rest[at + 1..];
            if let Some(after) = escape.strip_prefix('\\') {
                bytes.push(b'\\');
                rest = after;
            } else if let Some(after) = escape.strip_prefix('x') {
                bytes.push(u8::from_str_radix(after.get(..2)?, 16).ok()?);
                rest = after.get(2..)?;
            } else if let Some(after) = escape.strip_prefix("u{") {
                let end = after.find('}')?;
                let c = char::from_u32(u32::from_str_radix(&after[..end], 16).ok()?)?;
                bytes.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                rest = &after[end + 1..];
            } else {
                return None;
            }
        }
        bytes.extend_from_slice(rest.as_bytes());
        Some((bytes, dropped))
    }

    /// The method and the path of a text access line, as written.
    fn method_and_path(written: &str) -> (&str, &str) {
        let after = written.split_once("  INFO ").map_or("", |(_, after)| after);
        let mut words = after.split(' ');
        (words.next().unwrap_or_default(), words.next().unwrap_or_default())
    }

    const TEXT: Style = Style {
        format: LogFormat::Text,
        ansi: false,
    };

    const JSON: Style = Style {
        format: LogFormat::Json,
        ansi: false,
    };

    /// The most bytes of an access line with a 128-byte request id whatever the request, as
    /// figures (not from the cap, so that a test fails if the cap goes): the fixed parts, and
    /// the method and the path at 2 KiB with their notes (JSON: the method twice, and the notes'
    /// keys); both under the issue's 8 KiB a request.
    const TEXT_LINE_MAX: usize = 4_500;
    const JSON_LINE_MAX: usize = 7_000;

    #[test]
    fn the_issue_s_hostile_requests_make_lines_of_a_few_kilobytes() {
        let nel = format!("/api/bird/{}", "\u{85}".repeat(29 * 1024));
        let backslashes = format!("/api/bird/{}", "\\".repeat(60_000));
        let query = format!("/api/hello?q={}", "\u{2028}x".repeat(15_000));
        let method = "A".repeat(60 * 1024);
        let id = "i".repeat(128);
        for (method, path) in [
            ("GET", nel.as_str()),
            ("GET", backslashes.as_str()),
            ("GET", query.as_str()),
            (method.as_str(), "/api/hello"),
        ] {
            let line = AccessLine {
                method,
                path: path.as_bytes(),
                request_id: Some(id.as_bytes()),
                trace: None,
                ..line("/", None)
            };
            let written = text(|out| access(out, TEXT, &line));
            assert!(written.len() <= TEXT_LINE_MAX, "text: {} bytes", written.len());
            assert_eq!(written.lines().count(), 1);
            let (m, p) = method_and_path(&written);
            assert!(m.len() <= MAX_VALUE_BYTES + NOTE_MAX && p.len() <= MAX_VALUE_BYTES + NOTE_MAX);
            for (value, sent) in [(m, method), (p, path)] {
                let (kept, dropped) = read_back(value).unwrap();
                assert!(sent.as_bytes().starts_with(&kept), "{value}");
                assert_eq!(kept.len() + dropped, sent.len(), "{value}");
            }
            let written = text(|out| access(out, JSON, &line));
            assert!(written.len() <= JSON_LINE_MAX, "JSON: {} bytes", written.len());
            let value: serde_json::Value = serde_json::from_str(&written).unwrap();
            for (key, sent) in [("method", method), ("path", path)] {
                let kept = value[key].as_str().unwrap();
                let dropped = value[format!("{key}_cut_bytes")].as_u64().unwrap_or(0) as usize;
                assert!(sent.starts_with(kept), "{key}");
                assert_eq!(kept.len() + dropped, sent.len(), "{key}");
            }
            assert!(!value["message"].as_str().unwrap().contains("/api"));
        }
        // The figures of the issue: 176 KiB and 235 KiB lines before.
        let line = AccessLine {
            path: nel.as_bytes(),
            ..line("/", None)
        };
        let written = text(|out| access(out, TEXT, &line));
        assert!(written.len() < 2200, "{}", written.len());
        assert!(written.contains("\\u{85}\u{2026}[+"), "{written}");
    }

    #[test]
    fn a_cut_falls_between_whole_escapes_and_whole_characters() {
        // 2,044 bytes written, 4 left: `\u{2028}` (8) does not fit, nor does half of it.
        let path = format!("/{}\u{2028}tail", "a".repeat(2043));
        assert_eq!(
            safe(path.as_bytes()),
            format!("/{}\u{2026}[+7B]", "a".repeat(2043))
        );
        // 2,047 bytes written, 1 left: `é` (2 bytes) is not split.
        let path = format!("/{}\u{e9}", "a".repeat(2046));
        let mut out = Vec::new();
        assert_eq!(json_capped(&mut out, path.as_bytes(), 0), 2);
        assert_eq!(String::from_utf8(out).unwrap(), format!("/{}", "a".repeat(2046)));
        // Nor is a JSON escape: `\\` (2) after 2,047 bytes.
        let path = format!("/{}\\", "a".repeat(2046));
        let mut out = Vec::new();
        assert_eq!(json_capped(&mut out, path.as_bytes(), 0), 1);
        assert_eq!(out.len(), 2047);
        // What the caller did not keep is in the note.
        let mut out = Vec::new();
        text_safe(&mut out, b"/abc", 100);
        assert_eq!(String::from_utf8(out).unwrap(), "/abc\u{2026}[+100B]");
        let mut out = Vec::new();
        assert_eq!(json_capped(&mut out, b"/abc", 100), 100);
        // A value at the cap exactly is whole.
        let path = "a".repeat(MAX_VALUE_BYTES);
        assert_eq!(safe(path.as_bytes()), path);
    }

    #[test]
    fn a_formatted_value_keeps_its_start_and_counts_the_rest() {
        // The first piece is cut before `é` with a byte of room left: the `!` after it must not
        // be kept in that room.
        let mut text = String::new();
        let mut prefix = Prefix::new(&mut text);
        let _ = prefix.write_str(&("a".repeat(MAX_VALUE_BYTES - 1) + "\u{e9}"));
        let _ = prefix.write_str("!");
        assert_eq!(prefix.cut(), 3);
        assert_eq!(text, "a".repeat(MAX_VALUE_BYTES - 1));
        let mut prefix = Prefix::new(&mut text);
        let _ = prefix.write_str("ab");
        assert_eq!((prefix.cut(), text.as_str()), (0, "ab"));
    }

    #[test]
    fn a_client_s_own_note_is_escaped_so_it_cannot_be_forged() {
        assert_eq!(safe("/a\u{2026}[+5B]".as_bytes()), "/a\\u{2026}[+5B]");
        assert_eq!(safe(b"/a b"), "/a\\x20b");
        let mut out = Vec::new();
        text_value(&mut out, "a\u{2026}[+5B]", 0);
        text_message(&mut out, " m\u{2026}", 0);
        assert_eq!(String::from_utf8(out).unwrap(), "\"a\\u{2026}[+5B]\" m\\u{2026}");
    }

    /// Texts a client may send, long ones among them: runs of characters that escape to
    /// different lengths, and bytes that are not UTF-8.
    fn hostile(utf8: bool) -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            Just("a".as_bytes().to_vec()),
            Just("\\".as_bytes().to_vec()),
            Just("\u{85}".as_bytes().to_vec()),
            Just("\u{2028}".as_bytes().to_vec()),
            Just("\u{e0041}".as_bytes().to_vec()),
            Just("\u{2026}".as_bytes().to_vec()),
            Just("\u{e9}".as_bytes().to_vec()),
            Just("\u{1f600}".as_bytes().to_vec()),
            Just("\"".as_bytes().to_vec()),
            Just(b"\x1b".to_vec()),
            Just(b" ".to_vec()),
            Just(if utf8 { b"%".to_vec() } else { b"\xff".to_vec() }),
        ];
        proptest::collection::vec((piece, 1..900usize), 0..8).prop_map(|runs| {
            let mut bytes = b"/".to_vec();
            for (piece, times) in runs {
                for _ in 0..times {
                    bytes.extend_from_slice(&piece);
                }
            }
            bytes
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        #[test]
        fn any_path_makes_one_bounded_text_line_that_reads_back_as_its_start(path in hostile(false), methods in 1..5000usize) {
            let method = "M".repeat(methods);
            let line = AccessLine { method: &method, path: &path, ..line("/", Some("id-1")) };
            let written = text(|out| access(out, TEXT, &line));
            proptest::prop_assert!(written.len() <= access_bound(TEXT, &line));
            proptest::prop_assert!(written.len() <= TEXT_LINE_MAX);
            proptest::prop_assert_eq!(written.lines().count(), 1);
            proptest::prop_assert!(!written.trim_end_matches('\n').chars().any(forges));
            proptest::prop_assert!(written.ends_with(" 200 1.234ms request_id=id-1\n"));
            let (m, p) = method_and_path(&written);
            for (value, sent) in [(m, method.as_bytes()), (p, path.as_slice())] {
                let (kept, dropped) = read_back(value).unwrap();
                proptest::prop_assert!(sent.starts_with(&kept));
                proptest::prop_assert_eq!(kept.len() + dropped, sent.len());
                let shown = value.rsplit_once('\u{2026}').map_or(value, |(shown, _)| shown);
                proptest::prop_assert!(shown.len() <= MAX_VALUE_BYTES);
            }
        }

        #[test]
        fn any_path_makes_one_bounded_json_line_that_parses(path in hostile(true), methods in 1..5000usize) {
            let path = String::from_utf8(path).unwrap();
            let method = "M".repeat(methods);
            let line = AccessLine { method: &method, path: path.as_bytes(), ..line("/", Some("id-1")) };
            let written = text(|out| access(out, JSON, &line));
            proptest::prop_assert!(written.len() <= access_bound(JSON, &line));
            proptest::prop_assert!(written.len() <= JSON_LINE_MAX);
            proptest::prop_assert_eq!(written.lines().count(), 1);
            let value: serde_json::Value = serde_json::from_str(&written).unwrap();
            for (key, sent) in [("method", method.as_str()), ("path", path.as_str())] {
                let kept = value[key].as_str().unwrap();
                let dropped = value[format!("{key}_cut_bytes")].as_u64().unwrap_or(0) as usize;
                proptest::prop_assert!(sent.starts_with(kept));
                proptest::prop_assert_eq!(kept.len() + dropped, sent.len());
                proptest::prop_assert_eq!(dropped > 0, value.get(format!("{key}_cut_bytes")).is_some());
            }
            proptest::prop_assert_eq!(value["request_id"].as_str(), Some("id-1"));
        }
    }

    /// Lines an event makes through ferrapi's subscriber in `format`, at every level.
    fn logged(format: LogFormat, log: impl FnOnce()) -> String {
        use std::sync::{Arc, Mutex};

        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl std::io::Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }

        let written = Arc::new(Mutex::new(Vec::new()));
        let sink =
            super::super::sink::Sink::start(Box::new(Shared(written.clone())), 1 << 20, Box::new(|_, _| {}))
                .unwrap();
        let filter = tracing_subscriber::filter::Targets::new().with_default(Level::TRACE);
        let logger = std::sync::Arc::new(super::super::subscriber::Logger::new(
            filter,
            format,
            false,
            sink.clone(),
        ));
        tracing::subscriber::with_default(logger, log);
        assert!(sink.flush(Duration::from_secs(5)));
        let bytes = written.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn an_event_s_fields_and_message_are_capped_too() {
        let huge = format!("a b{}", "\u{85}\\".repeat(20_000));
        let event = || {
            tracing::warn!(
                value = huge.as_str(),
                debugged = ?huge,
                shown = %huge,
                "refused {}",
                huge
            );
        };
        let written = logged(LogFormat::Text, event);
        assert_eq!(written.lines().count(), 1, "{written}");
        // Four values at the cap, their notes, the keys and the start.
        assert!(written.len() <= 8_500, "{}", written.len());
        assert_eq!(written.matches("\u{2026}[+").count(), 4, "{written}");
        assert!(!written.trim_end().chars().any(forges));

        let written = logged(LogFormat::Json, event);
        assert!(written.len() <= 8_600, "{}", written.len());
        let value: serde_json::Value = serde_json::from_str(&written).unwrap();
        for key in ["message", "value", "debugged", "shown"] {
            let kept = value[key].as_str().unwrap();
            let dropped = value[format!("{key}_cut_bytes")].as_u64().unwrap() as usize;
            assert!(dropped > 0 && kept.len() <= MAX_VALUE_BYTES, "{key}");
        }
        let value_kept = value["value"].as_str().unwrap();
        assert_eq!(
            value_kept.len() + value["value_cut_bytes"].as_u64().unwrap() as usize,
            huge.len()
        );
        assert!(huge.starts_with(value_kept));
        // A short event is as it was.
        let written = logged(LogFormat::Text, || tracing::info!(n = 1, s = "x y", "hello"));
        assert!(written.ends_with("  INFO hello n=1 s=\"x y\"\n"), "{written}");
    }
}
