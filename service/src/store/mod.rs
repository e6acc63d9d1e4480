//! Document storage: one [`DocumentStore`] trait, an embedded SQLite implementation (the default)
//! and a MongoDB implementation, chosen by the connection string.
//!
//! Rules enforced here, by every implementation (the conformance suite in
//! `service/tests/service/store.rs` checks them against both, and `scale_out.rs` with three
//! service processes over one store):
//! - documents are JSON objects; the store assigns each one an `_id` (a 24-digit hex string) and
//!   returns it under `_id`, first; an `_id` sent in a document is replaced by the assigned one;
//! - the top-level field `_store` ([`STORE_FIELD`]) is the store's own bookkeeping: one sent in a
//!   document is dropped, and none is ever returned;
//! - a write is acknowledged only once it is durable (SQLite: committed with `synchronous=FULL`;
//!   MongoDB: acknowledged by the server under the deployment's write concern);
//! - "first" means first inserted, across every process sharing the store: `find_one` returns,
//!   and `list` without a sort field lists, documents in insertion order; a sort field's ties stay
//!   in insertion order (an insert answered before another was sent comes first; two that overlap
//!   in time are ordered one way, the same for every reader, once both are answered);
//! - references hold across processes: a document written by [`DocumentStore::insert_referencing`]
//!   or [`DocumentStore::replace_referencing`] names, in each [`Reference`] field, a document that
//!   exists, and a document removed by [`DocumentStore::delete_unreferenced`] is named by no
//!   [`Referrer`], whatever the interleaving of these calls in any number of processes, and
//!   whatever process is killed between two of their steps (each implementation's module says
//!   how); the plain `insert`, `replace` and `delete` do not check references;
//! - every document has a version: 1 when inserted, one more with every replacement by any of the
//!   write methods, changed in the same atomic step as the fields it counts (SQLite: the same
//!   `UPDATE`; MongoDB: the same single-document update, in `_store.v`); a write given an
//!   expected version ([`DocumentStore::replace_versioned`], [`DocumentStore::delete_versioned`])
//!   happens only if the document is at that version when it is written, else it answers
//!   [`Stale`] and writes nothing, whatever the interleaving in any number of processes (an
//!   unknown document is not found first, then staleness, then references);
//! - `list` filters by equality only, on scalar values, with the same typed comparison as
//!   `find_one`, and a missing field sorts as `null`, first;
//! - user input is only ever a *value*: a string starting with `$` or a JSON object given as the
//!   value to find is compared for equality, never interpreted as a query operator;
//! - collection and field names are checked ([`check_collection`], [`check_field`]) because they
//!   name storage structures; they come from code, not from requests;
//! - every failure is a [`StoreError`] whose [`StoreError::detail`] is safe to show a client (no
//!   paths, SQL or server internals); the full cause goes to the log;
//! - [`DocumentStore::insert_exact`] and [`DocumentStore::find_one_exact`] keep every number of a
//!   document as the text it was sent as (birds, see [`ExactDocument`]): one rule for which
//!   numbers are kept, the same in both stores, and the text read back byte for byte; the other
//!   methods read and write `serde_json` values, whose numbers are i64, u64 or f64 (a plain read
//!   of a document written exactly rounds what a double cannot hold, and shows a number beyond a
//!   double's range as `{"$numberDecimal": "…"}`).

mod error;
mod exact;
mod location;
mod metered;
mod mongo;
mod read_pool;
mod redact;
mod references;
mod sqlite;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

pub use error::{StoreError, StoreErrorKind};
pub use exact::{ExactDocument, Path, PathItem, Unstorable, LISTED_BYTES, MAX_LISTED};
pub use location::{ConnError, StoreLocation, DEFAULT_SQLITE_PATH};
pub use metered::MeteredStore;
pub use mongo::MongoStore;
pub use references::{Checked, Deletion, Reference, Referrer};
pub use sqlite::SqliteStore;

/// A stored document: a JSON object.
pub type Document = Map<String, Value>;

/// The future every store method returns (boxed so the trait can be used as `dyn DocumentStore`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// The field under which a document's id is returned.
pub const ID_FIELD: &str = "_id";

/// The top-level field a store keeps its own bookkeeping in (MongoDB: the insertion sequence and
/// the reference protocol's state); dropped from documents written, never returned.
pub const STORE_FIELD: &str = "_store";

/// The store shared by the routes that need one, injected as `State<Store>`.
#[derive(Debug, Clone)]
pub struct Store(pub Arc<dyn DocumentStore>);

impl std::ops::Deref for Store {
    type Target = dyn DocumentStore;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

/// The direction of a sort.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    /// Smallest first (missing and `null` values first).
    #[default]
    Ascending,
    /// Largest first (missing and `null` values last).
    Descending,
}

/// Which documents `list` returns, and in which order: the documents whose fields equal every
/// [`filter`](ListOptions::filter) (all of them when there is none), sorted by the
/// [`sort`](ListOptions::sort) field with ties in insertion order (insertion order when there is
/// no sort field; newest first after [`newest_first`](ListOptions::newest_first)); `skip` of them are passed over, then at most `limit` are returned. New
/// criteria are added as fields with defaults that keep today's behaviour, so build it with
/// [`ListOptions::new`] and its setters.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ListOptions {
    /// Documents to pass over first.
    pub skip: u64,
    /// The most documents to return (`None`: all).
    pub limit: Option<u64>,
    /// Equality conditions, all of which a document must meet: the field is present and equal
    /// to the value (a string, number, boolean or `null`; numbers compare by value, and the JSON
    /// type must match: the string `"1"` never equals the number `1`).
    pub filters: Vec<(String, Value)>,
    /// The field to sort by, and the direction. Values of one type sort naturally (numbers by
    /// value, strings by Unicode code point); a missing field sorts as `null`, before everything
    /// else. Sorting one field that mixes types is not specified beyond numbers before strings.
    pub sort: Option<(String, Direction)>,
    /// The direction of insertion order: of every document without a sort field, of ties with
    /// one (default: oldest first).
    pub insertion: Direction,
}

impl ListOptions {
    /// Every document, in insertion order.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pass over the first `skip` documents.
    pub fn skip(mut self, skip: u64) -> Self {
        self.skip = skip;
        self
    }

    /// Return at most `limit` documents.
    pub fn limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Only documents whose `field` is present and equal to `value` (a scalar or `null`).
    pub fn filter(mut self, field: impl Into<String>, value: impl Into<Value>) -> Self {
        self.filters.push((field.into(), value.into()));
        self
    }

    /// Sort by `field` in `direction` (ties stay in insertion order).
    pub fn sort(mut self, field: impl Into<String>, direction: Direction) -> Self {
        self.sort = Some((field.into(), direction));
        self
    }

    /// Newest first: insertion order reversed (for ties too, when sorting by a field).
    pub fn newest_first(mut self) -> Self {
        self.insertion = Direction::Descending;
        self
    }

    /// Check the field names and filter values (every store calls this before querying).
    pub fn check(&self) -> Result<(), StoreError> {
        for (field, value) in &self.filters {
            check_list_field(field)?;
            if matches!(value, Value::Array(_) | Value::Object(_)) {
                return Err(StoreError::invalid(format!(
                    "the filter on {field:?} must be a string, number, boolean or null, not {value}"
                )));
            }
        }
        if let Some((field, _)) = &self.sort {
            check_list_field(field)?;
        }
        Ok(())
    }
}

/// A document and its version (1 when inserted, one more with every replacement).
#[derive(Debug, Clone, PartialEq)]
pub struct Versioned {
    /// The document, `_id` first.
    pub document: Document,
    /// Its version.
    pub version: u64,
}

/// A write made on the condition that a document is at a version found it at another one;
/// nothing was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stale;

/// A store of JSON documents in named collections. Implementations: [`SqliteStore`] (embedded)
/// and [`MongoStore`]. See the module documentation for the rules every implementation keeps.
pub trait DocumentStore: Send + Sync + std::fmt::Debug {
    /// A short name of the implementation for logs (`"sqlite"`, `"mongodb"`).
    fn kind(&self) -> &'static str;

    /// Store `document` in `collection` and return its new id.
    fn insert<'a>(&'a self, collection: &'a str, document: Document) -> StoreFuture<'a, String>;

    /// The first inserted document of `collection` whose `field` is present and equal to `value`.
    fn find_one<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<Document>>;

    /// Store `document` in `collection`, every number exactly as sent, and return its new id.
    fn insert_exact<'a>(&'a self, collection: &'a str, document: ExactDocument) -> StoreFuture<'a, String>;

    /// [`find_one`](Self::find_one) as JSON text, `_id` first, every number read back as the
    /// text it was sent as (a document written by [`insert`](Self::insert) reads back with its
    /// numbers as serde_json writes them).
    fn find_one_exact<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<String>>;

    /// The document with this id (`None` also for a string that is not an id).
    fn get<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Document>>;

    /// Documents of `collection` as `options` select and order them (by default: all, in
    /// insertion order).
    fn list<'a>(&'a self, collection: &'a str, options: &'a ListOptions) -> StoreFuture<'a, Vec<Document>>;

    /// Replace the document with this id (keeping its id and its place in insertion order);
    /// `false` when there is none.
    fn replace<'a>(&'a self, collection: &'a str, id: &'a str, document: Document) -> StoreFuture<'a, bool>;

    /// Delete the document with this id; `false` when there is none.
    fn delete<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, bool>;

    /// Delete every document of `collection` whose `field` is an integer below `bound` (what is
    /// past its time, when the field holds one); how many went. Each document is deleted on the
    /// condition read in the same atomic step, so one changed meanwhile stays if no longer below.
    fn delete_below<'a>(&'a self, collection: &'a str, field: &'a str, bound: u64) -> StoreFuture<'a, u64>;

    /// Make `find_one` on `field` of `collection` fast, and `list` sorted by `field` or in
    /// insertion order walk an index instead of sorting the collection (idempotent; run at
    /// start-up).
    fn ensure_index<'a>(&'a self, collection: &'a str, field: &'a str) -> StoreFuture<'a, ()>;

    /// Store `document` in `collection` if each of its `references` names an existing document
    /// (which then cannot be deleted by [`delete_unreferenced`](Self::delete_unreferenced) before
    /// this document stops naming it); its new id, or the references that name nothing.
    fn insert_referencing<'a>(
        &'a self,
        collection: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<String>>;

    /// [`insert_referencing`](Self::insert_referencing) under `id` (24 hex digits, chosen by the
    /// caller: derived from an idempotency key, so an attempt re-run after a crash finds the first
    /// one's document): `Written(true)` when written, `Written(false)` when a document already has
    /// that id (nothing written), or the references that name nothing.
    fn insert_referencing_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<bool>>;

    /// Replace the document with this id (as [`replace`](Self::replace) does) if it exists and each
    /// of `references` in `document` names an existing document; [`Checked::NotFound`] first when
    /// there is no such document, then the references that name nothing.
    fn replace_referencing<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<()>>;

    /// Delete the document with this id unless a document of a [`Referrer`] names it:
    /// [`Deletion::Referenced`] (checked first), [`Deletion::NotFound`], or deleted.
    fn delete_unreferenced<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
    ) -> StoreFuture<'a, Deletion>;

    /// Store `document` in `collection` under `id` (24 hex digits, chosen by the caller: a key's
    /// digest, say), at version 1, unless a document has that id: `false` then, nothing written.
    fn insert_at<'a>(&'a self, collection: &'a str, id: &'a str, document: Document)
        -> StoreFuture<'a, bool>;

    /// [`get`](Self::get), with the document's version.
    fn get_versioned<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Versioned>>;

    /// Replace the document with this id, as [`replace_referencing`](Self::replace_referencing)
    /// does (no references: as [`replace`](Self::replace) does), if it is at version `expected`
    /// (`None`: whatever its version): its new version; [`Checked::NotFound`] first, then
    /// [`Stale`], then the references that name nothing.
    fn replace_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Checked<u64>, Stale>>;

    /// Delete the document with this id, as [`delete_unreferenced`](Self::delete_unreferenced)
    /// does (no referrers: as [`delete`](Self::delete) does), if it is at version `expected`
    /// (`None`: whatever its version); [`Deletion::NotFound`] first, then [`Stale`], then
    /// [`Deletion::Referenced`].
    fn delete_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Deletion, Stale>>;
}

/// Open the store a connection string names: SQLite for a file, MongoDB for `mongodb://` and
/// `mongodb+srv://` (connecting within a bounded time, so an unreachable server fails here).
pub async fn open(location: &StoreLocation) -> Result<Store, StoreError> {
    Ok(Store(match location {
        StoreLocation::Sqlite { path, .. } => Arc::new(SqliteStore::open(path).await?),
        StoreLocation::Mongo { uri } => Arc::new(MongoStore::connect(uri).await?),
    }))
}

/// Check an id chosen by a caller ([`DocumentStore::insert_at`]): 24 hex digits, as the store's own.
pub fn check_id(id: &str) -> Result<(), StoreError> {
    if id.len() == 24 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        Err(StoreError::invalid(format!("id {id:?} must be 24 hex digits")))
    }
}

/// Check a collection name: 1 to 64 ASCII letters, digits, `_` or `-`.
pub fn check_collection(name: &str) -> Result<(), StoreError> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if valid {
        Ok(())
    } else {
        Err(StoreError::invalid(format!(
            "collection name {name:?} must be 1 to 64 ASCII letters, digits, `_` or `-`"
        )))
    }
}

/// Check a field name used to find documents: not empty, no `.`, no leading `$`, no NUL (MongoDB
/// would read those as a path or an operator), and not `_id` (use [`DocumentStore::get`]).
pub fn check_field(name: &str) -> Result<(), StoreError> {
    if name == ID_FIELD {
        return Err(StoreError::invalid("find documents by `_id` with `get`"));
    }
    if name.is_empty() || name.contains('.') || name.starts_with('$') || name.contains('\0') {
        Err(StoreError::invalid(format!(
            "field name {name:?} must be non-empty, without `.`, NUL or a leading `$`"
        )))
    } else {
        Ok(())
    }
}

/// Check a field name used to filter or sort a list: [`check_field`], and no `"`, `\` or control
/// characters (the embedded store writes the name into a JSON path).
pub fn check_list_field(name: &str) -> Result<(), StoreError> {
    check_field(name)?;
    if name.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
        return Err(StoreError::invalid(format!(
            "field name {name:?} to filter or sort by must not hold `\"`, `\\` or control characters"
        )));
    }
    Ok(())
}

/// `document` with `_id` first, set to `id`, and without the store's own field.
pub(crate) fn with_id(id: String, mut document: Document) -> Document {
    document.remove(ID_FIELD);
    document.remove(STORE_FIELD);
    let mut out = Map::with_capacity(document.len() + 1);
    out.insert(ID_FIELD.to_owned(), Value::String(id));
    out.extend(document);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_that_could_become_paths_or_operators_are_refused() {
        assert!(check_collection("birds").is_ok());
        assert!(check_collection("").is_err());
        assert!(check_collection("a.b").is_err());
        assert!(check_collection("$cmd").is_err());
        assert!(check_field("name").is_ok());
        assert!(check_field("nom d'oiseau").is_ok());
        assert!(check_field("$where").is_err());
        assert!(check_field("a.b").is_err());
        assert!(check_field("").is_err());
        assert!(check_field("_id").is_err());
        assert!(check_list_field("date_of_birth").is_ok());
        assert!(check_list_field("a\"b").is_err());
        assert!(check_list_field("a\\b").is_err());
        assert!(check_list_field("a\nb").is_err());
    }

    #[test]
    fn id_goes_first_and_replaces_a_sent_one() {
        let Value::Object(doc) = json!({"name": "x", "_id": "mine", "_store": {"seq": 1}}) else {
            unreachable!()
        };
        let out = with_id("abc".into(), doc);
        assert_eq!(Value::Object(out).to_string(), r#"{"_id":"abc","name":"x"}"#);
    }
}
