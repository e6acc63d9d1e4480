//! `url::Url` as pydantic's `AnyUrl`, and [`HttpUrl`].
//!
//! Rules enforced here: text is read by the WHATWG parser of the `url` crate, which pydantic-core
//! uses too, so the `url_parsing` words are the same; empty text is "input is empty"; an
//! `HttpUrl` is at most 2083 characters (`url_too_long`) with the scheme `http` or `https`
//! (`url_scheme`); a JSON value that is not a string is `url_type`.

use serde::{Serialize, Serializer};
use serde_json::{json, Value};
use url::Url;

use super::{text_value, TextValue};
use crate::validate::constraint::Constrainable;
use crate::validate::error::Failure;

fn parse(raw: &str) -> Result<Url, Failure> {
    let error = if raw.is_empty() {
        "input is empty".to_owned()
    } else {
        match Url::parse(raw) {
            Ok(url) => return Ok(url),
            Err(error) => error.to_string(),
        }
    };
    Err(Failure::with_ctx(
        "url_parsing",
        format!("Input should be a valid URL, {error}"),
        json!({ "error": error }),
    ))
}

fn text(value: &Value) -> Result<&str, Failure> {
    match value {
        Value::String(text) => Ok(text),
        _ => Err(Failure::new("url_type", "URL input should be a string or URL")),
    }
}

impl TextValue for Url {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        parse(raw)
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        text(value).and_then(parse)
    }
    fn schema() -> Value {
        json!({ "type": "string", "minLength": 1, "format": "uri" })
    }
}

/// An absolute `http` or `https` URL of at most 2083 characters (pydantic's `HttpUrl`); the value
/// is a `url::Url`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HttpUrl(pub Url);

impl std::ops::Deref for HttpUrl {
    type Target = Url;
    fn deref(&self) -> &Url {
        &self.0
    }
}

impl std::fmt::Display for HttpUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl Serialize for HttpUrl {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

const HTTP_MAX_LENGTH: usize = 2083;

impl TextValue for HttpUrl {
    fn from_text(raw: &str) -> Result<Self, Failure> {
        if raw.chars().count() > HTTP_MAX_LENGTH {
            return Err(Failure::with_ctx(
                "url_too_long",
                format!("URL should have at most {HTTP_MAX_LENGTH} characters"),
                json!({ "max_length": HTTP_MAX_LENGTH }),
            ));
        }
        let url = parse(raw)?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Failure::with_ctx(
                "url_scheme",
                "URL scheme should be 'http' or 'https'",
                json!({ "expected_schemes": "'http' or 'https'" }),
            ));
        }
        Ok(HttpUrl(url))
    }
    fn from_value(value: &Value) -> Result<Self, Failure> {
        text(value).and_then(Self::from_text)
    }
    fn schema() -> Value {
        json!({ "type": "string", "maxLength": HTTP_MAX_LENGTH, "minLength": 1, "format": "uri" })
    }
}

text_value!(Url => "AnyUrl", HttpUrl);

impl Constrainable for Url {}
impl Constrainable for HttpUrl {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_and_http_urls() {
        assert_eq!(
            Url::from_text("https://example.com").unwrap().as_str(),
            "https://example.com/"
        );
        assert_eq!(
            Url::from_text("example.com").unwrap_err().msg,
            "Input should be a valid URL, relative URL without a base"
        );
        assert_eq!(
            Url::from_text("").unwrap_err().msg,
            "Input should be a valid URL, input is empty"
        );
        assert_eq!(HttpUrl::from_text("ftp://x.org").unwrap_err().kind, "url_scheme");
        let long = format!("https://{}.com", "a".repeat(2100));
        assert_eq!(HttpUrl::from_text(&long).unwrap_err().kind, "url_too_long");
        assert_eq!(Url::from_value(&json!(5)).unwrap_err().kind, "url_type");
    }
}
