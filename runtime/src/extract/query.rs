//! Finding one parameter in a query string without decoding the others.
//!
//! Rules enforced here:
//! - the same pairs, keys and values as `application/x-www-form-urlencoded` parsing
//!   (`form_urlencoded::parse`, which Starlette's parser matches): pairs split on `&`, empty ones
//!   skipped, key and value split at the first `=`, `+` is a space, percent escapes decoded,
//!   invalid UTF-8 replaced;
//! - a key is decoded only when it contains `%` or `+` (otherwise it is its own decoding), and only
//!   the value that is returned is decoded: a route reading two parameters of a ten-pair query
//!   decodes two values, not twenty keys and values twice (≈ 1,500 instructions per request on
//!   `GET /person?skip=2&limit=3`, callgrind).

use std::borrow::Cow;

/// The raw pairs of `query`, as written (`key=value`, or `key` alone).
fn raw_pairs(query: &str) -> impl Iterator<Item = &str> {
    query.split('&').filter(|pair| !pair.is_empty())
}

fn needs_decoding(raw: &str) -> bool {
    raw.bytes().any(|b| b == b'%' || b == b'+')
}

/// The decoded key and value of one raw pair (which holds no `&`).
fn decode(pair: &str) -> (Cow<'_, str>, Cow<'_, str>) {
    form_urlencoded::parse(pair.as_bytes())
        .next()
        .unwrap_or((Cow::Borrowed(""), Cow::Borrowed("")))
}

/// Whether the raw pair's key, decoded, is `name`.
fn has_key(pair: &str, name: &str) -> bool {
    let key = pair.split_once('=').map_or(pair, |(key, _)| key);
    if needs_decoding(key) {
        decode(pair).0 == name
    } else {
        key == name
    }
}

/// The decoded value of a raw pair.
fn value(pair: &str) -> Cow<'_, str> {
    let raw = pair.split_once('=').map_or("", |(_, value)| value);
    if needs_decoding(raw) {
        decode(pair).1
    } else {
        Cow::Borrowed(raw)
    }
}

/// The last value of parameter `name` in `query`, decoded.
pub(crate) fn last<'q>(query: &'q str, name: &str) -> Option<Cow<'q, str>> {
    raw_pairs(query)
        .filter(|pair| has_key(pair, name))
        .last()
        .map(value)
}

/// Every value of parameter `name` in `query`, decoded, in order.
pub(crate) fn all<'q, 'n>(query: &'q str, name: &'n str) -> impl Iterator<Item = Cow<'q, str>> + 'n
where
    'q: 'n,
{
    raw_pairs(query)
        .filter(move |pair| has_key(pair, name))
        .map(value)
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{all, last};

    /// The reference: decode every pair, as `form_urlencoded` does.
    fn reference_all<'q>(query: &'q str, name: &str) -> Vec<Cow<'q, str>> {
        form_urlencoded::parse(query.as_bytes())
            .filter(|(key, _)| key == name)
            .map(|(_, value)| value)
            .collect()
    }

    const QUERIES: &[&str] = &[
        "",
        "&",
        "&&a=1&&",
        "a",
        "a=",
        "=1",
        "a=1&b=2&a=3",
        "skip=2&limit=3",
        "q=x&short=yes",
        "a=b=c",
        "a+b=1&a%20b=2&a b=3",
        "a%3D=1&a==2",
        "a=%20x+y%2B&a=%zz&a=%",
        "a=%FF%FE&a%FF=1&%C3%A9=%C3%A9",
        "caf%C3%A9=1&café=2",
        "a=1;b=2&b=3",
        "%61=percent-a&a=plain",
    ];

    const NAMES: &[&str] = &[
        "a", "b", "a b", "a=", "", "skip", "limit", "q", "short", "é", "café", "\u{fffd}",
    ];

    #[test]
    fn every_value_matches_form_urlencoded() {
        for query in QUERIES {
            for name in NAMES {
                let expected = reference_all(query, name);
                let got: Vec<_> = all(query, name).collect();
                assert_eq!(got, expected, "all({query:?}, {name:?})");
                assert_eq!(
                    last(query, name),
                    expected.last().cloned(),
                    "last({query:?}, {name:?})"
                );
            }
        }
    }

    #[test]
    fn plain_values_are_borrowed_not_copied() {
        assert!(matches!(
            last("skip=2&limit=3", "limit"),
            Some(Cow::Borrowed("3"))
        ));
        assert!(matches!(last("a=x+y", "a"), Some(Cow::Owned(v)) if v == "x y"));
    }
}
