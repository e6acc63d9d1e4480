//! Lists whose cost does not grow with the table (issue 34): with 20,000 patients, eight clients
//! asking for the deepest pages the clinic allows (`skip` 10,000, every sort field, both
//! directions, and insertion order) leave a fresh read by id fast, on the embedded store. Before: the lists sorted unindexed fields and `skip` had no maximum, and with 20,000
//! patients eight clients paging deep made a read by id take 245–364 ms (under 5 ms otherwise).
//! The figures are printed (`--nocapture`). On MongoDB the test server cannot show it (see
//! `every_sort_field_is_indexed_on_mongodb`): the indexes are checked there instead, and on both
//! stores every sort field of the document must have one.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ::mongodb::bson::{doc, Document as BsonDocument};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::get;
use resource_api::clinic::PATIENTS;
use resource_api::config::Group;
use resource_api::store::{Store, StoreLocation};
use resource_api::{app, Db};
use serde_json::{json, Value};

use crate::support::{mongo_uri, sqlite_store};

/// Patients in the table.
const ROWS: usize = 20_000;
/// A read by id while the deep pages are asked for may take this long at most (95th percentile).
/// Measured in a debug build (SQLite unoptimised too) on 2 cores: alone p50 0.6 ms; during, p95
/// 93 ms after (135 deep pages/s), 596 ms before (16 pages/s): the bound sits between, with room
/// for a loaded CI machine.
const READ_BOUND: Duration = Duration::from_millis(250);

/// The `n`th seeded patient: names and birth dates in no particular order.
fn patient(n: usize) -> Value {
    let scrambled = (n * 7_919) % ROWS;
    json!({
        "name": format!("Patient {scrambled:05}"),
        "date_of_birth": format!("{}-{:02}-{:02}", 1930 + scrambled % 90, 1 + scrambled % 12, 1 + scrambled % 28),
    })
}

/// The deepest pages, each way a list can be ordered.
const DEEP: [&str; 6] = [
    "/patients?sort=name&skip=10000&limit=100",
    "/patients?sort=name&order=desc&skip=10000&limit=100",
    "/patients?sort=date_of_birth&skip=10000&limit=100",
    "/patients?sort=date_of_birth&order=desc&skip=9950&limit=100",
    "/patients?skip=10000&limit=100",
    "/patients?order=desc&skip=10000&limit=100",
];

/// `reads` fresh reads of patients by id, one after the other: their latencies, sorted.
async fn reads(addr: SocketAddr, ids: &[String], reads: usize) -> Vec<Duration> {
    let mut took = Vec::with_capacity(reads);
    for n in 0..reads {
        let id = &ids[(n * 4_001) % ids.len()];
        let started = Instant::now();
        let reply = get(addr, &format!("/patients/{id}")).await;
        took.push(started.elapsed());
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
    took.sort();
    took
}

fn p(sorted: &[Duration], percent: usize) -> Duration {
    sorted[(sorted.len() * percent / 100).min(sorted.len() - 1)]
}

/// Serve the clinic over `store` (already holding the patients `ids`), measure reads alone and
/// while eight clients ask for the deepest pages, print the figures and check the bound.
async fn reads_stay_fast(store: Store, conn: StoreLocation, ids: Vec<String>, which: &str) {
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    let addr = spawn(app(Group::A, Some(db))).await;
    // Every deep page is a full page of the right order (checked once each).
    for path in DEEP {
        let page = get(addr, path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.text());
        assert_eq!(page.json().as_array().map(Vec::len), Some(100), "{path}");
    }
    let first = get(addr, "/patients?sort=name&skip=10000&limit=1").await.json();
    assert_eq!(first[0]["name"], "Patient 10000");

    let alone = reads(addr, &ids, 40).await;
    let (stop, pages) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    let clients: Vec<_> = (0..8)
        .map(|client| {
            let (stop, pages) = (stop.clone(), pages.clone());
            tokio::spawn(async move {
                let mut n = client;
                while !stop.load(Ordering::SeqCst) {
                    let reply = get(addr, DEEP[n % DEEP.len()]).await;
                    assert_eq!(reply.status, 200);
                    pages.fetch_add(1, Ordering::SeqCst);
                    n += 1;
                }
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let during = reads(addr, &ids, 40).await;
    let elapsed = started.elapsed();
    let paged_before = pages.load(Ordering::SeqCst);
    stop.store(true, Ordering::SeqCst);
    for client in clients {
        client.await.expect("a paging client");
    }
    eprintln!(
        "{which}, {ROWS} patients: a read by id alone p50 {:?} p95 {:?}; while 8 clients page at skip 10,000 \
         (~{} pages/s) p50 {:?} p95 {:?} max {:?}",
        p(&alone, 50),
        p(&alone, 95),
        paged_before as u64 * 1000 / (elapsed.as_millis() as u64 + 300).max(1),
        p(&during, 50),
        p(&during, 95),
        p(&during, 100),
    );
    assert!(
        p(&during, 95) < READ_BOUND,
        "{which}: reads by id took up to {:?} (p95) while deep pages were asked for",
        p(&during, 95)
    );
    // Deeper is refused, whatever the size of the table.
    assert_eq!(get(addr, "/patients?sort=name&skip=10001").await.status, 422);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deep_pages_leave_reads_fast_on_the_embedded_store() {
    let (store, conn, _dir) = sqlite_store("deep-paging").await;
    // Inserted through the store, 200 at a time: its writer commits each batch in one transaction.
    let mut ids = Vec::with_capacity(ROWS);
    for batch in (0..ROWS).collect::<Vec<_>>().chunks(200) {
        let inserts = batch.iter().map(|&n| {
            let store = store.clone();
            tokio::spawn(async move {
                let Value::Object(document) = patient(n) else {
                    panic!("a patient is an object")
                };
                store.insert(PATIENTS, document).await.expect("insert")
            })
        });
        for insert in inserts.collect::<Vec<_>>() {
            ids.push(insert.await.expect("an insert task"));
        }
    }
    reads_stay_fast(store, conn, ids, "embedded store").await;
}

/// The fields each clinic list sorts by, read from the OpenAPI document (the `sort` parameter's
/// enumeration), so a sort field added later without an index fails the tests below.
fn sort_fields(db: Db) -> Vec<(&'static str, String)> {
    let service = app(Group::A, Some(db)).build().expect("group A builds");
    let doc: Value = serde_json::from_slice(service.openapi_json()).expect("JSON");
    let mut fields = Vec::new();
    for collection in ["doctors", "patients", "visits"] {
        let parameters = &doc["paths"][format!("/{collection}")]["get"]["parameters"];
        let sort = parameters
            .as_array()
            .into_iter()
            .flatten()
            .find(|p| p["name"] == "sort")
            .expect("a sort parameter");
        let text = sort["schema"].to_string();
        let name = text
            .split("#/components/schemas/")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the sort enumeration's schema");
        for value in doc["components"]["schemas"][name]["enum"]
            .as_array()
            .expect("an enum")
        {
            fields.push((collection, value.as_str().expect("a string").to_owned()));
        }
    }
    assert_eq!(fields.len(), 6, "{fields:?}");
    fields
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sort_field_is_indexed_on_the_embedded_store() {
    let (store, conn, dir) = sqlite_store("sort-indexes").await;
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    let file = rusqlite::Connection::open(dir.path().join("birds.db")).expect("open the file");
    let indexes: Vec<String> = file
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index'")
        .and_then(|mut names| names.query_map([], |row| row.get(0))?.collect())
        .expect("the indexes");
    for (collection, field) in sort_fields(db) {
        assert!(
            indexes.contains(&format!("documents_by_{field}")),
            "{collection} sorted by {field}: no index in {indexes:?}"
        );
    }
    assert!(indexes.contains(&"documents_in_order".to_owned()), "{indexes:?}");
}

/// On MongoDB the deep pages are not timed: the test server (SecantusDB) sorts a list by reading
/// the whole collection, index or not (3 to 4 s for any page of 20,000 patients, `skip` 0
/// included), where MongoDB walks the index. What the service controls is checked instead: every
/// sort field, and insertion order, has its index, in the order the lists sort by.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_sort_field_is_indexed_on_mongodb() {
    let Some(uri) = mongo_uri("sort-indexes") else {
        return;
    };
    let conn = StoreLocation::parse(Some(&uri)).expect("a mongodb:// connection string");
    let store = resource_api::store::open(&conn)
        .await
        .expect("connect to the test server");
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    let client = ::mongodb::Client::with_uri_str(&uri).await.expect("a client");
    let database = client.default_database().expect("the URI names a database");
    let mut keys: Vec<(String, BsonDocument)> = Vec::new();
    for collection in ["doctors", "patients", "visits"] {
        let mut indexes = database
            .collection::<BsonDocument>(collection)
            .list_indexes()
            .await
            .expect("list the indexes");
        while indexes.advance().await.expect("an index") {
            let index = indexes.deserialize_current().expect("an index model");
            keys.push((collection.to_owned(), index.keys));
        }
    }
    let has =
        |collection: &str, wanted: BsonDocument| keys.iter().any(|(c, k)| c == collection && *k == wanted);
    for (collection, field) in sort_fields(db) {
        let mut wanted = BsonDocument::new();
        wanted.insert(field.as_str(), 1);
        wanted.insert("_store.seq", 1);
        wanted.insert("_id", 1);
        assert!(
            has(collection, wanted),
            "{collection} sorted by {field}: {keys:?}"
        );
    }
    for collection in ["doctors", "patients", "visits"] {
        assert!(
            has(collection, doc! {"_store.seq": 1, "_id": 1}),
            "{collection}: {keys:?}"
        );
    }
}
