//! Random numbers for idempotency keys, request ids, multipart boundaries and retry jitter, from
//! the standard library alone.
//!
//! Rules enforced here: each number mixes the operating system's randomness (the seed of the
//! standard library's `RandomState`, drawn once per thread), a per-process counter and the time,
//! through SipHash, so no two keys of one process repeat and keys of two processes differ without
//! coordination. Request ids, drawn on every call, come from a per-thread stream seeded that way
//! and stepped cheaply ([`next_u128`]). None of it is a secret: a key only has to be unique.

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 random bits.
pub(crate) fn next_u64() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_nanos());
    hasher.write_u128(now);
    hasher.write_u32(std::process::id());
    hasher.finish()
}

thread_local! {
    /// The state of this thread's stream of request-id bits (zero until its first draw).
    static STREAM: Cell<u128> = const { Cell::new(0) };
}

/// The step between two states of a stream: odd, so a state comes back only after 2^128 draws.
const STEP: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;

/// 128 random bits for a request id, at a few instructions a draw (one per call: issue 43 keeps
/// a generated call within 1.15x a hand-written request, and two seeded SipHash draws cost
/// about 500 instructions). Each thread steps a 128-bit state, seeded once from [`next_u64`]
/// (the operating system's randomness, the time and the process), by an odd constant, and mixes
/// each half by a bijection (SplitMix64's finalizer): within a thread no two draws are equal,
/// and threads and processes start from unrelated states. A child forked after its parent drew
/// repeats the parent's thread's stream, as the standard library's `RandomState` keys do; ids
/// only have to tell calls apart in a log, not resist an adversary.
pub(crate) fn next_u128() -> u128 {
    STREAM.with(|stream| {
        let mut state = stream.get();
        if state == 0 {
            state = (u128::from(next_u64()) << 64) | u128::from(next_u64());
        }
        state = state.wrapping_add(STEP);
        stream.set(state);
        (u128::from(mix((state >> 64) as u64)) << 64) | u128::from(mix(state as u64))
    })
}

/// SplitMix64's finalizer: a bijection of `u64` whose outputs for close inputs look unrelated.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A fresh idempotency key: a random (version 4) UUID in its hyphenated form.
pub fn idempotency_key() -> String {
    let (high, low) = (next_u64(), next_u64());
    // Version 4 (random) and the RFC 4122 variant, as `uuid::Uuid::new_v4` sets them.
    let high = (high & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_4000;
    let low = (low & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000;
    format!(
        "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
        high >> 32,
        (high >> 16) & 0xffff,
        high & 0xffff,
        low >> 48,
        low & 0xffff_ffff_ffff
    )
}

/// A number in `0..=upper`, about uniformly.
pub(crate) fn below(upper: u64) -> u64 {
    match upper.checked_add(1) {
        Some(span) => next_u64() % span,
        None => next_u64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_version_4_uuids_and_never_repeat() {
        let keys: std::collections::HashSet<String> = (0..10_000).map(|_| idempotency_key()).collect();
        assert_eq!(keys.len(), 10_000);
        for key in keys.iter().take(20) {
            assert_eq!(key.len(), 36, "{key}");
            assert_eq!(&key[14..15], "4", "{key}");
            assert!(matches!(&key[19..20], "8" | "9" | "a" | "b"), "{key}");
        }
    }

    #[test]
    fn draws_of_128_bits_never_repeat_and_use_both_halves() {
        let draws: std::collections::HashSet<u128> = (0..10_000).map(|_| next_u128()).collect();
        assert_eq!(draws.len(), 10_000);
        // Another thread starts from another state.
        let there = std::thread::spawn(|| (0..10_000).map(|_| next_u128()).collect::<Vec<_>>())
            .join()
            .unwrap_or_default();
        assert_eq!(there.len(), 10_000);
        assert!(there.iter().all(|draw| !draws.contains(draw)));
        let halves: std::collections::HashSet<u64> = draws
            .iter()
            .flat_map(|draw| [(draw >> 64) as u64, *draw as u64])
            .collect();
        assert_eq!(halves.len(), 20_000, "no half repeats the other");
    }

    #[test]
    fn the_mix_spreads_a_one_bit_change_over_about_half_the_bits() {
        let flipped: u32 = (0..64).map(|bit| (mix(1 << bit) ^ mix(0)).count_ones()).sum();
        let average = flipped / 64;
        assert!((24..=40).contains(&average), "{average}");
    }

    #[test]
    fn below_stays_in_range() {
        assert!((0..1000).all(|_| below(9) <= 9));
        assert_eq!(below(0), 0);
    }
}
