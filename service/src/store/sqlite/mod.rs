//! The embedded store: SQLite (bundled) in one file, no server to install.
//!
//! Rules enforced here:
//! - WAL journal and `synchronous=FULL`: every commit fsyncs the WAL, so an acknowledged write
//!   survives a killed process *and* a power loss (`NORMAL` would survive only the former);
//! - one writer thread ([`writer`]) owns the only writing connection and commits whatever writes
//!   are queued as one `BEGIN IMMEDIATE` transaction (group commit): one fsync for a burst instead
//!   of one per write, and a write is answered only after its transaction committed;
//! - reference checks run inside the transaction of the write they guard (see [`writer`]), so
//!   they hold across every process sharing the file; several processes may share one file on
//!   one machine (WAL, and a busy timeout of [`BUSY_TIMEOUT`] while another process commits), never
//!   over a network file system (WAL needs shared memory between the processes);
//! - reads run on the reader threads of [`ReadPool`] (twice the cores, at most 8, each with its own
//!   connection), concurrently with the writer (WAL readers never wait for it), so no SQLite call
//!   ever blocks an async worker;
//! - insertion order is the `seq` column (`AUTOINCREMENT`, never reused, assigned under the
//!   database's write lock), so "first" is exact across processes too;
//! - `find_one` on an indexed field is one index seek on `(collection, json_extract(body,
//!   '$."field"'), seq)`; the value is always a bound parameter and its JSON type is compared too
//!   (the string `"1"` never equals the number `1`; the string `'{"$ne":null}'` never equals an
//!   object);
//! - `list` is one SQL query: filters and the sort field are `json_extract` of the body, values
//!   are bound parameters compared with their JSON type (as `find_one` does), field names are
//!   written into the SQL only when they are plain names (ASCII letters, digits, `_`) and bound
//!   as a JSON path otherwise; ties are broken by `seq`;
//! - a document's version is its `version` column (a file made before versions gets the column,
//!   every document at 1, when it is opened), read and written in the writer's transactions;
//! - a connection that failed is dropped and reopened on next use, so the store recovers by
//!   itself once the file is usable again;
//! - a document is kept as its JSON text, so `insert_exact` keeps every number as the text it was
//!   sent as, and `find_one_exact` reads that text back ([`exact`]); a plain read of such a
//!   document reads what serde_json can of it (see `decode`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use mongodb::bson::oid::ObjectId;
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

mod writer;

use self::writer::{writer, Answer, Job, Op};
use super::exact::with_id_text;
use super::read_pool::ReadPool;
use super::references::referenced_id;
use super::{
    check_collection, check_field, check_id, with_id, Checked, Deletion, Direction, Document, DocumentStore,
    ExactDocument, ListOptions, Reference, Referrer, Stale, StoreError, StoreFuture, Versioned, STORE_FIELD,
};
use crate::exact;

/// How long a connection waits for a lock held by another process before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// Writes waiting for the writer thread before senders wait (back-pressure).
const QUEUE: usize = 4096;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS documents (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    collection TEXT NOT NULL,
    id         TEXT NOT NULL,
    body       TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    UNIQUE (collection, id)
);";

/// The version column, for a file made before documents had versions (each of its documents is
/// at version 1).
const ADD_VERSION: &str = "ALTER TABLE documents ADD COLUMN version INTEGER NOT NULL DEFAULT 1";

/// The embedded SQLite document store.
#[derive(Debug)]
pub struct SqliteStore {
    writes: mpsc::Sender<Job>,
    readers: ReadPool,
}

impl SqliteStore {
    /// Open (or create) the store at `path`, creating its directory, and start the writer.
    pub async fn open(path: &Path) -> Result<Self, StoreError> {
        let path = path.to_owned();
        let opened = tokio::task::spawn_blocking(move || -> Result<(Connection, PathBuf), StoreError> {
            if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|err| {
                    StoreError::unavailable(format!("cannot create directory {}: {err}", dir.display()))
                })?;
            }
            let conn = open_writer(&path)?;
            Ok((conn, path))
        })
        .await
        .map_err(|err| StoreError::unavailable(format!("opening the database: {err}")))?;
        let (conn, path) = opened?;
        let (writes, queue) = mpsc::channel(QUEUE);
        let writer_path = path.clone();
        std::thread::Builder::new()
            .name("sqlite-writer".to_owned())
            .spawn(move || writer(writer_path, conn, queue))
            .map_err(|err| StoreError::unavailable(format!("cannot start the writer thread: {err}")))?;
        Ok(SqliteStore {
            writes,
            readers: ReadPool::open(path, BUSY_TIMEOUT)?,
        })
    }

    async fn write(&self, op: Op) -> Result<Answer, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.writes
            .send(Job { op, reply })
            .await
            .map_err(|_| StoreError::unavailable("the writer thread has stopped"))?;
        answer
            .await
            .map_err(|_| StoreError::unavailable("the writer thread dropped a write"))?
    }

    /// Store `body` (a document's JSON text) in `collection` as a new document; its id.
    async fn insert_body(&self, collection: &str, body: String) -> Result<String, StoreError> {
        let id = ObjectId::new().to_hex();
        self.write(Op::Insert {
            collection: collection.to_owned(),
            id: id.clone(),
            body,
        })
        .await?;
        Ok(id)
    }

    /// The first inserted document of `collection` whose `field` equals `value`, found and
    /// `decode`d on a reader thread.
    async fn find_decoded<T: Send + 'static>(
        &self,
        collection: &str,
        field: &str,
        value: &Value,
        decode: fn(String, &str) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        check_collection(collection)?;
        check_field(field)?;
        let (collection, field, value) = (collection.to_owned(), field.to_owned(), value.clone());
        self.read(move |conn| {
            let found = find_first(conn, &collection, &field, &value)?;
            found.map(|(id, body)| decode(id, &body)).transpose()
        })
        .await
    }

    async fn read<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    {
        self.readers.read(f).await
    }
}

fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_timeout(BUSY_TIMEOUT).map_err(sql_error)?;
    let mode: String = conn
        .pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
        .map_err(sql_error)?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError::unavailable(format!(
            "the database refused WAL mode (journal_mode is {mode})"
        )));
    }
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(sql_error)?;
    Ok(())
}

pub(super) fn open_writer(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)
        .map_err(|err| StoreError::unavailable(format!("cannot open {}: {err}", path.display())))?;
    configure(&conn)
        .map_err(|err| StoreError::unavailable(format!("{}: {}", path.display(), err.cause())))?;
    conn.execute_batch(SCHEMA)
        .and_then(|()| add_version(&conn))
        .map_err(|err| StoreError::unavailable(format!("{}: creating the schema: {err}", path.display())))?;
    Ok(conn)
}

/// Add the version column to a file that has none. Two processes opening such a file at once
/// both try: the second's "duplicate column" is the column being there, which is the point.
fn add_version(conn: &Connection) -> rusqlite::Result<()> {
    let present = conn
        .prepare("SELECT 1 FROM pragma_table_info('documents') WHERE name = 'version'")?
        .exists([])?;
    if present {
        return Ok(());
    }
    match conn.execute_batch(ADD_VERSION) {
        Err(err) if err.to_string().contains("duplicate column") => Ok(()),
        other => other,
    }
}

pub(super) fn sql_error(err: rusqlite::Error) -> StoreError {
    match err.sqlite_error_code() {
        Some(ErrorCode::TooBig) => StoreError::rejected(err.to_string()),
        _ => StoreError::unavailable(err.to_string()),
    }
}

/// A field name that can be written into SQL as a JSON path literal (`$."field"`).
fn is_plain_field(field: &str) -> bool {
    !field.is_empty() && field.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `json_extract(body, '$."field"')` — the same text in the index and in queries, so the planner
/// matches them. Only for [`is_plain_field`] names.
pub(super) fn field_expr(field: &str) -> String {
    format!("json_extract(body, '$.\"{field}\"')")
}

/// The index of `field`, and the one of insertion order within a collection (a list without a
/// sort field, or paged far, walks it instead of the whole table in `seq` order).
pub(super) fn index_sql(field: &str) -> String {
    format!(
        "CREATE INDEX IF NOT EXISTS documents_by_{field} ON documents (collection, {}, seq);\n\
         CREATE INDEX IF NOT EXISTS documents_in_order ON documents (collection, seq)",
        field_expr(field)
    )
}

fn find_sql(field: &str) -> String {
    let expr = field_expr(field);
    let ty = format!("json_type(body, '$.\"{field}\"')");
    format!(
        "SELECT id, body FROM documents WHERE collection = ?1 AND {expr} = ?2 AND {ty} IN (?3, ?4) \
         ORDER BY seq LIMIT 1"
    )
}

/// The SQL value `json_extract` yields for a scalar, and the `json_type` names it may have.
fn sql_scalar(value: &Value) -> Option<(SqlValue, &'static str, &'static str)> {
    Some(match value {
        Value::String(s) => (SqlValue::Text(s.clone()), "text", "text"),
        Value::Bool(true) => (SqlValue::Integer(1), "true", "true"),
        Value::Bool(false) => (SqlValue::Integer(0), "false", "false"),
        Value::Number(n) => match n.as_i64() {
            Some(i) => (SqlValue::Integer(i), "integer", "real"),
            None => (SqlValue::Real(n.as_f64()?), "integer", "real"),
        },
        Value::Null | Value::Array(_) | Value::Object(_) => return None,
    })
}

/// JSON equality where numbers compare by value (`1 == 1.0`), as both stores compare them.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn decode(id: String, body: &str) -> Result<Document, StoreError> {
    match serde_json::from_str(body) {
        Ok(Value::Object(doc)) => Ok(with_id(id, doc)),
        Ok(_) => Err(not_an_object(&id)),
        // A number serde_json refuses (one beyond a double: `insert_exact` keeps `1e400`): read
        // exactly, then as a `Value` can show it.
        Err(_) => match exact::to_value(body) {
            Ok(Value::Object(doc)) => Ok(with_id(id, doc)),
            _ => Err(not_an_object(&id)),
        },
    }
}

/// A stored body read as exact JSON: its text, `_id` spliced in first (a stored text is
/// canonical or serde_json's, so it is not read again).
fn decode_exact(id: String, body: &str) -> Result<String, StoreError> {
    with_id_text(&id, body).ok_or_else(|| not_an_object(&id))
}

fn not_an_object(id: &str) -> StoreError {
    StoreError::unavailable(format!("document {id} is not a JSON object"))
}

fn encode(document: &Document) -> Result<String, StoreError> {
    let mut body = document.clone();
    body.remove(super::ID_FIELD);
    body.remove(STORE_FIELD);
    serde_json::to_string(&body).map_err(|err| StoreError::rejected(err.to_string()))
}

/// A JSON path naming `field` (`$."field"`); the field was checked by `check_list_field`.
fn json_path(field: &str) -> String {
    format!("$.\"{field}\"")
}

/// `json_extract` or `json_type` of `field`: written into the SQL for a [`is_plain_field`] name
/// (the same text as the index, so the planner can use it), else with the path as a parameter.
fn field_sql(function: &str, field: &str, params: &mut Vec<SqlValue>) -> String {
    if is_plain_field(field) {
        format!("{function}(body, '$.\"{field}\"')")
    } else {
        params.push(SqlValue::Text(json_path(field)));
        format!("{function}(body, ?{})", params.len())
    }
}

/// The SQL and parameters of a `list`: every value a bound parameter, field names either
/// checked plain names or bound paths.
fn list_query(collection: &str, options: &ListOptions) -> (String, Vec<SqlValue>) {
    let mut params = vec![SqlValue::Text(collection.to_owned())];
    let mut sql = String::from("SELECT id, body FROM documents WHERE collection = ?1");
    for (field, value) in &options.filters {
        let ty = field_sql("json_type", field, &mut params);
        match sql_scalar(value) {
            Some((param, ty1, ty2)) => {
                let expr = field_sql("json_extract", field, &mut params);
                params.push(param);
                let value_at = params.len();
                params.push(SqlValue::Text(ty1.to_owned()));
                params.push(SqlValue::Text(ty2.to_owned()));
                sql.push_str(&format!(
                    " AND {expr} = ?{value_at} AND {ty} IN (?{}, ?{})",
                    value_at + 1,
                    value_at + 2
                ));
            }
            // `null` (objects and arrays were refused by `ListOptions::check`).
            None => sql.push_str(&format!(" AND {ty} = 'null'")),
        }
    }
    sql.push_str(" ORDER BY ");
    if let Some((field, direction)) = &options.sort {
        let expr = field_sql("json_extract", field, &mut params);
        let direction = match direction {
            Direction::Ascending => "ASC",
            Direction::Descending => "DESC",
        };
        sql.push_str(&format!("{expr} {direction}, "));
    }
    let limit = options.limit.map_or(-1, |l| i64::try_from(l).unwrap_or(i64::MAX));
    let skip = i64::try_from(options.skip).unwrap_or(i64::MAX);
    params.push(SqlValue::Integer(limit));
    params.push(SqlValue::Integer(skip));
    let insertion = match options.insertion {
        Direction::Ascending => "ASC",
        Direction::Descending => "DESC",
    };
    sql.push_str(&format!(
        "seq {insertion} LIMIT ?{} OFFSET ?{}",
        params.len() - 1,
        params.len()
    ));
    (sql, params)
}

/// The id and body of the first inserted document of `collection` whose `field` equals `value`.
fn find_first(
    conn: &Connection,
    collection: &str,
    field: &str,
    value: &Value,
) -> Result<Option<(String, String)>, StoreError> {
    if is_plain_field(field) {
        if let Some((param, ty1, ty2)) = sql_scalar(value) {
            let mut stmt = conn.prepare_cached(&find_sql(field)).map_err(sql_error)?;
            return stmt
                .query_row(params![collection, param, ty1, ty2], |row| {
                    Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
                })
                .optional()
                .map_err(sql_error);
        }
    }
    // Objects, arrays, null, or a field that cannot be a path literal: compare in Rust.
    let mut stmt = conn
        .prepare_cached("SELECT id, body FROM documents WHERE collection = ?1 ORDER BY seq")
        .map_err(sql_error)?;
    let mut rows = stmt.query(params![collection]).map_err(sql_error)?;
    while let Some(row) = rows.next().map_err(sql_error)? {
        let id: String = row.get(0).map_err(sql_error)?;
        let body: String = row.get(1).map_err(sql_error)?;
        let doc = decode(id.clone(), &body)?;
        if doc.get(field).is_some_and(|found| json_eq(found, value)) {
            return Ok(Some((id, body)));
        }
    }
    Ok(None)
}

impl DocumentStore for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn insert<'a>(&'a self, collection: &'a str, document: Document) -> StoreFuture<'a, String> {
        Box::pin(async move {
            check_collection(collection)?;
            self.insert_body(collection, encode(&document)?).await
        })
    }

    fn find_one<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<Document>> {
        Box::pin(self.find_decoded(collection, field, value, decode))
    }

    fn insert_exact<'a>(&'a self, collection: &'a str, document: ExactDocument) -> StoreFuture<'a, String> {
        Box::pin(async move {
            check_collection(collection)?;
            // Its text, every number as sent (it has no `_id` or `_store`).
            self.insert_body(collection, document.into_text()).await
        })
    }

    fn find_one_exact<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<String>> {
        Box::pin(self.find_decoded(collection, field, value, decode_exact))
    }

    fn get<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Document>> {
        Box::pin(async move {
            check_collection(collection)?;
            let (collection, id) = (collection.to_owned(), id.to_owned());
            self.read(move |conn| {
                let mut stmt = conn
                    .prepare_cached("SELECT body FROM documents WHERE collection = ?1 AND id = ?2")
                    .map_err(sql_error)?;
                let body: Option<String> = stmt
                    .query_row(params![collection, id], |row| row.get(0))
                    .optional()
                    .map_err(sql_error)?;
                body.map(|body| decode(id, &body)).transpose()
            })
            .await
        })
    }

    fn list<'a>(&'a self, collection: &'a str, options: &'a ListOptions) -> StoreFuture<'a, Vec<Document>> {
        Box::pin(async move {
            check_collection(collection)?;
            options.check()?;
            let (sql, params) = list_query(collection, options);
            self.read(move |conn| {
                let mut stmt = conn.prepare_cached(&sql).map_err(sql_error)?;
                let mut rows = stmt
                    .query(rusqlite::params_from_iter(params))
                    .map_err(sql_error)?;
                let mut out = Vec::new();
                while let Some(row) = rows.next().map_err(sql_error)? {
                    let id: String = row.get(0).map_err(sql_error)?;
                    let body: String = row.get(1).map_err(sql_error)?;
                    out.push(decode(id, &body)?);
                }
                Ok(out)
            })
            .await
        })
    }

    fn replace<'a>(&'a self, collection: &'a str, id: &'a str, document: Document) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            check_collection(collection)?;
            let body = encode(&document)?;
            self.write(Op::Replace {
                collection: collection.to_owned(),
                id: id.to_owned(),
                body,
                expected: None,
            })
            .await
            .map(|answer| matches!(answer, Answer::Replaced(_)))
        })
    }

    fn delete<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            check_collection(collection)?;
            self.write(Op::Delete {
                collection: collection.to_owned(),
                id: id.to_owned(),
                expected: None,
            })
            .await
            .map(|answer| answer == Answer::Done(true))
        })
    }

    fn delete_below<'a>(&'a self, collection: &'a str, field: &'a str, bound: u64) -> StoreFuture<'a, u64> {
        Box::pin(async move {
            check_collection(collection)?;
            check_field(field)?;
            if !is_plain_field(field) {
                return Err(StoreError::invalid(format!(
                    "the embedded store compares only fields of ASCII letters, digits and `_`, not {field:?}"
                )));
            }
            let op = Op::DeleteBelow {
                collection: collection.to_owned(),
                field: field.to_owned(),
                bound: i64::try_from(bound).unwrap_or(i64::MAX),
            };
            Ok(match self.write(op).await? {
                Answer::Deleted(deleted) => deleted,
                _ => 0,
            })
        })
    }

    fn ensure_index<'a>(&'a self, collection: &'a str, field: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            check_collection(collection)?;
            check_field(field)?;
            if !is_plain_field(field) {
                return Err(StoreError::invalid(format!(
                    "the embedded store indexes only fields of ASCII letters, digits and `_`, not {field:?}"
                )));
            }
            // One index per field serves every collection (its first column is the collection).
            self.write(Op::Index {
                field: field.to_owned(),
            })
            .await
            .map(|_| ())
        })
    }

    fn insert_referencing<'a>(
        &'a self,
        collection: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<String>> {
        Box::pin(async move {
            check_collection(collection)?;
            let id = ObjectId::new().to_hex();
            let op = Op::InsertReferencing {
                collection: collection.to_owned(),
                id: id.clone(),
                body: encode(&document)?,
                references: targets(&document, references)?,
                if_absent: false,
            };
            Ok(match self.write(op).await? {
                Answer::Missing(missing) => Checked::Missing(named(references, &missing)),
                Answer::Done(_)
                | Answer::Referenced
                | Answer::Replaced(_)
                | Answer::Stale
                | Answer::Deleted(_) => Checked::Written(id),
            })
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
            check_collection(collection)?;
            check_id(id)?;
            let op = Op::InsertReferencing {
                collection: collection.to_owned(),
                id: id.to_ascii_lowercase(),
                body: encode(&document)?,
                references: targets(&document, references)?,
                if_absent: true,
            };
            Ok(match self.write(op).await? {
                Answer::Missing(missing) => Checked::Missing(named(references, &missing)),
                Answer::Done(written) => Checked::Written(written),
                Answer::Referenced | Answer::Replaced(_) | Answer::Stale | Answer::Deleted(_) => {
                    Checked::Written(true)
                }
            })
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
            check_collection(collection)?;
            Ok(
                match self
                    .replace_at(collection, id, document, references, None)
                    .await?
                {
                    Ok(checked) => checked.map(|_| ()),
                    // Not asked for a version, the writer answers none stale.
                    Err(Stale) => Checked::NotFound,
                },
            )
        })
    }

    fn delete_unreferenced<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
    ) -> StoreFuture<'a, Deletion> {
        Box::pin(async move {
            check_collection(collection)?;
            Ok(self
                .delete_at(collection, id, referrers, None)
                .await?
                .unwrap_or(Deletion::NotFound))
        })
    }

    fn insert_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            check_collection(collection)?;
            check_id(id)?;
            let op = Op::InsertIfAbsent {
                collection: collection.to_owned(),
                id: id.to_ascii_lowercase(),
                body: encode(&document)?,
            };
            Ok(self.write(op).await? == Answer::Done(true))
        })
    }

    fn get_versioned<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Versioned>> {
        Box::pin(async move {
            check_collection(collection)?;
            let (collection, id) = (collection.to_owned(), id.to_owned());
            self.read(move |conn| {
                let mut stmt = conn
                    .prepare_cached("SELECT body, version FROM documents WHERE collection = ?1 AND id = ?2")
                    .map_err(sql_error)?;
                let row: Option<(String, i64)> = stmt
                    .query_row(params![collection, id], |row| Ok((row.get(0)?, row.get(1)?)))
                    .optional()
                    .map_err(sql_error)?;
                row.map(|(body, version)| {
                    Ok(Versioned {
                        document: decode(id, &body)?,
                        version: u64::try_from(version).unwrap_or(0),
                    })
                })
                .transpose()
            })
            .await
        })
    }

    fn replace_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Checked<u64>, Stale>> {
        Box::pin(async move {
            check_collection(collection)?;
            self.replace_at(collection, id, document, references, expected)
                .await
        })
    }

    fn delete_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Deletion, Stale>> {
        Box::pin(async move {
            check_collection(collection)?;
            self.delete_at(collection, id, referrers, expected).await
        })
    }
}

impl SqliteStore {
    /// Replace with reference checks (none given: a plain replacement) at `expected`.
    async fn replace_at(
        &self,
        collection: &str,
        id: &str,
        document: Document,
        references: &[Reference],
        expected: Option<u64>,
    ) -> Result<Result<Checked<u64>, Stale>, StoreError> {
        let expected = expected.map(stored_version).transpose()?;
        let body = encode(&document)?;
        let (collection, id) = (collection.to_owned(), id.to_owned());
        let op = if references.is_empty() {
            Op::Replace {
                collection,
                id,
                body,
                expected,
            }
        } else {
            Op::ReplaceReferencing {
                collection,
                id,
                body,
                references: targets(&document, references)?,
                expected,
            }
        };
        Ok(match self.write(op).await? {
            Answer::Stale => Err(Stale),
            Answer::Missing(missing) => Ok(Checked::Missing(named(references, &missing))),
            Answer::Replaced(version) => Ok(Checked::Written(u64::try_from(version).unwrap_or(0))),
            Answer::Done(_) | Answer::Referenced | Answer::Deleted(_) => Ok(Checked::NotFound),
        })
    }

    /// Delete unless referred to (no referrers: a plain deletion) at `expected`.
    async fn delete_at(
        &self,
        collection: &str,
        id: &str,
        referrers: &[Referrer],
        expected: Option<u64>,
    ) -> Result<Result<Deletion, Stale>, StoreError> {
        let expected = expected.map(stored_version).transpose()?;
        let mut checked = Vec::with_capacity(referrers.len());
        for referrer in referrers {
            check_collection(referrer.collection)?;
            plain(referrer.field)?;
            checked.push((referrer.collection.to_owned(), referrer.field.to_owned()));
        }
        let (collection, id) = (collection.to_owned(), id.to_owned());
        let op = if checked.is_empty() {
            Op::Delete {
                collection,
                id,
                expected,
            }
        } else {
            Op::DeleteUnreferenced {
                collection,
                id,
                referrers: checked,
                expected,
            }
        };
        Ok(match self.write(op).await? {
            Answer::Stale => Err(Stale),
            Answer::Referenced => Ok(Deletion::Referenced),
            Answer::Done(true) => Ok(Deletion::Deleted),
            Answer::Done(false) | Answer::Missing(_) | Answer::Replaced(_) | Answer::Deleted(_) => {
                Ok(Deletion::NotFound)
            }
        })
    }
}

/// A version as the column holds it (a version past `i64::MAX` is no version a store gave).
fn stored_version(version: u64) -> Result<i64, StoreError> {
    i64::try_from(version).map_err(|_| StoreError::invalid(format!("no document has version {version}")))
}

/// The `(collection, id)` each reference of `document` names (`None`: it holds no string id).
fn targets(
    document: &Document,
    references: &[Reference],
) -> Result<Vec<Option<(String, String)>>, StoreError> {
    references
        .iter()
        .map(|reference| {
            check_collection(reference.target)?;
            check_field(reference.field)?;
            Ok(referenced_id(document, reference).map(|id| (reference.target.to_owned(), id.to_owned())))
        })
        .collect()
}

/// The references at these positions.
fn named(references: &[Reference], positions: &[usize]) -> Vec<Reference> {
    positions
        .iter()
        .filter_map(|&n| references.get(n).copied())
        .collect()
}

/// A field name the SQL can hold as a JSON path literal, or an error (a bug in the caller).
fn plain(field: &str) -> Result<(), StoreError> {
    check_field(field)?;
    if is_plain_field(field) {
        Ok(())
    } else {
        Err(StoreError::invalid(format!(
            "the embedded store checks references only in fields of ASCII letters, digits and `_`, not {field:?}"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_by_an_indexed_field_is_an_index_seek() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(&index_sql("name")).unwrap();
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {}", find_sql("name")))
            .unwrap()
            .query_map(params!["birds", "x", "text", "text"], |row| {
                row.get::<_, String>(3)
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let plan = plan.join("; ");
        assert!(plan.contains("USING INDEX documents_by_name"), "{plan}");
        assert!(
            !plan.contains("TEMP B-TREE"),
            "sorting should come from the index: {plan}"
        );
    }

    #[test]
    fn a_list_filtered_by_an_indexed_field_uses_the_index() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(&index_sql("doctor_id")).unwrap();
        let options = ListOptions::new()
            .filter("doctor_id", "abc")
            .sort("start time", Direction::Descending)
            .limit(10);
        let (sql, params) = list_query("visits", &options);
        assert!(
            sql.contains("json_extract(body, ?"),
            "a non-plain name is bound: {sql}"
        );
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(rusqlite::params_from_iter(params), |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let plan = plan.join("; ");
        assert!(plan.contains("USING INDEX documents_by_doctor_id"), "{plan}");
    }

    /// The plan of `options`' list query over a table with an index of `name`.
    fn list_plan(options: &ListOptions) -> String {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        conn.execute_batch(&index_sql("name")).unwrap();
        let (sql, params) = list_query("patients", options);
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(rusqlite::params_from_iter(params), |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        plan.join("; ")
    }

    #[test]
    fn a_deep_page_walks_an_index_instead_of_sorting_the_collection() {
        let deep = ListOptions::new().skip(10_000).limit(100);
        let cases = [
            (
                deep.clone().sort("name", Direction::Ascending),
                "documents_by_name",
            ),
            (
                deep.clone().sort("name", Direction::Descending).newest_first(),
                "documents_by_name",
            ),
            (deep.clone(), "documents_in_order"),
            (deep.clone().newest_first(), "documents_in_order"),
        ];
        for (options, index) in cases {
            let plan = list_plan(&options);
            assert!(
                plan.contains(&format!("USING INDEX {index}")),
                "{options:?}: {plan}"
            );
            assert!(!plan.contains("TEMP B-TREE"), "{options:?} sorts: {plan}");
        }
        // Descending with ties oldest first is not the index's order reversed: it sorts (which the
        // clinic never asks for).
        let mixed = list_plan(&deep.sort("name", Direction::Descending));
        assert!(mixed.contains("TEMP B-TREE"), "{mixed}");
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(json_eq(&serde_json::json!(1), &serde_json::json!(1.0)));
        assert!(!json_eq(&serde_json::json!("1"), &serde_json::json!(1)));
        assert!(json_eq(
            &serde_json::json!({"a": [1, 2]}),
            &serde_json::json!({"a": [1.0, 2]})
        ));
    }
}
