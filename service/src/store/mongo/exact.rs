//! Exact JSON in MongoDB: a document's numbers as BSON numbers, and their texts as sent, written
//! from the canonical text and read back as JSON text, each in one pass (no tree either way).
//!
//! Rules enforced here:
//! - every number is stored as the BSON number [`bson_number`] chooses (an Int64, a Double or a
//!   Decimal128 of exactly its value), so other programs reading the collection see numbers and
//!   the server compares them as numbers;
//! - where that BSON number reads back as another text than the one sent ([`BsonNumber::text`]:
//!   `1E5` is the Double 100000.0, which reads back `100000.0`), the text sent is kept in the
//!   document's `_store.numbers` as `[position, text]`, the position counting the document's
//!   numbers in the order they are stored (depth first, fields and items in order), the entries
//!   in that order; most documents need no entry;
//! - the document is written straight into one BSON buffer ([`input`]): each document, array
//!   and string gets its length patched in once its end is written, so writing costs the BSON's
//!   own size and a few words per open container. A field name BSON cannot hold (one with a NUL)
//!   is refused as a document the store rejects (a 4xx), never a panic (the bson crate's own
//!   `RawDocumentBuf::append` panics on one);
//! - reading back walks the raw BSON and writes JSON text ([`output`]): `_id` first, then the
//!   fields but `_store`, strings and keys escaped as serde_json escapes them. A number takes the
//!   text kept for its position only when that text still names exactly the BSON number found
//!   there: a stale entry (the document replaced since by the plain `replace`, which keeps
//!   `_store`) can never change a value, only not apply; entries are read in order alongside the
//!   numbers, so an entry out of order is not applied either;
//! - a BSON number without a kept text reads as [`BsonNumber::text`] gives it (an Int32 as an
//!   integer); BSON that no JSON number holds (a NaN, a date, written by another program) reads as
//!   the plain reads show it.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::raw::{RawArray, RawBsonRef, RawDocument, RawDocumentBuf};
use mongodb::bson::Bson;

use super::{id_of, to_json};
use crate::exact::{bson_number, write_str, BsonNumber, ExactNumber, Token, Tokens};
use crate::store::{StoreError, ID_FIELD, STORE_FIELD};

/// `_store.numbers`: the texts of the numbers whose BSON number reads back otherwise.
pub(super) const NUMBERS: &str = "numbers";

const DOUBLE: u8 = 0x01;
const STRING: u8 = 0x02;
const DOCUMENT: u8 = 0x03;
const ARRAY: u8 = 0x04;
const OBJECT_ID: u8 = 0x07;
const BOOLEAN: u8 = 0x08;
const NULL: u8 = 0x0A;
const INT64: u8 = 0x12;
const DECIMAL128: u8 = 0x13;

/// A document being written: `_id` and the fields, its `_store` still to come.
#[derive(Debug)]
pub(super) struct Input {
    bytes: Vec<u8>,
    /// The elements of `_store.numbers`.
    spellings: Vec<u8>,
    entries: u32,
}

/// `_id` and the fields of `text` (an exact document's canonical text) as BSON, and the entries of
/// `_store.numbers`; [`Input::finish`] adds `_store`.
pub(super) fn input(id: ObjectId, text: &str) -> Result<Input, StoreError> {
    let mut input = Input {
        bytes: Vec::with_capacity(text.len() + 64),
        spellings: Vec::new(),
        entries: 0,
    };
    let bytes = &mut input.bytes;
    bytes.extend_from_slice(&[0; 4]);
    bytes.push(OBJECT_ID);
    push_cstr(bytes, ID_FIELD)?;
    bytes.extend_from_slice(&id.bytes());
    Writer {
        input: &mut input,
        position: 0,
    }
    .fields(text)?;
    Ok(input)
}

impl Input {
    /// The whole document: `_store` (its kept texts, then `seq`) added.
    pub(super) fn finish(mut self, seq: i64) -> Result<RawDocumentBuf, StoreError> {
        let bytes = &mut self.bytes;
        bytes.push(DOCUMENT);
        push_cstr(bytes, STORE_FIELD)?;
        let store = open(bytes);
        if self.entries > 0 {
            bytes.push(ARRAY);
            push_cstr(bytes, NUMBERS)?;
            let numbers = open(bytes);
            bytes.extend_from_slice(&self.spellings);
            close(bytes, numbers)?;
        }
        bytes.push(INT64);
        push_cstr(bytes, "seq")?;
        bytes.extend_from_slice(&seq.to_le_bytes());
        close(bytes, store)?;
        close(bytes, 0)?;
        RawDocumentBuf::from_bytes(self.bytes).map_err(|err| StoreError::rejected(err.to_string()))
    }
}

/// Start a document or array's bytes (its length to come); where its length goes.
fn open(bytes: &mut Vec<u8>) -> usize {
    let at = bytes.len();
    bytes.extend_from_slice(&[0; 4]);
    at
}

/// End the document or array opened at `at`: its terminator, and its length patched in.
fn close(bytes: &mut Vec<u8>, at: usize) -> Result<(), StoreError> {
    bytes.push(0);
    let len = bytes.len() - at;
    patch_length(bytes, at, len)
}

fn patch_length(bytes: &mut [u8], at: usize, len: usize) -> Result<(), StoreError> {
    let len = i32::try_from(len).map_err(|_| StoreError::rejected("the document is too large for BSON"))?;
    if let Some(slot) = bytes.get_mut(at..at + 4) {
        slot.copy_from_slice(&len.to_le_bytes());
    }
    Ok(())
}

/// A field name as a BSON C string (refused if it holds a NUL, which would end it early).
fn push_cstr(bytes: &mut Vec<u8>, name: &str) -> Result<(), StoreError> {
    push_name(bytes, name.as_bytes())
}

fn push_name(bytes: &mut Vec<u8>, name: &[u8]) -> Result<(), StoreError> {
    if name.contains(&0) {
        return Err(StoreError::rejected(
            "a field name holds the character U+0000, which BSON cannot hold",
        ));
    }
    bytes.extend_from_slice(name);
    bytes.push(0);
    Ok(())
}

/// An array position as a BSON key (`"0"`, `"1"`, …), without allocating.
fn push_index(bytes: &mut Vec<u8>, index: u32) {
    let mut digits = [0u8; 10];
    let mut n = index;
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    bytes.extend_from_slice(digits.get(at..).unwrap_or_default());
    bytes.push(0);
}

/// A BSON string's value: its length, its bytes, a NUL.
fn push_string(bytes: &mut Vec<u8>, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), StoreError> {
    let at = open(bytes);
    write(bytes);
    bytes.push(0);
    let len = bytes.len() - at - 4;
    patch_length(bytes, at, len)
}

struct Writer<'i> {
    input: &'i mut Input,
    position: usize,
}

/// One open array or object: where its length goes, and (an array) its next position.
struct Open {
    at: usize,
    next: Option<u32>,
}

impl Writer<'_> {
    fn fields(&mut self, text: &str) -> Result<(), StoreError> {
        let malformed = |_| StoreError::rejected("the document is not a JSON object");
        let mut tokens = Tokens::new(text);
        if tokens.next_token().map_err(malformed)? != Some(Token::BeginObject) {
            return Err(StoreError::rejected("the document is not a JSON object"));
        }
        // The document's own fields go straight into the buffer `input` opened.
        let mut stack: Vec<Open> = Vec::with_capacity(16);
        let mut key = None;
        while let Some(token) = tokens.next_token().map_err(malformed)? {
            let mut number = None;
            let kind = match token {
                Token::Key(name) => {
                    key = Some(name);
                    continue;
                }
                Token::EndObject | Token::EndArray => match stack.pop() {
                    Some(done) => {
                        close(&mut self.input.bytes, done.at)?;
                        continue;
                    }
                    // The document's end: `_store` and the terminator come in `finish`.
                    None => break,
                },
                Token::BeginObject => DOCUMENT,
                Token::BeginArray => ARRAY,
                Token::String(_) => STRING,
                Token::Bool(_) => BOOLEAN,
                Token::Null => NULL,
                Token::Number(text) => {
                    let stored = self.number(text)?;
                    number = Some(stored);
                    match stored {
                        BsonNumber::Int64(_) => INT64,
                        BsonNumber::Double(_) => DOUBLE,
                        BsonNumber::Decimal128(_) => DECIMAL128,
                    }
                }
            };
            let bytes = &mut self.input.bytes;
            bytes.push(kind);
            match stack.last_mut() {
                Some(Open { next: Some(next), .. }) => {
                    push_index(bytes, *next);
                    *next += 1;
                }
                _ => match key.take() {
                    Some(name) if name.is_escaped() => {
                        let mut decoded = Vec::with_capacity(name.raw().len());
                        name.decode_into(&mut decoded);
                        push_name(bytes, &decoded)?;
                    }
                    Some(name) => push_name(bytes, name.raw().as_bytes())?,
                    None => return Err(StoreError::rejected("a value without a field name")),
                },
            }
            match (token, number) {
                (Token::BeginObject | Token::BeginArray, _) => {
                    let at = open(bytes);
                    let next = (token == Token::BeginArray).then_some(0);
                    stack.push(Open { at, next });
                }
                (Token::String(s), _) => push_string(bytes, |bytes| s.decode_into(bytes))?,
                (Token::Bool(b), _) => bytes.push(u8::from(b)),
                (_, Some(BsonNumber::Int64(int))) => bytes.extend_from_slice(&int.to_le_bytes()),
                (_, Some(BsonNumber::Double(double))) => bytes.extend_from_slice(&double.to_le_bytes()),
                (_, Some(BsonNumber::Decimal128(decimal))) => bytes.extend_from_slice(&decimal.bytes()),
                _ => {}
            }
        }
        Ok(())
    }

    /// The BSON number of `number`, its text kept in `_store.numbers` where it reads back
    /// otherwise.
    fn number(&mut self, number: &str) -> Result<BsonNumber, StoreError> {
        // An `ExactDocument` holds only numbers that have one; this is for a caller's bug.
        let stored = bson_number(number)
            .map_err(|reason| StoreError::rejected(format!("{number:?} has no BSON number ({reason:?})")))?;
        // An Int64 comes from an integer literal (no `+`, no leading zero, not `-0`): it reads
        // back as written.
        let differs = match stored {
            BsonNumber::Int64(_) => false,
            _ => stored.text().as_deref() != Some(number),
        };
        if differs {
            let position = i64::try_from(self.position).unwrap_or(i64::MAX);
            let entries = &mut self.input.spellings;
            entries.push(ARRAY);
            push_index(entries, self.input.entries);
            self.input.entries += 1;
            let pair = open(entries);
            entries.push(INT64);
            push_index(entries, 0);
            entries.extend_from_slice(&position.to_le_bytes());
            entries.push(STRING);
            push_index(entries, 1);
            push_string(entries, |bytes| bytes.extend_from_slice(number.as_bytes()))?;
            close(entries, pair)?;
        }
        self.position += 1;
        Ok(stored)
    }
}

/// A stored document as exact JSON text: `_id` first, every number as it was sent.
pub(super) fn output(raw: &RawDocument) -> Result<String, StoreError> {
    let malformed = |err: mongodb::bson::raw::Error| {
        StoreError::unavailable(format!("MongoDB returned malformed BSON: {err}"))
    };
    let id = raw
        .get(ID_FIELD)
        .map_err(malformed)?
        .and_then(|id| Bson::try_from(id.to_raw_bson()).ok());
    let spellings = raw
        .get_document(STORE_FIELD)
        .ok()
        .and_then(|store| store.get_array(NUMBERS).ok());
    let mut reader = Reader {
        out: String::new(),
        position: 0,
        spellings: spellings.map(|entries| entries.into_iter()),
        pending: None,
    };
    reader.out.push_str("{\"");
    reader.out.push_str(ID_FIELD);
    reader.out.push_str("\":");
    write_str(&mut reader.out, &id_of(id));
    for field in raw {
        let (key, value) = field.map_err(malformed)?;
        if key == ID_FIELD || key == STORE_FIELD {
            continue;
        }
        reader.out.push(',');
        write_str(&mut reader.out, key);
        reader.out.push(':');
        reader.value(value).map_err(malformed)?;
    }
    reader.out.push('}');
    Ok(reader.out)
}

struct Reader<'r> {
    out: String,
    position: usize,
    /// The entries of `_store.numbers`, read in order alongside the numbers.
    spellings: Option<mongodb::bson::raw::RawArrayIter<'r>>,
    /// The next entry, read but not yet reached: `(position, text)`.
    pending: Option<(usize, &'r str)>,
}

impl<'r> Reader<'r> {
    fn value(&mut self, value: RawBsonRef<'r>) -> Result<(), mongodb::bson::raw::Error> {
        match value {
            RawBsonRef::Int32(int) => self.number(BsonNumber::Int64(i64::from(int))),
            RawBsonRef::Int64(int) => self.number(BsonNumber::Int64(int)),
            RawBsonRef::Double(double) => self.number(BsonNumber::Double(double)),
            RawBsonRef::Decimal128(decimal) => self.number(BsonNumber::Decimal128(decimal)),
            RawBsonRef::String(s) => write_str(&mut self.out, s),
            RawBsonRef::Boolean(b) => self.out.push_str(if b { "true" } else { "false" }),
            RawBsonRef::Null => self.out.push_str("null"),
            RawBsonRef::Array(items) => self.array(items)?,
            RawBsonRef::Document(doc) => {
                self.out.push('{');
                for (i, field) in doc.into_iter().enumerate() {
                    let (key, item) = field?;
                    if i > 0 {
                        self.out.push(',');
                    }
                    write_str(&mut self.out, key);
                    self.out.push(':');
                    self.value(item)?;
                }
                self.out.push('}');
            }
            other => self.plain(Bson::try_from(other.to_raw_bson())?),
        }
        Ok(())
    }

    fn array(&mut self, items: &'r RawArray) -> Result<(), mongodb::bson::raw::Error> {
        self.out.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.out.push(',');
            }
            self.value(item?)?;
        }
        self.out.push(']');
        Ok(())
    }

    /// A value as the plain reads show it.
    fn plain(&mut self, value: Bson) {
        self.out.push_str(&to_json(value).to_string());
    }

    fn number(&mut self, stored: BsonNumber) {
        let position = self.position;
        self.position += 1;
        let spelled = self
            .spelling(position)
            .filter(|text| ExactNumber::parse(text).is_some_and(|number| number.bson().ok() == Some(stored)));
        match spelled {
            Some(text) => self.out.push_str(text),
            None => match stored.text() {
                Some(text) => self.out.push_str(&text),
                // Not finite: as the plain reads show it.
                None => self.plain(bson(stored)),
            },
        }
    }

    /// The text kept for the number at `position`, if the next entries name it (entries before
    /// it, or malformed, are passed over).
    fn spelling(&mut self, position: usize) -> Option<&'r str> {
        loop {
            if let Some((at, text)) = self.pending {
                if at > position {
                    return None;
                }
                self.pending = None;
                if at == position {
                    return Some(text);
                }
                continue;
            }
            let entry = self.spellings.as_mut()?.next()?;
            self.pending = entry.ok().and_then(|entry| match entry {
                RawBsonRef::Array(pair) => {
                    let mut items = pair.into_iter();
                    match (items.next(), items.next(), items.next()) {
                        (Some(Ok(RawBsonRef::Int64(at))), Some(Ok(RawBsonRef::String(text))), None) => {
                            usize::try_from(at).ok().map(|at| (at, text))
                        }
                        _ => None,
                    }
                }
                _ => None,
            });
            if self.pending.is_none() {
                // Malformed: passed over (the loop reads the next entry).
                continue;
            }
        }
    }
}

fn bson(number: BsonNumber) -> Bson {
    match number {
        BsonNumber::Int64(int) => Bson::Int64(int),
        BsonNumber::Double(double) => Bson::Double(double),
        BsonNumber::Decimal128(decimal) => Bson::Decimal128(decimal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::ExactBody;
    use crate::store::ExactDocument;
    use mongodb::bson::{doc, Document as BsonDocument};

    const ID: &str = "0123456789abcdef01234567";

    fn oid() -> ObjectId {
        ObjectId::parse_str(ID).unwrap()
    }

    fn canonical(text: &str) -> String {
        ExactDocument::new(ExactBody::parse(text).unwrap())
            .unwrap()
            .into_text()
    }

    fn stored(text: &str) -> BsonDocument {
        let raw = input(oid(), &canonical(text)).unwrap().finish(7).unwrap();
        raw.to_document().unwrap()
    }

    fn read_back(doc: &BsonDocument) -> String {
        output(&RawDocumentBuf::from_document(doc).unwrap()).unwrap()
    }

    fn spellings(doc: &BsonDocument) -> Vec<String> {
        doc.get_document(STORE_FIELD)
            .unwrap()
            .get_array(NUMBERS)
            .map(|entries| entries.iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    }

    #[test]
    fn numbers_are_bson_numbers_and_read_back_as_sent() {
        let text = format!(
            r#"{{"i":42,"big":18446744073709551616,"neg":-9223372036854775809,"tiny":1e-400,"huge":1e400,"z":-0,"zf":-0.0,"f":0.1,"one":1.0,"e":1E5,"d":{},"nested":[1e-07,{{"x":[1.50]}}]}}"#,
            "1".repeat(34)
        );
        let doc = stored(&text);
        assert_eq!(doc.get(ID_FIELD), Some(&Bson::ObjectId(oid())));
        assert_eq!(doc.get("i"), Some(&Bson::Int64(42)));
        assert!(matches!(doc.get("big"), Some(Bson::Decimal128(_))));
        assert!(matches!(doc.get("tiny"), Some(Bson::Decimal128(_))));
        assert_eq!(doc.get("zf"), Some(&Bson::Double(-0.0)));
        assert_eq!(doc.get("f"), Some(&Bson::Double(0.1)));
        assert_eq!(doc.get("e"), Some(&Bson::Double(100000.0)));
        // Only the numbers whose BSON number reads back otherwise have an entry, then `seq`.
        assert_eq!(
            spellings(&doc),
            [
                r#"[3, "1e-400"]"#,
                r#"[4, "1e400"]"#,
                r#"[9, "1E5"]"#,
                r#"[11, "1e-07"]"#,
                r#"[12, "1.50"]"#
            ]
        );
        let store = doc.get_document(STORE_FIELD).unwrap();
        assert_eq!(store.keys().collect::<Vec<_>>(), [NUMBERS, "seq"]);
        assert_eq!(store.get("seq"), Some(&Bson::Int64(7)));
        assert_eq!(read_back(&doc), format!(r#"{{"_id":"{ID}",{}"#, &text[1..]));
    }

    #[test]
    fn the_writer_writes_what_the_bson_crate_writes() {
        let text = r#"{"s":"a\"b\\c\u0001é🐦","e":"","t":true,"f":false,"n":null,"o":{},"a":[],"deep":[[{"k":[1,[2.5]]}]],"k\u00e9y":{"\"":"\u0000"}}"#;
        let expected = doc! {
            ID_FIELD: oid(),
            "s": "a\"b\\c\u{1}é🐦", "e": "", "t": true, "f": false, "n": Bson::Null,
            "o": {}, "a": [], "deep": [[{"k": [1_i64, [2.5]]}]],
            "kéy": {"\"": "\u{0}"},
            STORE_FIELD: {"seq": 1_i64},
        };
        let raw = input(oid(), &canonical(text)).unwrap().finish(1).unwrap();
        assert_eq!(
            raw.as_bytes(),
            RawDocumentBuf::from_document(&expected).unwrap().as_bytes()
        );
        assert_eq!(
            output(&raw).unwrap(),
            format!(
                r#"{{"_id":"{ID}","s":"a\"b\\c\u0001é🐦","e":"","t":true,"f":false,"n":null,"o":{{}},"a":[],"deep":[[{{"k":[1,[2.5]]}}]],"kéy":{{"\"":"\u0000"}}}}"#
            )
        );
        // A long array: positions past one digit.
        let many: Vec<String> = (0..1234).map(|i| i.to_string()).collect();
        let text = format!(r#"{{"a":[{}]}}"#, many.join(","));
        let doc = stored(&text);
        assert_eq!(doc.get_array("a").unwrap()[1233], Bson::Int64(1233));
        assert_eq!(read_back(&doc), format!(r#"{{"_id":"{ID}",{}"#, &text[1..]));
    }

    #[test]
    fn a_field_name_bson_cannot_hold_is_refused() {
        for text in [r#"{"a\u0000b":1}"#, r#"{"x":[{"\u0000":1}]}"#] {
            let err = input(oid(), &canonical(text)).unwrap_err();
            assert_eq!(err.status(), 422, "{text}");
        }
        // In a value, a NUL is a character like any other.
        assert!(input(oid(), &canonical(r#"{"a":"\u0000"}"#)).is_ok());
    }

    #[test]
    fn a_kept_text_applies_only_where_it_names_the_number_stored() {
        let mut doc = stored(r#"{"a":1E5,"b":2.50,"c":3,"d":1e-7}"#);
        // Stale or tampered entries: another value, a bad position, a non-number, a malformed
        // one, one out of order.
        let entries = vec![
            Bson::Array(vec![Bson::Int64(0), Bson::String("1e5".into())]),
            Bson::Array(vec![Bson::Int64(1), Bson::String("2.6".into())]),
            Bson::Array(vec![Bson::Int64(2), Bson::String("x".into())]),
            Bson::Array(vec![Bson::Int64(-1), Bson::String("1".into())]),
            Bson::String("junk".into()),
            Bson::Array(vec![Bson::Int64(3), Bson::String("1.0e-7".into())]),
            Bson::Array(vec![Bson::Int64(0), Bson::String("1E+5".into())]),
        ];
        doc.insert(STORE_FIELD, doc! { "seq": 1_i64, NUMBERS: entries });
        assert_eq!(
            read_back(&doc),
            format!(r#"{{"_id":"{ID}","a":1e5,"b":2.5,"c":3,"d":1.0e-7}}"#)
        );
    }

    #[test]
    fn documents_of_the_plain_writes_and_of_other_programs_read_back() {
        let doc = doc! {
            ID_FIELD: oid(),
            "i32": 7_i32, "i64": 8_i64, "f": 2.5, "whole": 2.0, "nan": f64::NAN,
            "dec": Bson::Decimal128("1.50".parse().unwrap()),
            "dnan": Bson::Decimal128("NaN".parse().unwrap()),
            "oid": oid(), "date": mongodb::bson::DateTime::from_millis(0),
            "nested": {"x": [Bson::Undefined, {"y": 1_i32}]},
            STORE_FIELD: {"seq": 1_i64},
        };
        assert_eq!(
            read_back(&doc),
            format!(
                r#"{{"_id":"{ID}","i32":7,"i64":8,"f":2.5,"whole":2.0,"nan":null,"dec":1.50,"dnan":{{"$numberDecimal":"NaN"}},"oid":"{ID}","date":{{"$date":"1970-01-01T00:00:00Z"}},"nested":{{"x":[null,{{"y":1}}]}}}}"#
            )
        );
        // An id that is not an ObjectId, and none at all.
        assert_eq!(
            read_back(&doc! { ID_FIELD: "x\"y", "a": 1_i64 }),
            r#"{"_id":"x\"y","a":1}"#
        );
        assert_eq!(read_back(&doc! { "a": 1_i64 }), r#"{"_id":"","a":1}"#);
    }
}
