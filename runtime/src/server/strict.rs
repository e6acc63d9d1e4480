//! The strict HTTP/1 scanner: every byte an HTTP/1 connection reads passes through it, in order,
//! before hyper parses it, so the framing rules of RFC 9112 that hyper 1.12 (httparse under it)
//! leaves unchecked are enforced here. A front proxy that reads a lenient message differently from
//! hyper is how requests are smuggled; refusing such messages closes that gap.
//!
//! Rules enforced here:
//! - the scanner follows the stream exactly as hyper frames it: a request head ends at its first
//!   empty line (empty lines before the request line are skipped, as httparse does), then the body
//!   is framed by `Transfer-Encoding: chunked` (which wins over `Content-Length`, as in hyper), by
//!   `Content-Length` (several equal `Content-Length` lines are one length, as in hyper), or is
//!   empty; body bytes are never read as a head, pipelined requests follow one another;
//! - a head is refused (its [`Verdict`], answered by the server, which then closes) when a line of
//!   it ends in a bare LF (RFC 9112 §2.2), when an HTTP/1.1 head has no `Host` or any head has two
//!   (§3.2), when `Transfer-Encoding` names a coding other than `chunked` (501, §6.1) or names
//!   `chunked` more than once or not at all (400), or when an HTTP/1.0 head has one (400, §6.1).
//!   The first bare LF refuses the head at once (an empty line before the request line too, where
//!   httparse skips CRLF and LF alike), so where httparse would end a head on a bare LF never
//!   matters: the scan stops there;
//! - a violation inside a chunked body (whitespace after a chunk size that no `;` extension
//!   follows; a bare LF in the trailer section) comes after hyper has dispatched the request, so
//!   it is poisoned instead: the offending byte is overwritten with a NUL, on which hyper's chunked
//!   decoder (or, in the trailers, httparse) fails, so the route's body read fails (400). Bare LFs
//!   elsewhere in the chunked framing hyper refuses itself; the scanner then just stops;
//! - after a verdict other than "serve", a poisoned byte, a head asking for an upgrade (its bytes
//!   after it are another protocol), or anything the scanner does not follow (always something
//!   hyper refuses itself), it stops scanning the connection and passes the rest untouched: it
//!   fails open, never poisons bytes it does not understand, and says why in a `debug` line;
//! - the per-request cost stays small: line ends are found 16 bytes at a time (`line_ends.rs`),
//!   a header name is only compared (8 bytes at a time) when its first byte could start `Host`,
//!   `Transfer-Encoding`, `Content-Length` or `Upgrade`, and a line that arrives whole is judged in
//!   place (only a line split between reads keeps state: its first 18 bytes and its last 16).
//!   `Connection` is not looked at: it decides whether hyper reads another request, and a head
//!   scanned but never read is never asked about. Measured with callgrind (a loop scanning one
//!   head and asking its verdict): ≈ 400 instructions for wrk's `GET /item/42` (one header),
//!   ≈ 760 for curl's (five headers), about half of it finding the line ends, when they were
//!   found 8 bytes at a time from each line's start; in the service, with `line_ends.rs`, wrk's
//!   head costs ≈ 312 where it cost ≈ 385 (callgrind `GET /item/42`, the scanner's calls).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use super::line_ends::LineEnds;

/// Which RFC 9112 rule a request head breaks (the server answers it with a JSON `{"detail": ...}`
/// and closes); `metrics::Refusal` is the reason the server counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Violation {
    /// 400 Bad Request, with the detail for the client.
    BadRequest(&'static str),
    /// 501 Not Implemented, with the detail for the client.
    NotImplemented(&'static str),
}

impl Violation {
    /// The status of the answer.
    pub(crate) fn status(self) -> hyper::StatusCode {
        match self {
            Violation::BadRequest(_) => hyper::StatusCode::BAD_REQUEST,
            Violation::NotImplemented(_) => hyper::StatusCode::NOT_IMPLEMENTED,
        }
    }

    /// The text of the answer's `detail`.
    pub(crate) fn detail(self) -> &'static str {
        match self {
            Violation::BadRequest(detail) | Violation::NotImplemented(detail) => detail,
        }
    }
}

/// What the server does with one request head hyper dispatches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Serve it.
    Serve,
    /// Answer it with the refusal and close the connection.
    Refuse(Violation),
    /// It asks for a protocol upgrade (an `Upgrade` header on HTTP/1.1, or `CONNECT`): serve it,
    /// but close the connection unless the answer is 101 (the scanner no longer follows it).
    Upgrade,
}

/// The verdicts of one connection's heads, shared (in an `Arc`) between its scanner, which
/// writes, and the server's service, which reads; atomics only, no lock.
#[derive(Debug, Default)]
pub(crate) struct Verdicts {
    /// How many heads the server has asked about.
    asked: AtomicU64,
    /// The one head whose verdict is not "serve": its index << 8 | its [`Reason`] code, or 0 while
    /// there is none. The scanner stops after deciding it, so one word holds every verdict.
    decided: AtomicU64,
}

impl Verdicts {
    /// The verdict on the next request head, called by the server exactly once per request hyper
    /// dispatches, in order (HTTP/1 dispatches heads one at a time in stream order, and the
    /// scanner has always scanned a whole head before hyper dispatches it). A head after a
    /// refused one (the server should have closed) is refused alike; a head after the scanner
    /// stopped for any other reason is served.
    pub(crate) fn next(&self) -> Verdict {
        // One caller at a time (the connection's dispatch), so a load and a store, not a locked
        // read-modify-write.
        let index = self.asked.load(Ordering::Relaxed);
        self.asked.store(index.wrapping_add(1), Ordering::Relaxed);
        let decided = self.decided.load(Ordering::Acquire);
        if decided == 0 || index < decided >> 8 {
            return Verdict::Serve;
        }
        match Reason::from_code(decided as u8) {
            Reason::Upgrade if index > decided >> 8 => Verdict::Serve,
            reason => reason.verdict(),
        }
    }

    /// Record `reason` as the verdict of head `index`.
    fn decide(&self, index: u64, reason: Reason) {
        self.decided
            .store((index << 8) | reason as u64, Ordering::Release);
    }
}

/// Why a head is not simply served; the codes are stored in [`Verdicts::decided`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Reason {
    BareLf = 1,
    NoHost,
    TwoHosts,
    TeOnHttp10,
    TeCoding,
    TeNotOnce,
    Upgrade,
}

impl Reason {
    fn from_code(code: u8) -> Reason {
        match code {
            1 => Reason::BareLf,
            2 => Reason::NoHost,
            3 => Reason::TwoHosts,
            4 => Reason::TeOnHttp10,
            5 => Reason::TeCoding,
            6 => Reason::TeNotOnce,
            _ => Reason::Upgrade,
        }
    }

    fn verdict(self) -> Verdict {
        let bad = |detail| Verdict::Refuse(Violation::BadRequest(detail));
        match self {
            Reason::BareLf => bad("A line of the request head ends in LF without CR"),
            Reason::NoHost => bad("The request has no Host header"),
            Reason::TwoHosts => bad("The request has more than one Host header"),
            Reason::TeOnHttp10 => bad("An HTTP/1.0 request cannot have a Transfer-Encoding header"),
            Reason::TeNotOnce => bad("Transfer-Encoding must name the chunked coding exactly once"),
            Reason::TeCoding => Verdict::Refuse(Violation::NotImplemented(
                "The only transfer coding implemented is chunked",
            )),
            Reason::Upgrade => Verdict::Upgrade,
        }
    }
}

/// What overwrites a byte of a chunked body that breaks the rules: hyper's chunked decoder
/// refuses a NUL in a chunk-size line and after chunk data, and keeps it in the trailer section,
/// which httparse then refuses (a NUL is neither a name nor a value byte). The one state that
/// accepts a NUL, a chunk extension, is never poisoned: the only violation there is a bare LF,
/// which hyper refuses itself.
const POISON: u8 = 0;

/// The longest header name (with its colon) the scanner compares: `transfer-encoding:`.
const NAME_MAX: usize = 18;

/// Scans one HTTP/1 connection's bytes; owned by its IO wrapper, no locks.
#[derive(Debug)]
pub(crate) struct Scanner {
    verdicts: Arc<Verdicts>,
    /// Heads completely scanned so far: the index of the head being read.
    heads: u64,
    mode: Mode,
    head: Head,
    /// The line being read, when a read ended inside it.
    line: Line,
}

/// Where in the stream the scanner is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// In a request head, or between requests.
    Head,
    /// In a body framed by `Content-Length`: this many bytes left.
    Length(u64),
    /// In a chunked body: the decoder's state and, in chunk data, the bytes left.
    Chunked(Chunk, u64),
    /// Not scanning any more (see the module's rules).
    Off,
}

/// The states of hyper's chunked decoder (`ChunkedState` in hyper's `proto/h1/decode.rs`), which
/// the scanner mirrors byte for byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunk {
    /// The first hex digit of a chunk size.
    Start,
    /// More hex digits, or what ends them.
    Size,
    /// Whitespace after the size (allowed only before a `;` extension).
    SizeLws,
    /// A chunk extension, up to CR.
    Extension,
    /// The LF after the chunk-size line's CR.
    SizeLf,
    /// Chunk data.
    Data,
    /// The CR after chunk data.
    DataCr,
    /// The LF after chunk data.
    DataLf,
    /// The start of a trailer line, or the CR of the empty line ending the body.
    TrailerStart,
    /// Inside a trailer line.
    Trailer,
    /// The LF after a trailer line's CR.
    TrailerLf,
    /// The LF of the empty line ending the body.
    EndLf,
}

/// What the lines of the head being read have said so far.
#[derive(Debug, Default)]
struct Head {
    /// The request line has been read.
    started: bool,
    http11: bool,
    /// Whether hyper will treat it as an upgrade (see [`Scanner::request_line`]).
    upgrade: bool,
    hosts: u8,
    /// A `Transfer-Encoding` line was seen; `chunked` codings it named; another coding it named.
    te: bool,
    chunked: u8,
    other_coding: bool,
    /// The `Content-Length` so far, and whether a line of it was invalid or disagreed.
    length: Option<u64>,
    bad_length: bool,
}

/// A line of a head split between reads: what is needed of it once its LF arrives.
#[derive(Debug, Default)]
struct Line {
    /// Its bytes so far (the CR included), and the last of them.
    len: usize,
    last: u8,
    kind: Kind,
    /// Its first bytes (the method, or the header name with its colon).
    start: [u8; NAME_MAX],
    /// Its last 16 bytes, the last lowest (for a request line: the version and the CR).
    tail: u128,
    /// Its value so far, for a `Transfer-Encoding` or `Content-Length` line.
    value: Value,
}

/// The parse of a `Transfer-Encoding` or `Content-Length` value, fed in pieces.
#[derive(Debug, Default)]
struct Value {
    /// `Transfer-Encoding`: 0 before a coding, 1..=7 that many letters of `chunked` matched,
    /// [`TE_CHUNKED_OWS`] `chunked` then whitespace, [`TE_OTHER`] another coding.
    /// `Content-Length` (hyper takes whitespace, digits, whitespace, nothing else): 0 before
    /// the digits, [`CL_DIGITS`], [`CL_AFTER`] them, [`CL_BAD`].
    state: u8,
    /// The `Content-Length` digits so far.
    number: u64,
}

/// What a line is, as far as the scanner cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Kind {
    /// Not known yet: too little of its name has arrived.
    #[default]
    Unknown,
    /// A header the scanner does not look at.
    Other,
    Request,
    Host,
    Upgrade,
    TransferEncoding,
    ContentLength,
}

/// How many bytes of a line starting with `first` (its name and colon) tell whether it is a
/// header the scanner looks at.
#[inline]
fn name_len(first: u8) -> Option<usize> {
    // `| 0x20` lower-cases a letter; only the letter's two cases map to it.
    match first | 0x20 {
        b'h' => Some(HOST[0].len),
        b'c' => Some(CONTENT_LENGTH[1].at + CONTENT_LENGTH[1].len),
        b'u' => Some(UPGRADE[0].len),
        b't' => Some(TRANSFER_ENCODING[2].at + TRANSFER_ENCODING[2].len),
        _ => None,
    }
}

/// The header `text` (a line's start) names, with its name's length, if the scanner looks at
/// it.
#[inline(always)]
fn field_name(text: &[u8]) -> Option<(usize, Kind)> {
    match text.first()? | 0x20 {
        b'h' if is_name(text, &HOST) => Some((5, Kind::Host)),
        b'c' if is_name(text, &CONTENT_LENGTH) => Some((15, Kind::ContentLength)),
        b'u' if is_name(text, &UPGRADE) => Some((8, Kind::Upgrade)),
        b't' if is_name(text, &TRANSFER_ENCODING) => Some((18, Kind::TransferEncoding)),
        _ => None,
    }
}

/// Up to 8 bytes of a header name (lower case, with its colon), to compare a word at a time:
/// byte by byte, `eq_ignore_ascii_case` cost ≈ 13 instructions a byte (callgrind), ≈ 190 of the
/// first version's 1,060 instructions on curl's GET.
#[derive(Debug, Clone, Copy)]
struct NameWord {
    /// Where in the name it starts, and how many bytes it has.
    at: usize,
    len: usize,
    /// Its bytes (little-endian), and 0x20 on each letter (or-ed in, it lower-cases one).
    lower: u64,
    fold: u64,
}

const HOST: [NameWord; 1] = [name_word(b"host:", 0)];
const UPGRADE: [NameWord; 1] = [name_word(b"upgrade:", 0)];
const CONTENT_LENGTH: [NameWord; 2] = [name_word(b"content-length:", 0), name_word(b"content-length:", 7)];
const TRANSFER_ENCODING: [NameWord; 3] = [
    name_word(b"transfer-encoding:", 0),
    name_word(b"transfer-encoding:", 8),
    name_word(b"transfer-encoding:", 10),
];

const fn name_word(name: &[u8], at: usize) -> NameWord {
    let (mut lower, mut fold, mut i) = (0u64, 0u64, 0);
    while i < 8 && at + i < name.len() {
        lower |= (name[at + i] as u64) << (8 * i);
        if name[at + i].is_ascii_lowercase() {
            fold |= 0x20 << (8 * i);
        }
        i += 1;
    }
    NameWord {
        at,
        len: i,
        lower,
        fold,
    }
}

/// Whether `text` starts with the name of `words`, whatever the case of its letters.
#[inline(always)]
fn is_name(text: &[u8], words: &[NameWord]) -> bool {
    words.iter().all(|w| {
        let keep = u64::MAX >> (64 - 8 * w.len);
        (load(text, w.at) | w.fold) & keep == w.lower
    })
}

/// The 8 bytes of `bytes` from `at` (little-endian); zeros past its end.
#[inline(always)]
fn load(bytes: &[u8], at: usize) -> u64 {
    match bytes.get(at..at.wrapping_add(8)) {
        Some(&[a, b, c, d, e, f, g, h]) => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => load_short(bytes.get(at..).unwrap_or_default()),
    }
}

/// [`load`] of fewer than 8 bytes.
#[inline(never)]
fn load_short(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |word, &b| (word << 8) | u64::from(b))
}

/// [`Value::state`]s.
const TE_CHUNKED_OWS: u8 = 8;
const TE_OTHER: u8 = 9;
const CL_DIGITS: u8 = 1;
const CL_AFTER: u8 = 2;
const CL_BAD: u8 = 3;

impl Value {
    /// Value bytes of a `kind` line (its CR may be among them: it is whitespace to both parsers;
    /// a CR anywhere else in a head, httparse refuses).
    fn feed(&mut self, head: &mut Head, kind: Kind, bytes: &[u8]) {
        match kind {
            Kind::TransferEncoding => {
                for &b in bytes {
                    self.state = match (b, self.state) {
                        (b',', state) => {
                            end_coding(head, state);
                            0
                        }
                        (b' ' | b'\t' | b'\r', 7) => TE_CHUNKED_OWS,
                        (b' ' | b'\t' | b'\r', 1..=6) => TE_OTHER,
                        (b' ' | b'\t' | b'\r', state) => state,
                        // `| 0x20` lower-cases a letter, and `chunked` is all letters.
                        (b, state @ 0..=6) if b | 0x20 == b"chunked"[usize::from(state)] => state + 1,
                        _ => TE_OTHER,
                    };
                }
            }
            Kind::ContentLength => {
                for &b in bytes {
                    self.state = match (b, self.state) {
                        (b' ' | b'\t' | b'\r', CL_DIGITS) => CL_AFTER,
                        (b' ' | b'\t' | b'\r', state) => state,
                        (b'0'..=b'9', 0 | CL_DIGITS) => match self
                            .number
                            .checked_mul(10)
                            .and_then(|n| n.checked_add(u64::from(b - b'0')))
                        {
                            Some(n) => {
                                self.number = n;
                                CL_DIGITS
                            }
                            None => CL_BAD,
                        },
                        _ => CL_BAD,
                    };
                }
            }
            _ => {}
        }
    }

    /// The end of the `kind` line.
    fn end(self, head: &mut Head, kind: Kind) {
        match kind {
            Kind::TransferEncoding => end_coding(head, self.state),
            Kind::ContentLength => match self.state {
                CL_DIGITS | CL_AFTER if head.length.is_none_or(|l| l == self.number) => {
                    head.length = Some(self.number);
                }
                _ => head.bad_length = true,
            },
            _ => {}
        }
    }
}

impl Scanner {
    /// A scanner for a new connection, writing its verdicts to `verdicts`.
    pub(crate) fn new(verdicts: Arc<Verdicts>) -> Scanner {
        Scanner {
            verdicts,
            heads: 0,
            mode: Mode::Head,
            head: Head::default(),
            line: Line::default(),
        }
    }

    /// Scan the bytes just read from the connection (they follow the previous call's, in stream
    /// order; reads may split anything anywhere, one byte at a time included). May overwrite a
    /// byte in place: see the module's rules on poisoning.
    pub(crate) fn scan(&mut self, bytes: &mut [u8]) {
        let mut at = 0;
        while at < bytes.len() {
            at += match self.mode {
                Mode::Head => self.scan_head(&bytes[at..]),
                Mode::Length(left) => {
                    let n = usize::try_from(left).unwrap_or(usize::MAX).min(bytes.len() - at);
                    self.mode = match left - n as u64 {
                        0 => Mode::Head,
                        left => Mode::Length(left),
                    };
                    n
                }
                Mode::Chunked(state, left) => self.scan_chunked(&mut bytes[at..], state, left),
                Mode::Off => return,
            };
        }
    }

    /// Scan head bytes until the head ends (or the bytes do); how many were scanned.
    fn scan_head(&mut self, bytes: &[u8]) -> usize {
        let mut start = 0;
        for lf in LineEnds::new(bytes) {
            let line = bytes.get(start..lf).unwrap_or_default();
            start = lf + 1;
            if self.line.len == 0 {
                self.whole_line(line);
            } else {
                self.split_line(line);
            }
            if self.mode != Mode::Head {
                return start;
            }
        }
        if start < bytes.len() {
            self.piece(&bytes[start..]);
        }
        bytes.len()
    }

    /// A line that arrived in one read (without its LF).
    #[inline(always)]
    fn whole_line(&mut self, line: &[u8]) {
        let [text @ .., b'\r'] = line else {
            return self.refuse(Reason::BareLf);
        };
        if text.is_empty() {
            return self.empty_line();
        }
        if !self.head.started {
            return self.whole_request_line(text);
        }
        match field_name(text) {
            None => {}
            // Every head has one: counted here, without a call.
            Some((_, Kind::Host)) => self.head.hosts = self.head.hosts.saturating_add(1),
            Some((len, kind)) => self.whole_field(kind, &text[len..]),
        }
    }

    /// A request line that arrived in one read (without its CRLF).
    #[inline(never)]
    fn whole_request_line(&mut self, text: &[u8]) {
        let (space, version) = match text.len().checked_sub(9) {
            Some(i) => (text[i], load(text, i + 1)),
            None => (0, 0),
        };
        let connect = load(text, 0) == u64::from_le_bytes(*b"CONNECT ");
        self.request_line(text.len() + 1, connect, space, version);
    }

    /// A header line other than `Host` that the scanner looks at, arrived in one read: its kind
    /// and its value.
    #[inline(never)]
    fn whole_field(&mut self, kind: Kind, value: &[u8]) {
        self.field(kind);
        let mut parse = Value::default();
        parse.feed(&mut self.head, kind, value);
        parse.end(&mut self.head, kind);
    }

    /// The last part of a line split between reads (without its LF).
    #[inline(never)]
    fn split_line(&mut self, line: &[u8]) {
        self.piece(line);
        self.end_line();
    }

    /// Part of a line whose LF has not arrived in this read (or its last part, without the LF).
    fn piece(&mut self, piece: &[u8]) {
        let Some(&last) = piece.last() else { return };
        let offset = self.line.len;
        self.line.len = offset + piece.len();
        self.line.last = last;
        if offset < NAME_MAX && self.line.kind != Kind::Other {
            let n = piece.len().min(NAME_MAX - offset);
            self.line.start[offset..offset + n].copy_from_slice(&piece[..n]);
        }
        match self.line.kind {
            Kind::Unknown if !self.head.started => {
                self.line.kind = Kind::Request;
                self.roll_tail(piece);
            }
            Kind::Unknown => {
                let Some(needed) = name_len(self.line.start[0]) else {
                    self.line.kind = Kind::Other;
                    return;
                };
                if self.line.len < needed {
                    return;
                }
                let Some((len, kind)) = field_name(&self.line.start[..needed]) else {
                    self.line.kind = Kind::Other;
                    return;
                };
                self.line.kind = kind;
                self.field(kind);
                // The name ended within this piece (it was still unknown before it).
                let value = &piece[len - offset..];
                self.line.value.feed(&mut self.head, kind, value);
            }
            Kind::Request => self.roll_tail(piece),
            kind => self.line.value.feed(&mut self.head, kind, piece),
        }
    }

    /// Keep the last 16 bytes of the request line.
    fn roll_tail(&mut self, piece: &[u8]) {
        let keep = &piece[piece.len().saturating_sub(16)..];
        for &b in keep {
            self.line.tail = self.line.tail << 8 | u128::from(b);
        }
    }

    /// The LF of a line split between reads has arrived.
    fn end_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        if line.last != b'\r' {
            return self.refuse(Reason::BareLf);
        }
        if line.len == 1 {
            return self.empty_line();
        }
        match line.kind {
            Kind::Request => {
                let connect = load(&line.start, 0) == u64::from_le_bytes(*b"CONNECT ");
                // `tail`'s low byte is the CR, the 8 above it the version, then the space.
                let version = ((line.tail >> 8) as u64).swap_bytes();
                self.request_line(line.len, connect, (line.tail >> 72) as u8, version);
            }
            kind => line.value.end(&mut self.head, kind),
        }
    }

    /// A request line of `len` bytes (its CR included), whether it starts with `CONNECT `, and
    /// the byte and the 8 bytes (little-endian) before its CR.
    fn request_line(&mut self, len: usize, connect: bool, space: u8, version: u64) {
        // httparse takes `METHOD SP TARGET SP HTTP/1.x CRLF` and nothing else, so the version is
        // the 8 bytes before the CR, after a space; the shortest line is `M / HTTP/1.1\r`.
        let http11 = version == u64::from_le_bytes(*b"HTTP/1.1");
        if len < 13 || space != b' ' || !(http11 || version == u64::from_le_bytes(*b"HTTP/1.0")) {
            self.stop("a request line httparse refuses", &[]);
            return;
        }
        self.head.started = true;
        self.head.http11 = http11;
        // hyper: `CONNECT` asks for an upgrade, and each `Upgrade` header sets whether the head
        // does to whether it is HTTP/1.1 (so an HTTP/1.0 `CONNECT` with `Upgrade` does not).
        self.head.upgrade = connect;
    }

    /// A header the scanner looks at has been recognised by its name.
    fn field(&mut self, kind: Kind) {
        match kind {
            Kind::Host => self.head.hosts = self.head.hosts.saturating_add(1),
            Kind::Upgrade => self.head.upgrade = self.head.http11,
            Kind::TransferEncoding => self.head.te = true,
            _ => {}
        }
    }

    /// An empty line: skipped before the request line (as httparse does), else the head's end.
    #[inline(never)]
    fn empty_line(&mut self) {
        if !self.head.started {
            return;
        }
        let head = std::mem::take(&mut self.head);
        let index = self.heads;
        self.heads = index.saturating_add(1);
        // The common head, decided without the checks below.
        if head.hosts == 1 && !(head.te || head.upgrade || head.bad_length) {
            if let Some(length @ 1..) = head.length {
                self.mode = Mode::Length(length);
            }
            return;
        }
        self.judge(index, head);
    }

    /// The verdict on head `index`, and how its body is framed.
    #[inline(never)]
    fn judge(&mut self, index: u64, head: Head) {
        let refused = if head.te && !head.http11 {
            Some(Reason::TeOnHttp10)
        } else if head.hosts > 1 {
            Some(Reason::TwoHosts)
        } else if head.hosts == 0 && head.http11 {
            Some(Reason::NoHost)
        } else if head.other_coding {
            Some(Reason::TeCoding)
        } else if head.te && head.chunked != 1 {
            Some(Reason::TeNotOnce)
        } else if head.upgrade {
            self.verdicts.decide(index, Reason::Upgrade);
            self.mode = Mode::Off;
            return;
        } else {
            None
        };
        if let Some(reason) = refused {
            self.verdicts.decide(index, reason);
            self.mode = Mode::Off;
            return;
        }
        self.mode = if head.te {
            Mode::Chunked(Chunk::Start, 0)
        } else if head.bad_length {
            self.stop("a Content-Length hyper refuses", &[]);
            return;
        } else {
            match head.length {
                None | Some(0) => Mode::Head,
                Some(n) => Mode::Length(n),
            }
        };
    }

    /// The head being read is refused.
    #[cold]
    fn refuse(&mut self, reason: Reason) {
        self.verdicts.decide(self.heads, reason);
        self.mode = Mode::Off;
    }

    /// Stop scanning the connection (fail open); the rest of `bytes` is passed as it is.
    fn stop(&mut self, why: &'static str, bytes: &[u8]) -> usize {
        tracing::debug!("strict HTTP/1 scanning stops on this connection: {why}");
        self.mode = Mode::Off;
        bytes.len()
    }

    /// Scan chunked body bytes, mirroring hyper's decoder; how many were scanned.
    fn scan_chunked(&mut self, bytes: &mut [u8], mut state: Chunk, mut left: u64) -> usize {
        let mut at = 0;
        while at < bytes.len() {
            if state == Chunk::Data {
                let n = usize::try_from(left).unwrap_or(usize::MAX).min(bytes.len() - at);
                at += n;
                left -= n as u64;
                if left == 0 {
                    state = Chunk::DataCr;
                }
                continue;
            }
            let b = bytes[at];
            state = match (state, b) {
                (Chunk::Start | Chunk::Size, b'0'..=b'9' | b'a'..=b'f' | b'A'..=b'F') => {
                    let digit = u64::from((b as char).to_digit(16).unwrap_or(0));
                    match left.checked_mul(16).and_then(|n| n.checked_add(digit)) {
                        Some(n) => left = n,
                        None => return self.stop("a chunk size hyper refuses (overflow)", bytes),
                    }
                    Chunk::Size
                }
                (Chunk::Size | Chunk::SizeLws, b' ' | b'\t') => Chunk::SizeLws,
                (Chunk::Size | Chunk::SizeLws, b';') => Chunk::Extension,
                (Chunk::Size, b'\r') => Chunk::SizeLf,
                (Chunk::SizeLws, b'\r') => {
                    bytes[at] = POISON;
                    return self.stop("poisoned whitespace after a chunk size", bytes);
                }
                (Chunk::Extension, b'\r') => Chunk::SizeLf,
                (Chunk::Extension, b'\n') => {
                    return self.stop("a bare LF in a chunk extension, which hyper refuses", bytes)
                }
                (Chunk::Extension, _) => Chunk::Extension,
                (Chunk::SizeLf, b'\n') if left == 0 => Chunk::TrailerStart,
                (Chunk::SizeLf, b'\n') => Chunk::Data,
                (Chunk::DataCr, b'\r') => Chunk::DataLf,
                (Chunk::DataLf, b'\n') => Chunk::Start,
                (Chunk::TrailerStart, b'\r') => Chunk::EndLf,
                (Chunk::TrailerStart | Chunk::Trailer, b'\n') => {
                    bytes[at] = POISON;
                    return self.stop("poisoned a bare LF in the trailer section", bytes);
                }
                (Chunk::Trailer, b'\r') => Chunk::TrailerLf,
                (Chunk::TrailerStart | Chunk::Trailer, _) => Chunk::Trailer,
                (Chunk::TrailerLf, b'\n') => Chunk::TrailerStart,
                (Chunk::EndLf, b'\n') => {
                    self.mode = Mode::Head;
                    return at + 1;
                }
                _ => return self.stop("chunked framing hyper refuses", bytes),
            };
            at += 1;
        }
        self.mode = Mode::Chunked(state, left);
        at
    }
}

/// The end of one coding of a `Transfer-Encoding` list (at a comma or the line's end); empty
/// list elements are ignored (RFC 9110 §5.6.1).
fn end_coding(head: &mut Head, state: u8) {
    match state {
        0 => {}
        7 | TE_CHUNKED_OWS => head.chunked = head.chunked.saturating_add(1),
        _ => head.other_coding = true,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use proptest::prelude::*;

    use super::{Mode, Scanner, Verdict, Verdicts, Violation, POISON};

    /// What a connection made of `reads` gives hyper, and the scanner after them.
    fn scan_reads(reads: &[&[u8]]) -> (Vec<u8>, Scanner) {
        let mut scanner = Scanner::new(Arc::new(Verdicts::default()));
        let mut out = Vec::new();
        for read in reads {
            let mut read = read.to_vec();
            scanner.scan(&mut read);
            out.extend_from_slice(&read);
        }
        (out, scanner)
    }

    /// [`scan_reads`] of `input` cut into reads of `sizes` bytes (cycled).
    fn scan_sizes(input: &[u8], sizes: &[usize]) -> (Vec<u8>, Scanner) {
        let mut reads = Vec::new();
        let mut rest = input;
        for size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (read, after) = rest.split_at((*size).clamp(1, rest.len()));
            reads.push(read);
            rest = after;
        }
        scan_reads(&reads)
    }

    /// The verdicts on the first `n` heads, as the server asks for them.
    fn verdicts(scanner: &Scanner, n: usize) -> Vec<Verdict> {
        (0..n).map(|_| scanner.verdicts.next()).collect()
    }

    /// Still following the stream, between two requests.
    fn between_requests(scanner: &Scanner) -> bool {
        scanner.mode == Mode::Head && scanner.line.len == 0 && !scanner.head.started
    }

    /// `input` scanned whole, split at every point, and one byte at a time: each must give the
    /// same bytes and verdicts, and `check` accepts them.
    fn every_split(input: &[u8], heads: usize, check: impl Fn(&[u8], &[Verdict], &Scanner)) {
        let (out, scanner) = scan_reads(&[input]);
        check(&out, &verdicts(&scanner, heads), &scanner);
        for cut in 1..input.len() {
            let (out, scanner) = scan_reads(&[&input[..cut], &input[cut..]]);
            check(&out, &verdicts(&scanner, heads), &scanner);
        }
        let (out, scanner) = scan_sizes(input, &[1]);
        check(&out, &verdicts(&scanner, heads), &scanner);
    }

    fn bad(detail: &'static str) -> Verdict {
        Verdict::Refuse(Violation::BadRequest(detail))
    }

    const BARE_LF: &str = "A line of the request head ends in LF without CR";
    const NO_HOST: &str = "The request has no Host header";
    const TWO_HOSTS: &str = "The request has more than one Host header";
    const TE_ON_HTTP10: &str = "An HTTP/1.0 request cannot have a Transfer-Encoding header";
    const TE_NOT_ONCE: &str = "Transfer-Encoding must name the chunked coding exactly once";
    const TE_CODING: Verdict = Verdict::Refuse(Violation::NotImplemented(
        "The only transfer coding implemented is chunked",
    ));

    /// A GET as curl sends it.
    const GET: &[u8] = b"GET /item/42 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUser-Agent: curl/8.5.0\r\n\
        Accept: */*\r\nAccept-Encoding: gzip\r\nConnection: keep-alive\r\n\r\n";

    #[test]
    fn a_pipeline_of_valid_requests_is_served_untouched() {
        let mut input = GET.to_vec();
        let body = b"GET / HTTP/1.1\r\n\r\n\n\r\n\r\n";
        input.extend_from_slice(b"POST /item HTTP/1.1\r\nhost: t\r\nContent-Length: 23\r\n\r\n");
        input.extend_from_slice(body);
        assert_eq!(body.len(), 23);
        input.extend_from_slice(
            b"\r\nPUT /x HTTP/1.1\r\nHOST: t\r\nTransfer-Encoding: chunked\r\n\r\n\
              5\r\nab\r\nc\r\n1b;name=value\r\nGET / HTTP/1.1\r\nHost: \n\r\n\r\n\r\n0\r\n\
              Trailer-One: 1\r\n\r\n",
        );
        input.extend_from_slice(b"GET /old HTTP/1.0\r\n\r\nOPTIONS * HTTP/1.1\r\nHost:\r\n\r\n");
        every_split(&input, 5, |out, verdicts, scanner| {
            assert_eq!(out, &input[..]);
            assert_eq!(verdicts, [Verdict::Serve; 5]);
            assert!(between_requests(scanner), "{:?}", scanner.mode);
        });
    }

    #[test]
    fn a_bare_lf_anywhere_in_a_head_refuses_it() {
        let lines = GET.iter().filter(|&&b| b == b'\n').count();
        for nth in 0..lines {
            // The second request's `nth` line loses its CR.
            let mut second = GET.to_vec();
            let lf = second
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .nth(nth)
                .map(|(i, _)| i)
                .unwrap();
            second.remove(lf - 1);
            let input = [GET, &second, GET].concat();
            every_split(&input, 3, |out, verdicts, _| {
                assert_eq!(out, &input[..]);
                assert_eq!(verdicts, [Verdict::Serve, bad(BARE_LF), bad(BARE_LF)]);
            });
        }
        // An empty line before a request line is skipped when it is a CRLF, refused when a LF.
        let input = [GET, b"\r\n\n", GET].concat();
        every_split(&input, 2, |_, verdicts, _| {
            assert_eq!(verdicts, [Verdict::Serve, bad(BARE_LF)]);
        });
    }

    #[test]
    fn an_http11_head_needs_exactly_one_host_and_no_head_has_two() {
        let cases: [(&[u8], Verdict); 7] = [
            (b"GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", bad(NO_HOST)),
            (
                b"GET / HTTP/1.1\r\nHost: a\r\nX: y\r\nHOST: a\r\n\r\n",
                bad(TWO_HOSTS),
            ),
            (b"GET / HTTP/1.0\r\nhost: a\r\nHost: b\r\n\r\n", bad(TWO_HOSTS)),
            (b"GET / HTTP/1.0\r\n\r\n", Verdict::Serve),
            (
                b"GET / HTTP/1.1\r\nHost-Name: a\r\nX-Host: b\r\n\r\n",
                bad(NO_HOST),
            ),
            (b"GET / HTTP/1.1\r\nHost-Name: a\r\nhOsT:\r\n\r\n", Verdict::Serve),
            (
                b"GET / HTTP/1.1\r\nHos: a\r\nHost: a\r\nH: b\r\n\r\n",
                Verdict::Serve,
            ),
        ];
        for (head, verdict) in cases {
            let input = [GET, head].concat();
            every_split(&input, 2, |out, verdicts, _| {
                assert_eq!(out, &input[..]);
                assert_eq!(
                    verdicts,
                    [Verdict::Serve, verdict],
                    "{:?}",
                    String::from_utf8_lossy(head)
                );
            });
        }
    }

    #[test]
    fn transfer_encoding_must_be_one_chunked_coding_on_http11() {
        let cases: [(&str, &str, Verdict); 11] = [
            ("1.1", "Transfer-Encoding: gzip, chunked", TE_CODING),
            ("1.1", "transfer-encoding: chunked, gzip", TE_CODING),
            (
                "1.1",
                "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked",
                TE_CODING,
            ),
            ("1.1", "Transfer-Encoding: chunked;q=1", TE_CODING),
            ("1.1", "Transfer-Encoding: chunk", TE_CODING),
            ("1.1", "Transfer-Encoding: chunked, chunked", bad(TE_NOT_ONCE)),
            (
                "1.1",
                "Transfer-Encoding: chunked\r\nTransfer-Encoding: Chunked",
                bad(TE_NOT_ONCE),
            ),
            ("1.1", "Transfer-Encoding: ", bad(TE_NOT_ONCE)),
            ("1.0", "Transfer-Encoding: chunked", bad(TE_ON_HTTP10)),
            ("1.1", "Transfer-Encoding: , \tCHUNKED \t", Verdict::Serve),
            (
                "1.1",
                "Transfer-Encoding:\r\nTransfer-Encoding: chunked",
                Verdict::Serve,
            ),
        ];
        for (version, field, verdict) in cases {
            let head = format!("POST / HTTP/{version}\r\nHost: a\r\n{field}\r\n\r\n0\r\n\r\n");
            let input = [GET, head.as_bytes(), GET].concat();
            every_split(&input, 2, |out, verdicts, scanner| {
                assert_eq!(out, &input[..]);
                assert_eq!(verdicts, [Verdict::Serve, verdict], "{field:?}");
                if verdict == Verdict::Serve {
                    assert!(between_requests(scanner), "{field:?}: {:?}", scanner.mode);
                }
            });
        }
    }

    #[test]
    fn content_length_frames_the_body_and_chunked_wins_over_it() {
        // Equal lengths are one length; the body holds what would be a head.
        let body = b"GET / HTTP/1.1\r\n\n\r\n";
        let input = [
            format!(
                "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {0}\r\ncontent-length:  0{0} \r\n\r\n",
                body.len()
            )
            .as_bytes(),
            body,
            GET,
        ]
        .concat();
        every_split(&input, 2, |out, verdicts, scanner| {
            assert_eq!(out, &input[..]);
            assert_eq!(verdicts, [Verdict::Serve; 2]);
            assert!(between_requests(scanner));
        });
        // With chunked too, the length is ignored (as hyper does): the chunks frame the body.
        let input = [
            b"POST / HTTP/1.1\r\nContent-Length: 3\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\
              3\r\n\n\n\n\r\n0\r\n\r\n",
            GET,
        ]
        .concat();
        every_split(&input, 2, |out, verdicts, scanner| {
            assert_eq!(out, &input[..]);
            assert_eq!(verdicts, [Verdict::Serve; 2]);
            assert!(between_requests(scanner));
        });
    }

    #[test]
    fn a_content_length_hyper_refuses_stops_the_scanner_open() {
        for field in [
            "5, 5",
            "5\r\nContent-Length: 6",
            "-5",
            "",
            "18446744073709551616",
            "5 5",
        ] {
            let head = format!("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: {field}\r\n\r\n");
            // What follows is not scanned: hyper never reads past the refused head.
            let input = [head.as_bytes(), b"GET / HTTP/1.1\n\n"].concat();
            every_split(&input, 2, |out, verdicts, scanner| {
                assert_eq!(out, &input[..]);
                assert_eq!(verdicts, [Verdict::Serve; 2], "{field:?}");
                assert_eq!(scanner.mode, Mode::Off, "{field:?}");
            });
        }
    }

    /// What the scanner must make of a chunked body.
    #[derive(Clone, Copy)]
    enum Body {
        /// Follow it to its end, untouched.
        Followed,
        /// Poison its byte at this offset, and stop.
        Poisoned(usize),
        /// Stop, leaving it untouched (hyper refuses it itself).
        LeftAlone,
    }

    /// A chunked POST with `body`, then a GET, scanned every way: both heads served, and `body`
    /// as `expected`.
    fn assert_chunked(body: &[u8], expected: Body) {
        let head = b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n";
        let input = [&head[..], body, GET].concat();
        let mut output = input.clone();
        if let Body::Poisoned(at) = expected {
            output[head.len() + at] = POISON;
        }
        every_split(&input, 2, |out, verdicts, scanner| {
            let body = String::from_utf8_lossy(body);
            assert_eq!(out, &output[..], "{body:?}");
            assert_eq!(verdicts, [Verdict::Serve; 2], "{body:?}");
            match expected {
                Body::Followed => assert!(between_requests(scanner), "{body:?}"),
                _ => assert_eq!(scanner.mode, Mode::Off, "{body:?}"),
            }
        });
    }

    #[test]
    fn whitespace_after_a_chunk_size_is_poisoned_unless_an_extension_follows() {
        for (body, poisoned) in [
            (&b"5 \r\nhello\r\n0\r\n\r\n"[..], b"5 ".len()),
            (b"5\t\r\nhello\r\n0\r\n\r\n", b"5\t".len()),
            (
                b"3\r\nabc\r\n5 \t \r\nhello\r\n0\r\n\r\n",
                b"3\r\nabc\r\n5 \t ".len(),
            ),
            (b"0  \r\n\r\n", b"0  ".len()),
        ] {
            assert_chunked(body, Body::Poisoned(poisoned));
        }
        let extensions = b"5 ;x=y\r\nhello\r\n5\t \t; a ; b=\"c\"\r\nhello\r\n0 ;end\r\n\r\n";
        assert_chunked(extensions, Body::Followed);
    }

    #[test]
    fn a_bare_lf_in_the_trailer_section_is_poisoned() {
        for (body, poisoned) in [
            (&b"0\r\nX: a\nY: b\r\n\r\n"[..], b"0\r\nX: a".len()),
            (
                b"0\r\n\nGET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n",
                b"0\r\n".len(),
            ),
            (b"0\r\nX: a\r\n\n\r\n", b"0\r\nX: a\r\n".len()),
            (b"0\r\nX: a\n\r\n\r\n", b"0\r\nX: a".len()),
        ] {
            assert_chunked(body, Body::Poisoned(poisoned));
        }
    }

    #[test]
    fn chunked_framing_hyper_refuses_itself_is_left_alone() {
        // A bare LF in a chunk-size line or after chunk data, no size, a size over 64 bits, a
        // bare CR: hyper's decoder fails on these bytes as they are, so they are not touched.
        for body in [
            &b"5\nhello\r\n0\r\n\r\n"[..],
            b"5 \nhello\r\n0\r\n\r\n",
            b"5;x\nhello\r\n0\r\n\r\n",
            b"5\r\nhello\n0\r\n\r\n",
            b"5\r\nhello\r0\r\n\r\n",
            b"\r\n",
            b" 5\r\nhello\r\n0\r\n\r\n",
            b"zz\r\n",
            b"10000000000000000\r\n",
            b"0\r\n\r\r\n",
            b"0\r\nX: a\r\r\n\r\n",
        ] {
            assert_chunked(body, Body::LeftAlone);
        }
    }

    #[test]
    fn an_upgrade_head_ends_the_scan() {
        // Whatever follows an upgrade is another protocol: never refused, never poisoned.
        let after = b"\x81\x05hello\n\n0 \r\n";
        for (head, verdict) in [
            (
                &b"GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"[..],
                Verdict::Upgrade,
            ),
            (b"CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n", Verdict::Upgrade),
            (b"CONNECT a:443 HTTP/1.0\r\n\r\n", Verdict::Upgrade),
            // hyper: an `Upgrade` header on HTTP/1.0 asks for no upgrade, even on a CONNECT.
            (b"GET / HTTP/1.0\r\nUpgrade: websocket\r\n\r\n", Verdict::Serve),
            (b"CONNECT a:443 HTTP/1.0\r\nupgrade: x\r\n\r\n", Verdict::Serve),
        ] {
            let input = [GET, head, after].concat();
            every_split(&input, 2, |out, verdicts, scanner| {
                assert_eq!(out, &input[..]);
                assert_eq!(
                    verdicts,
                    [Verdict::Serve, verdict],
                    "{:?}",
                    String::from_utf8_lossy(head)
                );
                if verdict == Verdict::Upgrade {
                    assert_eq!(scanner.mode, Mode::Off);
                }
            });
        }
    }

    #[test]
    fn a_request_line_httparse_refuses_stops_the_scanner_open() {
        for line in [
            &b"GET / HTTP/2.0"[..],
            b"GET / HTTP/1.1 ",
            b"GET /HTTP/1.1",
            b"G HTTP/1.1",
            b"GET",
        ] {
            let input = [line, b"\r\nHost: a\r\nHost: b\r\n\r\n"].concat();
            every_split(&input, 1, |out, verdicts, scanner| {
                assert_eq!(out, &input[..]);
                assert_eq!(verdicts, [Verdict::Serve]);
                assert_eq!(scanner.mode, Mode::Off, "{:?}", String::from_utf8_lossy(line));
            });
        }
        // The shortest request line hyper takes is followed.
        let input = b"M / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n";
        every_split(input, 1, |_, verdicts, _| assert_eq!(verdicts, [bad(TWO_HOSTS)]));
    }

    #[test]
    fn heads_after_a_refused_one_are_refused_and_after_an_upgrade_served() {
        let (_, scanner) = scan_reads(&[GET, b"GET / HTTP/1.1\r\n\r\n", GET]);
        assert_eq!(
            verdicts(&scanner, 3),
            [Verdict::Serve, bad(NO_HOST), bad(NO_HOST)]
        );
        let (_, scanner) = scan_reads(&[b"CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n", GET]);
        assert_eq!(
            verdicts(&scanner, 3),
            [Verdict::Upgrade, Verdict::Serve, Verdict::Serve]
        );
    }

    #[test]
    fn refusals_are_400_or_501_with_their_detail() {
        let refusal = Violation::BadRequest(NO_HOST);
        assert_eq!((refusal.status().as_u16(), refusal.detail()), (400, NO_HOST));
        let Verdict::Refuse(refusal) = TE_CODING else {
            unreachable!()
        };
        assert_eq!(refusal.status().as_u16(), 501);
        assert!(refusal.detail().contains("chunked"));
    }

    // Generated pipelines: random methods, targets, headers and bodies, CRLF everywhere.

    /// Body bytes that a scanner reading them as a head would trip on.
    fn body_bytes() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            prop::collection::vec(any::<u8>(), 0..12),
            Just(b"\r\n\r\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"\r".to_vec()),
            Just(b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\n\r\n".to_vec()),
            Just(b"0\r\n\r\n".to_vec()),
            Just(b"5 \r\n".to_vec()),
        ];
        prop::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
    }

    /// A name the scanner does not look at.
    fn other_name() -> impl Strategy<Value = String> {
        "[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}".prop_filter("a name the scanner looks at", |name| {
            let name = name.to_ascii_lowercase();
            !["host", "transfer-encoding", "content-length", "upgrade"].contains(&name.as_str())
        })
    }

    /// A chunked body: chunks (size written in either case, maybe with leading zeros and an
    /// extension), the last chunk, trailers; and the data it carries.
    fn chunked_body() -> BoxedStrategy<(Vec<u8>, Vec<u8>)> {
        let extension = prop_oneof![
            Just(""),
            Just(";a=b"),
            Just(" ;x"),
            Just("\t ; y=\"z\""),
            Just(";"),
        ];
        let chunk = (body_bytes(), any::<bool>(), any::<bool>(), extension.clone());
        (
            prop::collection::vec(chunk, 0..4),
            extension,
            prop::collection::vec((other_name(), "[ -~\t]{0,12}"), 0..3),
        )
            .prop_map(|(chunks, last_extension, trailers)| {
                let (mut body, mut decoded) = (Vec::new(), Vec::new());
                for (data, upper, zero, extension) in chunks {
                    if data.is_empty() {
                        continue;
                    }
                    let size = match upper {
                        true => format!("{:X}", data.len()),
                        false => format!("{:x}", data.len()),
                    };
                    let zero = if zero { "0" } else { "" };
                    body.extend_from_slice(format!("{zero}{size}{extension}\r\n").as_bytes());
                    body.extend_from_slice(&data);
                    body.extend_from_slice(b"\r\n");
                    decoded.extend_from_slice(&data);
                }
                body.extend_from_slice(format!("0{last_extension}\r\n").as_bytes());
                for (name, value) in trailers {
                    body.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
                }
                body.extend_from_slice(b"\r\n");
                (body, decoded)
            })
            .boxed()
    }

    /// How a generated request frames its body.
    #[derive(Debug, Clone)]
    enum Framing {
        None,
        Length(Vec<u8>),
        /// The body as sent, and its data.
        Chunked(Vec<u8>, Vec<u8>),
    }

    /// A valid request, in parts a test may break.
    #[derive(Debug, Clone)]
    struct Request {
        leading_empty_lines: usize,
        method: String,
        target: String,
        request_line: String,
        http11: bool,
        /// hyper closes the connection after it (chunked with a `Content-Length`).
        last: bool,
        /// Header lines without their CRLF, `Host` (on HTTP/1.1) and the framing among them.
        fields: Vec<String>,
        framing: Framing,
    }

    impl Request {
        fn head_lines(&self) -> Vec<String> {
            let mut lines = vec![String::new(); self.leading_empty_lines];
            lines.push(self.request_line.clone());
            lines.extend(self.fields.iter().cloned());
            lines.push(String::new());
            lines
        }

        /// Its bytes, with `line_end(i)` ending head line `i`.
        fn bytes_with(&self, line_end: impl Fn(usize) -> &'static str) -> Vec<u8> {
            let mut bytes = Vec::new();
            for (i, line) in self.head_lines().iter().enumerate() {
                bytes.extend_from_slice(line.as_bytes());
                bytes.extend_from_slice(line_end(i).as_bytes());
            }
            match &self.framing {
                Framing::None => {}
                Framing::Length(body) | Framing::Chunked(body, _) => bytes.extend_from_slice(body),
            }
            bytes
        }

        fn bytes(&self) -> Vec<u8> {
            self.bytes_with(|_| "\r\n")
        }

        /// What hyper hands the service: method, target, body data.
        fn dispatched(&self) -> (String, String, Vec<u8>) {
            let data = match &self.framing {
                Framing::None => Vec::new(),
                Framing::Length(data) | Framing::Chunked(_, data) => data.clone(),
            };
            (self.method.clone(), self.target.clone(), data)
        }
    }

    fn request() -> BoxedStrategy<Request> {
        let method = prop_oneof![
            Just("GET".to_owned()),
            Just("POST".to_owned()),
            Just("PUT".to_owned()),
            Just("DELETE".to_owned()),
            "[A-Z]{1,10}".prop_filter("no upgrade", |m| m != "CONNECT"),
        ];
        // Characters `http::Uri` takes, so that hyper dispatches every generated request.
        let target = "/[A-Za-z0-9._~!$&'()*+,;=:@/?-]{0,30}";
        let host = (
            prop_oneof![Just("Host"), Just("host"), Just("HOST"), Just("hOsT")],
            "[a-z0-9.:]{0,20}",
            prop_oneof![Just(""), Just(" "), Just("\t ")],
        )
            .prop_map(|(name, value, ows)| format!("{name}:{ows}{value}{ows}"));
        let others = prop::collection::vec(
            (other_name(), "[ -~\t]{0,30}").prop_map(|(name, value)| format!("{name}: {value}")),
            0..6,
        );
        let length_name = prop_oneof![Just("Content-Length"), Just("content-length")];
        let framing = prop_oneof![
            Just((Framing::None, Vec::new())),
            (body_bytes(), length_name.clone(), 1..3usize, any::<bool>()).prop_map(
                |(body, name, lines, padded)| {
                    let fields = (0..lines)
                        .map(|_| match padded {
                            true => format!("{name}: \t00{} ", body.len()),
                            false => format!("{name}: {}", body.len()),
                        })
                        .collect();
                    (Framing::Length(body), fields)
                }
            ),
            (
                chunked_body(),
                prop_oneof![
                    Just("chunked"),
                    Just("Chunked"),
                    Just(" chunked\t"),
                    Just(", chunked")
                ],
                prop::option::of(0..100u32),
                length_name,
            )
                .prop_map(|((body, data), coding, length, name)| {
                    let mut fields = vec![format!("Transfer-Encoding:{coding}")];
                    if let Some(length) = length {
                        // Ignored: chunked wins.
                        fields.push(format!("{name}: {length}"));
                    }
                    (Framing::Chunked(body, data), fields)
                }),
        ];
        (
            0..3usize,
            method,
            target,
            any::<bool>(),
            host,
            others,
            framing,
            any::<prop::sample::Index>(),
        )
            .prop_map(
                |(leading, method, target, http11, host, mut fields, (framing, framing_fields), at)| {
                    let http11 = http11 || matches!(framing, Framing::Chunked(..));
                    if http11 || at.index(2) == 0 {
                        fields.insert(at.index(fields.len() + 1), host);
                    }
                    if !http11 {
                        // So that hyper reads on after it.
                        fields.insert(at.index(fields.len() + 1), "Connection: keep-alive".to_owned());
                    }
                    for field in framing_fields {
                        fields.insert(at.index(fields.len() + 1), field);
                    }
                    let version = if http11 { "1.1" } else { "1.0" };
                    let both = fields
                        .iter()
                        .any(|f| f.to_ascii_lowercase().starts_with("content-length"))
                        && matches!(framing, Framing::Chunked(..));
                    Request {
                        leading_empty_lines: leading,
                        request_line: format!("{method} {target} HTTP/{version}"),
                        method,
                        target,
                        http11,
                        last: both,
                        fields,
                        framing,
                    }
                },
            )
            .boxed()
    }

    /// Read sizes (cycled): whole, small, one byte at a time, mixed.
    fn read_sizes() -> impl Strategy<Value = Vec<usize>> {
        prop_oneof![
            Just(vec![usize::MAX]),
            Just(vec![1]),
            prop::collection::vec(1..40usize, 1..12),
        ]
    }

    /// One way to break a request, and what the scanner must make of it.
    #[derive(Debug, Clone)]
    enum Broken {
        Verdict(Vec<u8>, Verdict),
        /// The bytes, and which of them is poisoned.
        Poisoned(Vec<u8>, usize),
    }

    fn http11() -> BoxedStrategy<Request> {
        request().prop_filter("HTTP/1.1", |r| r.http11).boxed()
    }

    fn broken() -> impl Strategy<Value = Broken> {
        let is_host = |field: &String| field.to_ascii_lowercase().starts_with("host:");
        prop_oneof![
            http11().prop_map(move |mut r| {
                r.fields.retain(|f| !is_host(f));
                Broken::Verdict(r.bytes(), bad(NO_HOST))
            }),
            (request(), any::<prop::sample::Index>()).prop_map(move |(mut r, at)| {
                let host = format!("hoST: {}", r.fields.len());
                if !r.fields.iter().any(is_host) {
                    r.fields.push("Host: a".to_owned());
                }
                r.fields.insert(at.index(r.fields.len() + 1), host);
                Broken::Verdict(r.bytes(), bad(TWO_HOSTS))
            }),
            (request(), any::<prop::sample::Index>()).prop_map(|(r, at)| {
                let bare = at.index(r.head_lines().len());
                let bytes = r.bytes_with(|i| if i == bare { "\n" } else { "\r\n" });
                Broken::Verdict(bytes, bad(BARE_LF))
            }),
            (
                http11(),
                prop_oneof![Just("gzip"), Just("deflate"), Just("identity"), Just("x-y")],
                any::<prop::sample::Index>(),
            )
                .prop_map(|(mut r, coding, at)| {
                    let te = format!("Transfer-Encoding: {coding}, chunked");
                    r.fields
                        .retain(|f| !f.to_ascii_lowercase().starts_with("content-length"));
                    r.fields.insert(at.index(r.fields.len() + 1), te);
                    Broken::Verdict(r.bytes(), TE_CODING)
                }),
            (http11(), any::<prop::sample::Index>()).prop_map(|(mut r, at)| {
                r.fields.insert(
                    at.index(r.fields.len() + 1),
                    "transfer-encoding: chunked".to_owned(),
                );
                if !matches!(r.framing, Framing::Chunked(..)) {
                    r.fields.push("Transfer-Encoding: chunked".to_owned());
                }
                Broken::Verdict(r.bytes(), bad(TE_NOT_ONCE))
            }),
            request().prop_map(|mut r| {
                r.request_line = r.request_line.replace("HTTP/1.1", "HTTP/1.0");
                r.fields.push("Transfer-Encoding: chunked".to_owned());
                Broken::Verdict(r.bytes(), bad(TE_ON_HTTP10))
            }),
            (
                http11(),
                1..20usize,
                prop_oneof![Just(" "), Just("\t"), Just(" \t ")]
            )
                .prop_map(|(mut r, size, ws)| {
                    let body = format!("{size:x}{ws}\r\n{}\r\n0\r\n\r\n", "x".repeat(size));
                    r.fields
                        .retain(|f| !f.to_ascii_lowercase().starts_with("content-length"));
                    r.fields
                        .retain(|f| !f.to_ascii_lowercase().starts_with("transfer-encoding"));
                    r.fields.push("Transfer-Encoding: chunked".to_owned());
                    r.framing = Framing::Chunked(body.into_bytes(), Vec::new());
                    let bytes = r.bytes();
                    let at = bytes.len() - size - "\r\n\r\n0\r\n\r\n".len();
                    Broken::Poisoned(bytes, at)
                }),
            (http11(), "[A-Za-z]{0,8}").prop_map(|(mut r, trailer)| {
                let body = format!("0\r\n{trailer}\nX: y\r\n\r\n");
                r.fields
                    .retain(|f| !f.to_ascii_lowercase().starts_with("content-length"));
                r.fields
                    .retain(|f| !f.to_ascii_lowercase().starts_with("transfer-encoding"));
                r.fields.push("Transfer-Encoding: chunked".to_owned());
                r.framing = Framing::Chunked(body.into_bytes(), Vec::new());
                let bytes = r.bytes();
                let at = bytes.len() - "\nX: y\r\n\r\n".len();
                Broken::Poisoned(bytes, at)
            }),
        ]
    }

    /// What hyper 1's HTTP/1 server dispatches from `input`, sent in reads of `sizes` (cycled):
    /// each request's method, target and body data.
    fn hyper_reads(input: &[u8], sizes: &[usize]) -> Vec<(String, String, Vec<u8>)> {
        use std::convert::Infallible;
        use std::sync::Mutex;

        use http_body_util::{BodyExt, Empty};
        use hyper::body::{Bytes, Incoming};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut client, server) = tokio::io::duplex(1 << 20);
            let seen = Arc::new(Mutex::new(Vec::new()));
            let log = seen.clone();
            let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let log = log.clone();
                async move {
                    let (parts, body) = request.into_parts();
                    let data = body.collect().await.unwrap().to_bytes().to_vec();
                    let target = parts.uri.to_string();
                    log.lock().unwrap().push((parts.method.to_string(), target, data));
                    Ok::<_, Infallible>(hyper::Response::new(Empty::<Bytes>::new()))
                }
            });
            let connection = tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .half_close(true)
                    .serve_connection(hyper_util::rt::TokioIo::new(server), service),
            );
            let mut rest = input;
            for size in sizes.iter().cycle() {
                if rest.is_empty() {
                    break;
                }
                let (read, after) = rest.split_at((*size).clamp(1, rest.len()));
                // hyper may have closed already (after a request it closes on).
                if client.write_all(read).await.is_err() {
                    break;
                }
                rest = after;
            }
            let _ = client.shutdown().await;
            let mut replies = Vec::new();
            let read = client.read_to_end(&mut replies);
            tokio::time::timeout(std::time::Duration::from_secs(5), read)
                .await
                .unwrap()
                .unwrap();
            let _ = connection.await;
            let seen = seen.lock().unwrap().clone();
            seen
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// The generated pipelines are framed by hyper as the tests above assume (and the scanner
        /// does): every request is dispatched with its own target and body data.
        #[test]
        fn hyper_frames_the_generated_pipelines_as_they_are_meant(
            requests in prop::collection::vec(request(), 1..5),
            sizes in read_sizes(),
        ) {
            let input: Vec<u8> = requests.iter().flat_map(Request::bytes).collect();
            let kept = requests.iter().position(|r| r.last).map_or(requests.len(), |i| i + 1);
            let expected: Vec<_> = requests[..kept].iter().map(Request::dispatched).collect();
            prop_assert_eq!(hyper_reads(&input, &sizes), expected);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn valid_pipelines_are_never_altered_and_always_served(
            requests in prop::collection::vec(request(), 1..5),
            sizes in read_sizes(),
        ) {
            let input: Vec<u8> = requests.iter().flat_map(Request::bytes).collect();
            let (out, scanner) = scan_sizes(&input, &sizes);
            prop_assert_eq!(&out, &input);
            prop_assert_eq!(verdicts(&scanner, requests.len()), vec![Verdict::Serve; requests.len()]);
            prop_assert!(between_requests(&scanner), "not between requests: {:?}", scanner.mode);
        }

        #[test]
        fn every_violation_is_caught_wherever_the_reads_split(
            before in prop::collection::vec(request(), 0..3),
            broken in broken(),
            after in request(),
            sizes in read_sizes(),
        ) {
            let mut input: Vec<u8> = before.iter().flat_map(Request::bytes).collect();
            let start = input.len();
            let (bytes, expected) = match &broken {
                Broken::Verdict(bytes, verdict) => (bytes, Some(*verdict)),
                Broken::Poisoned(bytes, _) => (bytes, None),
            };
            input.extend_from_slice(bytes);
            input.extend_from_slice(&after.bytes());
            let (out, scanner) = scan_sizes(&input, &sizes);
            let mut served = vec![Verdict::Serve; before.len()];
            let mut expected_out = input.clone();
            match (expected, &broken) {
                (Some(verdict), _) => served.push(verdict),
                (None, Broken::Poisoned(_, at)) => {
                    served.push(Verdict::Serve);
                    expected_out[start + at] = POISON;
                }
                (None, Broken::Verdict(..)) => unreachable!(),
            }
            prop_assert_eq!(verdicts(&scanner, served.len()), served);
            prop_assert_eq!(out, expected_out);
            prop_assert_eq!(scanner.mode, Mode::Off);
        }
    }
}
