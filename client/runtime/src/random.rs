//! Random numbers for idempotency keys, multipart boundaries and retry jitter, from the standard
//! library alone.
//!
//! Rules enforced here: each number mixes the operating system's randomness (the seed of the
//! standard library's `RandomState`, drawn once per thread), a per-process counter and the time,
//! through SipHash, so no two keys of one process repeat and keys of two processes differ without
//! coordination. None of it is a secret: a key only has to be unique.

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
    fn below_stays_in_range() {
        assert!((0..1000).all(|_| below(9) <= 9));
        assert_eq!(below(0), 0);
    }
}
