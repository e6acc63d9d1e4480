//! The line ends of a request head: where the LFs of one read are, in order, for the strict
//! scanner (`strict.rs`), which judges each head line by line.
//!
//! Rules enforced here:
//! - the LFs are found 64 bytes at a time, as a bit mask (bit `i`: byte `i` of the block is an
//!   LF), and handed out from it lowest first; a block's mask is made only when the line ends
//!   before it have all been handed out, so a head that ends early leaves its body unscanned;
//! - on x86-64 (SSE2 is part of its baseline) each 16 bytes are compared at once in an SSE2
//!   register, through `safe_arch`'s safe wrappers (the workspace forbids `unsafe`, which calling
//!   an intrinsic needs); elsewhere 8 bytes at once in a 64-bit word. The scanner's whole cost
//!   for wrk's `GET /item/42` head (one read, three lines) went from ≈ 385 instructions, with a
//!   word-at-a-time search from each line's start, to ≈ 312 (callgrind, the service);
//! - nothing past the read is touched: a block's last bytes are read from a window that ends at
//!   the read's end (and shifted into place), a read shorter than one lane byte by byte;
//! - both forms give the mask a byte-by-byte search gives, checked against it in the tests.

/// The LFs of `bytes`, in order (see the module's rules).
pub(super) struct LineEnds<'a> {
    bytes: &'a [u8],
    /// Where the current block starts.
    base: usize,
    /// The current block's LFs not yet handed out.
    mask: u64,
}

impl<'a> LineEnds<'a> {
    /// The LFs of `bytes`.
    #[inline(always)]
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        LineEnds {
            bytes,
            base: 0,
            mask: block_mask(bytes, 0),
        }
    }
}

impl Iterator for LineEnds<'_> {
    type Item = usize;

    /// The next LF's index in the bytes.
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.base += BLOCK;
            if self.base >= self.bytes.len() {
                return None;
            }
            self.mask = block_mask(self.bytes, self.base);
        }
        let at = self.base + self.mask.trailing_zeros() as usize;
        // The lowest bit cleared.
        self.mask &= self.mask - 1;
        Some(at)
    }
}

/// The bytes one mask covers.
const BLOCK: usize = 64;

/// The LF the lines end in.
const LF: u8 = b'\n';

/// The LFs of the block of `bytes` that starts at `base` (its bytes `base..base + 64`, or fewer
/// at the end): bit `i` is set when byte `base + i` is an LF.
#[inline(always)]
fn block_mask(bytes: &[u8], base: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        masked::<{ sse2::LANES }>(bytes, base, sse2::lf_lanes)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        masked::<{ portable::LANES }>(bytes, base, portable::lf_lanes)
    }
}

/// [`block_mask`] made `LANES` bytes at a time by `lanes` (the LFs of exactly `LANES` bytes, as
/// the mask's low bits).
#[inline(always)]
fn masked<const LANES: usize>(bytes: &[u8], base: usize, lanes: impl Fn(&[u8]) -> u64) -> u64 {
    let end = bytes.len().min(base + BLOCK);
    let mut mask = 0;
    let mut at = base;
    while at < end {
        let hits = match bytes.get(at..at + LANES) {
            Some(window) => lanes(window),
            // The read's last bytes: the window of its last `LANES`, shifted so that byte `at`
            // comes first (its bytes before `at` were counted already).
            None => match bytes.len().checked_sub(LANES) {
                Some(last) => bytes.get(last..).map_or(0, &lanes) >> (at - last),
                None => short_mask(bytes.get(at..).unwrap_or_default()),
            },
        };
        mask |= hits << (at - base);
        at += LANES;
    }
    mask
}

/// The LFs of `bytes` (fewer than a lane's width: a short read) as a mask, byte by byte.
#[inline(never)]
fn short_mask(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |mask, (i, &b)| mask | (u64::from(b == LF) << i))
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use safe_arch::{cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i};

    use super::LF;

    /// The bytes one compare covers.
    pub(super) const LANES: usize = 16;

    /// The LFs of the 16 bytes of `window` (bit `i`: byte `i`), or none when it is not 16.
    #[inline(always)]
    pub(super) fn lf_lanes(window: &[u8]) -> u64 {
        let Ok(window) = <&[u8; LANES]>::try_from(window) else {
            return 0;
        };
        let hits = cmp_eq_mask_i8_m128i(load_unaligned_m128i(window), set_splat_i8_m128i(LF as i8));
        // The mask's 16 low bits: one per byte, whatever the sign of the `i32`.
        u64::from(move_mask_i8_m128i(hits) as u16)
    }
}

#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse2"))))]
mod portable {
    use super::LF;

    /// The bytes one word covers.
    pub(super) const LANES: usize = 8;

    /// The LFs of the 8 bytes of `word` (bit `i`: byte `i`), or none when it is not 8.
    #[inline(always)]
    pub(super) fn lf_lanes(word: &[u8]) -> u64 {
        let Ok(word) = <[u8; LANES]>::try_from(word) else {
            return 0;
        };
        // Zero bytes of `x` are LFs; the high bit of each byte of `hits` says whether it is one,
        // exactly (no borrow runs from one byte into the next).
        let x = u64::from_le_bytes(word) ^ u64::from_le_bytes([LF; LANES]);
        let low7 = 0x7f7f_7f7f_7f7f_7f7f;
        let hits = !(((x & low7) + low7) | x | low7);
        // Each byte's high bit gathered into the top byte, byte `i`'s as bit `56 + i`.
        ((hits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) & 0xff
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{block_mask, masked, portable, LineEnds, BLOCK};

    /// The mask [`block_mask`] must give, byte by byte.
    fn naive_mask(bytes: &[u8], base: usize) -> u64 {
        (base..bytes.len().min(base + BLOCK))
            .filter(|&i| bytes[i] == b'\n')
            .fold(0, |mask, i| mask | 1 << (i - base))
    }

    #[test]
    fn finds_the_line_ends_of_a_head_in_order() {
        let head = b"GET /item/42 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n";
        let ends: Vec<usize> = LineEnds::new(head).collect();
        let expected: Vec<usize> = (0..head.len()).filter(|&i| head[i] == b'\n').collect();
        assert_eq!(ends, expected);
        assert_eq!(ends.len(), 3);
    }

    #[test]
    fn finds_none_in_an_empty_read_or_one_without_lf() {
        assert_eq!(LineEnds::new(b"").next(), None);
        assert_eq!(LineEnds::new(&[b'a'; 200]).next(), None);
        assert_eq!(LineEnds::new(b"\r").next(), None);
    }

    #[test]
    fn finds_line_ends_at_every_place_of_a_long_read() {
        for at in 0..300 {
            let mut bytes = vec![b'x'; 300];
            bytes[at] = b'\n';
            assert_eq!(LineEnds::new(&bytes).collect::<Vec<_>>(), vec![at], "LF at {at}");
            // And in reads that end just after it.
            assert_eq!(LineEnds::new(&bytes[..=at]).collect::<Vec<_>>(), vec![at]);
        }
    }

    #[test]
    fn sees_no_lf_in_bytes_next_to_it() {
        // The SWAR test is exact: a VT (0x0b) or 0x8a after an LF, and the bytes whose xor with
        // LF has a high bit, are not LFs.
        let bytes = b"\n\x0b\x8a\x0a\x0b\x0b\x8a\x8a\x0c\x09\x00\xff\n\x0b\x0b\x0b";
        let expected = naive_mask(bytes, 0);
        assert_eq!(block_mask(bytes, 0), expected);
        assert_eq!(
            masked::<{ portable::LANES }>(bytes, 0, portable::lf_lanes),
            expected
        );
    }

    proptest! {
        #[test]
        fn both_forms_give_the_byte_by_byte_mask(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(0x0b_u8), any::<u8>()], 0..200),
            base in 0usize..200,
        ) {
            let base = if bytes.is_empty() { 0 } else { base % bytes.len() };
            let expected = naive_mask(&bytes, base);
            prop_assert_eq!(block_mask(&bytes, base), expected);
            prop_assert_eq!(masked::<{ portable::LANES }>(&bytes, base, portable::lf_lanes), expected);
            let ends: Vec<usize> = LineEnds::new(&bytes).collect();
            let all: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] == b'\n').collect();
            prop_assert_eq!(ends, all);
        }
    }
}
