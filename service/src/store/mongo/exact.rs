//! Exact JSON in MongoDB: a document's numbers as BSON numbers, and their texts as sent.
//!
//! Rules enforced here:
//! - every number is stored as the BSON number [`ExactNumber::bson`] chooses (an Int64, a Double
//!   or a Decimal128 of exactly its value), so other programs reading the collection see numbers
//!   and the server compares them as numbers;
//! - where that BSON number reads back as another text than the one sent ([`BsonNumber::text`]:
//!   `1E5` is the Double 100000.0, which reads back `100000.0`), the text sent is kept in the
//!   document's `_store.numbers` as `[position, text]`, the position counting the document's
//!   numbers in the order they are stored (depth first, fields and items in order); most
//!   documents need no entry;
//! - reading back, a number takes the text kept for its position only when that text still names
//!   exactly the BSON number found there: a stale entry (the document replaced since by the plain
//!   `replace`, which keeps `_store`) can never change a value, only not apply;
//! - a BSON number without a kept text reads as [`BsonNumber::text`] gives it (an Int32 as an
//!   integer); BSON that no JSON number holds (a NaN, a date, written by another program) reads as
//!   the plain reads show it.

use std::collections::HashMap;

use mongodb::bson::{Bson, Document as BsonDocument, RawDocument};

use super::{id_of, to_json};
use crate::exact::{BsonNumber, ExactMap, ExactNumber, ExactValue};
use crate::store::exact::with_id_exact;
use crate::store::{StoreError, ID_FIELD, STORE_FIELD};

/// `_store.numbers`: the texts of the numbers whose BSON number reads back otherwise.
pub(super) const NUMBERS: &str = "numbers";

/// The fields of an exact document as BSON, and the `[position, text]` entries of
/// `_store.numbers` (empty when every number reads back as sent).
pub(super) fn fields(document: &ExactMap) -> Result<(BsonDocument, Vec<Bson>), StoreError> {
    let mut writer = Writer {
        position: 0,
        spellings: Vec::new(),
    };
    let fields = writer.document(document)?;
    Ok((fields, writer.spellings))
}

/// A stored document read as exact JSON: `_id` first, every number as it was sent.
pub(super) fn output(raw: &RawDocument) -> Result<ExactMap, StoreError> {
    let mut doc = BsonDocument::try_from(raw)
        .map_err(|err| StoreError::unavailable(format!("MongoDB returned malformed BSON: {err}")))?;
    let id = id_of(doc.remove(ID_FIELD));
    let mut reader = Reader {
        position: 0,
        spellings: spellings(doc.remove(STORE_FIELD)),
    };
    Ok(with_id_exact(id, reader.document(doc)))
}

struct Writer {
    position: usize,
    spellings: Vec<Bson>,
}

impl Writer {
    fn document(&mut self, map: &ExactMap) -> Result<BsonDocument, StoreError> {
        let mut out = BsonDocument::new();
        for (key, value) in map {
            out.insert(key.clone(), self.value(value)?);
        }
        Ok(out)
    }

    fn value(&mut self, value: &ExactValue) -> Result<Bson, StoreError> {
        Ok(match value {
            ExactValue::Null => Bson::Null,
            ExactValue::Bool(b) => Bson::Boolean(*b),
            ExactValue::Number(number) => self.number(number)?,
            ExactValue::String(s) => Bson::String(s.clone()),
            ExactValue::Array(items) => Bson::Array(
                items
                    .iter()
                    .map(|item| self.value(item))
                    .collect::<Result<_, _>>()?,
            ),
            ExactValue::Object(map) => Bson::Document(self.document(map)?),
        })
    }

    fn number(&mut self, number: &ExactNumber) -> Result<Bson, StoreError> {
        // An `ExactDocument` holds only numbers that have one; this is for a caller's bug.
        let stored = number.bson().map_err(|reason| {
            StoreError::rejected(format!("{:?} has no BSON number ({reason:?})", number.as_str()))
        })?;
        if stored.text().as_deref() != Some(number.as_str()) {
            self.spellings.push(Bson::Array(vec![
                Bson::Int64(i64::try_from(self.position).unwrap_or(i64::MAX)),
                Bson::String(number.as_str().to_owned()),
            ]));
        }
        self.position += 1;
        Ok(bson(stored))
    }
}

struct Reader {
    position: usize,
    spellings: HashMap<usize, String>,
}

impl Reader {
    fn document(&mut self, doc: BsonDocument) -> ExactMap {
        doc.into_iter()
            .map(|(key, value)| (key, self.value(value)))
            .collect()
    }

    fn value(&mut self, value: Bson) -> ExactValue {
        match value {
            Bson::Int32(int) => self.number(BsonNumber::Int64(i64::from(int))),
            Bson::Int64(int) => self.number(BsonNumber::Int64(int)),
            Bson::Double(double) => self.number(BsonNumber::Double(double)),
            Bson::Decimal128(decimal) => self.number(BsonNumber::Decimal128(decimal)),
            Bson::Array(items) => ExactValue::Array(items.into_iter().map(|item| self.value(item)).collect()),
            Bson::Document(doc) => ExactValue::Object(self.document(doc)),
            other => ExactValue::from(&to_json(other)),
        }
    }

    fn number(&mut self, stored: BsonNumber) -> ExactValue {
        let position = self.position;
        self.position += 1;
        let spelled = self
            .spellings
            .remove(&position)
            .and_then(|text| ExactNumber::parse(&text))
            .filter(|number| number.bson().ok() == Some(stored));
        match spelled.or_else(|| stored.text().and_then(|text| ExactNumber::parse(&text))) {
            Some(number) => ExactValue::Number(number),
            // Not finite: as the plain reads show it.
            None => ExactValue::from(&to_json(bson(stored))),
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

/// The entries of `_store.numbers` by position (malformed entries are ignored: the numbers then
/// read as their BSON numbers do).
fn spellings(store: Option<Bson>) -> HashMap<usize, String> {
    let Some(Bson::Document(mut store)) = store else {
        return HashMap::new();
    };
    let Some(Bson::Array(entries)) = store.remove(NUMBERS) else {
        return HashMap::new();
    };
    entries
        .into_iter()
        .filter_map(|entry| match entry {
            Bson::Array(pair) => match pair.as_slice() {
                [Bson::Int64(position), Bson::String(text)] => {
                    Some((usize::try_from(*position).ok()?, text.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::parse_object;
    use mongodb::bson::{doc, oid::ObjectId, RawDocumentBuf};

    fn stored(text: &str) -> (BsonDocument, Vec<Bson>) {
        fields(&parse_object(text).unwrap()).unwrap()
    }

    fn read_back(fields: BsonDocument, spellings: Vec<Bson>) -> String {
        let mut doc = doc! { ID_FIELD: ObjectId::parse_str("0123456789abcdef01234567").unwrap() };
        doc.extend(fields);
        doc.insert(STORE_FIELD, doc! { "seq": 1_i64, NUMBERS: spellings });
        let raw = RawDocumentBuf::from_document(&doc).unwrap();
        serde_json::to_string(&ExactValue::Object(output(&raw).unwrap())).unwrap()
    }

    #[test]
    fn numbers_are_bson_numbers_and_read_back_as_sent() {
        let text = format!(
            r#"{{"i":42,"big":18446744073709551616,"neg":-9223372036854775809,"tiny":1e-400,"huge":1e400,"z":-0,"zf":-0.0,"f":0.1,"one":1.0,"e":1E5,"d":{},"nested":[1e-07,{{"x":[1.50]}}]}}"#,
            "1".repeat(34)
        );
        let (fields, spellings) = stored(&text);
        assert_eq!(fields.get("i"), Some(&Bson::Int64(42)));
        assert!(matches!(fields.get("big"), Some(Bson::Decimal128(_))));
        assert!(matches!(fields.get("tiny"), Some(Bson::Decimal128(_))));
        assert_eq!(fields.get("zf"), Some(&Bson::Double(-0.0)));
        assert_eq!(fields.get("f"), Some(&Bson::Double(0.1)));
        assert_eq!(fields.get("e"), Some(&Bson::Double(100000.0)));
        // Only the numbers whose BSON number reads back otherwise have an entry.
        let spelled: Vec<_> = spellings.iter().map(ToString::to_string).collect();
        assert_eq!(
            spelled,
            [
                r#"[3, "1e-400"]"#,
                r#"[4, "1e400"]"#,
                r#"[9, "1E5"]"#,
                r#"[11, "1e-07"]"#,
                r#"[12, "1.50"]"#
            ]
        );
        assert_eq!(
            read_back(fields, spellings),
            format!(r#"{{"_id":"0123456789abcdef01234567",{}"#, &text[1..])
        );
    }

    #[test]
    fn a_kept_text_applies_only_where_it_names_the_number_stored() {
        let (fields, _) = stored(r#"{"a":1E5,"b":2.50,"c":3}"#);
        // Stale or tampered entries: another value, a bad position, a non-number, a malformed one.
        let entries = vec![
            Bson::Array(vec![Bson::Int64(0), Bson::String("1e5".into())]),
            Bson::Array(vec![Bson::Int64(1), Bson::String("2.6".into())]),
            Bson::Array(vec![Bson::Int64(2), Bson::String("x".into())]),
            Bson::Array(vec![Bson::Int64(-1), Bson::String("1".into())]),
            Bson::String("junk".into()),
        ];
        assert_eq!(
            read_back(fields, entries),
            r#"{"_id":"0123456789abcdef01234567","a":1e5,"b":2.5,"c":3}"#
        );
    }

    #[test]
    fn documents_of_the_plain_writes_and_of_other_programs_read_back() {
        let doc = doc! {
            "i32": 7_i32, "i64": 8_i64, "f": 2.5, "whole": 2.0, "nan": f64::NAN,
            "dec": Bson::Decimal128("1.50".parse().unwrap()),
            "dnan": Bson::Decimal128("NaN".parse().unwrap()),
            "oid": ObjectId::parse_str("0123456789abcdef01234567").unwrap(),
        };
        assert_eq!(
            read_back(doc, Vec::new()),
            r#"{"_id":"0123456789abcdef01234567","i32":7,"i64":8,"f":2.5,"whole":2.0,"nan":null,"dec":1.50,"dnan":{"$numberDecimal":"NaN"},"oid":"0123456789abcdef01234567"}"#
        );
    }
}
