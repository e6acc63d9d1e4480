//! Entity tags: what an answer's `ETag` names, carried into a later request's `If-Match` (or
//! `If-None-Match`).
//!
//! Rules enforced here: a tag is kept exactly as the server wrote it, quotes and weakness
//! included, so what goes back is byte for byte what came (RFC 9110 §8.8.3); only a well-formed
//! tag (`"…"` or `W/"…"`, or `*` for "any") is accepted from text.

use std::fmt;
use std::str::FromStr;

use hyper::header::HeaderValue;

use crate::param::ToParam;

/// An entity tag (`"7"`, `W/"7"`), or `*` (any current version).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ETag(String);

impl ETag {
    /// `*`: in `If-Match`, any current version (the resource exists); in `If-None-Match`, none
    /// (create only).
    pub fn any() -> ETag {
        ETag("*".to_owned())
    }

    /// The tag of a header value, if it is one.
    pub fn from_header(value: &HeaderValue) -> Option<ETag> {
        value.to_str().ok()?.parse().ok()
    }

    /// The tag as the server wrote it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A weak tag (`W/"…"`): an equivalent, not byte-identical, representation.
    pub fn is_weak(&self) -> bool {
        self.0.starts_with("W/")
    }
}

/// The text is not an entity tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidETag;

impl fmt::Display for InvalidETag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"not an entity tag (`"…"`, `W/"…"` or `*`)"#)
    }
}

impl std::error::Error for InvalidETag {}

impl FromStr for ETag {
    type Err = InvalidETag;

    fn from_str(text: &str) -> Result<Self, InvalidETag> {
        let text = text.trim();
        if text == "*" {
            return Ok(ETag::any());
        }
        let opaque = text.strip_prefix("W/").unwrap_or(text);
        let inner = opaque
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .ok_or(InvalidETag)?;
        // etagc: %x21 / %x23-7E / obs-text
        if inner
            .bytes()
            .all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80)
        {
            Ok(ETag(text.to_owned()))
        } else {
            Err(InvalidETag)
        }
    }
}

impl fmt::Display for ETag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl ToParam for ETag {
    fn write_param(&self, out: &mut String) {
        out.push_str(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_kept_as_written() {
        for text in [r#""7""#, r#"W/"7""#, "*", r#""""#] {
            assert_eq!(text.parse::<ETag>().unwrap().as_str(), text);
        }
        assert!(r#"W/"x""#.parse::<ETag>().unwrap().is_weak());
        assert!(!r#""x""#.parse::<ETag>().unwrap().is_weak());
    }

    #[test]
    fn malformed_tags_are_refused() {
        for text in ["7", r#""a"b""#, r#""a"#, "W/7", r#""a b""#] {
            assert_eq!(text.parse::<ETag>(), Err(InvalidETag), "{text}");
        }
    }
}
