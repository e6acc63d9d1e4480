//! The embedded store's writer thread: the only connection that writes, committing whatever writes
//! are queued as one `BEGIN IMMEDIATE` transaction (group commit), and the reference checks, which
//! run inside that transaction.
//!
//! Rules enforced here:
//! - every write of a batch runs in one `BEGIN IMMEDIATE` transaction: SQLite takes the database's
//!   write lock at `BEGIN`, so no other connection of any process commits between the
//!   transaction's reads and its writes; another process holding the lock is waited for (the busy
//!   timeout), not failed;
//! - a reference check reads inside the transaction of the write it guards: a checked insert or
//!   replacement finds each named document before writing, and a checked deletion finds no
//!   referrer before deleting, so a visit can never be written naming a doctor deleted in the same
//!   instant, by this process or another (the check and the write are one atomic step). Earlier
//!   writes of the same batch are visible to later checks, so the batch is the same as running
//!   its writes one by one in queue order;
//! - the checks never read through the reader pool: those connections see the database as of
//!   their own transaction, which another process may change before the write;
//! - a killed process leaves nothing half-done: its transaction is either committed (the WAL frame
//!   with the commit is fsynced) or rolled back when the next connection opens the file;
//! - every replacement sets `version` to one more than the version it read in the same
//!   transaction, and a write given an expected version compares it there too: no other write,
//!   of this process or another, lands between the comparison and the write;
//! - a write is answered only after its transaction committed; when the transaction as a whole
//!   fails, every write of the batch is answered with that failure and the connection is reopened.

use std::path::PathBuf;

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};
use tokio::sync::{mpsc, oneshot};

use super::{field_expr, index_sql, open_writer, sql_error};
use crate::store::StoreError;

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 512;

/// A write, as the writer thread runs it.
#[derive(Debug)]
pub(super) enum Op {
    Insert {
        collection: String,
        id: String,
        body: String,
    },
    /// Insert unless the id is taken (`Done(false)` then).
    InsertIfAbsent {
        collection: String,
        id: String,
        body: String,
    },
    /// Replace if the document exists and is at `expected` (`None`: any version).
    Replace {
        collection: String,
        id: String,
        body: String,
        expected: Option<i64>,
    },
    /// Delete if the document exists and is at `expected` (`None`: any version).
    Delete {
        collection: String,
        id: String,
        expected: Option<i64>,
    },
    Index {
        field: String,
    },
    /// Delete every document of `collection` whose `field` is an integer below `bound`.
    DeleteBelow {
        collection: String,
        field: String,
        bound: i64,
    },
    /// Insert if every `(collection, id)` of `references` exists (`None`: an id that is no string);
    /// with `if_absent`, unless the id is taken (`Done(false)` then).
    InsertReferencing {
        collection: String,
        id: String,
        body: String,
        references: Vec<Option<(String, String)>>,
        if_absent: bool,
    },
    /// Replace if the document exists, is at `expected`, and every reference exists.
    ReplaceReferencing {
        collection: String,
        id: String,
        body: String,
        references: Vec<Option<(String, String)>>,
        expected: Option<i64>,
    },
    /// Delete if the document is at `expected`, unless a document of a `(collection, field)`
    /// referrer names it.
    DeleteUnreferenced {
        collection: String,
        id: String,
        referrers: Vec<(String, String)>,
        expected: Option<i64>,
    },
}

/// What a write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Answer {
    /// Written (`true`), or no document to replace or delete (`false`).
    Done(bool),
    /// Replaced: the document's new version.
    Replaced(i64),
    /// The document is not at the expected version; nothing was written.
    Stale,
    /// These references (positions in the list given) name nothing; nothing was written.
    Missing(Vec<usize>),
    /// A referrer names the document; nothing was deleted.
    Referenced,
    /// How many documents were deleted.
    Deleted(u64),
}

/// One queued write and where its answer goes.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) op: Op,
    pub(super) reply: oneshot::Sender<Result<Answer, StoreError>>,
}

/// The writer thread: takes every queued write, commits them in one transaction, then answers.
pub(super) fn writer(path: PathBuf, conn: Connection, mut queue: mpsc::Receiver<Job>) {
    let mut conn = Some(conn);
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while let Some(job) = queue.blocking_recv() {
        batch.push(job);
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if conn.is_none() {
            match open_writer(&path) {
                Ok(reopened) => {
                    tracing::info!("embedded store: database reopened");
                    conn = Some(reopened);
                }
                Err(err) => tracing::error!(error = %err, "embedded store: cannot reopen the database"),
            }
        }
        let outcome = match conn.as_mut() {
            Some(c) => commit(c, &batch),
            None => Err(StoreError::unavailable("the database cannot be opened")),
        };
        match outcome {
            Ok(results) => {
                for (job, result) in batch.drain(..).zip(results) {
                    let _ = job.reply.send(result);
                }
            }
            Err(err) => {
                tracing::error!(error = %err, writes = batch.len(), "embedded store: commit failed");
                conn = None;
                for job in batch.drain(..) {
                    let _ = job.reply.send(Err(err.clone()));
                }
            }
        }
    }
}

/// Run `batch` in one transaction. `Err` when the transaction as a whole failed (nothing of it is
/// stored); otherwise one result per write.
fn commit(conn: &mut Connection, batch: &[Job]) -> Result<Vec<Result<Answer, StoreError>>, StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sql_error)?;
    let results = batch
        .iter()
        .map(|job| apply(&tx, &job.op).map_err(sql_error))
        .collect();
    tx.commit().map_err(sql_error)?;
    Ok(results)
}

/// One write inside the batch's transaction.
fn apply(tx: &Transaction<'_>, op: &Op) -> rusqlite::Result<Answer> {
    match op {
        Op::Insert { collection, id, body } => insert(tx, collection, id, body),
        Op::InsertIfAbsent { collection, id, body } => insert_if_absent(tx, collection, id, body),
        Op::Replace {
            collection,
            id,
            body,
            expected,
        } => match at_version(tx, collection, id, *expected)? {
            Ok(version) => replace(tx, collection, id, body, version),
            Err(answer) => Ok(answer),
        },
        Op::Delete {
            collection,
            id,
            expected,
        } => match at_version(tx, collection, id, *expected)? {
            Ok(_) => delete(tx, collection, id),
            Err(answer) => Ok(answer),
        },
        Op::Index { field } => tx.execute_batch(&index_sql(field)).map(|()| Answer::Done(true)),
        Op::DeleteBelow {
            collection,
            field,
            bound,
        } => {
            let (expr, ty) = (field_expr(field), format!("json_type(body, '$.\"{field}\"')"));
            tx.prepare_cached(&format!(
                "DELETE FROM documents WHERE collection = ?1 AND {ty} = 'integer' AND {expr} < ?2"
            ))?
            .execute(params![collection, bound])
            .map(|deleted| Answer::Deleted(u64::try_from(deleted).unwrap_or(u64::MAX)))
        }
        Op::InsertReferencing {
            collection,
            id,
            body,
            references,
            if_absent,
        } => match missing(tx, references)? {
            Some(missing) => Ok(missing),
            None if *if_absent => insert_if_absent(tx, collection, id, body),
            None => insert(tx, collection, id, body),
        },
        Op::ReplaceReferencing {
            collection,
            id,
            body,
            references,
            expected,
        } => {
            let version = match at_version(tx, collection, id, *expected)? {
                Ok(version) => version,
                Err(answer) => return Ok(answer),
            };
            match missing(tx, references)? {
                Some(missing) => Ok(missing),
                None => replace(tx, collection, id, body, version),
            }
        }
        Op::DeleteUnreferenced {
            collection,
            id,
            referrers,
            expected,
        } => {
            // Unconditional, a referenced document is 409 whether it exists or not (as before
            // versions); conditional, an unknown or stale one is answered first.
            if expected.is_some() {
                if let Err(answer) = at_version(tx, collection, id, *expected)? {
                    return Ok(answer);
                }
            }
            for (referrer, field) in referrers {
                if named_by(tx, referrer, field, id)? {
                    return Ok(Answer::Referenced);
                }
            }
            delete(tx, collection, id)
        }
    }
}

fn insert(tx: &Transaction<'_>, collection: &str, id: &str, body: &str) -> rusqlite::Result<Answer> {
    tx.prepare_cached("INSERT INTO documents (collection, id, body, version) VALUES (?1, ?2, ?3, 1)")?
        .execute(params![collection, id, body])
        .map(|_| Answer::Done(true))
}

fn insert_if_absent(
    tx: &Transaction<'_>,
    collection: &str,
    id: &str,
    body: &str,
) -> rusqlite::Result<Answer> {
    tx.prepare_cached(
        "INSERT OR IGNORE INTO documents (collection, id, body, version) VALUES (?1, ?2, ?3, 1)",
    )?
    .execute(params![collection, id, body])
    .map(|changed| Answer::Done(changed > 0))
}

/// Replace the document at `version` (read in this transaction) by `body`, one version on.
fn replace(
    tx: &Transaction<'_>,
    collection: &str,
    id: &str,
    body: &str,
    version: i64,
) -> rusqlite::Result<Answer> {
    let next = version.saturating_add(1);
    tx.prepare_cached("UPDATE documents SET body = ?3, version = ?4 WHERE collection = ?1 AND id = ?2")?
        .execute(params![collection, id, body, next])
        .map(|changed| {
            if changed > 0 {
                Answer::Replaced(next)
            } else {
                Answer::Done(false)
            }
        })
}

fn delete(tx: &Transaction<'_>, collection: &str, id: &str) -> rusqlite::Result<Answer> {
    tx.prepare_cached("DELETE FROM documents WHERE collection = ?1 AND id = ?2")?
        .execute(params![collection, id])
        .map(|changed| Answer::Done(changed > 0))
}

/// The document's version, if it exists and is at `expected` (any version when `None`); else the
/// answer: not found, or stale.
fn at_version(
    tx: &Transaction<'_>,
    collection: &str,
    id: &str,
    expected: Option<i64>,
) -> rusqlite::Result<Result<i64, Answer>> {
    let version: Option<i64> = tx
        .prepare_cached("SELECT version FROM documents WHERE collection = ?1 AND id = ?2")?
        .query_row(params![collection, id], |row| row.get(0))
        .optional()?;
    Ok(match (version, expected) {
        (None, _) => Err(Answer::Done(false)),
        (Some(version), Some(expected)) if version != expected => Err(Answer::Stale),
        (Some(version), _) => Ok(version),
    })
}

/// Whether `collection` holds a document with this id (one seek in the `(collection, id)` key).
fn exists(tx: &Transaction<'_>, collection: &str, id: &str) -> rusqlite::Result<bool> {
    tx.prepare_cached("SELECT 1 FROM documents WHERE collection = ?1 AND id = ?2")?
        .query_row(params![collection, id], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}

/// `Some(Answer::Missing(..))` when a reference names no document.
fn missing(
    tx: &Transaction<'_>,
    references: &[Option<(String, String)>],
) -> rusqlite::Result<Option<Answer>> {
    let mut missing = Vec::new();
    for (n, reference) in references.iter().enumerate() {
        let found = match reference {
            Some((collection, id)) => exists(tx, collection, id)?,
            None => false,
        };
        if !found {
            missing.push(n);
        }
    }
    Ok((!missing.is_empty()).then_some(Answer::Missing(missing)))
}

/// Whether a document of `collection` holds `id` (as a string) in `field` (a plain field name,
/// checked by the caller): one seek in the field's index when it has one.
fn named_by(tx: &Transaction<'_>, collection: &str, field: &str, id: &str) -> rusqlite::Result<bool> {
    let expr = field_expr(field);
    let sql = format!(
        "SELECT 1 FROM documents WHERE collection = ?1 AND {expr} = ?2 \
         AND json_type(body, '$.\"{field}\"') = 'text' LIMIT 1"
    );
    tx.prepare_cached(&sql)?
        .query_row(params![collection, id], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}
