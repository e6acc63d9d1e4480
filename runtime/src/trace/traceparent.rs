//! The `traceparent` field of W3C Trace Context (<https://www.w3.org/TR/trace-context/>): read
//! from a request, written for the next hop.
//!
//! Rules enforced here:
//! - a value is `version-traceid-parentid-flags` in lowercase hex (2, 32, 16, 2 digits), the ids
//!   not all zeros, the version not `ff`; the optional whitespace around it (spaces and tabs) is
//!   ignored;
//! - version `00` is exactly 55 characters; a higher version is read as the specification's
//!   forward-compatibility rules say: at least 55 characters, the same first four fields, and
//!   after the flags either the end or a `-` (what follows is not read), of its flags only the
//!   sampled bit;
//! - of version `00`'s flags, the sampled (`01`) and random-trace-id (`02`) bits are kept, the
//!   others (which a sender must set to zero) dropped, so they are never passed on;
//! - anything else is no parent (the request starts a new trace), never an error: parsing returns
//!   `None`, and costs a pass over at most 55 bytes, without allocating.

use super::ids::{parse_hex, SpanId, TraceId};

/// The sampled flag: the caller may have recorded the trace.
pub const SAMPLED: u8 = 0x01;

/// The random-trace-id flag (Trace Context Level 2): the right-most 7 bytes of the trace id are
/// random.
pub const RANDOM: u8 = 0x02;

/// The flags version `00` defines, the ones passed on.
const KNOWN_FLAGS: u8 = SAMPLED | RANDOM;

/// The length of a version `00` value.
const LEN: usize = 55;

/// A caller's trace context, as its `traceparent` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TraceParent {
    /// The version the caller wrote (`00`, or a later one read by the forward-compatibility rules).
    pub version: u8,
    /// The trace the caller is in.
    pub trace_id: TraceId,
    /// The caller's span (the parent of this request's).
    pub parent_id: SpanId,
    /// The flags kept (see the module rules).
    pub flags: u8,
}

impl TraceParent {
    /// The value of a `traceparent` field, or `None` when it is not one (see the module rules).
    pub fn parse(value: &[u8]) -> Option<Self> {
        let value = trim_ows(value);
        if value.len() < LEN {
            return None;
        }
        let version = byte(value.get(..2)?)?;
        if version == 0xff {
            return None;
        }
        // For version 00, exactly 55; a later version may go on after a `-`.
        let tail_ok = match value.get(LEN) {
            None => true,
            Some(&b'-') => version != 0,
            Some(_) => false,
        };
        if !tail_ok || value[2] != b'-' || value[35] != b'-' || value[52] != b'-' {
            return None;
        }
        let high = parse_hex(value.get(3..19)?)?;
        let low = parse_hex(value.get(19..35)?)?;
        let trace_id = TraceId::from_u128((u128::from(high) << 64) | u128::from(low))?;
        let parent_id = SpanId::from_u64(parse_hex(value.get(36..52)?)?)?;
        let flags = byte(value.get(53..55)?)?;
        let kept = if version == 0 { KNOWN_FLAGS } else { SAMPLED };
        Some(TraceParent {
            version,
            trace_id,
            parent_id,
            flags: flags & kept,
        })
    }
}

/// Two lowercase hex digits as a byte.
fn byte(digits: &[u8]) -> Option<u8> {
    parse_hex(digits).and_then(|value| u8::try_from(value).ok())
}

/// `value` without the spaces and tabs around it (HTTP's optional whitespace).
fn trim_ows(value: &[u8]) -> &[u8] {
    let is_ows = |b: &u8| *b == b' ' || *b == b'\t';
    let start = value.iter().position(|b| !is_ows(b)).unwrap_or(value.len());
    let end = value.iter().rposition(|b| !is_ows(b)).map_or(start, |at| at + 1);
    value.get(start..end).unwrap_or_default()
}

/// The version `00` value of a context: `00-{trace_id}-{span_id}-{flags}`, 55 bytes.
pub(super) fn format(trace_id: TraceId, span_id: SpanId, flags: u8) -> [u8; LEN] {
    let mut out = [b'-'; LEN];
    out[..2].copy_from_slice(b"00");
    out[3..35].copy_from_slice(&trace_id.to_hex());
    out[36..52].copy_from_slice(&span_id.to_hex());
    out[53..55].copy_from_slice(&super::ids::hex16(u64::from(flags))[14..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = "00-12345678901234567890123456789012-1234567890123456-01";

    fn parse(value: &str) -> Option<TraceParent> {
        TraceParent::parse(value.as_bytes())
    }

    #[test]
    fn a_valid_value_is_read() {
        let parent = parse(VALID).unwrap();
        assert_eq!(parent.version, 0);
        assert_eq!(parent.trace_id.to_string(), "12345678901234567890123456789012");
        assert_eq!(parent.parent_id.to_string(), "1234567890123456");
        assert_eq!(parent.flags, SAMPLED);
        assert_eq!(parse(&VALID.replace("-01", "-00")).unwrap().flags, 0);
        // The unknown flags are dropped, the random flag kept.
        assert_eq!(
            parse(&VALID.replace("-01", "-ff")).unwrap().flags,
            SAMPLED | RANDOM
        );
        assert_eq!(parse(&VALID.replace("-01", "-02")).unwrap().flags, RANDOM);
    }

    /// The W3C test suite's cases (test/test.py of w3c/trace-context) that a parser decides.
    #[test]
    fn the_w3c_suites_invalid_values_start_a_new_trace() {
        for bad in [
            // test_traceparent_version_0x00: nothing may follow a version 00 value
            "00-12345678901234567890123456789012-1234567890123456-01.",
            "00-12345678901234567890123456789012-1234567890123456-01-what-the-future-will-be-like",
            // test_traceparent_version_0xff
            "ff-12345678901234567890123456789012-1234567890123456-01",
            // test_traceparent_version_illegal_characters
            ".0-12345678901234567890123456789012-1234567890123456-01",
            "0.-12345678901234567890123456789012-1234567890123456-01",
            // test_traceparent_version_too_long / too_short
            "000-12345678901234567890123456789012-1234567890123456-01",
            "0000-12345678901234567890123456789012-1234567890123456-01",
            "0-12345678901234567890123456789012-1234567890123456-01",
            // test_traceparent_trace_id_all_zero / illegal_characters / too_long / too_short
            "00-00000000000000000000000000000000-1234567890123456-01",
            "00-.2345678901234567890123456789012-1234567890123456-01",
            "00-1234567890123456789012345678901.-1234567890123456-01",
            "00-123456789012345678901234567890123-1234567890123456-01",
            "00-1234567890123456789012345678901-1234567890123456-01",
            // test_traceparent_parent_id_all_zero / illegal_characters / too_long / too_short
            "00-12345678901234567890123456789012-0000000000000000-01",
            "00-12345678901234567890123456789012-.234567890123456-01",
            "00-12345678901234567890123456789012-123456789012345.-01",
            "00-12345678901234567890123456789012-12345678901234567-01",
            "00-12345678901234567890123456789012-123456789012345-01",
            // test_traceparent_trace_flags_illegal_characters / too_long / too_short
            "00-12345678901234567890123456789012-1234567890123456-.0",
            "00-12345678901234567890123456789012-1234567890123456-0.",
            "00-12345678901234567890123456789012-1234567890123456-001",
            "00-12345678901234567890123456789012-1234567890123456-1",
            // a later version with something other than a `-` after the flags
            "cc-12345678901234567890123456789012-1234567890123456-01.what-the-future-will-be-like",
            // uppercase hex, in each field
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",
            "0A-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",
            // other separators, empty
            "00_12345678901234567890123456789012_1234567890123456_01",
            "",
            "  \t ",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn the_w3c_suites_valid_values_are_read() {
        // test_traceparent_version_0xcc: a later version, alone or with fields after a `-`
        for good in [
            "cc-12345678901234567890123456789012-1234567890123456-01",
            "cc-12345678901234567890123456789012-1234567890123456-01-what-the-future-will-be-like",
            // test_traceparent_ows_handling
            " 00-12345678901234567890123456789012-1234567890123456-01",
            "\t00-12345678901234567890123456789012-1234567890123456-01",
            "00-12345678901234567890123456789012-1234567890123456-01 ",
            "00-12345678901234567890123456789012-1234567890123456-01\t",
            "\t 00-12345678901234567890123456789012-1234567890123456-01 \t",
        ] {
            let parent = parse(good).unwrap_or_else(|| panic!("{good:?}"));
            assert_eq!(parent.trace_id.to_string(), "12345678901234567890123456789012");
            assert_eq!(parent.flags, SAMPLED, "{good:?}");
        }
        // A later version passes on only the sampled bit.
        assert_eq!(
            parse("cc-12345678901234567890123456789012-1234567890123456-03-x")
                .unwrap()
                .flags,
            SAMPLED
        );
    }

    #[test]
    fn a_context_is_written_as_version_00() {
        let parent = parse(VALID).unwrap();
        let written = format(parent.trace_id, parent.parent_id, parent.flags);
        assert_eq!(std::str::from_utf8(&written).unwrap(), VALID);
        assert_eq!(TraceParent::parse(&written), Some(parent));
        let written = format(parent.trace_id, parent.parent_id, RANDOM);
        assert!(std::str::from_utf8(&written).unwrap().ends_with("-02"));
    }
}
