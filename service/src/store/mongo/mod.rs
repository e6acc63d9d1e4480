//! The MongoDB store, through the official driver.
//!
//! Rules enforced here:
//! - the database is the connection string's path (`mongodb://host/NAME`), `resource_api` when it
//!   has none; each collection is a MongoDB collection of the same name;
//! - ids are `ObjectId`s, assigned here before the insert and returned as 24-digit hex strings;
//! - insertion order is `_store.seq`, taken from one counter document per collection (collection
//!   [`SEQUENCES`]) with an atomic `$inc` before each insert, so it is one order for every process:
//!   an insert answered before another was sent has the lower number; documents written before
//!   this field existed have none and sort first, among themselves in `_id` order; every sort ends
//!   with `(_store.seq, _id)` and every index is `(field, _store.seq, _id)`, so `find_one` stays
//!   one index seek;
//! - `_store` also holds the reference protocol's state (see [`references`]) and survives every
//!   replacement: a replacement rewrites the other fields in one update that keeps `_store`;
//!   a document still being inserted by that protocol (`_store.new`: its fields are not written
//!   yet) is invisible to every read and write;
//! - JSON becomes BSON by a plain structural mapping (objects → documents, integers → Int64, other
//!   numbers → Double; for `insert_exact`, each number the BSON number of exactly its value and
//!   its text where that reads back otherwise, see [`exact`]): no extended-JSON reading, so
//!   `{"$oid": …}` sent by a client stays an ordinary object;
//! - a searched value is wrapped in `$eq`, so a string starting with `$` or an object full of
//!   operators is compared as a value, never run as a query (replacement values go through
//!   `$literal` for the same reason);
//! - `list` filters with the same `$eq` conditions and sorts by `(field, _store.seq, _id)`, so ties
//!   keep insertion order;
//! - a document's version is `_store.v`, moved on by every update that replaces its fields (see
//!   [`versions`]);
//! - connecting and server selection are bounded (5 s unless the URI says otherwise) and so is
//!   every operation ([`OPERATION_TIMEOUT`]): an unreachable server fails start-up quickly, and a
//!   request during an outage gets a 503 instead of hanging; the driver reconnects by itself.

mod exact;
mod references;
mod versions;

use std::future::IntoFuture;
use std::time::Duration;

use mongodb::bson::oid::ObjectId;
use mongodb::bson::{doc, Bson, Document as BsonDocument, RawDocument, RawDocumentBuf};
use mongodb::error::{ErrorKind, WriteFailure};
use mongodb::options::{ClientOptions, ConnectionString, IndexOptions, ReturnDocument};
use mongodb::{Client, Collection, Database, IndexModel};
use serde_json::{Map, Number, Value};

use super::redact::redact;
use super::{
    check_collection, check_field, check_id, with_id, Checked, Deletion, Direction, Document, DocumentStore,
    ExactDocument, ListOptions, Reference, Referrer, Stale, StoreError, StoreFuture, Versioned, ID_FIELD,
    STORE_FIELD,
};

/// The database used when the connection string names none.
pub const DEFAULT_DATABASE: &str = "resource_api";
/// Server selection and connection time-out, unless the URI sets its own.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest any one store operation may take before it is answered as unavailable.
pub const OPERATION_TIMEOUT: Duration = Duration::from_secs(10);
/// The collection of insertion counters: one document per collection, `{_id: <collection>, n}`.
pub const SEQUENCES: &str = "_sequences";
/// `_store.seq`: a document's place in insertion order.
const SEQ: &str = "_store.seq";
/// `_store.new`: set on a document whose insert is not finished (see [`references`]).
const NEW: &str = "_store.new";
/// `_store.next.doc`: the fields a reference-checked write will write (see [`references`]).
const NEXT_DOC: &str = "_store.next.doc";

/// A MongoDB-backed document store.
#[derive(Debug, Clone)]
pub struct MongoStore {
    database: Database,
}

impl MongoStore {
    /// Check that `uri` is a MongoDB connection string, without any network access.
    pub fn validate(uri: &str) -> Result<(), StoreError> {
        ConnectionString::parse(uri).map(|_| ()).map_err(|err| {
            StoreError::invalid(format!("not a valid MongoDB connection string: {}", err.kind))
        })
    }

    /// Connect to `uri` and check the server answers (a `ping`) within the connect time-out.
    pub async fn connect(uri: &str) -> Result<Self, StoreError> {
        let mut options = ClientOptions::parse(uri).await.map_err(|err| {
            StoreError::invalid(format!("not a usable MongoDB connection string: {}", err.kind))
        })?;
        options.server_selection_timeout.get_or_insert(CONNECT_TIMEOUT);
        options.connect_timeout.get_or_insert(CONNECT_TIMEOUT);
        options.app_name.get_or_insert_with(|| "resource-api".to_owned());
        let name = options
            .default_database
            .clone()
            .unwrap_or_else(|| DEFAULT_DATABASE.to_owned());
        let wait = options.server_selection_timeout.unwrap_or(CONNECT_TIMEOUT);
        let client = Client::with_options(options)
            .map_err(|err| StoreError::invalid(format!("MongoDB client: {}", err.kind)))?;
        let database = client.database(&name);
        let ping = tokio::time::timeout(
            wait + Duration::from_secs(1),
            database.run_command(doc! { "ping": 1 }),
        );
        match ping.await {
            Ok(Ok(_)) => Ok(MongoStore { database }),
            Ok(Err(err)) => Err(StoreError::unavailable(format!(
                "cannot reach MongoDB at {} within {wait:?}: {}",
                redact(uri),
                err.kind
            ))),
            Err(_) => Err(StoreError::unavailable(format!(
                "cannot reach MongoDB at {} within {wait:?}",
                redact(uri)
            ))),
        }
    }

    /// The database in use.
    pub fn database_name(&self) -> &str {
        self.database.name()
    }

    /// Raw documents both ways: the driver's serde mapping would read a stored `{"$oid": …}`
    /// object as an ObjectId; raw BSON converts structurally.
    fn collection(&self, name: &str) -> Result<Collection<RawDocumentBuf>, StoreError> {
        check_collection(name)?;
        Ok(self.database.collection(name))
    }
}

/// Run `op` within [`OPERATION_TIMEOUT`].
async fn bounded<T>(op: impl IntoFuture<Output = mongodb::error::Result<T>>) -> Result<T, StoreError> {
    bounded_raw(op).await?.map_err(mongo_error)
}

/// Run `op` within [`OPERATION_TIMEOUT`], keeping the driver's error for the caller to look at.
async fn bounded_raw<T>(
    op: impl IntoFuture<Output = mongodb::error::Result<T>>,
) -> Result<mongodb::error::Result<T>, StoreError> {
    tokio::time::timeout(OPERATION_TIMEOUT, op.into_future())
        .await
        .map_err(|_| StoreError::unavailable(format!("MongoDB did not answer within {OPERATION_TIMEOUT:?}")))
}

/// Whether `err` is a duplicate key (code 11000): an insert of an id that exists.
fn is_duplicate_key(err: &mongodb::error::Error) -> bool {
    const DUPLICATE_KEY: i32 = 11000;
    match &*err.kind {
        ErrorKind::Write(WriteFailure::WriteError(write)) => write.code == DUPLICATE_KEY,
        ErrorKind::Command(command) => command.code == DUPLICATE_KEY,
        _ => false,
    }
}

fn mongo_error(err: mongodb::error::Error) -> StoreError {
    match &*err.kind {
        ErrorKind::Write(WriteFailure::WriteError(_))
        | ErrorKind::BsonSerialization(_)
        | ErrorKind::InvalidArgument { .. } => StoreError::rejected(err.to_string()),
        _ => StoreError::unavailable(err.to_string()),
    }
}

/// JSON → BSON, structurally (no extended JSON).
fn to_bson(value: &Value) -> Bson {
    match value {
        Value::Null => Bson::Null,
        Value::Bool(b) => Bson::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Bson::Int64(i),
            None => Bson::Double(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Bson::String(s.clone()),
        Value::Array(items) => Bson::Array(items.iter().map(to_bson).collect()),
        Value::Object(map) => Bson::Document(to_document(map)),
    }
}

fn to_document(map: &Map<String, Value>) -> BsonDocument {
    map.iter().map(|(k, v)| (k.clone(), to_bson(v))).collect()
}

/// BSON → JSON: the types JSON has map to themselves, ObjectIds to hex strings, anything else
/// (written by another program) to relaxed extended JSON.
fn to_json(value: Bson) -> Value {
    match value {
        Bson::Null | Bson::Undefined => Value::Null,
        Bson::Boolean(b) => Value::Bool(b),
        Bson::Int32(i) => Value::from(i),
        Bson::Int64(i) => Value::from(i),
        Bson::Double(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        Bson::String(s) => Value::String(s),
        Bson::Array(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Bson::Document(doc) => Value::Object(from_document(doc)),
        Bson::ObjectId(oid) => Value::String(oid.to_hex()),
        other => other.into_relaxed_extjson(),
    }
}

fn from_document(doc: BsonDocument) -> Map<String, Value> {
    doc.into_iter().map(|(k, v)| (k, to_json(v))).collect()
}

/// The condition "present and equal to `value`": `$eq` makes the value a value (never an
/// operator), and `$exists` keeps `null` from matching a missing field.
fn equals(value: &Value) -> BsonDocument {
    match value {
        Value::Null => doc! { "$eq": Bson::Null, "$exists": true },
        _ => doc! { "$eq": to_bson(value) },
    }
}

/// A stored document as the store returns it: `_id` first, as a string.
fn output(raw: &RawDocument) -> Result<Document, StoreError> {
    let mut doc = BsonDocument::try_from(raw)
        .map_err(|err| StoreError::unavailable(format!("MongoDB returned malformed BSON: {err}")))?;
    let id = id_of(doc.remove(ID_FIELD));
    doc.remove(STORE_FIELD);
    Ok(with_id(id, from_document(doc)))
}

/// A stored `_id` as the string the store returns.
fn id_of(id: Option<Bson>) -> String {
    match id {
        Some(Bson::ObjectId(oid)) => oid.to_hex(),
        Some(Bson::String(s)) => s,
        Some(other) => to_json(other).to_string(),
        None => String::new(),
    }
}

/// The caller's fields as BSON, without any `_id` or `_store` it sent.
fn fields(document: &Document) -> BsonDocument {
    document
        .iter()
        .filter(|(key, _)| *key != ID_FIELD && *key != STORE_FIELD)
        .map(|(key, value)| (key.clone(), to_bson(value)))
        .collect()
}

/// The document to insert: `_id` first, the caller's fields, then the store's `_store`.
fn input(id: ObjectId, fields: BsonDocument, store: BsonDocument) -> Result<RawDocumentBuf, StoreError> {
    let mut doc = BsonDocument::new();
    doc.insert(ID_FIELD, id);
    doc.extend(fields);
    doc.insert(STORE_FIELD, store);
    // Fails for what BSON cannot hold, such as a NUL in a field name.
    RawDocumentBuf::from_document(&doc).map_err(|err| StoreError::rejected(err.to_string()))
}

/// The update that replaces every field of a document by the caller's, keeping its `_id` and its
/// `_store` (insertion place, reference state) and moving its version on. One pipeline update, so nothing written in
/// `_store` by another process in between is lost; the fields go through `$literal`, so no value
/// is read as an expression.
fn replacement(document: &Document) -> Result<Vec<BsonDocument>, StoreError> {
    let fields = fields(document);
    // Refused here, as an insert would refuse it, rather than by the server.
    RawDocumentBuf::from_document(&fields).map_err(|err| StoreError::rejected(err.to_string()))?;
    Ok(vec![
        doc! {
            "$replaceWith": { "$mergeObjects": [
                { ID_FIELD: "$_id" },
                { "$literal": fields },
                { STORE_FIELD: "$_store" },
            ] }
        },
        versions::bump(),
    ])
}

/// Whether a stored document's insert is unfinished (it is not to be seen; see [`references`]).
fn is_new(raw: &RawDocument) -> bool {
    raw.get_document(STORE_FIELD)
        .ok()
        .and_then(|store| store.get_bool("new").ok())
        .unwrap_or(false)
}

/// The condition "not an unfinished insert".
fn not_new() -> BsonDocument {
    doc! { NEW: { "$exists": false } }
}

/// The condition "the document `id`, unless its insert is unfinished".
fn live(id: ObjectId) -> BsonDocument {
    doc! { ID_FIELD: id, NEW: { "$exists": false } }
}

impl MongoStore {
    /// The first inserted document of `collection` whose `field` is present and equal to
    /// `value`, as stored.
    async fn find_first(
        &self,
        collection: &str,
        field: &str,
        value: &Value,
    ) -> Result<Option<RawDocumentBuf>, StoreError> {
        let coll = self.collection(collection)?;
        check_field(field)?;
        let mut filter = BsonDocument::new();
        filter.insert(field, equals(value));
        // An unfinished insert has no other field, so it never matches.
        bounded(coll.find_one(filter).sort(doc! { SEQ: 1, ID_FIELD: 1 })).await
    }

    /// The next number in `collection`'s insertion order (one atomic `$inc` on its counter).
    async fn next_seq(&self, collection: &str) -> Result<i64, StoreError> {
        let counters = self.database.collection::<BsonDocument>(SEQUENCES);
        // Two processes creating one counter at once: the loser's upsert is a duplicate key, and
        // its retry finds the counter.
        for _ in 0..3 {
            let next = counters
                .find_one_and_update(doc! { ID_FIELD: collection }, doc! { "$inc": { "n": 1_i64 } })
                .upsert(true)
                .return_document(ReturnDocument::After);
            match bounded_raw(next).await? {
                Ok(Some(counter)) => {
                    return match counter.get("n") {
                        Some(Bson::Int64(n)) => Ok(*n),
                        Some(Bson::Int32(n)) => Ok(i64::from(*n)),
                        _ => Err(StoreError::unavailable(format!(
                            "the insertion counter of {collection} is not an integer"
                        ))),
                    };
                }
                Ok(None) => {}
                Err(err) if is_duplicate_key(&err) => {}
                Err(err) => return Err(mongo_error(err)),
            }
        }
        Err(StoreError::unavailable(format!(
            "no insertion counter for {collection}"
        )))
    }

    /// Insert `fields` as a new document of `collection`, `store` the rest of its `_store`; its
    /// id.
    async fn insert_fields(
        &self,
        collection: &str,
        fields: BsonDocument,
        store: BsonDocument,
    ) -> Result<String, StoreError> {
        let id = ObjectId::new();
        self.insert_new(collection, id, fields, store)
            .await?
            .map_err(mongo_error)?;
        Ok(id.to_hex())
    }

    /// Insert `fields` as the document `id` with the next insertion number and `store` as the
    /// rest of its `_store`. The driver's error is kept for the caller to look at.
    async fn insert_new(
        &self,
        collection: &str,
        id: ObjectId,
        fields: BsonDocument,
        mut store: BsonDocument,
    ) -> Result<mongodb::error::Result<()>, StoreError> {
        let coll = self.collection(collection)?;
        let seq = self.next_seq(collection).await?;
        store.insert("seq", seq);
        let raw = input(id, fields, store)?;
        Ok(bounded_raw(coll.insert_one(raw)).await?.map(|_| ()))
    }
}

impl DocumentStore for MongoStore {
    fn kind(&self) -> &'static str {
        "mongodb"
    }

    fn insert<'a>(&'a self, collection: &'a str, document: Document) -> StoreFuture<'a, String> {
        Box::pin(async move {
            self.insert_fields(collection, fields(&document), BsonDocument::new())
                .await
        })
    }

    fn find_one<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<Document>> {
        Box::pin(async move {
            let found = self.find_first(collection, field, value).await?;
            found.as_deref().map(output).transpose()
        })
    }

    fn insert_exact<'a>(&'a self, collection: &'a str, document: ExactDocument) -> StoreFuture<'a, String> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            let id = ObjectId::new();
            // Written before an insertion number is taken, so a refused document takes none.
            let input = exact::input(id, document.as_str())?;
            drop(document);
            let seq = self.next_seq(collection).await?;
            bounded(coll.insert_one(input.finish(seq)?)).await?;
            Ok(id.to_hex())
        })
    }

    fn find_one_exact<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<String>> {
        Box::pin(async move {
            let found = self.find_first(collection, field, value).await?;
            found.as_deref().map(exact::output).transpose()
        })
    }

    fn get<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Document>> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            let Ok(oid) = ObjectId::parse_str(id) else {
                return Ok(None);
            };
            let found = bounded(coll.find_one(doc! { ID_FIELD: oid })).await?;
            found
                .as_deref()
                .filter(|raw| !is_new(raw))
                .map(output)
                .transpose()
        })
    }

    fn list<'a>(&'a self, collection: &'a str, options: &'a ListOptions) -> StoreFuture<'a, Vec<Document>> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            options.check()?;
            // MongoDB reads a limit of 0 as "no limit".
            if options.limit == Some(0) {
                return Ok(Vec::new());
            }
            // One condition per filter under `$and`: two filters on one field both apply.
            let conditions: Vec<Bson> = options
                .filters
                .iter()
                .map(|(field, value)| {
                    let mut condition = BsonDocument::new();
                    condition.insert(field.clone(), equals(value));
                    Bson::Document(condition)
                })
                .collect();
            // An unfinished insert has no other field, so only a list without filters could see
            // one.
            let filter = if conditions.is_empty() {
                not_new()
            } else {
                doc! { "$and": conditions }
            };
            let number = |direction: &Direction| match direction {
                Direction::Ascending => 1,
                Direction::Descending => -1,
            };
            let mut sort = BsonDocument::new();
            if let Some((field, direction)) = &options.sort {
                sort.insert(field.clone(), number(direction));
            }
            sort.insert(SEQ, number(&options.insertion));
            sort.insert(ID_FIELD, number(&options.insertion));
            let mut find = coll.find(filter).sort(sort).skip(options.skip);
            if let Some(limit) = options.limit {
                find = find.limit(i64::try_from(limit).unwrap_or(i64::MAX));
            }
            let mut out = Vec::new();
            bounded(async {
                let mut cursor = find.await?;
                while cursor.advance().await? {
                    out.push(cursor.current().to_raw_document_buf());
                }
                Ok(())
            })
            .await?;
            out.iter().map(|raw| output(raw)).collect()
        })
    }

    fn replace<'a>(&'a self, collection: &'a str, id: &'a str, document: Document) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            let Ok(oid) = ObjectId::parse_str(id) else {
                return Ok(false);
            };
            let update = replacement(&document)?;
            let result = bounded(coll.update_one(live(oid), update)).await?;
            Ok(result.matched_count > 0)
        })
    }

    fn delete<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            let Ok(oid) = ObjectId::parse_str(id) else {
                return Ok(false);
            };
            let result = bounded(coll.delete_one(live(oid))).await?;
            Ok(result.deleted_count > 0)
        })
    }

    fn ensure_index<'a>(&'a self, collection: &'a str, field: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let coll = self.collection(collection)?;
            check_field(field)?;
            // `(field, _store.seq, _id)`: the seek for the value and the "first inserted" order in
            // one index.
            let mut keys = BsonDocument::new();
            keys.insert(field, 1);
            keys.insert(SEQ, 1);
            keys.insert(ID_FIELD, 1);
            bounded(coll.create_index(IndexModel::builder().keys(keys).build())).await?;
            // The same field in the writes in flight of the reference protocol, which a deletion
            // looks for; sparse: only those documents are in it.
            let mut pending = BsonDocument::new();
            pending.insert(format!("{NEXT_DOC}.{field}"), 1);
            let sparse = IndexOptions::builder().sparse(true).build();
            bounded(coll.create_index(IndexModel::builder().keys(pending).options(sparse).build())).await?;
            // Insertion order, which every list ends its sort with: a list without a sort field
            // (or paged far) walks it instead of sorting the collection.
            let mut order = BsonDocument::new();
            order.insert(SEQ, 1);
            order.insert(ID_FIELD, 1);
            bounded(coll.create_index(IndexModel::builder().keys(order).build())).await?;
            Ok(())
        })
    }

    fn delete_below<'a>(&'a self, collection: &'a str, field: &'a str, bound: u64) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            check_field(field)?;
            let coll = self.collection(collection)?;
            let bound = i64::try_from(bound).unwrap_or(i64::MAX);
            // `$type` as the embedded store's `integer`: a number of another kind is no time.
            let filter =
                doc! { field: { "$lt": bound, "$type": ["int", "long"] }, NEW: { "$exists": false } };
            Ok(bounded(coll.delete_many(filter)).await?.deleted_count)
        })
    }

    fn insert_referencing<'a>(
        &'a self,
        collection: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<String>> {
        Box::pin(async move {
            let checked = self
                .insert_checked(collection, document, references, None)
                .await?;
            // A fresh id is never taken.
            Ok(checked.map(|id| id.map(|id| id.to_hex()).unwrap_or_default()))
        })
    }

    fn insert_referencing_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<bool>> {
        Box::pin(async move {
            check_id(id)?;
            let oid = ObjectId::parse_str(id).map_err(|err| StoreError::invalid(err.to_string()))?;
            let checked = self
                .insert_checked(collection, document, references, Some(oid))
                .await?;
            Ok(checked.map(|id| id.is_some()))
        })
    }

    fn replace_referencing<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<()>> {
        Box::pin(async move {
            // Not asked for a version, no write is stale.
            let replaced = self
                .replace_checked(collection, id, document, references, None)
                .await?;
            Ok(replaced.map_or(Checked::NotFound, |checked| checked.map(|_| ())))
        })
    }

    fn delete_unreferenced<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
    ) -> StoreFuture<'a, Deletion> {
        Box::pin(async move {
            let deleted = self.delete_checked(collection, id, referrers, None).await?;
            Ok(deleted.unwrap_or(Deletion::NotFound))
        })
    }

    fn insert_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            check_id(id)?;
            let oid = ObjectId::parse_str(id).map_err(|err| StoreError::invalid(err.to_string()))?;
            match self
                .insert_new(collection, oid, fields(&document), BsonDocument::new())
                .await?
            {
                Ok(()) => Ok(true),
                Err(err) if is_duplicate_key(&err) => Ok(false),
                Err(err) => Err(mongo_error(err)),
            }
        })
    }

    fn get_versioned<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Versioned>> {
        Box::pin(self.get_with_version(collection, id))
    }

    fn replace_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Checked<u64>, Stale>> {
        Box::pin(self.replace_at(collection, id, document, references, expected))
    }

    fn delete_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Deletion, Stale>> {
        Box::pin(self.delete_at(collection, id, referrers, expected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_round_trips_through_bson_without_extended_json() {
        let value = json!({
            "name": "Ω", "n": 3, "f": 2.5, "whole": 2.0, "big": u64::MAX, "t": true, "z": null,
            "list": [1, "a", {"b": []}], "$oid": {"$oid": "0123456789abcdef01234567"}
        });
        let Value::Object(map) = value.clone() else {
            unreachable!()
        };
        let back = Value::Object(from_document(to_document(&map)));
        assert_eq!(back["$oid"], json!({"$oid": "0123456789abcdef01234567"}));
        assert_eq!(back["whole"].to_string(), "2.0");
        assert_eq!(back["big"], json!(u64::MAX as f64));
        let mut expected = value;
        expected["big"] = json!(u64::MAX as f64);
        assert_eq!(back, expected);
    }

    #[test]
    fn an_operator_object_is_a_value_inside_eq() {
        let value = json!({"$ne": null});
        let Bson::Document(inner) = to_bson(&value) else {
            unreachable!()
        };
        let filter = doc! { "name": { "$eq": inner } };
        assert_eq!(filter.to_string(), r#"{ "name": { "$eq": { "$ne": null } } }"#);
    }

    #[test]
    fn malformed_uris_are_refused_without_network() {
        assert!(MongoStore::validate("mongodb://127.0.0.1:27017/db").is_ok());
        assert!(MongoStore::validate("mongodb://host:notaport/db").is_err());
    }
}
