//! Documents kept with their numbers exactly as sent: what [`DocumentStore::insert_exact`] takes
//! and [`DocumentStore::find_one_exact`] gives back, as JSON text (never a tree).
//!
//! Rules enforced here, for both stores alike:
//! - a document is written only as an [`ExactDocument`], and one is made only when every number
//!   in it has a BSON number of exactly its value ([`ExactNumber::bson`]: an Int64, a Double or a
//!   Decimal128); the others are listed ([`Unstorable`], with where each is) and nothing is
//!   written. MongoDB can keep nothing else exactly, and the embedded store, which could keep any
//!   text, keeps the same numbers, so one rule holds whichever store is configured;
//! - `_id` and `_store` sent at the top of a document are dropped before the numbers are checked
//!   (the store drops them anyway, see the module `store`), so nothing is refused for a field not
//!   stored;
//! - the list of refused numbers is bounded, so a body full of them cannot make an answer many
//!   times its size: at most [`MAX_LISTED`] numbers, in document order, and no more of them once
//!   their paths and texts add up to the body's own size or [`LISTED_BYTES`], whichever is more
//!   (counting 32 bytes a step of a path, besides its keys);
//! - a document is its canonical text ([`ExactBody`]); read back, a document is its text with
//!   `_id` first ([`with_id_text`]), every number the text it was sent as, byte for byte (each store's
//!   module says how).
//!
//! [`DocumentStore::insert_exact`]: super::DocumentStore::insert_exact
//! [`DocumentStore::find_one_exact`]: super::DocumentStore::find_one_exact

use crate::exact::{keepable, write_str, ExactBody, ExactNumber, Token, Tokens, Unkeepable};

use super::{ID_FIELD, STORE_FIELD};

/// The most refused numbers one answer lists.
pub const MAX_LISTED: usize = 100;

/// The paths and texts of the refused numbers listed add up to at most this, or to the body's
/// size if that is more.
pub const LISTED_BYTES: usize = 64 * 1024;

/// A JSON object every number of which a store keeps exactly, without `_id` or `_store`, as its
/// canonical text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExactDocument(String);

impl ExactDocument {
    /// `body` without `_id` and `_store`, if a store can keep each of its numbers exactly; else
    /// the numbers that it cannot, in document order (see the module documentation for how many).
    pub fn new(body: ExactBody) -> Result<Self, Vec<Unstorable>> {
        let check = body.may_hold_unkeepable();
        let text = without_store_fields(body.into_text());
        if check {
            let refused = refusals(&text);
            if !refused.is_empty() {
                return Err(refused);
            }
        }
        Ok(ExactDocument(text))
    }

    /// The canonical text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The canonical text, taken.
    pub fn into_text(self) -> String {
        self.0
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

/// Whether a top-level key (canonical text, quotes off) is one the store drops.
fn is_store_field(key: &str) -> bool {
    key == ID_FIELD || key == STORE_FIELD
}

/// `text` (a canonical object) without its top-level `_id` and `_store` members.
fn without_store_fields(text: String) -> String {
    // Canonical text writes these keys plainly, so a text without them spelled so has none.
    if !text.contains("\"_id\":") && !text.contains("\"_store\":") {
        return text;
    }
    let mut dropped = Vec::with_capacity(2);
    let mut tokens = Tokens::new(&text);
    let mut before = 0;
    let mut member: Option<usize> = None;
    while let Ok(Some(token)) = tokens.next_token() {
        match token {
            Token::Key(key) if tokens.depth() == 1 => {
                // Canonical text: the key's quote is where the token began, or just past the
                // `,` it began with.
                let quote = before + usize::from(text.as_bytes().get(before) == Some(&b','));
                member = is_store_field(key.raw()).then_some(quote);
            }
            Token::BeginObject | Token::BeginArray => {}
            _ if tokens.depth() == 1 => {
                if let Some(start) = member.take() {
                    dropped.push((start, tokens.offset()));
                }
            }
            _ => {}
        }
        before = tokens.offset();
    }
    if dropped.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    out.push('{');
    let mut from = 1;
    for (start, end) in dropped {
        push_members(
            &mut out,
            text.get(from..start.saturating_sub(1)).unwrap_or_default(),
        );
        from = end + 1;
    }
    push_members(
        &mut out,
        text.get(from..text.len().saturating_sub(1)).unwrap_or_default(),
    );
    out.push('}');
    out
}

/// Append `members` (a run of `,`-separated members, maybe empty) after those already in `out`.
fn push_members(out: &mut String, members: &str) {
    if members.is_empty() {
        return;
    }
    if out.len() > 1 {
        out.push(',');
    }
    out.push_str(members);
}

/// The numbers of `text` (a canonical object) that no store keeps, each with its path, as many
/// as the module documentation allows.
fn refusals(text: &str) -> Vec<Unstorable> {
    let mut refused = Vec::new();
    let mut budget = text.len().max(LISTED_BYTES);
    // Per open container below the top: the next array position (`None` for an object).
    let mut positions: Vec<Option<usize>> = Vec::new();
    let mut path: Path = Vec::new();
    let mut tokens = Tokens::new(text);
    // The document's own `{`: it has no place.
    if tokens.next_token() != Ok(Some(Token::BeginObject)) {
        return refused;
    }
    while let Ok(Some(token)) = tokens.next_token() {
        match token {
            Token::Key(key) => {
                let mut decoded = Vec::with_capacity(key.raw().len());
                key.decode_into(&mut decoded);
                path.push(PathItem::Key(String::from_utf8_lossy(&decoded).into_owned()));
                continue;
            }
            Token::EndObject | Token::EndArray => {
                if positions.pop().is_some() {
                    // The container's own place.
                    path.pop();
                }
                continue;
            }
            _ => {}
        }
        if let Some(Some(next)) = positions.last_mut() {
            path.push(PathItem::Index(*next));
            *next += 1;
        }
        match token {
            Token::BeginObject => positions.push(None),
            Token::BeginArray => positions.push(Some(0)),
            _ => {
                if let Token::Number(number) = token {
                    if let (Err(reason), Some(exact)) = (keepable(number), ExactNumber::parse(number)) {
                        let cost = number.len()
                            + path
                                .iter()
                                .map(|item| match item {
                                    PathItem::Key(key) => key.len() + 32,
                                    PathItem::Index(_) => 32,
                                })
                                .sum::<usize>();
                        if refused.len() == MAX_LISTED || (cost > budget && !refused.is_empty()) {
                            break;
                        }
                        budget = budget.saturating_sub(cost);
                        refused.push(Unstorable {
                            path: path.clone(),
                            number: exact,
                            reason,
                        });
                    }
                }
                path.pop();
            }
        }
    }
    refused
}

/// `fields` (a stored object's JSON text, without `_id`) with `_id` first, set to `id`: the
/// text is spliced, never read again (a stored text is canonical, or serde_json's own).
pub(crate) fn with_id_text(id: &str, fields: &str) -> Option<String> {
    let members = fields.strip_prefix('{')?;
    let mut out = String::with_capacity(fields.len() + id.len() + 10);
    out.push_str("{\"");
    out.push_str(ID_FIELD);
    out.push_str("\":");
    write_str(&mut out, id);
    if !members.starts_with('}') {
        out.push(',');
    }
    out.push_str(members);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(text: &str) -> Result<ExactDocument, Vec<Unstorable>> {
        ExactDocument::new(ExactBody::parse(text).unwrap())
    }

    #[test]
    fn every_unkeepable_number_is_listed_with_where_it_is() {
        let refused = document(&format!(
            r#"{{"ok":[1e400,-0,0.1],"a":[1,{{"b":{}}}],"c":1e-7000,"_store":{{"x":1e-7000}},"_id":1e99999,"d":{{"e":[[0,[1e9999]]]}}}}"#,
            "9".repeat(40)
        ))
        .unwrap_err();
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
                (
                    vec![
                        PathItem::Key("d".into()),
                        PathItem::Key("e".into()),
                        PathItem::Index(0),
                        PathItem::Index(1),
                        PathItem::Index(0)
                    ],
                    Unkeepable::OutOfRange
                ),
            ]
        );
        assert_eq!(refused[2].number.as_str(), "1e9999");
    }

    #[test]
    fn a_number_left_out_by_a_repeated_key_is_not_refused() {
        let document = document(r#"{"a":1e9999,"k\"ey":{"x":[1e9999],"x":2},"a":1}"#).unwrap();
        assert_eq!(document.as_str(), r#"{"a":1,"k\"ey":{"x":2}}"#);
        let refused = self::document(r#"{"a":1,"k\"ey":{"x":[2],"y":1e9999},"a":1}"#).unwrap_err();
        assert_eq!(
            refused[0].path,
            vec![PathItem::Key("k\"ey".into()), PathItem::Key("y".into())]
        );
    }

    #[test]
    fn refusals_are_bounded() {
        let many = format!(r#"{{"n":[{}]}}"#, vec!["1e9999"; 500].join(","));
        assert_eq!(document(&many).unwrap_err().len(), MAX_LISTED);
        // A long key on each path: listed up to the body's size.
        let key = "k".repeat(100_000);
        let long = format!(r#"{{"{key}":[{}]}}"#, vec!["1e9999"; 50].join(","));
        let refused = document(&long).unwrap_err();
        assert_eq!(refused.len(), 1);
    }

    #[test]
    fn a_keepable_document_loses_only_id_and_store() {
        for (text, kept) in [
            (
                r#"{"_id":"x","n":1E5,"_store":1,"m":[-0]}"#,
                r#"{"n":1E5,"m":[-0]}"#,
            ),
            (r#"{"_id":{"a":[1]}}"#, "{}"),
            (r#"{"_store":[{"_id":1}],"_id":2}"#, "{}"),
            (r#"{"a":1,"_id":2}"#, r#"{"a":1}"#),
            (
                r#"{"\u005fid":2,"a":{"_id":3,"_store":4}}"#,
                r#"{"a":{"_id":3,"_store":4}}"#,
            ),
            (r#"{"s":"\"_id\":","_ids":1}"#, r#"{"s":"\"_id\":","_ids":1}"#),
        ] {
            assert_eq!(document(text).unwrap().as_str(), kept, "{text}");
        }
    }

    #[test]
    fn the_id_is_spliced_in_first() {
        assert_eq!(
            with_id_text("abc", r#"{"n":1E5,"m":[-0]}"#).unwrap(),
            r#"{"_id":"abc","n":1E5,"m":[-0]}"#
        );
        assert_eq!(with_id_text("a\"b", "{}").unwrap(), r#"{"_id":"a\"b"}"#);
        assert_eq!(with_id_text("abc", "[]"), None);
    }
}
