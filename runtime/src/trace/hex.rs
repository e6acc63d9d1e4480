//! Ids as lowercase hex: 8 bytes (a span id) as 16 digits, 16 bytes (a trace id) as 32, most
//! significant byte first. The access line of a traced request writes 24 bytes of ids, sampled or
//! not, so this is on the request path of every app that traces.
//!
//! Rules enforced here:
//! - on x86-64 (SSE2 is part of its baseline) 16 bytes are written at once in SSE2 registers,
//!   through `safe_arch`'s safe wrappers (the workspace forbids `unsafe`, and calling an intrinsic
//!   needs it even where the build enables the feature): a nibble per byte, each nibble made a
//!   digit by one compare and two adds. The 24 bytes of the access line cost ≈ 47 instructions
//!   (callgrind, a loop of a million ids), against ≈ 160 for the portable form below and for the
//!   `const-hex` and `faster-hex` crates (≈ 160 and ≈ 145, their dispatch and copies included);
//! - elsewhere, the portable form works on 64-bit words, four bytes at a time;
//! - both forms write the same digits as `format!("{:016x}")`, checked against it in the tests.

/// `value`'s 8 bytes (big-endian) as 16 lowercase hex digits.
#[inline(always)]
pub(crate) fn hex16(value: u64) -> [u8; 16] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::hex16(value)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::hex16(value)
    }
}

/// The 16 bytes `high` then `low` (each big-endian) as 32 lowercase hex digits.
#[inline(always)]
pub(crate) fn hex32(high: u64, low: u64) -> [u8; 32] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::hex32(high, low)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        portable::hex32(high, low)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use safe_arch::{
        add_i8_m128i, bitand_m128i, cmp_gt_mask_i8_m128i, m128i, set_i64_m128i, set_splat_i8_m128i,
        shr_imm_u16_m128i, unpack_high_i8_m128i, unpack_low_i8_m128i,
    };

    /// See [`super::hex16`].
    #[inline(always)]
    pub(super) fn hex16(value: u64) -> [u8; 16] {
        let (first, _) = nibbles(value, 0);
        digits(first).into()
    }

    /// See [`super::hex32`].
    #[inline(always)]
    pub(super) fn hex32(high: u64, low: u64) -> [u8; 32] {
        let (first, second) = nibbles(high, low);
        let first: [u8; 16] = digits(first).into();
        let second: [u8; 16] = digits(second).into();
        let mut out = [0u8; 32];
        out[..16].copy_from_slice(&first);
        out[16..].copy_from_slice(&second);
        out
    }

    /// The 16 bytes `high` then `low` (big-endian) as 32 nibbles, one per byte, in writing
    /// order: the first 8 bytes' in the first register, the last 8's in the second.
    #[inline(always)]
    fn nibbles(high: u64, low: u64) -> (m128i, m128i) {
        // Memory order in the register: byte 0 is the most significant byte of `high`.
        let bytes = set_i64_m128i(low.swap_bytes() as i64, high.swap_bytes() as i64);
        let mask = set_splat_i8_m128i(0x0f);
        let highs = bitand_m128i(shr_imm_u16_m128i::<4>(bytes), mask);
        let lows = bitand_m128i(bytes, mask);
        (
            unpack_low_i8_m128i(highs, lows),
            unpack_high_i8_m128i(highs, lows),
        )
    }

    /// Sixteen values below 16 as lowercase hex digits: `'0' + n`, plus `'a' - '0' - 10` where
    /// `n` is above 9.
    #[inline(always)]
    fn digits(nibbles: m128i) -> m128i {
        let letters = bitand_m128i(
            cmp_gt_mask_i8_m128i(nibbles, set_splat_i8_m128i(9)),
            set_splat_i8_m128i((b'a' - b'0' - 10) as i8),
        );
        add_i8_m128i(add_i8_m128i(nibbles, set_splat_i8_m128i(b'0' as i8)), letters)
    }
}

// Compiled everywhere so the tests check it on x86-64 too; used where SSE2 is not there.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
mod portable {
    /// See [`super::hex16`].
    #[inline(always)]
    pub(super) fn hex16(value: u64) -> [u8; 16] {
        let mut out = [0u8; 16];
        let (high, low) = out.split_at_mut(8);
        high.copy_from_slice(&hex8((value >> 32) as u32));
        low.copy_from_slice(&hex8(value as u32));
        out
    }

    /// See [`super::hex32`].
    #[inline(always)]
    pub(super) fn hex32(high: u64, low: u64) -> [u8; 32] {
        let mut out = [0u8; 32];
        let (first, second) = out.split_at_mut(16);
        first.copy_from_slice(&hex16(high));
        second.copy_from_slice(&hex16(low));
        out
    }

    /// `value`'s 4 bytes (big-endian) as 8 lowercase hex digits: each byte spread into a 16-bit
    /// lane, each nibble into a byte, then every nibble made a digit at once (see [`digits`]).
    #[inline(always)]
    fn hex8(value: u32) -> [u8; 8] {
        let mut v = u64::from(value);
        v = (v | (v << 16)) & 0x0000_ffff_0000_ffff;
        v = (v | (v << 8)) & 0x00ff_00ff_00ff_00ff;
        // Byte k of `value` (k = 0 the least significant) is in lane k: its low nibble in the
        // lane's low byte, its high nibble in the high byte, so the big-endian bytes read in order.
        v = (v | (v << 4)) & 0x0f0f_0f0f_0f0f_0f0f;
        digits(v).to_be_bytes()
    }

    /// Eight values below 16, one in each byte of `nibbles`, as lowercase hex digits: `'0' + n`,
    /// plus `'a' - '0' - 10` where `n` is 10 or more (adding 6 carries such a nibble into its
    /// byte's bit 4); no byte carries into the next.
    fn digits(nibbles: u64) -> u64 {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let letters = ((nibbles + 6 * ONES) >> 4) & ONES;
        nibbles + u64::from(b'0') * ONES + letters * u64::from(b'a' - b'0' - 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words whose nibbles take every value in every place, and the edges.
    fn words() -> Vec<u64> {
        let mut words = vec![0, 1, u64::MAX, 0x00f0_67aa_0ba9_02b7, 0x0123_4567_89ab_cdef];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            words.push(x);
        }
        for digit in 0..16u64 {
            words.push(digit * 0x1111_1111_1111_1111);
        }
        words
    }

    #[test]
    fn both_forms_write_what_format_writes() {
        let words = words();
        for (&high, &low) in words.iter().zip(words.iter().rev()) {
            let expected16 = format!("{high:016x}");
            let expected32 = format!("{high:016x}{low:016x}");
            assert_eq!(std::str::from_utf8(&hex16(high)), Ok(expected16.as_str()));
            assert_eq!(std::str::from_utf8(&hex32(high, low)), Ok(expected32.as_str()));
            assert_eq!(
                std::str::from_utf8(&portable::hex16(high)),
                Ok(expected16.as_str())
            );
            assert_eq!(
                std::str::from_utf8(&portable::hex32(high, low)),
                Ok(expected32.as_str())
            );
        }
    }
}
