//! The vocabulary of the store's reference-checked writes: a [`Reference`] is a field whose value
//! is the id of a document of another collection (a visit's `doctor_id`), a [`Referrer`] is the
//! same link seen from the collection that is referred to, and [`Checked`] and [`Deletion`] say
//! what a checked write did.
//!
//! Rules enforced here: a reference's value is a document id given as a string; any other value
//! (absent, a number, a string that is no id) names no document, so a write holding it is refused
//! as [`Checked::Missing`], never stored; the lists of missing references keep the order the
//! caller gave them in, so error messages come out in a stable order.

use serde_json::Value;

use super::Document;

/// A field of the documents of one collection whose value is the id of a document of `target`
/// (a visit's `doctor_id` names a document of `doctors`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Reference {
    /// The field holding the id.
    pub field: &'static str,
    /// The collection whose document it names.
    pub target: &'static str,
}

/// A collection and field that may hold the id of a document being deleted (`visits` by
/// `doctor_id`, for a doctor).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Referrer {
    /// The collection that refers.
    pub collection: &'static str,
    /// Its field holding the id.
    pub field: &'static str,
}

/// What a reference-checked insert or replacement did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked<T> {
    /// Written: for an insert, the new document's id.
    Written(T),
    /// There is no document with this id to replace (replacements only); nothing was written.
    NotFound,
    /// These references name no existing document (in the order given); nothing was written.
    Missing(Vec<Reference>),
}

impl<T> Checked<T> {
    /// The same outcome with the written value mapped.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Checked<U> {
        match self {
            Checked::Written(value) => Checked::Written(f(value)),
            Checked::NotFound => Checked::NotFound,
            Checked::Missing(missing) => Checked::Missing(missing),
        }
    }
}

/// What deleting a document that others may refer to did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Deletion {
    /// Deleted.
    Deleted,
    /// There is no document with this id.
    NotFound,
    /// A referrer names it; nothing was deleted.
    Referenced,
}

/// The id `reference` holds in `document`, when it holds a string.
pub(crate) fn referenced_id<'d>(document: &'d Document, reference: &Reference) -> Option<&'d str> {
    match document.get(reference.field) {
        Some(Value::String(id)) => Some(id),
        _ => None,
    }
}
