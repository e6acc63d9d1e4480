//! A JSON object text rewritten, in one pass, as the canonical text of exact JSON.
//!
//! Rules enforced here:
//! - the canonical text is what serde_json writes for the `Value` the text reads as (with
//!   `preserve_order`, as the framework reads bodies), but with each number's text as sent:
//!   compact, strings escaped as serde_json escapes them ([`JsonStr::write_canonical`]), and a key
//!   sent twice in its first place with its last value, in every object at any depth (Python's
//!   `dict` and serde_json's `Map` do the same);
//! - one pass and no value per element: the text is written as the tokens come ([`Tokens`]
//!   checks them); each open object keeps only the offsets of its keys in the output (4 bytes a
//!   member) and compares its keys when it closes (two canonical keys are equal exactly when the
//!   strings are, as the escaping is one-to-one); only an object that holds a key twice is
//!   rewritten, and only its own part of the output;
//! - memory, per byte of the text read: the output (at most one byte, reserved once: canonical
//!   text is never longer than the text it comes from), the open objects' key offsets (at most
//!   4 bytes per 5-byte member `"":0,`, 0.8, up to 1.6 with a growing vector's spare room) and,
//!   only while an object with a repeated key is rewritten, its new text and 8 bytes per member
//!   of that object (at most 2.6 more). So at most about 5.2 bytes per byte of text, about 1 for
//!   an ordinary document: [`PARSE_COST`].

use std::cmp::Ordering;

use super::number::keepable;
use super::scan::{ScanError, Token, Tokens};

/// The most bytes reading a body into its canonical text ([`ExactBody::parse`]) holds per byte
/// of the text it reads, besides the text itself: the output, the open objects' key offsets and
/// the rewrite of an object with a repeated key (see the module `exact::canonical`), rounded up.
///
/// [`ExactBody::parse`]: super::ExactBody::parse
pub const PARSE_COST: usize = 6;

/// A JSON object's canonical text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Canonical {
    /// The text.
    pub text: String,
    /// Whether some number of the text read has no BSON number of exactly its value (it may
    /// have been left out since, as the value of a repeated key).
    pub unkeepable: bool,
}

/// One open array or object.
#[derive(Debug, Clone, Copy)]
struct Frame {
    object: bool,
    /// Where it starts in the output.
    start: usize,
    /// Where its key offsets start in the key-offset stack.
    base: usize,
    /// Members or items written so far.
    items: usize,
}

/// The canonical text of `text`, which must be one JSON object.
pub(crate) fn canonical_object(text: &str) -> Result<Canonical, ScanError> {
    let too_large = ScanError {
        at: 0,
        what: "text too large",
    };
    if u32::try_from(text.len()).is_err() {
        return Err(too_large);
    }
    let mut tokens = Tokens::new(text);
    if tokens.next_token()? != Some(Token::BeginObject) {
        return Err(ScanError {
            at: 0,
            what: "not a JSON object",
        });
    }
    let mut out = String::with_capacity(text.len());
    out.push('{');
    let mut frames = Vec::with_capacity(16);
    frames.push(Frame {
        object: true,
        start: 0,
        base: 0,
        items: 0,
    });
    let mut keys: Vec<u32> = Vec::new();
    let mut unkeepable = false;
    while let Some(token) = tokens.next_token()? {
        if let Token::Key(key) = token {
            if let Some(frame) = frames.last_mut() {
                if frame.items > 0 {
                    out.push(',');
                }
                frame.items += 1;
            }
            keys.push(u32::try_from(out.len()).map_err(|_| too_large.clone())?);
            key.write_canonical(&mut out);
            out.push(':');
            continue;
        }
        if matches!(token, Token::EndObject | Token::EndArray) {
            out.push(if token == Token::EndObject { '}' } else { ']' });
            if let Some(frame) = frames.pop() {
                if frame.object {
                    let members = keys.get_mut(frame.base..).unwrap_or_default();
                    if has_repeated_key(out.as_bytes(), members) {
                        members.sort_unstable();
                        rewrite(&mut out, frame.start, members);
                    }
                    keys.truncate(frame.base);
                }
            }
            continue;
        }
        // A value: in an array, after a comma unless it is the first.
        if let Some(frame) = frames.last_mut() {
            if !frame.object {
                if frame.items > 0 {
                    out.push(',');
                }
                frame.items += 1;
            }
        }
        match token {
            Token::BeginObject | Token::BeginArray => {
                let object = token == Token::BeginObject;
                frames.push(Frame {
                    object,
                    start: out.len(),
                    base: keys.len(),
                    items: 0,
                });
                out.push(if object { '{' } else { '[' });
            }
            Token::String(s) => s.write_canonical(&mut out),
            Token::Number(number) => {
                out.push_str(number);
                unkeepable |= keepable(number).is_err();
            }
            Token::Bool(true) => out.push_str("true"),
            Token::Bool(false) => out.push_str("false"),
            Token::Null => out.push_str("null"),
            Token::Key(_) | Token::EndObject | Token::EndArray => {}
        }
    }
    Ok(Canonical {
        text: out,
        unkeepable,
    })
}

/// The canonical key whose member starts at `at` (on its opening quote), without its quotes.
fn key_at(text: &[u8], at: u32) -> &[u8] {
    let start = at as usize + 1;
    let rest = text.get(start..).unwrap_or_default();
    let mut i = 0;
    while let Some(&b) = rest.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return rest.get(..i).unwrap_or_default(),
            _ => i += 1,
        }
    }
    rest
}

fn compare_keys(text: &[u8], a: u32, b: u32) -> Ordering {
    key_at(text, a).cmp(key_at(text, b))
}

/// Whether two of the members starting at `members` have one key (the slice may be reordered).
fn has_repeated_key(text: &[u8], members: &mut [u32]) -> bool {
    // Small objects, the usual ones: compare each pair, no sorting.
    if members.len() <= 8 {
        return members.iter().enumerate().any(|(i, &a)| {
            members
                .get(i + 1..)
                .unwrap_or_default()
                .iter()
                .any(|&b| key_at(text, a) == key_at(text, b))
        });
    }
    members.sort_unstable_by(|&a, &b| compare_keys(text, a, b));
    members
        .windows(2)
        .any(|pair| matches!(pair, [a, b] if key_at(text, *a) == key_at(text, *b)))
}

/// Rewrite the object at `start` (the end of `out`), whose members start at `members` (in
/// order) and some of whose keys repeat: each key once, in its first place, with its last value.
fn rewrite(out: &mut String, start: usize, members: &[u32]) {
    let end = out.len();
    let text = out.as_bytes();
    // The member at `i` runs to the comma before the next one, or to the object's `}`.
    let span = |i: usize| -> (usize, usize) {
        let from = members.get(i).map_or(end, |&at| at as usize);
        let to = members.get(i + 1).map_or(end - 1, |&next| next as usize - 1);
        (from, to)
    };
    // Member indices by key, then by place: each run of one key, first place first.
    let mut order: Vec<u32> = (0..members.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| {
        compare_keys(text, members[a as usize], members[b as usize]).then(a.cmp(&b))
    });
    // For each member written: the member whose text it takes (`u32::MAX`: it is not written).
    let mut source = vec![u32::MAX; members.len()];
    let mut run = 0;
    while run < order.len() {
        let first = order[run];
        let key = key_at(text, members[first as usize]);
        let mut last = run;
        while order
            .get(last + 1)
            .is_some_and(|&next| key_at(text, members[next as usize]) == key)
        {
            last += 1;
        }
        source[first as usize] = order[last];
        run = last + 1;
    }
    let mut object = String::with_capacity(end - start);
    object.push('{');
    for &from in source.iter().filter(|&&from| from != u32::MAX) {
        if object.len() > 1 {
            object.push(',');
        }
        let (a, b) = span(from as usize);
        object.push_str(out.get(a..b).unwrap_or_default());
    }
    object.push('}');
    out.truncate(start);
    out.push_str(&object);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    fn canonical(text: &str) -> String {
        canonical_object(text).unwrap().text
    }

    /// What serde_json writes for the object it reads from `text` (numbers within a double's
    /// reach, written as serde_json writes them).
    fn serde_json_canonical(text: &str) -> Option<String> {
        match serde_json::from_str::<Value>(text).ok()? {
            value @ Value::Object(_) => Some(value.to_string()),
            _ => None,
        }
    }

    #[test]
    fn the_text_is_serde_json_s_but_for_numbers() {
        assert_eq!(
            canonical(" { \"n\" : 1E5 , \"z\":-0,\"s\":\"a\\\"b\\u00e9\\/\\u0001\\u001F\\b\", \"l\":[ null,true,1.50,{\"k\":-0.0}],\"e\":{ }, \"a\" : [ ] } "),
            r#"{"n":1E5,"z":-0,"s":"a\"bé/\u0001\u001f\b","l":[null,true,1.50,{"k":-0.0}],"e":{},"a":[]}"#
        );
        assert_eq!(canonical("{}"), "{}");
        let big = "9".repeat(30_000);
        assert_eq!(
            canonical(&format!("{{\"n\": [{big}, 1e400, 1e-400]}}")),
            format!("{{\"n\":[{big},1e400,1e-400]}}")
        );
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_last_value_at_any_depth() {
        assert_eq!(canonical(r#"{"a":1.0,"b":2,"a":3e0}"#), r#"{"a":3e0,"b":2}"#);
        assert_eq!(
            canonical(
                r#"{"x":[{"k":1,"j":{"k":2,"k":[3]},"k":{"z":1,"z":2}}],"x":[0],"y":{"q":1,"\u0071":2}}"#
            ),
            r#"{"x":[0],"y":{"q":2}}"#
        );
        assert_eq!(
            canonical(r#"{"o":{"k":1,"j":{"k":2,"k":[3]},"k":{"z":1,"z":2},"k":{"z":3,"y":4,"z":5}}}"#),
            r#"{"o":{"k":{"z":5,"y":4},"j":{"k":[3]}}}"#
        );
        // Many members (the sorted comparison), keys that differ only by an escape, and one
        // repeated three times.
        let members: Vec<String> = (0..40).map(|i| format!("\"k{i}\":{i}")).collect();
        let text = format!(
            r#"{{{},"k7":"seven","\"":1,"k\"":2,"\"":3,"k7":[7],"k3":null}}"#,
            members.join(",")
        );
        assert_eq!(Some(canonical(&text)), serde_json_canonical(&text));
    }

    #[test]
    fn numbers_no_store_keeps_are_flagged() {
        assert!(!canonical_object(r#"{"a":[1,1e400,-0]}"#).unwrap().unkeepable);
        assert!(canonical_object(r#"{"a":[1,1e7000]}"#).unwrap().unkeepable);
        let forty = "1".repeat(40);
        assert!(
            canonical_object(&format!(r#"{{"a":{{"b":{forty}}}}}"#))
                .unwrap()
                .unkeepable
        );
    }

    #[test]
    fn only_objects_are_read() {
        for text in ["[]", "1", "\"a\"", "null", "", "{", "{}x", "{\"a\":01}"] {
            assert!(canonical_object(text).is_err(), "{text}");
        }
    }

    /// JSON objects with small keys (so that some repeat), nested a few levels, each written as
    /// an array of `[key, value]` pairs.
    fn objects() -> impl Strategy<Value = Value> {
        proptest::collection::vec(("[a-d\"\\\\é]{0,2}", values()), 0..12).prop_map(|members| {
            Value::Array(
                members
                    .into_iter()
                    .map(|(k, v)| Value::Array(vec![Value::String(k), v]))
                    .collect(),
            )
        })
    }

    /// JSON values, objects among them as in [`objects`].
    fn values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            // Quarters: exact in a double and short, so serde_json writes back what it read.
            (-4_000_000i64..4_000_000).prop_map(|n| Value::from(n as f64 / 4.0)),
            "[a-c\"\\\\\u{1}\n/é🐦]{0,4}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                proptest::collection::vec(("[a-d\"\\\\é]{0,2}", inner), 0..12).prop_map(|members| {
                    // Written by hand below, so that keys can repeat.
                    Value::Array(
                        members
                            .into_iter()
                            .map(|(k, v)| Value::Array(vec![Value::String(k), v]))
                            .collect(),
                    )
                }),
            ]
        })
    }

    /// `value` as a JSON text in which arrays of `[key, value]` pairs become objects (keys
    /// repeating as generated), with odd spacing and escapes.
    fn write(value: &Value, as_object: bool, out: &mut String) {
        match value {
            Value::Array(items) if is_pairs(items) || (as_object && items.is_empty()) => {
                out.push_str("{ ");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" ,\n");
                    }
                    if let Value::Array(pair) = item {
                        let key: String = pair[0]
                            .as_str()
                            .unwrap_or_default()
                            .chars()
                            .map(|c| {
                                if c == 'a' {
                                    "\\u0061".to_owned()
                                } else {
                                    let quoted = serde_json::to_string(&c.to_string()).unwrap();
                                    quoted[1..quoted.len() - 1].to_owned()
                                }
                            })
                            .collect();
                        out.push_str(&format!("\"{key}\"\t: "));
                        write(&pair[1], false, out);
                    }
                }
                out.push('}');
            }
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(item, false, out);
                }
                out.push(']');
            }
            Value::String(s) => {
                // Escape everything non-ASCII, so that the canonical text must decode it.
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '/' => out.push_str("\\/"),
                        c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                            let mut units = [0u16; 2];
                            for unit in c.encode_utf16(&mut units) {
                                out.push_str(&format!("\\u{unit:04X}"));
                            }
                        }
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            other => out.push_str(&other.to_string()),
        }
    }

    fn is_pairs(items: &[Value]) -> bool {
        !items.is_empty()
            && items
                .iter()
                .all(|item| matches!(item, Value::Array(pair) if pair.len() == 2 && pair[0].is_string()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        #[test]
        fn generated_objects_are_written_as_serde_json_writes_them(value in objects()) {
            let mut text = String::new();
            write(&value, true, &mut text);
            let expected = serde_json_canonical(&text);
            prop_assume!(expected.is_some());
            prop_assert_eq!(Some(canonical(&text)), expected, "{}", text);
        }
    }
}
