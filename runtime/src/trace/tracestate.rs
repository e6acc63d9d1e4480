//! The `tracestate` field of W3C Trace Context: the vendors' entries that travel with a trace,
//! kept as the caller sent them.
//!
//! Rules enforced here:
//! - read only when the request's `traceparent` was valid (the specification forbids reading it
//!   otherwise), and only when asked (a route taking the context; later, a sampled span): a
//!   request that does not use it pays nothing;
//! - every `tracestate` field of the request is one list, the fields joined with `,` in order;
//!   empty members (and whitespace-only ones) are allowed and skipped;
//! - a member is `key=value`: the key starts with a lowercase letter or a digit and has at most
//!   256 of `a-z 0-9 _ - * / @`; the value 1 to 256 printable ASCII characters but `,` and `=`,
//!   not ending in a space; a list with a member that is not, or with more than 32 members, is
//!   dropped whole (the W3C test suite's expectation);
//! - a list is kept as given (its members in their order, duplicates too) up to 512 characters,
//!   the length the specification asks every vendor to pass on; a longer one is cut by whole
//!   members as it says: members longer than 128 characters first, then from the end.

use hyper::header::HeaderName;
use hyper::HeaderMap;

/// The field's name.
pub static TRACESTATE: HeaderName = HeaderName::from_static("tracestate");

/// The most members of a list.
const MAX_MEMBERS: usize = 32;

/// The longest list kept whole, in characters (the specification's minimum to pass on).
const MAX_LEN: usize = 512;

/// A member longer than this goes first when a list is cut.
const LONG_MEMBER: usize = 128;

/// The request's trace state, or `None` when it sent none or an invalid one (see the module
/// rules).
pub(super) fn read(headers: &HeaderMap) -> Option<String> {
    let mut members: Vec<&str> = Vec::new();
    let mut joined_len = 0;
    for value in headers.get_all(&TRACESTATE) {
        let text = std::str::from_utf8(value.as_bytes()).ok()?;
        joined_len += text.len() + 1;
        for member in text.split(',') {
            let member = member.trim_matches([' ', '\t']);
            if member.is_empty() {
                continue;
            }
            if !valid_member(member) || members.len() == MAX_MEMBERS {
                return None;
            }
            members.push(member);
        }
    }
    if members.is_empty() {
        return None;
    }
    if joined_len.saturating_sub(1) <= MAX_LEN {
        // As given: the fields joined, their whitespace kept.
        let fields: Vec<&str> = headers
            .get_all(&TRACESTATE)
            .iter()
            .filter_map(|value| std::str::from_utf8(value.as_bytes()).ok())
            .filter(|text| !text.trim_matches([' ', '\t']).is_empty())
            .collect();
        return Some(fields.join(","));
    }
    Some(cut(members))
}

/// `members` joined with `,`, cut to [`MAX_LEN`] by whole members: long ones first, then from
/// the end.
fn cut(mut members: Vec<&str>) -> String {
    let len =
        |members: &[&str]| members.iter().map(|m| m.len()).sum::<usize>() + members.len().saturating_sub(1);
    while len(&members) > MAX_LEN {
        match members.iter().rposition(|m| m.len() > LONG_MEMBER) {
            Some(at) => {
                members.remove(at);
            }
            None => {
                members.pop();
            }
        }
    }
    members.join(",")
}

/// Whether `member` (trimmed, not empty) is `key=value` as the module rules say.
fn valid_member(member: &str) -> bool {
    let Some((key, value)) = member.split_once('=') else {
        return false;
    };
    valid_key(key.as_bytes()) && valid_value(value.as_bytes())
}

/// `( lcalpha / DIGIT ) 0*255 ( lcalpha / DIGIT / "_" / "-" / "*" / "/" / "@" )`.
fn valid_key(key: &[u8]) -> bool {
    let Some((first, rest)) = key.split_first() else {
        return false;
    };
    (first.is_ascii_lowercase() || first.is_ascii_digit())
        && rest.len() <= 255
        && rest.iter().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'*' | b'/' | b'@')
        })
}

/// `0*255( %x20 / nblk-chr ) nblk-chr`, `nblk-chr` being printable ASCII but `,` and `=`.
fn valid_value(value: &[u8]) -> bool {
    let nblk = |b: u8| (0x21..=0x7e).contains(&b) && b != b',' && b != b'=';
    match value.split_last() {
        Some((&last, rest)) => rest.len() <= 255 && nblk(last) && rest.iter().all(|&b| b == b' ' || nblk(b)),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn read_of(fields: &[&str]) -> Option<String> {
        let mut headers = HeaderMap::new();
        for field in fields {
            headers.append(&TRACESTATE, HeaderValue::from_str(field).unwrap());
        }
        read(&headers)
    }

    #[test]
    fn fields_are_joined_as_given() {
        assert_eq!(read_of(&["foo=1,bar=2"]).as_deref(), Some("foo=1,bar=2"));
        assert_eq!(
            read_of(&["foo=1,bar=2", "rojo=1,congo=2", "baz=3"]).as_deref(),
            Some("foo=1,bar=2,rojo=1,congo=2,baz=3")
        );
        // Empty fields are skipped; whitespace around members is allowed.
        assert_eq!(read_of(&["foo=1", ""]).as_deref(), Some("foo=1"));
        assert_eq!(read_of(&["", "foo=1"]).as_deref(), Some("foo=1"));
        assert_eq!(
            read_of(&["foo=1 \t , \t bar=2, \t baz=3"]).as_deref(),
            Some("foo=1 \t , \t bar=2, \t baz=3")
        );
        assert_eq!(read_of(&[""]), None);
        assert_eq!(read_of(&[]), None);
        // Duplicated keys are kept as they are (the suite allows it).
        assert_eq!(read_of(&["foo=1,foo=2"]).as_deref(), Some("foo=1,foo=2"));
    }

    #[test]
    fn the_w3c_suites_keys_and_values() {
        let key = "abcdefghijklmnopqrstuvwxyz0123456789_-*/";
        let value: String = (0x20u8..=0x7e)
            .filter(|b| *b != b',' && *b != b'=')
            .map(char::from)
            .collect();
        // The suite's value ends in `~`, not a space.
        assert!(read_of(&[&format!("{key}={value}")]).is_some());
        assert!(read_of(&[&format!("{key}@a-z0-9_-*/={value}")]).is_some());
        for good in ["foo@=1,bar=2", "foo@@bar=1,bar=2", "foo@bar@baz=1,bar=2"] {
            assert!(read_of(&[good]).is_some(), "{good}");
        }
        for bad in [
            "foo =1",
            "FOO=1",
            "foo.bar=1",
            "@foo=1,bar=2",
            "foo=bar=baz",
            "foo=,bar=3",
            "foo",
        ] {
            assert_eq!(read_of(&[bad]), None, "{bad}");
        }
        assert!(read_of(&["foo=1", &format!("{}=1", "z".repeat(256))]).is_some());
        assert_eq!(read_of(&["foo=1", &format!("{}=1", "z".repeat(257))]), None);
        assert!(read_of(&[&format!("foo={}", "v".repeat(256))]).is_some());
        assert_eq!(read_of(&[&format!("foo={}", "v".repeat(257))]), None);
    }

    #[test]
    fn thirty_two_members_are_kept_thirty_three_dropped() {
        let members: Vec<String> = (1..=33).map(|i| format!("bar{i:02}={i:02}")).collect();
        assert!(read_of(&[&members[..32].join(",")]).is_some());
        assert_eq!(
            read_of(&[&members[..10].join(","), &members[10..].join(",")]),
            None
        );
    }

    #[test]
    fn a_long_list_is_cut_by_whole_members_long_ones_first() {
        let long = format!("long={}", "x".repeat(200));
        let mut fields = vec!["first=1".to_owned(), long];
        fields.extend((0..20).map(|i| format!("k{i:02}={}", "v".repeat(20))));
        let kept = read_of(&[&fields.join(",")]).unwrap();
        assert!(kept.len() <= 512, "{}", kept.len());
        assert!(kept.starts_with("first=1,k00="), "{kept}");
        assert!(!kept.contains("long="));
        // Without a long member, the last ones go.
        let short: Vec<String> = (0..30).map(|i| format!("k{i:02}={}", "v".repeat(20))).collect();
        let kept = read_of(&[&short.join(",")]).unwrap();
        assert!(
            kept.len() <= 512 && kept.starts_with("k00=") && !kept.contains("k29="),
            "{kept}"
        );
    }
}
