//! The store conformance suite: every case runs against the embedded store (SQLite) and against
//! MongoDB (the server scripts/test.sh starts; see `support`), through the same
//! `DocumentStore` trait object the service uses.

use std::collections::HashSet;
use std::time::Instant;

use resource_api::exact::ExactBody;
use resource_api::store::{Direction, Document, ExactDocument, ListOptions, Store, StoreErrorKind};
use serde_json::{json, Value};

use crate::support::{mongo_store, sqlite_store};

const C: &str = "conformance";

fn object(value: Value) -> Document {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

/// `value` as the store returns it: `_id` first.
fn stored(id: &str, value: Value) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("_id".into(), json!(id));
    out.extend(object(value));
    Value::Object(out)
}

async fn insert(store: &Store, value: Value) -> String {
    store.insert(C, object(value)).await.expect("insert")
}

async fn find(store: &Store, field: &str, value: Value) -> Option<Value> {
    store
        .find_one(C, field, &value)
        .await
        .expect("find_one")
        .map(Value::Object)
}

async fn names(store: &Store, options: ListOptions) -> Vec<Value> {
    store
        .list(C, &options)
        .await
        .expect("list")
        .into_iter()
        .map(|doc| doc["name"].clone())
        .collect()
}

async fn insert_get_and_find(store: Store) {
    let id = insert(&store, json!({"name": "robin", "wings": 2})).await;
    assert_eq!(id.len(), 24, "ids are 24 hex digits: {id}");
    assert!(id.bytes().all(|b| b.is_ascii_hexdigit()), "{id}");
    let expected = stored(&id, json!({"name": "robin", "wings": 2}));
    let got = store.get(C, &id).await.expect("get").map(Value::Object);
    assert_eq!(got.as_ref(), Some(&expected));
    // `_id` comes first.
    assert!(got
        .unwrap()
        .to_string()
        .starts_with(&format!(r#"{{"_id":"{id}""#)));
    assert_eq!(find(&store, "name", json!("robin")).await, Some(expected));
    assert_eq!(find(&store, "name", json!("Robin")).await, None);
    assert_eq!(find(&store, "colour", json!("red")).await, None);
    assert_eq!(store.get(C, "000000000000000000000000").await.expect("get"), None);
    assert_eq!(store.get(C, "not an id").await.expect("get"), None);
    let other = store
        .insert(C, object(json!({"name": "wren"})))
        .await
        .expect("insert");
    assert_ne!(other, id);
    // Collections are separate.
    assert_eq!(
        store
            .find_one("elsewhere", "name", &json!("robin"))
            .await
            .expect("find"),
        None
    );
    assert_eq!(store.get("elsewhere", &id).await.expect("get"), None);
}

async fn a_sent_id_is_replaced(store: Store) {
    let id = insert(&store, json!({"_id": "chosen-by-client", "name": "jay"})).await;
    assert_ne!(id, "chosen-by-client");
    assert_eq!(
        store.get(C, &id).await.expect("get").map(Value::Object),
        Some(stored(&id, json!({"name": "jay"})))
    );
}

async fn the_first_inserted_wins(store: Store) {
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(insert(&store, json!({"name": "twin", "i": i})).await);
    }
    assert_eq!(
        find(&store, "name", json!("twin")).await.map(|d| d["i"].clone()),
        Some(json!(0))
    );
    assert!(store.delete(C, &ids[0]).await.expect("delete"));
    assert_eq!(
        find(&store, "name", json!("twin")).await.map(|d| d["i"].clone()),
        Some(json!(1))
    );
    // Replacing keeps a document's place.
    assert!(store
        .replace(C, &ids[1], object(json!({"name": "twin", "i": 10})))
        .await
        .expect("replace"));
    assert_eq!(
        find(&store, "name", json!("twin")).await.map(|d| d["i"].clone()),
        Some(json!(10))
    );
}

async fn values_are_never_operators(store: Store) {
    insert(&store, json!({"name": {"$ne": null}, "kind": "object"})).await;
    insert(&store, json!({"name": "$where", "kind": "dollar string"})).await;
    insert(&store, json!({"name": "1", "kind": "string"})).await;
    insert(&store, json!({"name": 1, "kind": "number"})).await;
    insert(&store, json!({"name": true, "kind": "bool"})).await;
    let kind = |doc: Option<Value>| doc.map(|d| d["kind"].clone());
    assert_eq!(
        kind(find(&store, "name", json!("$where")).await),
        Some(json!("dollar string"))
    );
    assert_eq!(
        kind(find(&store, "name", json!("1")).await),
        Some(json!("string"))
    );
    assert_eq!(kind(find(&store, "name", json!(1)).await), Some(json!("number")));
    assert_eq!(
        kind(find(&store, "name", json!(1.0)).await),
        Some(json!("number"))
    );
    assert_eq!(kind(find(&store, "name", json!(true)).await), Some(json!("bool")));
    assert_eq!(
        kind(find(&store, "name", json!({"$ne": null})).await),
        Some(json!("object"))
    );
    // The text of an object is not the object, and operators match nothing.
    assert_eq!(find(&store, "name", json!(r#"{"$ne":null}"#)).await, None);
    assert_eq!(find(&store, "name", json!({"$gt": ""})).await, None);
    assert_eq!(find(&store, "name", json!({"$exists": true})).await, None);
    assert_eq!(find(&store, "name", json!("$gt")).await, None);
}

async fn list_in_insertion_order(store: Store) {
    for name in ["a", "b", "c", "d", "e"] {
        insert(&store, json!({"name": name})).await;
    }
    store
        .insert("other", object(json!({"name": "x"})))
        .await
        .expect("insert");
    assert_eq!(
        names(&store, ListOptions::new()).await,
        [json!("a"), json!("b"), json!("c"), json!("d"), json!("e")]
    );
    assert_eq!(
        names(&store, ListOptions::new().skip(1).limit(2)).await,
        [json!("b"), json!("c")]
    );
    assert_eq!(
        names(&store, ListOptions::new().skip(3)).await,
        [json!("d"), json!("e")]
    );
    assert!(names(&store, ListOptions::new().limit(0)).await.is_empty());
    assert!(names(&store, ListOptions::new().skip(10)).await.is_empty());
    assert!(store
        .list("empty", &ListOptions::new())
        .await
        .expect("list")
        .is_empty());
}

async fn replace_and_delete(store: Store) {
    let a = insert(&store, json!({"name": "a", "v": 1})).await;
    let b = insert(&store, json!({"name": "b", "v": 1})).await;
    let c = insert(&store, json!({"name": "c", "v": 1})).await;
    assert!(store
        .replace(
            C,
            &b,
            object(json!({"_id": "ignored", "name": "b2", "v": 2, "new": [1]}))
        )
        .await
        .expect("replace"));
    assert_eq!(
        store.get(C, &b).await.expect("get").map(Value::Object),
        Some(stored(&b, json!({"name": "b2", "v": 2, "new": [1]})))
    );
    assert_eq!(find(&store, "name", json!("b")).await, None);
    assert_eq!(
        names(&store, ListOptions::new()).await,
        [json!("a"), json!("b2"), json!("c")]
    );
    assert!(!store
        .replace(C, "000000000000000000000000", object(json!({})))
        .await
        .expect("replace"));
    assert!(!store
        .replace(C, "nope", object(json!({})))
        .await
        .expect("replace"));
    assert!(store.delete(C, &a).await.expect("delete"));
    assert!(!store.delete(C, &a).await.expect("delete again"));
    assert!(!store.delete(C, "nope").await.expect("delete"));
    assert_eq!(store.get(C, &a).await.expect("get"), None);
    assert_eq!(names(&store, ListOptions::new()).await, [json!("b2"), json!("c")]);
    let _ = c;
}

async fn unicode_round_trips(store: Store) {
    let name = "Ocell 🐦 — ñandú, 日本語, ελληνικά, \u{200d}";
    let doc = json!({"name": name, "clé": "valeur", "emoji 🦜": ["🐧", "\u{1F985}"], "escapes": "\"\\/\n\t"});
    let id = insert(&store, doc.clone()).await;
    assert_eq!(
        find(&store, "name", json!(name)).await,
        Some(stored(&id, doc.clone()))
    );
    assert_eq!(find(&store, "clé", json!("valeur")).await, Some(stored(&id, doc)));
}

async fn nested_documents_round_trip(store: Store) {
    let doc = json!({
        "name": "nested",
        "numbers": [0, -1, 42, i64::MAX, i64::MIN, 2.5, -0.125, 2.0, 1e300],
        "flags": {"t": true, "f": false, "n": null},
        "deep": {"a": {"b": {"c": {"d": [{"e": [[], {}, [[1]]]}]}}}},
        "empty": {},
        "list": [],
        "mixed": [1, "two", {"three": 3}, [4], null, false],
        "$oid": {"$oid": "0123456789abcdef01234567"},
        "$date": {"$date": "2020-01-01T00:00:00Z"}
    });
    let id = insert(&store, doc.clone()).await;
    let got = store.get(C, &id).await.expect("get").map(Value::Object);
    assert_eq!(got, Some(stored(&id, doc.clone())));
    // Byte for byte, including `2.0` staying a float and key order.
    assert_eq!(
        got.map(|g| g.to_string()),
        Some(stored(&id, doc.clone()).to_string())
    );
    assert_eq!(
        find(&store, "flags", json!({"t": true, "f": false, "n": null})).await,
        Some(stored(&id, doc))
    );
}

async fn large_documents_near_the_body_limit(store: Store) {
    // About 1,040,000 bytes of JSON: just under the service's 1 MiB body limit.
    let chunk = "x".repeat(1000);
    let doc = json!({"name": "large", "chunks": vec![chunk; 1036]});
    let size = doc.to_string().len();
    assert!((1_030_000..1_048_576).contains(&size), "{size}");
    let id = insert(&store, doc.clone()).await;
    assert_eq!(
        find(&store, "name", json!("large")).await,
        Some(stored(&id, doc.clone()))
    );
    assert_eq!(
        store.get(C, &id).await.expect("get").map(Value::Object),
        Some(stored(&id, doc))
    );
}

async fn concurrent_inserts_are_all_readable(store: Store) {
    const TASKS: usize = 64;
    const EACH: usize = 20;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for t in 0..TASKS {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut acked = Vec::new();
            for i in 0..EACH {
                let name = format!("bird-{t}-{i}");
                let id = store
                    .insert(C, object(json!({"name": name, "t": t, "i": i})))
                    .await
                    .expect("insert");
                acked.push((id, name));
            }
            acked
        }));
    }
    let mut acked = Vec::new();
    for task in tasks {
        acked.extend(task.await.expect("insert task"));
    }
    let elapsed = started.elapsed();
    eprintln!(
        "{}: {} concurrent inserts from {TASKS} tasks in {elapsed:.2?} ({:.0}/s)",
        store.kind(),
        acked.len(),
        acked.len() as f64 / elapsed.as_secs_f64()
    );
    let ids: HashSet<_> = acked.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids.len(), TASKS * EACH, "every id is unique");
    for (id, name) in &acked {
        let doc = store
            .get(C, id)
            .await
            .expect("get")
            .unwrap_or_else(|| panic!("{id} lost"));
        assert_eq!(doc["name"], json!(name));
        let found = find(&store, "name", json!(name)).await.expect("found by name");
        assert_eq!(found["_id"], json!(id));
    }
    assert_eq!(
        store.list(C, &ListOptions::new()).await.expect("list").len(),
        TASKS * EACH
    );
}

async fn invalid_names_are_refused(store: Store) {
    let err = store.insert("bad.name", object(json!({}))).await.unwrap_err();
    assert_eq!(err.kind(), StoreErrorKind::Invalid);
    assert_eq!(err.status(), 500);
    for field in ["$where", "a.b", "", "_id"] {
        let err = store.find_one(C, field, &json!("x")).await.unwrap_err();
        assert_eq!(err.kind(), StoreErrorKind::Invalid, "{field:?}");
    }
}

async fn list_filters_by_equality(store: Store) {
    for (name, kind, legs, tame) in [
        ("a", "owl", 2, true),
        ("b", "cat", 4, true),
        ("c", "owl", 2, false),
        ("d", "owl", 2, true),
        ("e", "dog", 4, true),
    ] {
        insert(
            &store,
            json!({"name": name, "kind": kind, "legs": legs, "tame": tame}),
        )
        .await;
    }
    insert(&store, json!({"name": "f", "kind": null, "legs": "2"})).await;
    insert(&store, json!({"name": "g"})).await;
    let owls = || ListOptions::new().filter("kind", "owl");
    assert_eq!(names(&store, owls()).await, [json!("a"), json!("c"), json!("d")]);
    assert_eq!(
        names(&store, owls().filter("tame", true)).await,
        [json!("a"), json!("d")]
    );
    assert_eq!(names(&store, owls().skip(1).limit(1)).await, [json!("c")]);
    // Numbers compare by value and type: the string "2" is not the number 2.
    assert_eq!(
        names(&store, ListOptions::new().filter("legs", 4)).await,
        [json!("b"), json!("e")]
    );
    assert_eq!(
        names(&store, ListOptions::new().filter("legs", 4.0)).await,
        [json!("b"), json!("e")]
    );
    assert_eq!(
        names(&store, ListOptions::new().filter("legs", "2")).await,
        [json!("f")]
    );
    // `null` matches a present null, not a missing field.
    assert_eq!(
        names(&store, ListOptions::new().filter("kind", Value::Null)).await,
        [json!("f")]
    );
    assert!(names(&store, owls().filter("kind", "cat")).await.is_empty());
    // Values are values: operators and their text match nothing.
    for value in ["$ne", r#"{"$ne":null}"#, "' OR 1=1 --"] {
        assert!(names(&store, ListOptions::new().filter("kind", value))
            .await
            .is_empty());
    }
    // A field name with spaces and non-ASCII letters works too.
    insert(&store, json!({"name": "h", "nom d'oiseau": "mésange"})).await;
    assert_eq!(
        names(&store, ListOptions::new().filter("nom d'oiseau", "mésange")).await,
        [json!("h")]
    );
}

async fn list_sorts_with_ties_in_insertion_order(store: Store) {
    for (name, rank, born) in [
        ("kiwi", json!(3), "2001-05-01"),
        ("emu", json!(1), "1999-12-31"),
        ("Tui", json!(2), "2010-01-01"),
        ("auk", json!(2.0), "2001-05-01"),
        ("jay", json!(2.5), "1850-01-01"),
    ] {
        insert(&store, json!({"name": name, "rank": rank, "born": born})).await;
    }
    insert(&store, json!({"name": "moa"})).await;
    let sorted = |field: &str, direction| ListOptions::new().sort(field, direction);
    // Strings by code point (upper case first); the missing field first.
    assert_eq!(
        names(&store, sorted("name", Direction::Ascending)).await,
        [
            json!("Tui"),
            json!("auk"),
            json!("emu"),
            json!("jay"),
            json!("kiwi"),
            json!("moa")
        ]
    );
    assert_eq!(
        names(&store, sorted("name", Direction::Descending)).await,
        [
            json!("moa"),
            json!("kiwi"),
            json!("jay"),
            json!("emu"),
            json!("auk"),
            json!("Tui")
        ]
    );
    // Numbers by value (integers and floats together); ties in insertion order both ways; a
    // missing field sorts first ascending and last descending.
    assert_eq!(
        names(&store, sorted("rank", Direction::Ascending)).await,
        [
            json!("moa"),
            json!("emu"),
            json!("Tui"),
            json!("auk"),
            json!("jay"),
            json!("kiwi")
        ]
    );
    assert_eq!(
        names(&store, sorted("rank", Direction::Descending)).await,
        [
            json!("kiwi"),
            json!("jay"),
            json!("Tui"),
            json!("auk"),
            json!("emu"),
            json!("moa")
        ]
    );
    // Newest first: everything without a sort field, ties with one.
    assert_eq!(
        names(&store, ListOptions::new().newest_first().skip(1).limit(3)).await,
        [json!("jay"), json!("auk"), json!("Tui")]
    );
    assert_eq!(
        names(&store, sorted("rank", Direction::Descending).newest_first()).await,
        [
            json!("kiwi"),
            json!("jay"),
            json!("auk"),
            json!("Tui"),
            json!("emu"),
            json!("moa")
        ]
    );
    // ISO dates sort as strings, so by date.
    assert_eq!(
        names(
            &store,
            sorted("born", Direction::Descending).filter("rank", 2).limit(5)
        )
        .await,
        [json!("Tui"), json!("auk")]
    );
    assert_eq!(
        names(&store, sorted("born", Direction::Ascending).skip(2).limit(2)).await,
        [json!("emu"), json!("kiwi")]
    );
}

async fn bad_list_options_are_refused(store: Store) {
    for options in [
        ListOptions::new().filter("$where", "x"),
        ListOptions::new().filter("a.b", "x"),
        ListOptions::new().filter("a\"b", "x"),
        ListOptions::new().filter("kind", json!({"$ne": null})),
        ListOptions::new().filter("kind", json!(["owl"])),
        ListOptions::new().sort("$natural", Direction::Ascending),
        ListOptions::new().sort("_id", Direction::Descending),
        ListOptions::new()
            .sort("x", Direction::Ascending)
            .filter("", 1)
            .limit(0),
    ] {
        let err = store.list(C, &options).await.unwrap_err();
        assert_eq!(err.kind(), StoreErrorKind::Invalid, "{options:?}");
    }
}

/// `delete_below` deletes the documents whose field is an integer below the bound, nothing else.
async fn delete_below_deletes_what_is_past(store: Store) {
    for until in [json!(5), json!(9), json!(10), json!("5"), json!(5.5), Value::Null] {
        insert(&store, json!({"name": "x", "until": until})).await;
    }
    insert(&store, json!({"name": "no until"})).await;
    assert_eq!(store.delete_below(C, "until", 10).await.unwrap(), 2);
    let left: Vec<Value> = store
        .list(C, &ListOptions::new())
        .await
        .unwrap()
        .into_iter()
        .map(|document| document.get("until").cloned().unwrap_or(json!("none")))
        .collect();
    assert_eq!(
        left,
        vec![json!(10), json!("5"), json!(5.5), Value::Null, json!("none")]
    );
    assert_eq!(
        store.delete_below(C, "until", 10).await.unwrap(),
        0,
        "nothing more"
    );
}

/// The service's idempotency keys sweep the records past their time as keys are taken.
async fn expired_keys_are_swept(store: Store) {
    use ferrapi::idempotency::{Begin, KeptResponse, KeyStore};
    use resource_api::idempotency::{StoreKeys, KEYS};

    StoreKeys::prepare(&store).await.unwrap();
    let keys = StoreKeys::new(store.clone()).sweep_every(4);
    let answer = KeptResponse {
        status: 201,
        headers: vec![("location".into(), b"/visits/1".to_vec())],
        body: b"{}".to_vec().into(),
    };
    // Taken at 0: an answer kept until 50, an attempt whose lease ends at 50, an answer kept to 1000.
    for key in ["done", "dead", "kept"] {
        assert_eq!(keys.begin(key, "f", 0, 50).await, Ok(Begin::Run));
    }
    keys.finish("done", "f", answer.clone(), 50).await.unwrap();
    keys.finish("kept", "f", answer.clone(), 1000).await.unwrap();
    let count = || async { store.list(KEYS, &ListOptions::new()).await.unwrap().len() };
    assert_eq!(count().await, 3, "no sweep before the 4th key");
    // The 4th key, taken at 100, sweeps: the two past their time go.
    assert_eq!(keys.begin("new", "f", 100, 200).await, Ok(Begin::Run));
    assert_eq!(count().await, 2);
    assert_eq!(keys.begin("kept", "f", 100, 200).await, Ok(Begin::Replay(answer)));
    assert_eq!(
        keys.sweep(2000).await,
        Ok(2),
        "everything is past its time at 2000"
    );
    assert_eq!(count().await, 0);
}

/// A running attempt's lease is renewed (issue 43) only while the key is that attempt's: held past
/// its first lease, a renewal never shortens it, and a finished, released, or other request's key
/// is left alone.
async fn keys_are_renewed_by_their_attempt(store: Store) {
    use ferrapi::idempotency::{Begin, KeptResponse, KeyStore};
    use resource_api::idempotency::StoreKeys;

    StoreKeys::prepare(&store).await.unwrap();
    let keys = StoreKeys::new(store.clone());
    assert_eq!(keys.begin("k", "f", 0, 100).await, Ok(Begin::Run));
    assert_eq!(keys.renew("k", "f", 300).await, Ok(true));
    assert_eq!(
        keys.begin("k", "f", 200, 500).await,
        Ok(Begin::InProgress { lease_until: 300 }),
        "held past its first lease, told when it ends"
    );
    assert_eq!(keys.renew("k", "g", 900).await, Ok(false), "another request's");
    assert_eq!(keys.renew("unknown", "f", 900).await, Ok(false));
    assert_eq!(
        keys.begin("k", "f", 250, 500).await,
        Ok(Begin::InProgress { lease_until: 300 })
    );
    // Not renewed any more (its process died): taken over once the lease is past.
    assert_eq!(keys.begin("k", "f", 300, 600).await, Ok(Begin::Run));
    let answer = KeptResponse {
        status: 201,
        headers: Vec::new(),
        body: b"{}".to_vec().into(),
    };
    keys.finish("k", "f", answer.clone(), 1000).await.unwrap();
    assert_eq!(
        keys.renew("k", "f", 2000).await,
        Ok(false),
        "finished: left alone"
    );
    assert_eq!(keys.begin("k", "f", 400, 700).await, Ok(Begin::Replay(answer)));
    assert_eq!(keys.begin("gone", "f", 0, 100).await, Ok(Begin::Run));
    keys.release("gone", "f").await.unwrap();
    assert_eq!(
        keys.renew("gone", "f", 2000).await,
        Ok(false),
        "released: not brought back"
    );
    assert_eq!(keys.begin("gone", "g", 50, 100).await, Ok(Begin::Run));
}

/// Kept answers (issue 41): text or base64, never hex, so a record is at most 4/3 of its answer;
/// a record kept in hex by the version before reads back (a deployment keeps replaying them).
async fn kept_answers_are_text_and_old_records_read(store: Store) {
    use ferrapi::idempotency::{Begin, KeptResponse, KeyStore};
    use resource_api::idempotency::{StoreKeys, KEYS};

    StoreKeys::prepare(&store).await.unwrap();
    let keys = StoreKeys::new(store.clone());
    let record = |key: &str| {
        let store = store.clone();
        let key = key.to_owned();
        async move {
            store
                .list(KEYS, &ListOptions::new())
                .await
                .unwrap()
                .into_iter()
                .find(|document| document.get("key") == Some(&json!(key)))
                .expect("the key's record")
        }
    };
    let json_body = format!(r#"{{"detail":"{}"}}"#, "é".repeat(20_000));
    for (key, body) in [
        ("text", json_body.as_bytes().to_vec()),
        ("bytes", vec![0xff, 0, 0xfe, 1]),
    ] {
        let answer = KeptResponse {
            status: 201,
            headers: vec![("content-type".into(), b"application/json".to_vec())],
            body: body.clone().into(),
        };
        assert_eq!(keys.begin(key, "f", 0, 50).await, Ok(Begin::Run));
        keys.finish(key, "f", answer.clone(), 1000).await.unwrap();
        assert_eq!(keys.begin(key, "f", 100, 200).await, Ok(Begin::Replay(answer)));
        let kept = record(key).await;
        let stored = serde_json::to_string(&kept).unwrap().len();
        assert!(
            stored <= 400 + body.len() * 4 / 3,
            "{key}: {stored} bytes kept for {}",
            body.len()
        );
    }
    assert_eq!(record("text").await["body"], json!(json_body));
    assert_eq!(record("bytes").await["body"], json!({"base64": "/wD+AQ=="}));

    // As the version before kept an answer: no `format`, bytes in hex.
    assert_eq!(keys.begin("old", "f", 0, 50).await, Ok(Begin::Run));
    let id = record("old").await["_id"].as_str().unwrap().to_owned();
    let old = json!({
        "key": "old", "fingerprint": "f", "state": "done", "until": 1000, "status": 201,
        "headers": [["location", "2f7669736974732f31"]], "body": "7b7d",
    });
    let Value::Object(old) = old else { unreachable!() };
    store.replace(KEYS, &id, old).await.unwrap();
    let answer = KeptResponse {
        status: 201,
        headers: vec![("location".into(), b"/visits/1".to_vec())],
        body: b"{}".to_vec().into(),
    };
    assert_eq!(keys.begin("old", "f", 100, 200).await, Ok(Begin::Replay(answer)));
}

/// An exact document (a bird) from the text a client sent: its canonical text.
fn exact(text: &str) -> ExactDocument {
    ExactDocument::new(ExactBody::parse(text).expect("a JSON object")).expect("keepable numbers")
}

/// Exact documents read back as their canonical text, `_id` spliced in first: escapes as
/// serde_json writes them, a NUL in a string, every number as sent, a key sent twice at any
/// depth in its first place with its last value, `_id` and `_store` dropped at the top only.
async fn exact_documents_read_back_as_their_text(store: Store) {
    let deep = format!("{}{}", "[".repeat(60), "]".repeat(60));
    let cases = [
        (
            r#"{ "s" : "a\"b\\c\/\u0000\u001f\b\u00e9\ud83d\ude00 ", "n": [1E5, -0, 1e400] }"#.to_owned(),
            r#""s":"a\"b\\c/\u0000\u001f\bé😀 ","n":[1E5,-0,1e400]"#.to_owned(),
        ),
        (
            r#"{"o":{"k":1,"j":{"k":2,"k":[3]},"k":{"z":1,"z":2.50}},"_id":"x","_store":{"seq":1},"i":{"_id":1,"_store":2}}"#.to_owned(),
            r#""o":{"k":{"z":2.50},"j":{"k":[3]}},"i":{"_id":1,"_store":2}"#.to_owned(),
        ),
        (
            format!(r#"{{"deep":{deep},"e":{{}},"a":[]}}"#),
            format!(r#""deep":{deep},"e":{{}},"a":[]"#),
        ),
    ];
    for (n, (sent, kept)) in cases.into_iter().enumerate() {
        let name = format!("exact-{n}");
        let sent = sent.replacen('{', &format!(r#"{{"name":"{name}","#), 1);
        let id = store.insert_exact(C, exact(&sent)).await.expect("insert_exact");
        let text = store
            .find_one_exact(C, "name", &json!(name))
            .await
            .expect("find_one_exact")
            .expect("the document");
        assert_eq!(text, format!(r#"{{"_id":"{id}","name":"{name}",{kept}}}"#));
        // The plain read finds the same document.
        let plain = find(&store, "name", json!(name)).await.expect("the document");
        assert_eq!(plain["_id"], json!(id));
    }
    assert_eq!(
        store
            .find_one_exact(C, "name", &json!("none"))
            .await
            .expect("find"),
        None
    );
}

/// A field name holding U+0000: kept by a store that can hold it (the embedded one), refused as
/// a rejected document by one that cannot (BSON), never a failure of another kind.
async fn a_field_name_with_nul_is_kept_or_refused(store: Store) {
    let sent = r#"{"name":"nul","a\u0000b":{"c\u0000":1}}"#;
    match store.insert_exact(C, exact(sent)).await {
        Ok(id) => assert_eq!(
            store
                .find_one_exact(C, "name", &json!("nul"))
                .await
                .expect("find"),
            Some(format!(
                r#"{{"_id":"{id}","name":"nul","a\u0000b":{{"c\u0000":1}}}}"#
            ))
        ),
        Err(err) => {
            assert_eq!(err.kind(), StoreErrorKind::Rejected, "{err}");
            assert_eq!(
                store
                    .find_one_exact(C, "name", &json!("nul"))
                    .await
                    .expect("find"),
                None
            );
        }
    }
}

/// One `#[tokio::test]` per case and store.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        mod embedded {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $case() {
                    let (store, _conn, _dir) = super::sqlite_store(stringify!($case)).await;
                    super::$case(store).await;
                }
            )*
        }
        mod mongodb {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $case() {
                    let Some((store, _conn)) = super::mongo_store(stringify!($case)).await else { return };
                    super::$case(store).await;
                }
            )*
        }
    };
}

conformance![
    insert_get_and_find,
    a_sent_id_is_replaced,
    the_first_inserted_wins,
    values_are_never_operators,
    list_in_insertion_order,
    list_filters_by_equality,
    list_sorts_with_ties_in_insertion_order,
    bad_list_options_are_refused,
    replace_and_delete,
    unicode_round_trips,
    nested_documents_round_trip,
    large_documents_near_the_body_limit,
    concurrent_inserts_are_all_readable,
    invalid_names_are_refused,
    delete_below_deletes_what_is_past,
    expired_keys_are_swept,
    keys_are_renewed_by_their_attempt,
    kept_answers_are_text_and_old_records_read,
    exact_documents_read_back_as_their_text,
    a_field_name_with_nul_is_kept_or_refused,
];
