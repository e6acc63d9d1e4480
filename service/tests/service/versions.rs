//! Document versions, through the `DocumentStore` trait, on both stores: every write moves a
//! document's version on by one, and a write given an expected version happens only at that
//! version (`Stale` otherwise, nothing written), also when many race for it (exactly one wins),
//! and answers an unknown document, then a stale one, before its references. The clinic's
//! `ETag`/`If-Match` over HTTP is in `clinic.rs`, across processes in `scale_out.rs`.

use resource_api::store::{Checked, Deletion, Document, Reference, Referrer, Stale, Store, Versioned};
use serde_json::{json, Value};

use crate::support::store_cases;

const C: &str = "versioned";
const TARGETS: &str = "versioned_targets";
const REFERENCES: [Reference; 1] = [Reference {
    field: "t",
    target: TARGETS,
}];
const REFERRERS: [Referrer; 1] = [Referrer {
    collection: C,
    field: "t",
}];
const UNKNOWN: &str = "000000000000000000000000";

fn object(value: Value) -> Document {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

async fn version(store: &Store, collection: &str, id: &str) -> Option<u64> {
    store
        .get_versioned(collection, id)
        .await
        .expect("get_versioned")
        .map(|v| v.version)
}

async fn every_write_moves_the_version_on(store: Store) {
    store.ensure_index(C, "t").await.expect("index");
    let id = store.insert(C, object(json!({"n": 1}))).await.expect("insert");
    let got = store.get_versioned(C, &id).await.expect("get");
    assert_eq!(
        got,
        Some(Versioned {
            document: object(json!({"_id": id, "n": 1})),
            version: 1
        })
    );
    assert!(store
        .replace(C, &id, object(json!({"n": 2})))
        .await
        .expect("replace"));
    assert_eq!(version(&store, C, &id).await, Some(2));
    let replaced = store
        .replace_versioned(C, &id, object(json!({"n": 3})), &[], None)
        .await
        .expect("replace");
    assert_eq!(replaced, Ok(Checked::Written(3)));
    let target = store.insert(TARGETS, object(json!({}))).await.expect("insert");
    let replaced = store
        .replace_referencing(C, &id, object(json!({"n": 4, "t": target})), &REFERENCES)
        .await
        .expect("replace");
    assert_eq!(replaced, Checked::Written(()));
    assert_eq!(version(&store, C, &id).await, Some(4));
    let replaced = store
        .replace_versioned(C, &id, object(json!({"n": 5, "t": target})), &REFERENCES, Some(4))
        .await
        .expect("replace");
    assert_eq!(replaced, Ok(Checked::Written(5)));
    assert_eq!(
        store.get(C, &id).await.expect("get"),
        Some(object(json!({"_id": id, "n": 5, "t": target})))
    );
    let checked = store
        .insert_referencing(C, object(json!({"t": target})), &REFERENCES)
        .await
        .expect("insert");
    let Checked::Written(other) = checked else {
        panic!("not written: {checked:?}")
    };
    assert_eq!(
        version(&store, C, &other).await,
        Some(1),
        "a checked insert starts at 1 too"
    );
    for unknown in [UNKNOWN, "not an id"] {
        assert_eq!(store.get_versioned(C, unknown).await.expect("get"), None);
    }
}

async fn a_write_at_another_version_writes_nothing(store: Store) {
    store.ensure_index(C, "t").await.expect("index");
    let target = store.insert(TARGETS, object(json!({}))).await.expect("insert");
    let id = store.insert(C, object(json!({"n": 1}))).await.expect("insert");
    assert!(store
        .replace(C, &id, object(json!({"n": 2})))
        .await
        .expect("replace"));

    // Plain and reference-checked replacements: stale at version 1, written at 2.
    let stale = store
        .replace_versioned(C, &id, object(json!({"n": 9})), &[], Some(1))
        .await
        .expect("replace");
    assert_eq!(stale, Err(Stale));
    let stale = store
        .replace_versioned(C, &id, object(json!({"n": 9, "t": target})), &REFERENCES, Some(1))
        .await
        .expect("replace");
    assert_eq!(stale, Err(Stale));
    assert_eq!(
        store
            .get_versioned(C, &id)
            .await
            .expect("get")
            .map(|v| (v.document, v.version)),
        Some((object(json!({"_id": id, "n": 2})), 2)),
        "nothing written"
    );
    // Not found first, then stale, then the references.
    for unknown in [UNKNOWN, "not an id"] {
        let replaced = store
            .replace_versioned(C, unknown, object(json!({"t": "nope"})), &REFERENCES, Some(1))
            .await
            .expect("replace");
        assert_eq!(replaced, Ok(Checked::NotFound));
        let deleted = store
            .delete_versioned(C, unknown, &REFERRERS, Some(1))
            .await
            .expect("delete");
        assert_eq!(deleted, Ok(Deletion::NotFound));
    }
    let stale = store
        .replace_versioned(C, &id, object(json!({"t": "nope"})), &REFERENCES, Some(7))
        .await
        .expect("replace");
    assert_eq!(stale, Err(Stale));
    let missing = store
        .replace_versioned(C, &id, object(json!({"t": "nope"})), &REFERENCES, Some(2))
        .await
        .expect("replace");
    assert_eq!(missing, Ok(Checked::Missing(REFERENCES.to_vec())));

    // Deletions: stale first, then referenced (409), then deleted at the current version.
    let referrer = store
        .insert_referencing(C, object(json!({"t": target})), &REFERENCES)
        .await
        .expect("insert");
    assert!(matches!(referrer, Checked::Written(_)), "{referrer:?}");
    let deleted = store
        .delete_versioned(TARGETS, &target, &REFERRERS, Some(2))
        .await
        .expect("delete");
    assert_eq!(deleted, Err(Stale));
    let deleted = store
        .delete_versioned(TARGETS, &target, &REFERRERS, Some(1))
        .await
        .expect("delete");
    assert_eq!(deleted, Ok(Deletion::Referenced));
    assert_eq!(
        store
            .delete_versioned(C, &id, &[], Some(1))
            .await
            .expect("delete"),
        Err(Stale)
    );
    assert_eq!(version(&store, C, &id).await, Some(2), "still there");
    assert_eq!(
        store
            .delete_versioned(C, &id, &[], Some(2))
            .await
            .expect("delete"),
        Ok(Deletion::Deleted)
    );
    assert_eq!(store.get(C, &id).await.expect("get"), None);
}

async fn racing_writes_at_one_version_have_one_winner(store: Store) {
    store.ensure_index(C, "t").await.expect("index");
    let target = store.insert(TARGETS, object(json!({}))).await.expect("insert");
    for references in [&[][..], &REFERENCES[..]] {
        let id = store
            .insert(C, object(json!({"n": 0, "t": target})))
            .await
            .expect("insert");
        let writers: Vec<_> = (1..=8)
            .map(|n| {
                let (store, id, target) = (store.clone(), id.clone(), target.clone());
                let references = references.to_vec();
                tokio::spawn(async move {
                    store
                        .replace_versioned(C, &id, object(json!({"n": n, "t": target})), &references, Some(1))
                        .await
                        .expect("replace")
                })
            })
            .collect();
        let mut won = 0;
        for writer in writers {
            match writer.await.expect("a writer") {
                Ok(Checked::Written(2)) => won += 1,
                Err(Stale) => {}
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(
            won,
            1,
            "exactly one write at version 1 (references: {})",
            references.len()
        );
        assert_eq!(version(&store, C, &id).await, Some(2));
    }
}

async fn an_id_chosen_by_the_caller_is_taken_once(store: Store) {
    let id = "0123456789abcdef01234567";
    let racers: Vec<_> = (0..8)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .insert_at(C, id, object(json!({"n": n})))
                    .await
                    .expect("insert_at")
            })
        })
        .collect();
    let mut taken = 0;
    for racer in racers {
        taken += usize::from(racer.await.expect("a racer"));
    }
    assert_eq!(taken, 1, "one insert takes the id");
    let got = store.get_versioned(C, id).await.expect("get").expect("stored");
    assert_eq!(got.version, 1);
    assert!(!store
        .insert_at(C, id, object(json!({})))
        .await
        .expect("insert_at"));
    assert!(store.insert_at(C, "not an id", object(json!({}))).await.is_err());
}

store_cases![
    an_id_chosen_by_the_caller_is_taken_once,
    every_write_moves_the_version_on,
    a_write_at_another_version_writes_nothing,
    racing_writes_at_one_version_have_one_winner,
];
