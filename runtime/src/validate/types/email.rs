//! [`EmailStr`]: pydantic's `EmailStr`, checked as `email-validator` checks an address without
//! asking DNS (pydantic's setting), and normalized as it normalizes one (the domain in lower
//! case).
//!
//! Rules enforced here:
//! - `Name <address>` is read as `address`, and white space around the address is dropped, as
//!   pydantic does; a carriage return or line feed anywhere is refused;
//! - a failure is pydantic's `value_error` `"value is not a valid email address: <reason>"` with
//!   `ctx.reason`, in email-validator's words;
//! - the local part is dot-separated atoms of RFC 5322 characters or any non-ASCII character;
//!   the domain is dot-separated labels of letters, digits and inner hyphens (non-ASCII letters
//!   allowed), with at least one period;
//! - a JSON value that is not a string is `string_type`.

use serde::{Serialize, Serializer};
use serde_json::{json, Value};

use super::{string_format, text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

/// An e-mail address (pydantic's `EmailStr`): the text as normalized on reading.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EmailStr(String);

impl EmailStr {
    /// The address.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The address, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl std::ops::Deref for EmailStr {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for EmailStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for EmailStr {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

fn invalid(reason: &str) -> Failure {
    Failure::with_ctx(
        "value_error",
        format!("value is not a valid email address: {reason}"),
        json!({ "reason": reason }),
    )
}

/// How email-validator names a character in its messages: a letter, digit, punctuation or
/// symbol in quotes, as Python's `repr` writes it; a space by its name; any other character by
/// its code point.
fn char_name(c: char) -> String {
    match c {
        ' ' => "SPACE".to_owned(),
        '\u{a0}' => "NO-BREAK SPACE".to_owned(),
        '\\' => "\"\\\"".to_owned(),
        '\'' => "\"'\"".to_owned(),
        c if c.is_alphanumeric() || c.is_ascii_punctuation() => format!("'{c}'"),
        c => format!("U+{:04X}", u32::from(c)),
    }
}

/// The names of `bad` characters, each once, sorted as email-validator sorts them.
fn names(bad: impl Iterator<Item = char>) -> String {
    let mut names: Vec<String> = bad.map(char_name).collect();
    names.sort();
    names.dedup();
    names.join(", ")
}

fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
}

/// email-validator's dot-atom rule: no period (or, in a domain, hyphen) at either end, no two
/// periods in a row, no period beside a hyphen; `start` and `end` are its words for the ends.
fn dot_atom(text: &str, start: &str, end: &str, hostname: bool) -> Result<(), String> {
    let ends = |thing: char, words: &str| -> Result<(), String> {
        Err(words.replace("{}", if thing == '.' { "period" } else { "hyphen" }))
    };
    if text.ends_with('.') {
        return ends('.', end);
    }
    if text.starts_with('.') {
        return ends('.', start);
    }
    if text.contains("..") {
        return Err("An email address cannot have two periods in a row.".into());
    }
    if hostname {
        if text.ends_with('-') {
            return ends('-', end);
        }
        if text.starts_with('-') {
            return ends('-', start);
        }
        if text.contains(".-") || text.contains("-.") {
            return Err("An email address cannot have a period and a hyphen next to each other.".into());
        }
    }
    Ok(())
}

fn local_part(local: &str) -> Result<(), String> {
    let bad = local.chars().filter(|&c| c != '.' && !is_atext(c));
    let names = names(bad);
    if !names.is_empty() {
        return Err(format!(
            "The email address contains invalid characters before the @-sign: {names}."
        ));
    }
    dot_atom(
        local,
        "An email address cannot start with a {}.",
        "An email address cannot have a {} immediately before the @-sign.",
        false,
    )
}

fn domain_part(domain: &str) -> Result<String, String> {
    let bad = domain
        .chars()
        .filter(|&c| !(c == '.' || c == '-' || c.is_ascii_alphanumeric() || !c.is_ascii()));
    let names = names(bad);
    if !names.is_empty() {
        return Err(format!(
            "The part after the @-sign contains invalid characters: {names}."
        ));
    }
    dot_atom(
        domain,
        "An email address cannot have a {} immediately after the @-sign.",
        "An email address cannot end with a {}.",
        true,
    )?;
    if domain
        .split('.')
        .any(|label| label.starts_with('-') || label.ends_with('-'))
    {
        return Err(
            "The part after the @-sign is not valid IDNA: a label starts or ends with a hyphen.".into(),
        );
    }
    if !domain.contains('.') {
        return Err("The part after the @-sign is not valid. It should have a period.".into());
    }
    Ok(domain.to_lowercase())
}

/// A character of an unquoted display name (pydantic's `[\w.!#$%&'*+\-/=?^_`{|}~]`).
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || ".!#$%&'*+-/=?^`{|}~".contains(c)
}

/// True for a display name pydantic's pattern takes: words of name characters separated by
/// white space, or anything in double quotes.
fn is_display_name(name: &str) -> bool {
    if let Some(quoted) = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        return !quoted.is_empty();
    }
    name.split_whitespace().all(|word| word.chars().all(is_name_char))
}

/// The address of `Name <address>` (white space around it allowed), as pydantic's
/// `pretty_email_regex` finds it; `None` when the text is not of that form.
fn pretty_address(text: &str) -> Option<&str> {
    let inner = text.trim().strip_suffix('>')?;
    inner.match_indices('<').find_map(|(open, _)| {
        let (name, address) = (&inner[..open], &inner[open + 1..]);
        (!address.is_empty() && is_display_name(name.trim())).then_some(address)
    })
}

fn email_text(raw: &str) -> Result<EmailStr, Failure> {
    if raw.chars().count() > 2048 {
        return Err(invalid("Length must not exceed 2048 characters"));
    }
    if raw.contains(['\r', '\n']) {
        return Err(invalid(
            "Carriage return and line feed characters are not allowed",
        ));
    }
    // `Name <address>`: pydantic keeps the address; white space around it is dropped.
    let address = pretty_address(raw).unwrap_or(raw).trim();
    let Some((local, domain)) = address.split_once('@') else {
        return Err(invalid("An email address must have an @-sign."));
    };
    if local.is_empty() {
        return Err(invalid("There must be something before the @-sign."));
    }
    if domain.is_empty() {
        return Err(invalid("There must be something after the @-sign."));
    }
    local_part(local).map_err(|reason| invalid(&reason))?;
    let domain = domain_part(domain).map_err(|reason| invalid(&reason))?;
    Ok(EmailStr(format!("{local}@{domain}")))
}

impl TextValue for EmailStr {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        email_text(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        match value {
            Value::String(text) => email_text(text),
            _ => Err(Failure::new("string_type", "Input should be a valid string")),
        }
    }
    fn schema() -> Value {
        string_format("email")
    }
}

text_value!(EmailStr);

impl Constrainable for EmailStr {
    fn char_len(&self) -> Option<usize> {
        Some(self.0.chars().count())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> String {
        email_text(text)
            .map(|e| e.0)
            .unwrap_or_else(|f| f.ctx.map(|c| c["reason"].to_string()).unwrap_or_default())
    }

    #[test]
    fn addresses_and_reasons() {
        assert_eq!(reason("A.B@Example.COM"), "A.B@example.com");
        assert_eq!(reason("Name <a@example.com>"), "a@example.com");
        assert_eq!(reason("é@exämple.com"), "é@exämple.com");
        assert_eq!(reason("a"), "\"An email address must have an @-sign.\"");
        assert_eq!(
            reason("a@b"),
            "\"The part after the @-sign is not valid. It should have a period.\""
        );
        assert_eq!(
            reason("a b@example.com"),
            "\"The email address contains invalid characters before the @-sign: SPACE.\""
        );
        assert_eq!(
            reason("a..b@example.com"),
            "\"An email address cannot have two periods in a row.\""
        );
    }
}
