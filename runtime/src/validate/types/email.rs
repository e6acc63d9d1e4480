//! [`EmailStr`]: pydantic's `EmailStr`, checked as `email-validator` checks an address without
//! asking DNS (pydantic's setting), and normalized as it normalizes one (the domain in lower
//! case).
//!
//! Rules enforced here:
//! - `Name <address>` is read as `address`, as pydantic does;
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

/// How email-validator names a character in its messages.
fn char_name(c: char) -> String {
    match c {
        ' ' => "SPACE".to_owned(),
        '\t' => "TAB".to_owned(),
        c => format!("{c:?}")
            .replace('\'', "\u{2019}")
            .replacen('\u{2019}', "\u{2018}", 1),
    }
}

fn is_atext(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) || !c.is_ascii()
}

fn dots(text: &str, after_at: bool) -> Result<(), String> {
    if text.contains("..") {
        return Err("An email address cannot have two periods in a row.".into());
    }
    match (after_at, text.starts_with('.'), text.ends_with('.')) {
        (false, true, _) => Err("An email address cannot start with a period.".into()),
        (false, _, true) => {
            Err("An email address cannot have a period immediately before the @-sign.".into())
        }
        (true, true, _) => Err("An email address cannot have a period immediately after the @-sign.".into()),
        (true, _, true) => Err("An email address cannot end with a period.".into()),
        _ => Ok(()),
    }
}

fn local_part(local: &str) -> Result<(), String> {
    let bad: Vec<char> = local.chars().filter(|&c| c != '.' && !is_atext(c)).collect();
    if !bad.is_empty() {
        let mut names: Vec<String> = bad.into_iter().map(char_name).collect();
        names.dedup();
        return Err(format!(
            "The email address contains invalid characters before the @-sign: {}.",
            names.join(", ")
        ));
    }
    dots(local, false)
}

fn domain_part(domain: &str) -> Result<String, String> {
    dots(domain, true)?;
    let bad: Vec<char> = domain
        .chars()
        .filter(|&c| !(c == '.' || c == '-' || c.is_alphanumeric()))
        .collect();
    if !bad.is_empty() {
        let names: Vec<String> = bad.into_iter().map(char_name).collect();
        return Err(format!(
            "The part after the @-sign contains invalid characters: {}.",
            names.join(", ")
        ));
    }
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

fn email_text(raw: &str) -> Result<EmailStr, Failure> {
    // `Name <address>`: pydantic keeps the address.
    let address = match (raw.find('<'), raw.strip_suffix('>')) {
        (Some(open), Some(inner)) => &inner[open + 1..],
        _ => raw,
    };
    let Some((local, domain)) = address.rsplit_once('@') else {
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
