//! Versions on MongoDB: each document's version is `_store.v` (absent: 1, a document written
//! before versions), and every write that replaces a document's fields moves it on in the same
//! single-document update; a write given an expected version carries it in its filter, so it
//! matches only a document still at that version (no multi-document transaction needed).
//!
//! Rules enforced here:
//! - the version is compared and moved on by the server, inside the update that writes the
//!   fields ([`bump`], [`at_version`]), never read here and written back;
//! - a conditional write that matched nothing reads the document once to tell "not found" from
//!   "stale" (a document deleted in between is not found, which it then is);
//! - the reference-checked writes (`references.rs`) take the same condition at each of their
//!   conditional steps, so a replacement or a deletion that met another write between its steps
//!   starts again and then answers stale, never writes over it.

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, Document as BsonDocument, RawDocument};
use mongodb::options::ReturnDocument;

use super::{bounded, live, output, replacement, MongoStore};
use crate::store::{
    Checked, Deletion, Document, Reference, Referrer, Stale, StoreError, Versioned, ID_FIELD,
};

/// `_store.v`: a document's version.
pub(super) const VERSION: &str = "_store.v";

/// The version of a stored document (1 when it has none).
pub(super) fn version_of(raw: &RawDocument) -> u64 {
    let Ok(store) = raw.get_document(crate::store::STORE_FIELD) else {
        return 1;
    };
    if let Ok(v) = store.get_i64("v") {
        u64::try_from(v).unwrap_or(0)
    } else if let Ok(v) = store.get_i32("v") {
        u64::try_from(v).unwrap_or(0)
    } else {
        1
    }
}

/// The filter condition "at version `expected`" (nothing when `None`); a document without a
/// version is at version 1 (`null` in `$in` matches a missing field).
pub(super) fn at_version(filter: &mut BsonDocument, expected: Option<u64>) {
    match expected {
        None => {}
        Some(1) => {
            filter.insert(VERSION, doc! { "$in": [1_i64, Bson::Null] });
        }
        Some(version) => {
            filter.insert(VERSION, i64::try_from(version).unwrap_or(i64::MAX));
        }
    }
}

/// The pipeline stage that moves the version on by one.
pub(super) fn bump() -> BsonDocument {
    doc! { "$set": { VERSION: { "$add": [{ "$ifNull": ["$_store.v", 1_i64] }, 1_i64] } } }
}

impl MongoStore {
    /// Whether the live document `oid` of `collection` exists and, if so, its version.
    pub(super) async fn current_version(
        &self,
        collection: &str,
        oid: ObjectId,
    ) -> Result<Option<u64>, StoreError> {
        let coll = self.collection(collection)?;
        let found = bounded(
            coll.find_one(live(oid))
                .projection(doc! { ID_FIELD: 1, VERSION: 1 }),
        )
        .await?;
        Ok(found.as_deref().map(version_of))
    }

    /// What a conditional write that matched nothing met: stale when the document is there.
    async fn missed<T>(
        &self,
        collection: &str,
        oid: ObjectId,
        expected: Option<u64>,
        not_found: T,
    ) -> Result<Result<T, Stale>, StoreError> {
        if expected.is_some() && self.current_version(collection, oid).await?.is_some() {
            Ok(Err(Stale))
        } else {
            Ok(Ok(not_found))
        }
    }

    /// `get`, with the version.
    pub(super) async fn get_with_version(
        &self,
        collection: &str,
        id: &str,
    ) -> Result<Option<Versioned>, StoreError> {
        let coll = self.collection(collection)?;
        let Ok(oid) = ObjectId::parse_str(id) else {
            return Ok(None);
        };
        let Some(raw) = bounded(coll.find_one(live(oid))).await? else {
            return Ok(None);
        };
        Ok(Some(Versioned {
            document: output(&raw)?,
            version: version_of(&raw),
        }))
    }

    /// A replacement at `expected` (without references: one update).
    pub(super) async fn replace_at(
        &self,
        collection: &str,
        id: &str,
        document: Document,
        references: &[Reference],
        expected: Option<u64>,
    ) -> Result<Result<Checked<u64>, Stale>, StoreError> {
        if !references.is_empty() {
            return self
                .replace_checked(collection, id, document, references, expected)
                .await;
        }
        let coll = self.collection(collection)?;
        let Ok(oid) = ObjectId::parse_str(id) else {
            return Ok(Ok(Checked::NotFound));
        };
        let mut filter = live(oid);
        at_version(&mut filter, expected);
        let replaced = bounded(
            coll.find_one_and_update(filter, replacement(&document)?)
                .projection(doc! { VERSION: 1 })
                .return_document(ReturnDocument::After),
        )
        .await?;
        match replaced {
            Some(raw) => Ok(Ok(Checked::Written(version_of(&raw)))),
            None => self.missed(collection, oid, expected, Checked::NotFound).await,
        }
    }

    /// A deletion at `expected` (without referrers: one delete).
    pub(super) async fn delete_at(
        &self,
        collection: &str,
        id: &str,
        referrers: &[Referrer],
        expected: Option<u64>,
    ) -> Result<Result<Deletion, Stale>, StoreError> {
        if !referrers.is_empty() {
            return self.delete_checked(collection, id, referrers, expected).await;
        }
        let coll = self.collection(collection)?;
        let Ok(oid) = ObjectId::parse_str(id) else {
            return Ok(Ok(Deletion::NotFound));
        };
        let mut filter = live(oid);
        at_version(&mut filter, expected);
        if bounded(coll.delete_one(filter)).await?.deleted_count > 0 {
            return Ok(Ok(Deletion::Deleted));
        }
        self.missed(collection, oid, expected, Deletion::NotFound).await
    }
}
