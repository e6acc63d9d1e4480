//! Trace and span ids: what they are (16 and 8 bytes, never all zero), how they are made (this
//! thread's fast generator), and how they are written (lowercase hex, most significant first).
//!
//! Rules enforced here:
//! - a made id is never zero (W3C Trace Context forbids the all-zero ids): a zero draw is drawn
//!   again;
//! - ids are made by wyrand, seeded per thread from the standard library's randomly keyed hasher:
//!   a few instructions an id, and the right-most 7 bytes of a trace id uniformly random, as the
//!   `random-trace-id` flag promises (the same generator makes request ids, `dispatch/observe.rs`);
//! - an id is written as lowercase hex in its byte order, 16 bytes at a time (`hex.rs`): the access
//!   line writes 24 bytes of ids per traced request.

use std::cell::Cell;
use std::fmt;
use std::hash::BuildHasher;
use std::num::NonZeroU64;
use std::time::Instant;

pub(crate) use super::hex::hex16;
use super::hex::hex32;

thread_local! {
    /// This thread's random number generator (wyrand), seeded from the standard library's
    /// randomly keyed hasher.
    static RANDOM: Cell<u64> = Cell::new(
        std::collections::hash_map::RandomState::new()
            .hash_one((std::thread::current().id(), Instant::now())),
    );
}

/// Run `f` on this thread's generator state (see [`random_pair`]), keeping what it leaves.
pub(crate) fn with_random<R>(f: impl FnOnce(&mut u64) -> R) -> R {
    RANDOM.with(|state| {
        let mut s = state.get();
        let out = f(&mut s);
        state.set(s);
        out
    })
}

/// The next 128 random bits of the generator whose state is `s`.
pub(crate) fn random_pair(s: &mut u64) -> [u64; 2] {
    let first = s.wrapping_add(0xa076_1d64_78bd_642f);
    let second = first.wrapping_add(0xa076_1d64_78bd_642f);
    *s = second;
    [wyrand_mix(first), wyrand_mix(second)]
}

/// The next 64 random bits of the generator whose state is `s`.
pub(crate) fn random_one(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0xa076_1d64_78bd_642f);
    wyrand_mix(*s)
}

/// wyrand's output function of the state `s`.
fn wyrand_mix(s: u64) -> u64 {
    let t = u128::from(s).wrapping_mul(u128::from(s ^ 0xe703_7ed1_a0b4_28db));
    ((t >> 64) as u64) ^ (t as u64)
}

/// A trace's id: 16 bytes, not all zero, written as 32 lowercase hex digits
/// (`4bf92f3577b34da6a3ce929d0e0e4736`). Kept as two words, not a `u128`: aligned to 8 bytes,
/// the per-request [`TraceIds`](super::TraceIds) it is in stays 40 bytes, copied as such.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TraceId {
    high: u64,
    low: u64,
}

impl TraceId {
    /// The id of these 16 bytes (big-endian, as written); `None` for all zeros.
    pub fn from_bytes(bytes: [u8; 16]) -> Option<Self> {
        Self::from_u128(u128::from_be_bytes(bytes))
    }

    /// The id whose first 8 bytes, read big-endian, are `high` and last 8 `low`; `None` for
    /// zero. Tested as two words: as one `u128` the test took vector moves and compares
    /// (≈ 10 instructions per new trace, callgrind `GET /item/42`).
    #[inline]
    pub(crate) fn from_words(high: u64, low: u64) -> Option<Self> {
        (high | low != 0).then_some(TraceId { high, low })
    }

    /// The id whose bytes, read big-endian, are `value`; `None` for zero.
    pub fn from_u128(value: u128) -> Option<Self> {
        (value != 0).then_some(TraceId {
            high: (value >> 64) as u64,
            low: value as u64,
        })
    }

    /// The id's 16 bytes, as written.
    pub fn to_bytes(self) -> [u8; 16] {
        self.to_u128().to_be_bytes()
    }

    /// The id as a number (its bytes read big-endian).
    pub fn to_u128(self) -> u128 {
        (u128::from(self.high) << 64) | u128::from(self.low)
    }

    /// The id's right-most 8 bytes (what ratio samplers decide by).
    pub(crate) fn low(self) -> u64 {
        self.low
    }

    /// The id's left-most 8 bytes.
    pub(crate) fn high(self) -> u64 {
        self.high
    }

    /// The id as 32 lowercase hex digits.
    pub fn to_hex(self) -> [u8; 32] {
        hex32(self.high, self.low)
    }

    /// A new random id.
    pub(crate) fn random() -> Self {
        with_random(|s| loop {
            let [high, low] = random_pair(s);
            if let Some(id) = Self::from_u128((u128::from(high) << 64) | u128::from(low)) {
                return id;
            }
        })
    }
}

/// A span's id: 8 bytes, not all zero, written as 16 lowercase hex digits (`00f067aa0ba902b7`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpanId(NonZeroU64);

impl SpanId {
    /// The id of these 8 bytes (big-endian, as written); `None` for all zeros.
    pub fn from_bytes(bytes: [u8; 8]) -> Option<Self> {
        Self::from_u64(u64::from_be_bytes(bytes))
    }

    /// The id whose bytes, read big-endian, are `value`; `None` for zero.
    pub fn from_u64(value: u64) -> Option<Self> {
        NonZeroU64::new(value).map(SpanId)
    }

    /// The id's 8 bytes, as written.
    pub fn to_bytes(self) -> [u8; 8] {
        self.0.get().to_be_bytes()
    }

    /// The id as a number (its bytes read big-endian).
    pub fn to_u64(self) -> u64 {
        self.0.get()
    }

    /// The id as 16 lowercase hex digits.
    pub fn to_hex(self) -> [u8; 16] {
        hex16(self.0.get())
    }

    /// A new random id.
    pub(crate) fn random() -> Self {
        with_random(|s| loop {
            let [value, _] = random_pair(s);
            if let Some(id) = Self::from_u64(value) {
                return id;
            }
        })
    }
}

/// Write the 32 digits of `id` into `trace_out` (at least 32 bytes) and the 16 of `span` into
/// `span_out` (at least 16): the access line writes them into its text in place.
#[inline]
pub(crate) fn write_ids(trace_out: &mut [u8], id: TraceId, span_out: &mut [u8], span: SpanId) {
    if let Some(out) = trace_out.get_mut(..32) {
        out.copy_from_slice(&hex32(id.high, id.low));
    }
    if let Some(out) = span_out.get_mut(..16) {
        out.copy_from_slice(&hex16(span.0.get()));
    }
}

/// The value of a lowercase hex digit, or 0xff (W3C Trace Context allows no uppercase).
const fn hex_value(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => 0xff,
    }
}

/// The number written by `text` in lowercase hex (at most 16 digits); `None` when a byte is not
/// a lowercase hex digit.
pub(crate) fn parse_hex(text: &[u8]) -> Option<u64> {
    let mut value = 0u64;
    let mut bad = 0u8;
    for &b in text {
        let digit = hex_value(b);
        bad |= digit;
        value = (value << 4) | u64::from(digit & 0x0f);
    }
    // A digit's value is below 16; 0xff marks a byte that is none.
    (bad < 16).then_some(value)
}

impl fmt::Display for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.to_hex()).unwrap_or_default())
    }
}

impl fmt::Debug for TraceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TraceId({self})")
    }
}

impl fmt::Display for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::str::from_utf8(&self.to_hex()).unwrap_or_default())
    }
}

impl fmt::Debug for SpanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpanId({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_written_in_byte_order() {
        for value in [
            0u64,
            1,
            0x00f0_67aa_0ba9_02b7,
            u64::MAX,
            0x0123_4567_89ab_cdef,
            0xa5a5_5a5a_0f0f_f0f0,
        ] {
            assert_eq!(
                std::str::from_utf8(&hex16(value)).unwrap(),
                format!("{value:016x}")
            );
            assert_eq!(parse_hex(format!("{value:016x}").as_bytes()), Some(value));
        }
        let id = TraceId::from_u128(0x4bf9_2f35_77b3_4da6_a3ce_929d_0e0e_4736).unwrap();
        assert_eq!(id.to_string(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert_eq!(TraceId::from_bytes(id.to_bytes()), Some(id));
        let span = SpanId::from_u64(0x00f0_67aa_0ba9_02b7).unwrap();
        assert_eq!(span.to_string(), "00f067aa0ba902b7");
        assert_eq!(SpanId::from_bytes(span.to_bytes()), Some(span));
    }

    #[test]
    fn uppercase_and_other_bytes_are_not_hex() {
        assert_eq!(parse_hex(b"00F067AA0BA902B7"), None);
        assert_eq!(parse_hex(b"00f067aa0ba902g7"), None);
        assert_eq!(parse_hex(b"-0"), None);
        assert_eq!(parse_hex(b"ff"), Some(255));
    }

    #[test]
    fn zero_ids_do_not_exist_and_made_ids_differ() {
        assert_eq!(TraceId::from_u128(0), None);
        assert_eq!(SpanId::from_u64(0), None);
        assert_eq!(TraceId::from_bytes([0; 16]), None);
        let ids: std::collections::HashSet<TraceId> = (0..1000).map(|_| TraceId::random()).collect();
        assert_eq!(ids.len(), 1000);
        let spans: std::collections::HashSet<SpanId> = (0..1000).map(|_| SpanId::random()).collect();
        assert_eq!(spans.len(), 1000);
    }
}
