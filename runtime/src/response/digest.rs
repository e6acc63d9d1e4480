//! A digest of bytes for validators and fingerprints (an entity tag computed from a body, an
//! idempotency key's request fingerprint).
//!
//! Rules enforced here: the digest is 64-bit FNV-1a, the same in every process, build and
//! platform (std's `DefaultHasher` promises none of that); it detects changes, not forgeries.

/// 64-bit FNV-1a of `parts`, one after the other.
pub(crate) fn fnv1a<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    parts
        .into_iter()
        .flatten()
        .fold(OFFSET, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_parts_are_concatenated() {
        assert_eq!(fnv1a([&b""[..]]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a([&b"a"[..]]), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a([&b"ab"[..]]), fnv1a([&b"a"[..], b"b"]));
    }
}
