//! The `baggage` field of W3C Baggage (<https://www.w3.org/TR/baggage/>): the application's
//! name/value pairs that travel with a request, read when a route asks for them.
//!
//! Rules enforced here:
//! - every `baggage` field of the request is one list, the fields in order; a member is
//!   `key=value` with optional `;`-separated properties, whitespace around each part ignored;
//!   the key is an HTTP token, the value percent-decoded (UTF-8; a value that does not decode
//!   is kept as sent);
//! - a member that is not one is skipped, the others kept (one caller's mistake does not cost
//!   the rest);
//! - at most 64 members and 8,192 bytes of fields are read (the least the specification asks to
//!   pass on): a caller cannot make a route hold more by sending more.

use hyper::header::HeaderName;
use hyper::HeaderMap;
use percent_encoding::percent_decode_str;

/// The field's name.
pub static BAGGAGE: HeaderName = HeaderName::from_static("baggage");

/// The most members read.
const MAX_MEMBERS: usize = 64;

/// The most bytes of fields read.
const MAX_BYTES: usize = 8192;

/// One member of a request's baggage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaggageItem {
    /// Its key.
    pub key: String,
    /// Its value, percent-decoded.
    pub value: String,
    /// Its properties (`;`-separated, as sent, trimmed), often none.
    pub properties: Vec<String>,
}

/// A request's baggage: its members in the order sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baggage {
    items: Vec<BaggageItem>,
}

impl Baggage {
    /// The baggage of a request's headers (see the module rules).
    pub fn read(headers: &HeaderMap) -> Self {
        let mut items = Vec::new();
        let mut bytes = 0;
        for value in headers.get_all(&BAGGAGE) {
            bytes += value.len();
            if bytes > MAX_BYTES {
                break;
            }
            let Ok(text) = std::str::from_utf8(value.as_bytes()) else {
                continue;
            };
            for member in text.split(',') {
                if items.len() == MAX_MEMBERS {
                    return Baggage { items };
                }
                if let Some(item) = member_of(member) {
                    items.push(item);
                }
            }
        }
        Baggage { items }
    }

    /// The value of `key` (the first member with it).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.items
            .iter()
            .find(|item| item.key == key)
            .map(|item| item.value.as_str())
    }

    /// Every member, in the order sent.
    pub fn iter(&self) -> impl Iterator<Item = &BaggageItem> {
        self.items.iter()
    }

    /// No member.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The number of members.
    pub fn len(&self) -> usize {
        self.items.len()
    }
}

/// One list member, or `None` when it is not one.
fn member_of(member: &str) -> Option<BaggageItem> {
    let mut parts = member.split(';');
    let (key, value) = parts.next()?.split_once('=')?;
    let (key, value) = (key.trim_matches([' ', '\t']), value.trim_matches([' ', '\t']));
    if key.is_empty() || !key.bytes().all(is_tchar) || !value.bytes().all(is_baggage_octet) {
        return None;
    }
    let value = percent_decode_str(value)
        .decode_utf8()
        .map_or_else(|_| value.to_owned(), |decoded| decoded.into_owned());
    let properties = parts
        .map(|p| p.trim_matches([' ', '\t']).to_owned())
        .filter(|p| !p.is_empty())
        .collect();
    Some(BaggageItem {
        key: key.to_owned(),
        value,
        properties,
    })
}

/// A byte of an HTTP token (RFC 9110's `tchar`).
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// W3C Baggage's `baggage-octet`: printable ASCII but space, `"`, `,`, `;` and `\`.
fn is_baggage_octet(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x2b | 0x2d..=0x3a | 0x3c..=0x5b | 0x5d..=0x7e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn baggage(fields: &[&str]) -> Baggage {
        let mut headers = HeaderMap::new();
        for field in fields {
            headers.append(&BAGGAGE, HeaderValue::from_str(field).unwrap());
        }
        Baggage::read(&headers)
    }

    #[test]
    fn members_values_and_properties_are_read() {
        let b = baggage(&["userId=alice, serverNode = DF%2028 ;p1;k=v", "isProduction=false"]);
        assert_eq!(b.len(), 3);
        assert_eq!(b.get("userId"), Some("alice"));
        assert_eq!(b.get("serverNode"), Some("DF 28"));
        assert_eq!(b.get("isProduction"), Some("false"));
        let node = b.iter().nth(1).unwrap();
        assert_eq!(node.properties, ["p1", "k=v"]);
        assert!(baggage(&[]).is_empty());
    }

    #[test]
    fn bad_members_are_skipped_and_limits_hold() {
        let b = baggage(&["good=1,no-equals,bad key=2,quote=\"x\",=empty,also=2"]);
        assert_eq!(
            b.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
            ["good", "also"]
        );
        let many: Vec<String> = (0..100).map(|i| format!("k{i}=v")).collect();
        assert_eq!(baggage(&[&many.join(",")]).len(), 64);
        let big = format!("k={}", "v".repeat(9000));
        assert!(baggage(&[&big]).is_empty());
    }
}
