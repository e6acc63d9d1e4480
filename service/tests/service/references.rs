//! The store's reference-checked writes, through the `DocumentStore` trait: the conformance cases
//! run against both stores; then, on MongoDB, what a process killed between two steps of the
//! reference protocol leaves behind is planted directly with the driver (one case per step), and
//! the next requests must converge: nothing half-written is ever seen, no orphan is left, and
//! nothing stays stuck (the SQLite store has no such leftovers: each check and write is one
//! transaction, rolled back whole by a kill).

use ::mongodb::bson::oid::ObjectId;
use ::mongodb::bson::{doc, Bson, Document as BsonDocument};
use resource_api::store::{
    Checked, Deletion, Document, ListOptions, Reference, Referrer, Store, StoreLocation,
};
use serde_json::{json, Value};

use crate::support::{mongo_store, store_cases};

const TARGETS: &str = "ref_targets";
const REFERRERS: &str = "ref_referrers";
const REFERENCES: [Reference; 2] = [
    Reference {
        field: "a",
        target: TARGETS,
    },
    Reference {
        field: "b",
        target: TARGETS,
    },
];
const BY: [Referrer; 2] = [
    Referrer {
        collection: REFERRERS,
        field: "a",
    },
    Referrer {
        collection: REFERRERS,
        field: "b",
    },
];
const UNKNOWN: &str = "000000000000000000000000";

fn object(value: Value) -> Document {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn prepare(store: &Store) {
    for field in ["a", "b"] {
        store.ensure_index(REFERRERS, field).await.expect("index");
    }
}

async fn target(store: &Store, name: &str) -> String {
    store
        .insert(TARGETS, object(json!({ "name": name })))
        .await
        .expect("insert a target")
}

async fn get(store: &Store, collection: &str, id: &str) -> Option<Value> {
    store.get(collection, id).await.expect("get").map(Value::Object)
}

async fn count(store: &Store, collection: &str) -> usize {
    store
        .list(collection, &ListOptions::new())
        .await
        .expect("list")
        .len()
}

async fn references_are_checked(store: Store) {
    prepare(&store).await;
    let (x, y) = (target(&store, "x").await, target(&store, "y").await);

    let written = store
        .insert_referencing(REFERRERS, object(json!({"a": x, "b": y, "n": 1})), &REFERENCES)
        .await
        .expect("insert");
    let Checked::Written(id) = written else {
        panic!("not written: {written:?}")
    };
    assert_eq!(
        get(&store, REFERRERS, &id).await,
        Some(json!({"_id": id, "a": x, "b": y, "n": 1}))
    );
    // Every reference that names nothing is reported, in order, and nothing is written.
    let missing = store
        .insert_referencing(REFERRERS, object(json!({"a": x, "b": UNKNOWN})), &REFERENCES)
        .await
        .expect("insert");
    assert_eq!(missing, Checked::Missing(vec![REFERENCES[1]]));
    let missing = store
        .insert_referencing(REFERRERS, object(json!({"a": "nope", "b": 5})), &REFERENCES)
        .await
        .expect("insert");
    assert_eq!(missing, Checked::Missing(REFERENCES.to_vec()));
    assert_eq!(count(&store, REFERRERS).await, 1);

    // Replacing: an unknown document first, then its references.
    for unknown in [UNKNOWN, "not an id"] {
        let replaced = store
            .replace_referencing(
                REFERRERS,
                unknown,
                object(json!({"a": "nope", "b": "nope"})),
                &REFERENCES,
            )
            .await
            .expect("replace");
        assert_eq!(replaced, Checked::NotFound);
    }
    let replaced = store
        .replace_referencing(REFERRERS, &id, object(json!({"a": y, "b": "nope"})), &REFERENCES)
        .await
        .expect("replace");
    assert_eq!(replaced, Checked::Missing(vec![REFERENCES[1]]));
    assert_eq!(
        get(&store, REFERRERS, &id).await,
        Some(json!({"_id": id, "a": x, "b": y, "n": 1})),
        "unchanged"
    );
    let replaced = store
        .replace_referencing(
            REFERRERS,
            &id,
            object(json!({"a": y, "b": y, "n": 2})),
            &REFERENCES,
        )
        .await
        .expect("replace");
    assert_eq!(replaced, Checked::Written(()));
    assert_eq!(
        get(&store, REFERRERS, &id).await,
        Some(json!({"_id": id, "a": y, "b": y, "n": 2}))
    );

    // Deleting: refused while named (by any referrer field), 404 for what does not exist.
    assert_eq!(
        store.delete_unreferenced(TARGETS, &y, &BY).await.expect("delete"),
        Deletion::Referenced
    );
    assert!(get(&store, TARGETS, &y).await.is_some());
    assert_eq!(
        store.delete_unreferenced(TARGETS, &x, &BY).await.expect("delete"),
        Deletion::Deleted,
        "x is no longer named after the replacement"
    );
    for gone in [x.as_str(), UNKNOWN, "nope"] {
        assert_eq!(
            store
                .delete_unreferenced(TARGETS, gone, &BY)
                .await
                .expect("delete"),
            Deletion::NotFound
        );
    }
    assert!(store.delete(REFERRERS, &id).await.expect("delete"));
    assert_eq!(
        store.delete_unreferenced(TARGETS, &y, &BY).await.expect("delete"),
        Deletion::Deleted
    );
}

async fn the_store_field_is_never_stored_or_returned(store: Store) {
    let id = store
        .insert(
            "store_field",
            object(json!({"name": "x", "_store": {"seq": 1, "new": true}})),
        )
        .await
        .expect("insert");
    assert_eq!(
        get(&store, "store_field", &id).await,
        Some(json!({"_id": id, "name": "x"}))
    );
    assert!(store
        .replace("store_field", &id, object(json!({"name": "y", "_store": 5})))
        .await
        .expect("replace"));
    let expected = json!({"_id": id, "name": "y"});
    assert_eq!(get(&store, "store_field", &id).await, Some(expected.clone()));
    let found = store
        .find_one("store_field", "name", &json!("y"))
        .await
        .expect("find");
    assert_eq!(found.map(Value::Object), Some(expected.clone()));
    let listed = store
        .list("store_field", &ListOptions::new())
        .await
        .expect("list");
    assert_eq!(
        listed.into_iter().map(Value::Object).collect::<Vec<_>>(),
        vec![expected]
    );
}

store_cases![
    references_are_checked,
    the_store_field_is_never_stored_or_returned,
];

/// Leftovers of killed processes, planted with the driver on MongoDB.
mod leftovers {
    use super::*;

    /// The store, and the same database through the driver.
    async fn open(tag: &str) -> Option<(Store, ::mongodb::Database)> {
        let (store, location) = mongo_store(tag).await?;
        let StoreLocation::Mongo { uri } = location else {
            unreachable!("a MongoDB location")
        };
        let client = ::mongodb::Client::with_uri_str(&uri).await.expect("a client");
        let name = uri
            .split_once("://")
            .and_then(|(_, rest)| rest.split('/').nth(1))
            .and_then(|path| path.split('?').next())
            .expect("a database in the URI")
            .to_owned();
        prepare(&store).await;
        Some((store, client.database(&name)))
    }

    fn oid(id: &str) -> ObjectId {
        ObjectId::parse_str(id).expect("an ObjectId")
    }

    async fn raw(db: &::mongodb::Database, collection: &str, id: ObjectId) -> Option<BsonDocument> {
        db.collection::<BsonDocument>(collection)
            .find_one(doc! { "_id": id })
            .await
            .expect("find")
    }

    /// What a deletion killed after marking its target leaves: `_store.del` with its token.
    async fn plant_deletion(db: &::mongodb::Database, target: &str) {
        let referrers: Vec<Bson> = BY
            .iter()
            .map(|r| Bson::Array(vec![r.collection.into(), r.field.into()]))
            .collect();
        db.collection::<BsonDocument>(TARGETS)
            .update_one(
                doc! { "_id": oid(target) },
                doc! { "$set": { "_store.del": { "t": ObjectId::new(), "r": referrers } } },
            )
            .await
            .expect("plant a deletion mark");
    }

    /// What an insert killed after announcing itself leaves: a document holding only the write.
    async fn plant_unfinished_insert(db: &::mongodb::Database, names: &str) -> ObjectId {
        let id = ObjectId::new();
        db.collection::<BsonDocument>(REFERRERS)
            .insert_one(doc! { "_id": id, "_store": {
                "seq": 1_000_000_i64, "new": true,
                "next": { "op": ObjectId::new(), "doc": { "a": names, "b": names } },
            } })
            .await
            .expect("plant an unfinished insert");
        id
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_insert_killed_after_announcing_itself_is_never_seen_and_blocks_nothing() {
        let Some((store, db)) = open("leftover_insert").await else {
            return;
        };
        let x = target(&store, "x").await;
        let v = plant_unfinished_insert(&db, &x).await;
        let hex = v.to_hex();
        assert_eq!(get(&store, REFERRERS, &hex).await, None);
        assert_eq!(count(&store, REFERRERS).await, 0);
        assert_eq!(
            store.find_one(REFERRERS, "a", &json!(x)).await.expect("find"),
            None
        );
        assert!(!store.delete(REFERRERS, &hex).await.expect("delete"));
        assert!(!store
            .replace(REFERRERS, &hex, object(json!({"a": x})))
            .await
            .expect("replace"));
        let replaced = store
            .replace_referencing(REFERRERS, &hex, object(json!({"a": x, "b": x})), &REFERENCES)
            .await
            .expect("replace");
        assert_eq!(replaced, Checked::NotFound);
        // The target can be deleted, and the leftover goes with the deletion.
        assert_eq!(
            store.delete_unreferenced(TARGETS, &x, &BY).await.expect("delete"),
            Deletion::Deleted
        );
        assert_eq!(raw(&db, REFERRERS, v).await, None);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_replacement_killed_after_announcing_itself_changes_nothing() {
        let Some((store, db)) = open("leftover_replace").await else {
            return;
        };
        let (x, z) = (target(&store, "x").await, target(&store, "z").await);
        let written = store
            .insert_referencing(REFERRERS, object(json!({"a": x, "b": x})), &REFERENCES)
            .await
            .expect("insert");
        let Checked::Written(v) = written else {
            panic!("{written:?}")
        };
        db.collection::<BsonDocument>(REFERRERS)
            .update_one(
                doc! { "_id": oid(&v) },
                doc! { "$set": { "_store.next": { "op": ObjectId::new(), "doc": { "a": &z, "b": &z } } } },
            )
            .await
            .expect("plant an announced replacement");
        let unchanged = json!({"_id": v, "a": x, "b": x});
        assert_eq!(get(&store, REFERRERS, &v).await, Some(unchanged.clone()));
        // z is named only by the write that never finished: it can be deleted, and that write
        // is withdrawn.
        assert_eq!(
            store.delete_unreferenced(TARGETS, &z, &BY).await.expect("delete"),
            Deletion::Deleted
        );
        assert_eq!(get(&store, REFERRERS, &v).await, Some(unchanged));
        let left = raw(&db, REFERRERS, oid(&v)).await.expect("still there");
        assert!(
            left.get_document("_store").is_ok_and(|s| !s.contains_key("next")),
            "{left}"
        );
        assert_eq!(
            store.delete_unreferenced(TARGETS, &x, &BY).await.expect("delete"),
            Deletion::Referenced
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_deletion_killed_after_marking_is_finished_by_the_next_request() {
        let Some((store, db)) = open("leftover_deletion").await else {
            return;
        };
        let (x, y, z) = (
            target(&store, "x").await,
            target(&store, "y").await,
            target(&store, "z").await,
        );
        let written = store
            .insert_referencing(REFERRERS, object(json!({"a": y, "b": y})), &REFERENCES)
            .await
            .expect("insert");
        assert!(matches!(written, Checked::Written(_)), "{written:?}");
        for marked in [&x, &y, &z] {
            plant_deletion(&db, marked).await;
        }
        // Still readable: a deletion that did not finish has not happened yet.
        assert!(get(&store, TARGETS, &x).await.is_some());
        // A write naming x finishes its deletion (x has no referrer), and is refused.
        let refused = store
            .insert_referencing(REFERRERS, object(json!({"a": x, "b": y})), &REFERENCES)
            .await
            .expect("insert");
        assert_eq!(refused, Checked::Missing(vec![REFERENCES[0]]));
        assert_eq!(get(&store, TARGETS, &x).await, None);
        // A write naming y (which has a referrer) undoes the mark and goes on.
        let written = store
            .insert_referencing(REFERRERS, object(json!({"a": y, "b": y})), &REFERENCES)
            .await
            .expect("insert");
        assert!(matches!(written, Checked::Written(_)), "{written:?}");
        let y_now = raw(&db, TARGETS, oid(&y)).await.expect("y is there");
        assert!(
            y_now.get_document("_store").is_ok_and(|s| !s.contains_key("del")),
            "{y_now}"
        );
        // The next deletion of z adopts the mark and finishes it; so does a killed booker's
        // unfinished insert naming z, which goes with it.
        let v = plant_unfinished_insert(&db, &z).await;
        assert_eq!(
            store.delete_unreferenced(TARGETS, &z, &BY).await.expect("delete"),
            Deletion::Deleted
        );
        assert_eq!(raw(&db, REFERRERS, v).await, None);
        assert_eq!(get(&store, TARGETS, &z).await, None);
    }
}
