//! Entity tags (RFC 9110 §8.8.3) and the field values of `If-Match` / `If-None-Match` (§13.1.1,
//! §13.1.2): parsing, formatting and the two comparison functions.
//!
//! Rules enforced here:
//! - an entity tag is `"opaque"` or `W/"opaque"`, the opaque part made of `%x21 / %x23-7E /
//!   obs-text` (no space, no `"`, no control); anything else is refused, never guessed at;
//! - the strong comparison matches two tags only when neither is weak and their opaque parts are
//!   the same octets; the weak comparison ignores the `W/` (§8.8.3.2);
//! - a condition is `*` or a comma-separated list of entity tags over any number of field lines
//!   (empty list elements are skipped, as RFC 9110 §5.6.1 has recipients do); `*` mixed with tags
//!   is invalid;
//! - obs-text octets are kept as Latin-1 characters, so comparing them compares the octets and
//!   formatting writes the same octets back.

use std::fmt;

use hyper::header::HeaderValue;

use crate::response::fnv1a;

/// An entity tag: an opaque validator of one representation of a resource, strong (the same
/// tag means the same bytes) or weak (`W/`, the same tag means an equivalent representation).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ETag {
    weak: bool,
    opaque: Box<str>,
}

/// An opaque part that is not made of the characters an entity tag may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InvalidETag;

impl fmt::Display for InvalidETag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an entity tag holds only visible characters other than `\"`")
    }
}

impl std::error::Error for InvalidETag {}

/// Whether `c` may appear inside the quotes of an entity tag (`etagc`, obs-text as Latin-1).
fn is_etagc(c: char) -> bool {
    matches!(c, '\x21' | '\x23'..='\x7e' | '\u{80}'..='\u{ff}')
}

impl ETag {
    /// A strong tag with this opaque part (without quotes).
    pub fn strong(opaque: impl Into<String>) -> Result<Self, InvalidETag> {
        Self::checked(false, opaque.into())
    }

    /// A weak tag (`W/"opaque"`) with this opaque part (without quotes).
    pub fn weak(opaque: impl Into<String>) -> Result<Self, InvalidETag> {
        Self::checked(true, opaque.into())
    }

    fn checked(weak: bool, opaque: String) -> Result<Self, InvalidETag> {
        if opaque.chars().all(is_etagc) {
            Ok(ETag {
                weak,
                opaque: opaque.into_boxed_str(),
            })
        } else {
            Err(InvalidETag)
        }
    }

    /// The strong tag of a version number a store keeps for a resource (`"42"`): it changes with
    /// every write, so it names one representation.
    pub fn from_version(version: u64) -> Self {
        ETag {
            weak: false,
            opaque: version.to_string().into_boxed_str(),
        }
    }

    /// The strong tag of a representation's bytes: a 64-bit FNV-1a hash, in hex. It is the same
    /// in every process and every build; it is no defence against a client crafting collisions,
    /// which an entity tag need not be.
    pub fn of_bytes(bytes: &[u8]) -> Self {
        ETag {
            weak: false,
            opaque: format!("{:016x}", fnv1a([bytes])).into_boxed_str(),
        }
    }

    /// The same tag, marked weak.
    pub fn into_weak(self) -> Self {
        ETag { weak: true, ..self }
    }

    /// Whether the tag is weak (`W/`).
    pub fn is_weak(&self) -> bool {
        self.weak
    }

    /// The opaque part, without quotes.
    pub fn opaque(&self) -> &str {
        &self.opaque
    }

    /// The version number of a tag made by [`ETag::from_version`], if it is one.
    pub fn version(&self) -> Option<u64> {
        if self.weak || self.opaque.starts_with('+') {
            return None;
        }
        self.opaque.parse().ok()
    }

    /// RFC 9110's strong comparison: both strong, same opaque octets (what `If-Match` uses).
    pub fn strong_eq(&self, other: &ETag) -> bool {
        !self.weak && !other.weak && self.opaque == other.opaque
    }

    /// RFC 9110's weak comparison: same opaque octets, weak or not (what `If-None-Match` uses).
    pub fn weak_eq(&self, other: &ETag) -> bool {
        self.opaque == other.opaque
    }

    /// Parse one entity tag, e.g. `"abc"` or `W/"abc"`.
    pub fn parse(text: &str) -> Result<Self, InvalidETag> {
        let (weak, quoted) = match text.strip_prefix("W/") {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let opaque = quoted
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .ok_or(InvalidETag)?;
        Self::checked(weak, opaque.to_owned())
    }

    /// The tag as a header value (`ETag`).
    pub fn to_header_value(&self) -> HeaderValue {
        let latin1: Vec<u8> = self.to_string().chars().map(|c| c as u8).collect();
        // Every character was checked to be an `etagc` (a visible octet): always a valid value.
        HeaderValue::from_bytes(&latin1).unwrap_or(HeaderValue::from_static("\"\""))
    }
}

impl fmt::Display for ETag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.weak {
            f.write_str("W/")?;
        }
        write!(f, "\"{}\"", self.opaque)
    }
}

/// The value of an `If-Match` or `If-None-Match` field: `*` or a list of entity tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// `*`: any current representation.
    Any,
    /// These entity tags.
    Tags(Vec<ETag>),
}

impl Condition {
    /// Parse the field's lines, in order, as one list.
    pub fn parse<'a>(lines: impl IntoIterator<Item = &'a str>) -> Result<Self, InvalidETag> {
        let mut tags = Vec::new();
        let mut any = false;
        for line in lines {
            for element in split_list(line)? {
                if element == "*" {
                    any = true;
                } else {
                    tags.push(ETag::parse(element)?);
                }
            }
        }
        match (any, tags.is_empty()) {
            (true, true) => Ok(Condition::Any),
            (false, false) => Ok(Condition::Tags(tags)),
            // `*` with tags, or nothing at all (an empty field is no list of entity tags).
            _ => Err(InvalidETag),
        }
    }

    /// `If-Match` (§13.1.1): `*` holds when there is a current representation; a list holds when
    /// one of its tags matches the current one by the strong comparison.
    pub fn if_match(&self, current: Option<&ETag>) -> bool {
        match (self, current) {
            (_, None) => false,
            (Condition::Any, Some(_)) => true,
            (Condition::Tags(tags), Some(current)) => tags.iter().any(|tag| tag.strong_eq(current)),
        }
    }

    /// `If-None-Match` (§13.1.2): `*` holds when there is no current representation; a list
    /// holds when none of its tags matches the current one by the weak comparison.
    pub fn if_none_match(&self, current: Option<&ETag>) -> bool {
        match (self, current) {
            (_, None) => true,
            (Condition::Any, Some(_)) => false,
            (Condition::Tags(tags), Some(current)) => !tags.iter().any(|tag| tag.weak_eq(current)),
        }
    }
}

/// The elements of one comma-separated field line, trimmed, empty ones skipped. A comma is an
/// `etagc`, so one inside quotes belongs to the tag: the split honours quotes.
fn split_list(line: &str) -> Result<Vec<&str>, InvalidETag> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                push_element(&mut out, &line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if quoted {
        return Err(InvalidETag);
    }
    push_element(&mut out, &line[start..]);
    Ok(out)
}

fn push_element<'a>(out: &mut Vec<&'a str>, element: &'a str) {
    let element = element.trim_matches([' ', '\t']);
    if !element.is_empty() {
        out.push(element);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(text: &str) -> ETag {
        ETag::parse(text).unwrap()
    }

    #[test]
    fn parses_and_formats_strong_and_weak_tags() {
        assert_eq!(tag("\"xyzzy\"").to_string(), "\"xyzzy\"");
        assert_eq!(tag("W/\"xyzzy\"").to_string(), "W/\"xyzzy\"");
        assert!(tag("W/\"x\"").is_weak());
        assert_eq!(tag("\"\"").opaque(), "");
        for bad in [
            "xyzzy",
            "\"xy zzy\"",
            "\"a\"b\"",
            "w/\"x\"",
            "W/x",
            "\"x",
            "x\"",
            "W/ \"x\"",
        ] {
            assert_eq!(ETag::parse(bad), Err(InvalidETag), "{bad}");
        }
        assert_eq!(ETag::strong("a b"), Err(InvalidETag));
        assert_eq!(ETag::weak("v1").map(|t| t.to_string()), Ok("W/\"v1\"".to_owned()));
    }

    #[test]
    fn obs_text_round_trips_as_the_same_octets() {
        let t = tag("\"caf\u{e9}\"");
        assert_eq!(t.to_header_value().as_bytes(), b"\"caf\xe9\"");
    }

    /// The table of RFC 9110 §8.8.3.2.
    #[test]
    fn strong_and_weak_comparison_follow_the_rfc_table() {
        let cases = [
            ("W/\"1\"", "W/\"1\"", false, true),
            ("W/\"1\"", "W/\"2\"", false, false),
            ("W/\"1\"", "\"1\"", false, true),
            ("\"1\"", "\"1\"", true, true),
        ];
        for (a, b, strong, weak) in cases {
            assert_eq!(tag(a).strong_eq(&tag(b)), strong, "{a} {b} strong");
            assert_eq!(tag(a).weak_eq(&tag(b)), weak, "{a} {b} weak");
        }
    }

    #[test]
    fn versions_and_hashes_make_strong_tags() {
        let v = ETag::from_version(42);
        assert_eq!((v.to_string(), v.version()), ("\"42\"".to_owned(), Some(42)));
        assert_eq!(v.clone().into_weak().version(), None);
        assert_eq!(tag("\"+4\"").version(), None);
        assert_eq!(ETag::of_bytes(b"").opaque(), "cbf29ce484222325");
        assert_eq!(ETag::of_bytes(b"a").opaque(), "af63dc4c8601ec8c");
        assert_ne!(ETag::of_bytes(b"{\"a\":1}"), ETag::of_bytes(b"{\"a\":2}"));
    }

    #[test]
    fn conditions_are_star_or_lists_over_several_lines() {
        assert_eq!(Condition::parse(["*"]), Ok(Condition::Any));
        assert_eq!(Condition::parse([" * "]), Ok(Condition::Any));
        assert_eq!(
            Condition::parse(["\"a\", W/\"b\"", ",\"c\","]),
            Ok(Condition::Tags(vec![tag("\"a\""), tag("W/\"b\""), tag("\"c\"")]))
        );
        assert_eq!(
            Condition::parse(["\"a,b\""]),
            Ok(Condition::Tags(vec![tag("\"a,b\"")]))
        );
        for bad in [
            vec!["*, \"a\""],
            vec![""],
            vec![" , "],
            vec!["a"],
            vec!["\"a"],
            vec!["*", "\"a\""],
        ] {
            assert_eq!(Condition::parse(bad.clone()), Err(InvalidETag), "{bad:?}");
        }
    }

    #[test]
    fn if_match_uses_the_strong_comparison() {
        let current = tag("\"2\"");
        let list = Condition::parse(["\"1\", \"2\""]).unwrap();
        assert!(list.if_match(Some(&current)));
        assert!(!Condition::Tags(vec![tag("W/\"2\"")]).if_match(Some(&current)));
        assert!(!Condition::Tags(vec![tag("\"2\"")]).if_match(Some(&tag("W/\"2\""))));
        assert!(Condition::Any.if_match(Some(&current)));
        assert!(!Condition::Any.if_match(None));
        assert!(!list.if_match(None));
    }

    #[test]
    fn if_none_match_uses_the_weak_comparison() {
        let current = tag("\"2\"");
        assert!(!Condition::Tags(vec![tag("W/\"2\"")]).if_none_match(Some(&current)));
        assert!(!Condition::Tags(vec![tag("\"1\""), tag("\"2\"")]).if_none_match(Some(&current)));
        assert!(Condition::Tags(vec![tag("\"1\"")]).if_none_match(Some(&current)));
        assert!(!Condition::Any.if_none_match(Some(&current)));
        assert!(Condition::Any.if_none_match(None));
        assert!(Condition::Tags(vec![tag("\"1\"")]).if_none_match(None));
    }
}
