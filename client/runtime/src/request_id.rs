//! A call's id, sent as `X-Request-Id`: the server's log lines of one call share it, its answer
//! echoes it, and every error of the call names it.
//!
//! Rules enforced here: an id is made once per logical call, so every retry of the call sends the
//! same one; it is 32 lowercase hex digits (128 random bits), which a ferrapi server keeps as sent
//! (it keeps letters, digits and `-_.:/+=@`, at most 128 bytes, and replaces anything else); ids
//! are drawn from [`random`](crate::random)'s per-thread stream and written through a table, 128
//! at a time into one buffer that each id is a shared slice of (as the server makes its own), so
//! an id costs no formatting machinery and no allocation of its own (issue 43: the generated call
//! stays within 1.15x a hand-written request); an id given by the caller (the call's, the
//! client's default header, the operation's own parameter) is sent instead of a made one, and is
//! the one errors name.

use std::cell::RefCell;

use bytes::Bytes;
use hyper::header::HeaderValue;

/// How many hex digits a made id has.
const LEN: usize = 32;

/// The ids made at a time, in one buffer: one allocation per 128 calls (4 KiB, freed when the
/// thread has moved to the next buffer and the last request holding one of its ids is written).
const BLOCK_BYTES: usize = 128 * LEN;

/// The two hex digits of each byte value (one table read a byte, not two).
static HEX_PAIRS: [[u8; 2]; 256] = {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut pairs = [[0u8; 2]; 256];
    let mut byte = 0;
    while byte < 256 {
        pairs[byte] = [DIGITS[byte >> 4], DIGITS[byte & 0xf]];
        byte += 1;
    }
    pairs
};

/// Ids made ahead on one thread, handed out in order.
struct Block {
    ids: Bytes,
    /// Where the next id starts.
    next: usize,
}

impl Block {
    /// A buffer of new ids.
    #[cold]
    fn fresh() -> Self {
        let mut ids = Vec::with_capacity(BLOCK_BYTES);
        while ids.len() < BLOCK_BYTES {
            for byte in crate::random::next_u128().to_be_bytes() {
                ids.extend_from_slice(&HEX_PAIRS[usize::from(byte)]);
            }
        }
        Block {
            ids: Bytes::from(ids),
            next: 0,
        }
    }
}

thread_local! {
    /// This thread's block of ids; empty until its first id.
    static BLOCK: RefCell<Block> = const { RefCell::new(Block { ids: Bytes::new(), next: 0 }) };
}

/// A new id, as the header value it is sent in; `None` cannot happen (hex digits are valid header
/// bytes, and making an id never makes another), and would send no id rather than fail the call.
pub(crate) fn made() -> Option<HeaderValue> {
    let id = BLOCK.with(|block| {
        let mut block = block.try_borrow_mut().ok()?;
        if block.next + LEN > block.ids.len() {
            *block = Block::fresh();
        }
        let at = block.next;
        block.next = at + LEN;
        Some(block.ids.slice(at..at + LEN))
    })?;
    HeaderValue::from_maybe_shared(id).ok()
}

/// The id `sent`, if any, for an error to name (`None` for a given id that is not text).
pub(crate) fn boxed(sent: Option<&HeaderValue>) -> Option<Box<str>> {
    sent?.to_str().ok().map(Box::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn made_ids_are_32_lowercase_hex_digits_and_never_repeat_across_blocks() {
        // Three blocks' worth: the block is renewed twice on the way.
        let ids: Vec<HeaderValue> = (0..3 * BLOCK_BYTES / LEN).filter_map(|_| made()).collect();
        assert_eq!(ids.len(), 3 * BLOCK_BYTES / LEN);
        for id in &ids {
            assert_eq!(id.len(), 32, "{id:?}");
            assert!(
                id.as_bytes()
                    .iter()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b)),
                "{id:?}"
            );
        }
        let distinct: HashSet<&[u8]> = ids.iter().map(HeaderValue::as_bytes).collect();
        assert_eq!(distinct.len(), ids.len());
        // Every digit position takes every value somewhere: the whole 128 bits are written.
        for position in 0..LEN {
            let seen: HashSet<u8> = ids.iter().map(|id| id.as_bytes()[position]).collect();
            assert_eq!(seen.len(), 16, "position {position}");
        }
    }

    #[test]
    fn an_id_is_named_as_sent() {
        let id = made().unwrap_or_else(|| HeaderValue::from_static("none"));
        assert_eq!(boxed(Some(&id)).as_deref(), id.to_str().ok());
        assert_eq!(
            boxed(Some(&HeaderValue::from_static("trace-7"))).as_deref(),
            Some("trace-7")
        );
        let not_text =
            HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap_or_else(|_| HeaderValue::from_static("x"));
        assert_eq!(boxed(Some(&not_text)), None);
        assert_eq!(boxed(None), None);
    }
}
