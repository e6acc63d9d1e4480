//! JSON trees (`serde_json::Value`) built from a body's text at a known, bounded cost: the
//! builder every body path uses ([`parse_value`], [`TreeSeed`]) and what it can cost at most
//! ([`tree_peak`]), charged against the memory budget before the tree is built.
//!
//! A `Value` is 72 bytes, and serde_json's own reader grows each array and object by doubling
//! and never gives the slack back: a 1 MiB text of arrays nested 120 deep became 158 MB (150×
//! its size), a flat array of 524,288 zeros 38 MB (measured with a counting allocator).
//!
//! Rules enforced here:
//! - every array and object is exactly as large as it has elements once it is read (an array is
//!   shrunk, an object built at its final size): the same text holds ~40× its size at most
//!   (nested arrays: 42 MB for that 1 MiB), and what an ordinary document holds is a few times
//!   its size;
//! - [`parse_value`] accepts and refuses exactly what `serde_json::from_str::<Value>` does, with
//!   the same errors (the same reader, depth limit included; only the containers are built
//!   differently), and a key sent twice keeps its first place and its last value;
//! - [`tree_peak`] is an upper bound of the bytes [`parse_value`] holds at any moment while it
//!   reads a text (its allocations as the allocator rounds them, the transient of every growth):
//!   one pass over the bytes, no allocation, for texts of [`SCAN_FROM`] bytes or more; below, a
//!   flat [`SMALL_FACTOR`] bytes per byte, which no text exceeds;
//! - it never fails: on a text that is not JSON it bounds what the reader holds before it stops.

use std::fmt;
use std::mem::size_of;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;
use serde_json::{Map, Number, Value};

/// Texts this long or longer are scanned for their cost; shorter ones are charged
/// [`SMALL_FACTOR`] bytes per byte (a scan would cost more than it saves).
pub(crate) const SCAN_FROM: usize = 1024;

/// The most bytes per byte of text a tree can hold while it is read: arrays of one element
/// nested as deep as the reader allows, each holding the four elements' room a first push
/// takes until it is shrunk (`[[[…]]]`: 304 bytes for every 2 bytes of text).
pub(crate) const SMALL_FACTOR: usize = 160;

/// The deepest nesting the reader accepts (serde_json's limit: 128 levels refused).
const MAX_DEPTH: usize = 128;

/// Read `text` (one JSON value, whitespace around it allowed) into a compact tree.
pub fn parse_value(text: &str) -> serde_json::Result<Value> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = TreeSeed.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

/// Reads one JSON value into a compact tree (see the module rules).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TreeSeed;

impl<'de> DeserializeSeed<'de> for TreeSeed {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TreeSeed {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(TreeSeed)? {
            items.push(item);
        }
        items.shrink_to_fit();
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(TreeSeed)?;
            entries.push((key, value));
        }
        // Built at its final size (the entries' count is exact), then the list is freed.
        Ok(Value::Object(entries.into_iter().collect::<Map<String, Value>>()))
    }
}

/// An upper bound of the bytes [`parse_value`] holds at any moment while reading `text` (see
/// the module rules).
pub fn tree_peak(text: &[u8]) -> usize {
    if text.len() < SCAN_FROM {
        return text.len().saturating_mul(SMALL_FACTOR);
    }
    let mut scan = Scan::default();
    scan.run(text);
    // The reader's scratch space for strings with escapes grows by doubling to the longest.
    let peak = scan.peak.saturating_add(scan.longest_escaped.saturating_mul(2));
    // An eighth more: allocators keep some bytes beside each block that this model rounds away.
    peak.saturating_add(peak / 8).saturating_add(4096)
}

/// Element sizes of the tree's containers.
const VALUE: usize = size_of::<Value>();
/// An object's entry while it is read (`(String, Value)`).
const PENDING_ENTRY: usize = size_of::<(String, Value)>();
/// An object's entry in its map (indexmap keeps the key's hash beside it).
const MAP_ENTRY: usize = size_of::<(u64, String, Value)>();

/// An open array or object, as the reader holds it.
#[derive(Clone, Copy, Default)]
struct Open {
    object: bool,
    /// In an object: the next string is a key.
    expect_key: bool,
    len: usize,
    cap: usize,
}

/// One pass over a text, following what the reader allocates.
#[derive(Default)]
struct Scan {
    stack: Vec<Open>,
    current: usize,
    peak: usize,
    longest_escaped: usize,
}

impl Scan {
    fn run(&mut self, text: &[u8]) {
        self.stack.reserve(MAX_DEPTH);
        let mut at = 0;
        while let Some(&byte) = text.get(at) {
            match byte {
                b'"' => {
                    let (len, escaped) = string_len(text, at + 1);
                    at += len + 2;
                    if escaped {
                        self.longest_escaped = self.longest_escaped.max(len);
                    }
                    self.alloc(block(len));
                    match self.stack.last_mut() {
                        Some(top) if top.object && top.expect_key => top.expect_key = false,
                        _ => self.value_end(),
                    }
                    continue;
                }
                b'[' | b'{' => {
                    if self.stack.len() >= MAX_DEPTH {
                        // The reader refuses this depth: nothing more is built.
                        return;
                    }
                    self.stack.push(Open {
                        object: byte == b'{',
                        expect_key: byte == b'{',
                        ..Open::default()
                    });
                }
                b']' | b'}' => {
                    if let Some(open) = self.stack.pop() {
                        self.close(open);
                        self.value_end();
                    }
                }
                b',' => {
                    if let Some(top) = self.stack.last_mut() {
                        top.expect_key = top.object;
                    }
                }
                b'-' | b'0'..=b'9' | b't' | b'f' | b'n' => {
                    // A number or literal: no allocation of its own; skip to its end.
                    let len = text
                        .get(at..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(|b| {
                            !matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r' | b':')
                        })
                        .count();
                    at += len.max(1);
                    self.value_end();
                    continue;
                }
                _ => {}
            }
            at += 1;
        }
    }

    /// A value ended: its parent (if any) takes it, growing as a `Vec` grows.
    fn value_end(&mut self) {
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        let size = if top.object { PENDING_ENTRY } else { VALUE };
        if top.len == top.cap {
            // `Vec`'s growth: double, at least four (for elements of these sizes).
            let new_cap = (top.cap * 2).max(4);
            let (old, new) = (block(top.cap * size), block(new_cap * size));
            top.cap = new_cap;
            top.len += 1;
            // The old block lives until the new one has the elements.
            self.alloc(new);
            self.free(old);
        } else {
            top.len += 1;
        }
    }

    /// An array is shrunk to its length; an object's entries become a map of that size.
    fn close(&mut self, open: Open) {
        if open.object {
            if open.len > 0 {
                self.alloc(block(open.len * MAP_ENTRY) + block(index_bytes(open.len)));
            }
            self.free(block(open.cap * PENDING_ENTRY));
        } else {
            self.free(block(open.cap * VALUE));
            self.alloc(block(open.len * VALUE));
        }
    }

    fn alloc(&mut self, bytes: usize) {
        self.current = self.current.saturating_add(bytes);
        self.peak = self.peak.max(self.current);
    }

    fn free(&mut self, bytes: usize) {
        self.current = self.current.saturating_sub(bytes);
    }
}

/// The length of the string whose text starts at `start` (just after its opening quote), up to
/// its closing quote or the end of the text, and whether it has escapes.
fn string_len(text: &[u8], start: usize) -> (usize, bool) {
    let rest = text.get(start..).unwrap_or_default();
    let mut at = 0;
    let mut escaped = false;
    while let Some(found) = memchr::memchr2(b'"', b'\\', rest.get(at..).unwrap_or_default()) {
        at += found;
        if rest.get(at) == Some(&b'"') {
            return (at, escaped);
        }
        escaped = true;
        at += 2;
    }
    (rest.len(), escaped)
}

/// The bytes an allocation of `size` takes, as glibc's malloc rounds it (a header of 8 bytes,
/// 16-byte steps, 32 at least; pages for blocks it maps on their own), rounded up further.
fn block(size: usize) -> usize {
    match size {
        0 => 0,
        s if s >= 128 * 1024 => (s + 16).div_ceil(4096) * 4096,
        s => ((s + 16).div_ceil(16) * 16).max(32),
    }
}

/// The bytes of a map's index table for `len` entries (hashbrown: buckets of 8 bytes, a power
/// of two at least 8/7 of the entries and 4 at least, one control byte each plus 16).
fn index_bytes(len: usize) -> usize {
    let buckets = (len * 8 / 7 + 1).next_power_of_two().max(4);
    buckets * 9 + 16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_reads_what_serde_json_reads_and_refuses_what_it_refuses() {
        let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
        let deep_enough = format!("{}{}", "[".repeat(127), "]".repeat(127));
        for text in [
            "0",
            "-1.5e3",
            "18446744073709551615",
            "-9223372036854775808",
            "1e400",
            "\"a\\u00e9\\n\"",
            "[1, [2, {\"a\": [], \"b\": {}}], null, true, false]",
            "{\"a\": 1, \"b\": 2, \"a\": 3}",
            " {} ",
            "",
            "[1,]",
            "{\"a\" 1}",
            "\"\\ud800\"",
            "NaN",
            "[1] x",
            deep.as_str(),
            deep_enough.as_str(),
        ] {
            let ours = parse_value(text).map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn a_key_sent_twice_keeps_its_first_place_and_its_last_value() {
        let value = parse_value(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(value.to_string(), r#"{"a":3,"b":2}"#);
    }

    #[test]
    fn containers_are_exactly_as_large_as_their_elements() {
        let Value::Array(items) = parse_value("[1,2,3,4,5]").unwrap() else {
            unreachable!()
        };
        assert_eq!(items.capacity(), 5);
    }

    #[test]
    fn short_texts_are_charged_the_flat_factor() {
        assert_eq!(tree_peak(b"{}"), 2 * SMALL_FACTOR);
        assert_eq!(tree_peak(&[b' '; SCAN_FROM - 1]), (SCAN_FROM - 1) * SMALL_FACTOR);
    }

    #[test]
    fn the_scan_follows_the_shape_not_the_length() {
        let strings = format!("[\"{}\"]", "x".repeat(100_000));
        let zeros = format!("[{}]", vec!["0"; 50_000].join(","));
        let (strings, zeros) = (tree_peak(strings.as_bytes()), tree_peak(zeros.as_bytes()));
        // One string: its bytes, once. Fifty thousand numbers: 72 bytes each, doubling.
        assert!(strings < 150_000, "{strings}");
        assert!(zeros > 50_000 * VALUE && zeros < 50_000 * VALUE * 3, "{zeros}");
    }

    #[test]
    fn garbage_and_cut_texts_are_bounded_without_failing() {
        for text in [
            &b"\"unterminated"[..],
            b"]]]]}}}}",
            b"[[[[[[[[[[[[[[[[[[",
            b"\\\\\"\"",
            &[0xff; 2000][..],
        ] {
            let mut long = text.to_vec();
            long.resize(SCAN_FROM * 2, b' ');
            assert!(tree_peak(&long) < long.len() * SMALL_FACTOR);
        }
        let over_deep = "[".repeat(100_000);
        assert!(tree_peak(over_deep.as_bytes()) < 128 * 400 + 8192);
    }
}
