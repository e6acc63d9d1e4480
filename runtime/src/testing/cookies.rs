//! The [`TestClient`](super::TestClient)'s cookie jar: what the app sets with `Set-Cookie` is sent
//! back with the next requests, as a browser (or FastAPI's `TestClient`) does.
//!
//! Rules enforced here:
//! - a `Set-Cookie` stores its name and value, replacing the cookie of that name; one with
//!   `Max-Age` of zero or less, or (without `Max-Age`) an `Expires` date that has passed, removes
//!   it instead (RFC 6265, 5.2 and 5.3: `Max-Age` wins over `Expires`);
//! - a line without `=`, or with an empty name, is ignored, as a browser ignores it;
//! - one app, one origin: `Path`, `Domain` and `Secure` are not checked (the in-process request
//!   has no host or scheme to check them against), and a cookie does not expire while it is held;
//! - the jar keeps the order cookies were first set in, so the `Cookie` header is predictable.

use std::time::SystemTime;

use hyper::header::{HeaderValue, SET_COOKIE};
use hyper::HeaderMap;

/// Cookies by name, in the order they were first set.
#[derive(Debug, Default, Clone)]
pub(super) struct Jar {
    cookies: Vec<(String, String)>,
}

impl Jar {
    /// The value of cookie `name`.
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.cookies
            .iter()
            .find(|(held, _)| held == name)
            .map(|(_, value)| value.as_str())
    }

    /// Hold `name=value`, in place of a cookie of that name.
    pub(super) fn set(&mut self, name: &str, value: &str) {
        match self.cookies.iter_mut().find(|(held, _)| held == name) {
            Some((_, held)) => value.clone_into(held),
            None => self.cookies.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Forget cookie `name`.
    pub(super) fn remove(&mut self, name: &str) {
        self.cookies.retain(|(held, _)| held != name);
    }

    /// Forget every cookie.
    pub(super) fn clear(&mut self) {
        self.cookies.clear();
    }

    /// What the response's `Set-Cookie` headers say (see the module rules).
    pub(super) fn store(&mut self, headers: &HeaderMap) {
        for line in headers.get_all(SET_COOKIE) {
            match parse_set_cookie(line) {
                Some(SetCookie {
                    name,
                    value,
                    expired: false,
                }) => self.set(name, value),
                Some(SetCookie {
                    name, expired: true, ..
                }) => self.remove(name),
                None => {}
            }
        }
    }

    /// The pairs to send, `extra` (the request's own) over the held ones of the same name.
    pub(super) fn header(&self, extra: &[(String, String)]) -> String {
        let mut pairs = self.clone();
        for (name, value) in extra {
            pairs.set(name, value);
        }
        let pairs: Vec<String> = pairs
            .cookies
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        pairs.join("; ")
    }
}

/// One `Set-Cookie` line, read.
pub(super) struct SetCookie<'a> {
    pub(super) name: &'a str,
    pub(super) value: &'a str,
    /// The line removes the cookie rather than sets it.
    pub(super) expired: bool,
}

/// `line` read as RFC 6265's user agent reads it, or `None` when it sets nothing.
pub(super) fn parse_set_cookie(line: &HeaderValue) -> Option<SetCookie<'_>> {
    let line = line.to_str().ok()?;
    let mut parts = line.split(';');
    let (name, value) = parts.next()?.split_once('=')?;
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    let value = value.trim();
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value);
    let (mut max_age, mut expires) = (None, None);
    for attribute in parts {
        let (key, attribute_value) = attribute.split_once('=').unwrap_or((attribute, ""));
        let (key, attribute_value) = (key.trim(), attribute_value.trim());
        if key.eq_ignore_ascii_case("max-age") {
            // A value that is not a number is ignored (RFC 6265, 5.2.2).
            if let Ok(seconds) = attribute_value.parse::<i64>() {
                max_age = Some(seconds);
            }
        } else if key.eq_ignore_ascii_case("expires") {
            if let Ok(at) = httpdate::parse_http_date(attribute_value) {
                expires = Some(at);
            }
        }
    }
    let expired = match (max_age, expires) {
        (Some(seconds), _) => seconds <= 0,
        (None, Some(at)) => at <= SystemTime::now(),
        (None, None) => false,
    };
    Some(SetCookie { name, value, expired })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &'static str) -> Option<(&'static str, &'static str, bool)> {
        let line: &'static HeaderValue = Box::leak(Box::new(HeaderValue::from_static(line)));
        parse_set_cookie(line).map(|c| (c.name, c.value, c.expired))
    }

    #[test]
    fn set_cookie_lines_are_read_as_a_browser_reads_them() {
        assert_eq!(
            read("session=abc; Path=/; HttpOnly"),
            Some(("session", "abc", false))
        );
        assert_eq!(read(" theme = \"dark\" "), Some(("theme", "dark", false)));
        assert_eq!(read("empty="), Some(("empty", "", false)));
        assert_eq!(read("session=; Max-Age=0"), Some(("session", "", true)));
        assert_eq!(read("a=1; max-age=-5"), Some(("a", "1", true)));
        assert_eq!(read("a=1; Max-Age=soon"), Some(("a", "1", false)));
        assert_eq!(
            read("a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT"),
            Some(("a", "1", true))
        );
        assert_eq!(
            read("a=1; Expires=Fri, 01 Jan 2100 00:00:00 GMT"),
            Some(("a", "1", false))
        );
        // Max-Age wins over Expires.
        assert_eq!(
            read("a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60"),
            Some(("a", "1", false))
        );
        assert_eq!(read("no-equals-sign"), None);
        assert_eq!(read("=value"), None);
    }

    #[test]
    fn the_jar_replaces_removes_and_keeps_order() {
        let mut jar = Jar::default();
        let mut headers = HeaderMap::new();
        for line in ["b=2", "a=1", "b=3", "gone=x"] {
            headers.append(SET_COOKIE, HeaderValue::from_static(line));
        }
        jar.store(&headers);
        assert_eq!(jar.header(&[]), "b=3; a=1; gone=x");
        let mut headers = HeaderMap::new();
        headers.append(SET_COOKIE, HeaderValue::from_static("gone=; Max-Age=0"));
        jar.store(&headers);
        assert_eq!(jar.get("gone"), None);
        assert_eq!(
            jar.header(&[("a".into(), "mine".into()), ("c".into(), "4".into())]),
            "b=3; a=mine; c=4"
        );
        // The request's own cookies are not kept.
        assert_eq!(jar.header(&[]), "b=3; a=1");
    }
}
