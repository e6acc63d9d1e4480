//! Documents kept with their numbers exactly as sent: what [`DocumentStore::insert_exact`] takes
//! and [`DocumentStore::find_one_exact`] gives back.
//!
//! Rules enforced here, for both stores alike:
//! - a document is written only as an [`ExactDocument`], and one is made only when every number
//!   in it has a BSON number of exactly its value ([`ExactNumber::bson`]: an Int64, a Double or a
//!   Decimal128); the others are listed ([`Unstorable`], with where each is) and nothing is
//!   written. MongoDB can keep nothing else exactly, and the embedded store, which could keep any
//!   text, keeps the same numbers, so one rule holds whichever store is configured;
//! - `_id` and `_store` sent in a document are dropped before the numbers are checked (the store
//!   drops them anyway, see the module `store`), so nothing is refused for a field not stored;
//! - read back, a document gives every number the text it was sent as, byte for byte (each
//!   store's module says how), with `_id` first.
//!
//! [`DocumentStore::insert_exact`]: super::DocumentStore::insert_exact
//! [`DocumentStore::find_one_exact`]: super::DocumentStore::find_one_exact

use crate::exact::{ExactMap, ExactNumber, ExactValue, Unkeepable};

use super::{ID_FIELD, STORE_FIELD};

/// A JSON object every number of which a store keeps exactly, without `_id` or `_store`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactDocument(ExactMap);

impl ExactDocument {
    /// `map` without `_id` and `_store`, if a store can keep each of its numbers exactly; else
    /// every number that it cannot, in document order.
    pub fn new(mut map: ExactMap) -> Result<Self, Vec<Unstorable>> {
        map.shift_remove(ID_FIELD);
        map.shift_remove(STORE_FIELD);
        let mut refused = Vec::new();
        let mut path = Vec::new();
        for (key, value) in &map {
            path.push(PathItem::Key(key.clone()));
            check(value, &mut path, &mut refused);
            path.pop();
        }
        if refused.is_empty() {
            Ok(ExactDocument(map))
        } else {
            Err(refused)
        }
    }

    /// The fields.
    pub fn fields(&self) -> &ExactMap {
        &self.0
    }
}

/// Where a value is in a document: object keys and array positions from the top.
pub type Path = Vec<PathItem>;

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathItem {
    /// A field of an object.
    Key(String),
    /// A position in an array.
    Index(usize),
}

/// A number no store can keep exactly: where it is, its text, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Unstorable {
    /// Where it is in the document.
    pub path: Path,
    /// The number, as sent.
    pub number: ExactNumber,
    /// Why it cannot be kept.
    pub reason: Unkeepable,
}

fn check(value: &ExactValue, path: &mut Path, refused: &mut Vec<Unstorable>) {
    match value {
        ExactValue::Number(number) => {
            if let Err(reason) = number.bson() {
                refused.push(Unstorable {
                    path: path.clone(),
                    number: number.clone(),
                    reason,
                });
            }
        }
        ExactValue::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(PathItem::Index(index));
                check(item, path, refused);
                path.pop();
            }
        }
        ExactValue::Object(map) => {
            for (key, item) in map {
                path.push(PathItem::Key(key.clone()));
                check(item, path, refused);
                path.pop();
            }
        }
        ExactValue::Null | ExactValue::Bool(_) | ExactValue::String(_) => {}
    }
}

/// `fields` with `_id` first, set to `id`, and without the store's own field (the exact twin of
/// `store::with_id`).
pub(crate) fn with_id_exact(id: String, mut fields: ExactMap) -> ExactMap {
    fields.shift_remove(ID_FIELD);
    fields.shift_remove(STORE_FIELD);
    let mut out = ExactMap::with_capacity(fields.len() + 1);
    out.insert(ID_FIELD.to_owned(), ExactValue::String(id));
    out.extend(fields);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::parse_object;

    #[test]
    fn every_unkeepable_number_is_listed_with_where_it_is() {
        let map = parse_object(&format!(
            r#"{{"ok":[1e400,-0,0.1],"a":[1,{{"b":{}}}],"c":1e-7000,"_store":{{"x":1e-7000}},"_id":1e99999}}"#,
            "9".repeat(40)
        ))
        .unwrap();
        let refused = ExactDocument::new(map).unwrap_err();
        let found: Vec<_> = refused.iter().map(|u| (u.path.clone(), u.reason)).collect();
        assert_eq!(
            found,
            vec![
                (
                    vec![
                        PathItem::Key("a".into()),
                        PathItem::Index(1),
                        PathItem::Key("b".into())
                    ],
                    Unkeepable::TooManyDigits
                ),
                (vec![PathItem::Key("c".into())], Unkeepable::OutOfRange),
            ]
        );
    }

    #[test]
    fn a_keepable_document_loses_only_id_and_store() {
        let map = parse_object(r#"{"_id":"x","n":1E5,"_store":1,"m":[-0]}"#).unwrap();
        let document = ExactDocument::new(map).unwrap();
        assert_eq!(document.fields().keys().collect::<Vec<_>>(), vec!["n", "m"]);
        let out = with_id_exact("abc".into(), document.fields().clone());
        assert_eq!(
            serde_json::to_string(&ExactValue::Object(out)).unwrap(),
            r#"{"_id":"abc","n":1E5,"m":[-0]}"#
        );
    }
}
