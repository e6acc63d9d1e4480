//! A store that records how its operations went (`--metrics`): [`MeteredStore`] wraps any
//! [`DocumentStore`] and times each operation into Prometheus metrics.
//!
//! Rules enforced here:
//! - every operation is timed, failed ones included, into
//!   `store_operation_duration_seconds{operation, store}` (a histogram with ferrapi's latency
//!   buckets), and every failure counts in `store_errors_total{operation, store, kind}` (`kind`:
//!   `unavailable`, `rejected` or `invalid`, as [`StoreErrorKind`]);
//! - every series exists from the start (at zero), so a query over a rate sees the first error;
//! - labels take fixed values only (operation names, the store's [`DocumentStore::kind`]), and
//!   the handles are made once, so recording an operation hashes nothing; the exact twins of
//!   `insert` and `find_one` count as those operations (one operation, whatever the numbers'
//!   form: dashboards and alerts keep their series);
//! - `insert_at` counts as `insert`; the versioned twins count as the operations they are (`get_versioned` as `get`,
//!   `replace_versioned` as `replace` or `replace_referencing`, `delete_versioned` as `delete` or
//!   `delete_unreferenced`, by whether references are checked);
//! - the wrapped store answers exactly as before: results and errors pass through unchanged.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use ferrapi::metrics::prometheus_client::metrics::counter::Counter;
use ferrapi::metrics::prometheus_client::metrics::family::Family;
use ferrapi::metrics::prometheus_client::metrics::histogram::Histogram;
use ferrapi::metrics::prometheus_client::registry::Registry;
use ferrapi::metrics::LATENCY_BUCKETS;
use serde_json::Value;

use super::{
    Checked, Deletion, Document, DocumentStore, ExactDocument, ListOptions, Reference, Referrer, Stale,
    StoreError, StoreErrorKind, StoreFuture, Versioned,
};

/// The operations of [`DocumentStore`]; each names its handles in [`MeteredStore`] and its label
/// in [`OPERATIONS`] by its position.
#[derive(Clone, Copy)]
enum Op {
    Insert,
    FindOne,
    Get,
    List,
    Replace,
    Delete,
    EnsureIndex,
    InsertReferencing,
    ReplaceReferencing,
    DeleteUnreferenced,
}

/// The operations of [`DocumentStore`], as label values (in the order of [`Op`]).
const OPERATIONS: [&str; 10] = [
    "insert",
    "find_one",
    "get",
    "list",
    "replace",
    "delete",
    "ensure_index",
    "insert_referencing",
    "replace_referencing",
    "delete_unreferenced",
];

/// The error kinds, as label values (in the order of [`kind_index`]).
const ERROR_KINDS: [&str; 3] = ["unavailable", "rejected", "invalid"];

fn kind_index(kind: StoreErrorKind) -> usize {
    match kind {
        StoreErrorKind::Unavailable => 0,
        StoreErrorKind::Rejected => 1,
        StoreErrorKind::Invalid => 2,
    }
}

/// One operation's handles.
#[derive(Debug)]
struct Operation {
    latency: Histogram,
    errors: [Counter; 3],
}

/// A [`DocumentStore`] whose operations are timed and counted (see the module documentation).
#[derive(Debug)]
pub struct MeteredStore {
    inner: Arc<dyn DocumentStore>,
    operations: Vec<Operation>,
}

type LatencyLabels = [(&'static str, &'static str); 2];
type ErrorLabels = [(&'static str, &'static str); 3];

fn histogram() -> Histogram {
    Histogram::new(LATENCY_BUCKETS)
}

impl MeteredStore {
    /// Wrap `inner`, registering its metrics in `registry`.
    pub fn new(inner: Arc<dyn DocumentStore>, registry: &mut Registry) -> Self {
        let latency = Family::<LatencyLabels, Histogram, fn() -> Histogram>::new_with_constructor(histogram);
        let errors = Family::<ErrorLabels, Counter>::default();
        registry.register(
            "store_operation_duration_seconds",
            "Time the store took for an operation, failed ones included, by operation and store kind",
            latency.clone(),
        );
        registry.register(
            "store_errors",
            "Store operations that failed, by operation, store kind and error kind",
            errors.clone(),
        );
        let store = inner.kind();
        let operations = OPERATIONS
            .iter()
            .map(|&operation| Operation {
                latency: latency.get_or_create_owned(&[("operation", operation), ("store", store)]),
                errors: ERROR_KINDS.map(|kind| {
                    errors.get_or_create_owned(&[("operation", operation), ("store", store), ("kind", kind)])
                }),
            })
            .collect();
        MeteredStore { inner, operations }
    }

    /// Run `operation`, recording its time and its failure.
    fn timed<'a, T: Send + 'a>(
        &'a self,
        operation: Op,
        future: impl Future<Output = Result<T, StoreError>> + Send + 'a,
    ) -> StoreFuture<'a, T> {
        Box::pin(async move {
            let started = Instant::now();
            let result = future.await;
            if let Some(handles) = self.operations.get(operation as usize) {
                handles.latency.observe(started.elapsed().as_secs_f64());
                if let Err(err) = &result {
                    if let Some(counter) = handles.errors.get(kind_index(err.kind())) {
                        counter.inc();
                    }
                }
            }
            result
        })
    }
}

impl DocumentStore for MeteredStore {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    fn insert<'a>(&'a self, collection: &'a str, document: Document) -> StoreFuture<'a, String> {
        self.timed(Op::Insert, self.inner.insert(collection, document))
    }

    fn find_one<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<Document>> {
        self.timed(Op::FindOne, self.inner.find_one(collection, field, value))
    }

    fn insert_exact<'a>(&'a self, collection: &'a str, document: ExactDocument) -> StoreFuture<'a, String> {
        self.timed(Op::Insert, self.inner.insert_exact(collection, document))
    }

    fn find_one_exact<'a>(
        &'a self,
        collection: &'a str,
        field: &'a str,
        value: &'a Value,
    ) -> StoreFuture<'a, Option<String>> {
        self.timed(Op::FindOne, self.inner.find_one_exact(collection, field, value))
    }

    fn get<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Document>> {
        self.timed(Op::Get, self.inner.get(collection, id))
    }

    fn list<'a>(&'a self, collection: &'a str, options: &'a ListOptions) -> StoreFuture<'a, Vec<Document>> {
        self.timed(Op::List, self.inner.list(collection, options))
    }

    fn replace<'a>(&'a self, collection: &'a str, id: &'a str, document: Document) -> StoreFuture<'a, bool> {
        self.timed(Op::Replace, self.inner.replace(collection, id, document))
    }

    fn delete<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, bool> {
        self.timed(Op::Delete, self.inner.delete(collection, id))
    }

    fn delete_below<'a>(&'a self, collection: &'a str, field: &'a str, bound: u64) -> StoreFuture<'a, u64> {
        self.timed(Op::Delete, self.inner.delete_below(collection, field, bound))
    }

    fn ensure_index<'a>(&'a self, collection: &'a str, field: &'a str) -> StoreFuture<'a, ()> {
        self.timed(Op::EnsureIndex, self.inner.ensure_index(collection, field))
    }

    fn insert_referencing<'a>(
        &'a self,
        collection: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<String>> {
        self.timed(
            Op::InsertReferencing,
            self.inner.insert_referencing(collection, document, references),
        )
    }

    fn insert_referencing_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<bool>> {
        self.timed(
            Op::InsertReferencing,
            self.inner
                .insert_referencing_at(collection, id, document, references),
        )
    }

    fn replace_referencing<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
    ) -> StoreFuture<'a, Checked<()>> {
        self.timed(
            Op::ReplaceReferencing,
            self.inner
                .replace_referencing(collection, id, document, references),
        )
    }

    fn delete_unreferenced<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
    ) -> StoreFuture<'a, Deletion> {
        self.timed(
            Op::DeleteUnreferenced,
            self.inner.delete_unreferenced(collection, id, referrers),
        )
    }

    fn insert_at<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
    ) -> StoreFuture<'a, bool> {
        self.timed(Op::Insert, self.inner.insert_at(collection, id, document))
    }

    fn get_versioned<'a>(&'a self, collection: &'a str, id: &'a str) -> StoreFuture<'a, Option<Versioned>> {
        self.timed(Op::Get, self.inner.get_versioned(collection, id))
    }

    fn replace_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        document: Document,
        references: &'a [Reference],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Checked<u64>, Stale>> {
        let op = if references.is_empty() {
            Op::Replace
        } else {
            Op::ReplaceReferencing
        };
        self.timed(
            op,
            self.inner
                .replace_versioned(collection, id, document, references, expected),
        )
    }

    fn delete_versioned<'a>(
        &'a self,
        collection: &'a str,
        id: &'a str,
        referrers: &'a [Referrer],
        expected: Option<u64>,
    ) -> StoreFuture<'a, Result<Deletion, Stale>> {
        let op = if referrers.is_empty() {
            Op::Delete
        } else {
            Op::DeleteUnreferenced
        };
        self.timed(
            op,
            self.inner.delete_versioned(collection, id, referrers, expected),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    #[tokio::test]
    async fn operations_are_timed_and_failures_counted() {
        let dir = std::env::temp_dir().join(format!("metered-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let inner = SqliteStore::open(&dir.join("m.db")).await.expect("open");
        let mut registry = Registry::default();
        let store = MeteredStore::new(Arc::new(inner), &mut registry);
        assert_eq!(store.kind(), "sqlite");
        let id = store.insert("birds", Document::new()).await.expect("insert");
        assert!(store.get("birds", &id).await.expect("get").is_some());
        // A bad collection name is an `invalid` error.
        assert!(store.insert("bad name", Document::new()).await.is_err());
        let mut text = String::new();
        ferrapi::metrics::prometheus_client::encoding::prometheus_text::encode(&mut text, &registry)
            .expect("encode");
        assert!(
            text.contains(r#"store_operation_duration_seconds_count{operation="insert",store="sqlite"} 2"#),
            "{text}"
        );
        assert!(
            text.contains(r#"store_operation_duration_seconds_count{operation="get",store="sqlite"} 1"#),
            "{text}"
        );
        assert!(
            text.contains(r#"store_errors_total{operation="insert",store="sqlite",kind="invalid"} 1"#),
            "{text}"
        );
        assert!(
            text.contains(r#"store_errors_total{operation="get",store="sqlite",kind="unavailable"} 0"#),
            "{text}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
