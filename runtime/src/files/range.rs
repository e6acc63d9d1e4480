//! The `Range` header of a file request (RFC 9110 §14): which bytes the client asks for.
//!
//! Rules enforced here:
//! - only the `bytes` unit and a single range are honoured (`a-b`, `a-`, `-n`); a header that does
//!   not parse, or asks for several ranges, is ignored: the whole file is the answer (RFC 9110
//!   allows a server to ignore `Range`, and one range is all browsers and players send);
//! - a range starting at or past the end, and the empty suffix `-0`, are unsatisfiable (416);
//! - an end past the file's end is cut to it, a suffix longer than the file is the whole file;
//! - numbers are ASCII digits only, and one too large for a `u64` makes the header unparsable,
//!   never an overflow.

/// What a `Range` header asks of a file of a given length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ranged {
    /// Send the whole file (no range, or one that is ignored).
    Whole,
    /// Send bytes `start..=end` (a 206).
    Part { start: u64, end: u64 },
    /// Nothing of the file is asked for (a 416).
    Unsatisfiable,
}

/// The range `header` asks of a file of `len` bytes.
pub(crate) fn parse_range(header: &str, len: u64) -> Ranged {
    let Some(spec) = header.trim().strip_prefix("bytes=") else {
        return Ranged::Whole;
    };
    let spec = spec.trim();
    if spec.contains(',') {
        return Ranged::Whole;
    }
    let Some((first, last)) = spec.split_once('-') else {
        return Ranged::Whole;
    };
    let (first, last) = (first.trim(), last.trim());
    match (first.is_empty(), last.is_empty()) {
        // `-n`: the last n bytes.
        (true, false) => match number(last) {
            Some(0) => Ranged::Unsatisfiable,
            Some(_) if len == 0 => Ranged::Unsatisfiable,
            Some(n) => Ranged::Part {
                start: len.saturating_sub(n),
                end: len - 1,
            },
            None => Ranged::Whole,
        },
        // `a-`: from a to the end.
        (false, true) => match number(first) {
            Some(start) if start >= len => Ranged::Unsatisfiable,
            Some(start) => Ranged::Part { start, end: len - 1 },
            None => Ranged::Whole,
        },
        // `a-b`.
        (false, false) => match (number(first), number(last)) {
            (Some(start), Some(end)) if start <= end => {
                if start >= len {
                    Ranged::Unsatisfiable
                } else {
                    Ranged::Part {
                        start,
                        end: end.min(len - 1),
                    }
                }
            }
            _ => Ranged::Whole,
        },
        (true, true) => Ranged::Whole,
    }
}

/// A decimal number of ASCII digits that fits a `u64`.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_three_forms_and_their_limits() {
        assert_eq!(parse_range("bytes=0-9", 100), Ranged::Part { start: 0, end: 9 });
        assert_eq!(parse_range("bytes=90-", 100), Ranged::Part { start: 90, end: 99 });
        assert_eq!(parse_range("bytes=-10", 100), Ranged::Part { start: 90, end: 99 });
        assert_eq!(parse_range("bytes=-500", 100), Ranged::Part { start: 0, end: 99 });
        assert_eq!(
            parse_range("bytes=50-500", 100),
            Ranged::Part { start: 50, end: 99 }
        );
        assert_eq!(parse_range("bytes=100-", 100), Ranged::Unsatisfiable);
        assert_eq!(parse_range("bytes=100-200", 100), Ranged::Unsatisfiable);
        assert_eq!(parse_range("bytes=-0", 100), Ranged::Unsatisfiable);
        assert_eq!(parse_range("bytes=0-", 0), Ranged::Unsatisfiable);
        assert_eq!(parse_range("bytes=-1", 0), Ranged::Unsatisfiable);
        for ignored in [
            "",
            "bytes=",
            "bytes=-",
            "bytes=5-1",
            "bytes=0-1,3-4",
            "items=0-1",
            "bytes=+1-2",
            "bytes=0x1-2",
            "bytes=99999999999999999999-",
            "bytes=a-b",
        ] {
            assert_eq!(parse_range(ignored, 100), Ranged::Whole, "{ignored:?}");
        }
    }

    proptest! {
        #[test]
        fn never_panics_and_a_part_lies_inside_the_file(header in "\\PC{0,40}", len in 0u64..10_000) {
            if let Ranged::Part { start, end } = parse_range(&header, len) {
                prop_assert!(start <= end && end < len);
            }
        }

        #[test]
        fn a_satisfiable_range_is_the_bytes_asked_for(len in 1u64..1 << 40, a in 0u64..1 << 41, b in 0u64..1 << 41) {
            let (start, end) = (a.min(b), a.max(b));
            let header = format!("bytes={start}-{end}");
            let expected = if start >= len {
                Ranged::Unsatisfiable
            } else {
                Ranged::Part { start, end: end.min(len - 1) }
            };
            prop_assert_eq!(parse_range(&header, len), expected);
            let suffix = parse_range(&format!("bytes=-{a}"), len);
            if a == 0 {
                prop_assert_eq!(suffix, Ranged::Unsatisfiable);
            } else {
                prop_assert_eq!(suffix, Ranged::Part { start: len.saturating_sub(a), end: len - 1 });
            }
        }
    }
}
