//! Bird numbers over real HTTP on 127.0.0.1, once with the embedded store and once with MongoDB:
//! every number a bird is sent with reads back as the same text, byte for byte, or the bird is
//! refused with a 422 naming each number no store can keep exactly (more than 34 significant
//! digits, or a magnitude beyond a Decimal128's) and nothing is stored; never a number altered.
//! The same rule on both stores (the grid below runs on each), birds stored before this rule
//! (plain JSON, numbers as serde_json wrote them) still read back as they did, and MongoDB holds
//! the numbers as BSON numbers.

use std::net::SocketAddr;

use ferrapi_tests::client::{get, send_json};
use resource_api::config::Group;
use resource_api::exact::ExactNumber;
use resource_api::group_b;
use resource_api::store::Store;
use serde_json::{json, Value};

use crate::group_b::{bird_count, serve};
use crate::support::{mongo_store, sqlite_store};

/// Store `body` (a JSON object text naming the bird `name`) and read it back: the exact text
/// expected, `_id` first.
async fn round_trip(addr: SocketAddr, name: &str, fields: &str) {
    let body = format!(r#"{{"name":"{name}",{fields}}}"#);
    let reply = send_json(addr, "POST", "/api/bird/", &body).await;
    assert_eq!(reply.status, 200, "{fields}: {}", reply.text());
    let id = reply.json()["id"].as_str().expect("an id").to_owned();
    let reply = get(addr, &format!("/api/bird/{name}")).await;
    assert_eq!(reply.status, 200, "{name}");
    assert_eq!(
        reply.text(),
        format!(r#"{{"_id":"{id}","name":"{name}",{fields}}}"#),
        "read back exactly"
    );
}

/// The 422 items of a refused bird, as `(loc, type, input)`.
fn refusals(reply: &ferrapi_tests::client::Reply) -> Vec<(Value, String, Value)> {
    assert_eq!(reply.status, 422, "{}", reply.text());
    reply.json()["detail"]
        .as_array()
        .expect("a list of errors")
        .iter()
        .map(|item| {
            (
                item["loc"].clone(),
                item["type"].as_str().unwrap_or_default().to_owned(),
                item["input"].clone(),
            )
        })
        .collect()
}

async fn every_number_as_sent(addr: SocketAddr, store: &Store) {
    // Each alone, at the top level.
    let forty_digits = "1234567890123456789012345678901234.567891";
    let kept = [
        "18446744073709551616",
        "18446744073709551615",
        "-9223372036854775809",
        "9223372036854775807",
        "-9223372036854775808",
        "1e-400",
        "1e400",
        "-1E+400",
        "-0",
        "-0.0",
        "0",
        "0.1",
        "1.0",
        "1.50",
        "1E5",
        "1e+05",
        "1e-07",
        "100000",
        "2.5e-3",
        "0.1000000000000000055511151231257827",
        "1234567890123456789012345678901234",
        "1e-6176",
        "1e6144",
    ];
    for (n, number) in kept.iter().enumerate() {
        round_trip(addr, &format!("kept-{n}"), &format!(r#""v":{number}"#)).await;
    }

    // Nested in arrays and objects, repeated, beside strings that look like numbers.
    round_trip(
        addr,
        "nested",
        r#""a":[1E5,{"b":[-0,1e-400,{"c":18446744073709551616}]},[[[-0.0]]]],"o":{"x":1.50,"y":[0.1,[1e400]],"s":"1e400"},"e":[],"m":{}"#,
    )
    .await;

    // A key sent twice: its first place, its last value, as sent.
    let reply = send_json(
        addr,
        "POST",
        "/api/bird/",
        r#"{"name":"twice","v":1,"w":true,"v":2.50}"#,
    )
    .await;
    let id = reply.json()["id"].as_str().expect("an id").to_owned();
    assert_eq!(
        get(addr, "/api/bird/twice").await.text(),
        format!(r#"{{"_id":"{id}","name":"twice","v":2.50,"w":true}}"#)
    );

    // Refused: every number no store can keep, each named where it is; nothing stored.
    let before = bird_count(store).await;
    let thirty_thousand = "9".repeat(30_000);
    let power_of_ten = format!("1{}", "0".repeat(29_999));
    let body = format!(
        r#"{{"name":"refused","ok":1e400,"a":[0.1,{{"b":{forty_digits}}}],"big":{thirty_thousand},"ten":{power_of_ten},"tiny":1e-6177,"huge":1e6145,"s":"{thirty_thousand}"}}"#
    );
    assert!(body.len() < 1024 * 1024, "within the body limit");
    let reply = send_json(addr, "POST", "/api/bird/", &body).await;
    assert_eq!(
        refusals(&reply),
        vec![
            (
                json!(["body", "a", 1, "b"]),
                "number_too_precise".to_owned(),
                json!(forty_digits)
            ),
            (
                json!(["body", "big"]),
                "number_too_precise".to_owned(),
                json!(thirty_thousand)
            ),
            (
                json!(["body", "ten"]),
                "number_out_of_range".to_owned(),
                json!(power_of_ten)
            ),
            (
                json!(["body", "tiny"]),
                "number_out_of_range".to_owned(),
                json!("1e-6177")
            ),
            (
                json!(["body", "huge"]),
                "number_out_of_range".to_owned(),
                json!("1e6145")
            ),
        ]
    );
    let first = &reply.json()["detail"][0];
    assert_eq!(
        first["msg"],
        json!("Number should have at most 34 significant digits to be stored exactly")
    );
    assert_eq!(first["ctx"], json!({"max_digits": 34}));
    assert_eq!(get(addr, "/api/bird/refused").await.status, 404);
    assert_eq!(bird_count(store).await, before, "a refused bird stores nothing");

    // A 30,000-digit integer alone: refused the same way (it used to be a `json_invalid`).
    let reply = send_json(
        addr,
        "POST",
        "/api/bird/",
        &format!(r#"{{"name":"long","n":{thirty_thousand}}}"#),
    )
    .await;
    assert_eq!(
        refusals(&reply),
        vec![(
            json!(["body", "n"]),
            "number_too_precise".to_owned(),
            json!(thirty_thousand)
        )]
    );

    // The framework's own answers for what is not one JSON object are unchanged (a number beyond
    // a double outside an object is the framework's `json_invalid`, as before).
    let deep = format!(r#"{{"n":{}1e400{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    for (bad, kind) in [
        ("[1E5]", "dict_type"),
        ("-0", "dict_type"),
        ("[1e400]", "json_invalid"),
        (r#"{"n":01}"#, "json_invalid"),
        (r#"{"n":NaN}"#, "json_invalid"),
        (r#"{"n":1e400"#, "json_invalid"),
        (r#"{"n":"\ud800"}"#, "json_invalid"),
        (deep.as_str(), "json_invalid"),
    ] {
        let reply = send_json(addr, "POST", "/api/bird/", bad).await;
        assert_eq!(reply.status, 422, "{bad:.40}");
        assert_eq!(reply.json()["detail"][0]["type"], json!(kind), "{bad:.40}");
    }
    assert_eq!(bird_count(store).await, before, "nothing stored");
}

/// Numbers of every form and size: each reads back as sent or is refused by the one rule
/// (`ExactNumber::bson`), whichever store runs this.
async fn a_grid_of_numbers(addr: SocketAddr) {
    let mantissas = [
        "0",
        "-0",
        "7",
        "-12",
        "0.5",
        "-0.000",
        "1.50",
        "123.456",
        "9007199254740993",
        "12345678901234567890",
        &"9".repeat(34),
        &"9".repeat(35),
        &format!("0.{}1", "0".repeat(40)),
    ];
    let exponents = [
        "",
        "e0",
        "E5",
        "e-5",
        "e+17",
        "E400",
        "e-400",
        "e6111",
        "e-6176",
        "e6200",
        "e-6200",
        "e99999999999",
    ];
    let mut n = 0;
    for mantissa in mantissas {
        for exponent in exponents {
            let number = format!("{mantissa}{exponent}");
            let keepable = ExactNumber::parse(&number).expect("a JSON number").bson().is_ok();
            let name = format!("grid-{n}");
            n += 1;
            if keepable {
                round_trip(addr, &name, &format!(r#""v":{number}"#)).await;
            } else {
                let body = format!(r#"{{"name":"{name}","v":{number}}}"#);
                let reply = send_json(addr, "POST", "/api/bird/", &body).await;
                let refused = refusals(&reply);
                assert_eq!(refused.len(), 1, "{number}");
                assert_eq!(
                    (&refused[0].0, &refused[0].2),
                    (&json!(["body", "v"]), &json!(number))
                );
                assert_eq!(get(addr, &format!("/api/bird/{name}")).await.status, 404);
            }
        }
    }
}

/// Birds stored before numbers were kept as sent (the plain `insert`, numbers as serde_json
/// holds them) read back as they always did: as the plain `find_one` the route used gives them.
async fn birds_of_the_old_format(addr: SocketAddr, store: &Store) {
    let old = json!({
        "name": "old", "count": 3, "big": u64::MAX, "rounded": 18446744073709551616_f64,
        "negative": i64::MIN, "wingspan": 21.5, "zero": -0.0, "whole": 2.0,
        "tags": [1, 0.1, {"deep": 1e300, "tiny": 5e-324}],
    });
    let Value::Object(map) = old else { unreachable!() };
    store.insert(group_b::BIRDS, map).await.expect("insert");
    let before = store
        .find_one(group_b::BIRDS, "name", &json!("old"))
        .await
        .expect("find_one")
        .expect("the old bird");
    let reply = get(addr, "/api/bird/old").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.text(), Value::Object(before).to_string());
    assert!(
        reply
            .text()
            .contains(r#""wingspan":21.5,"zero":-0.0,"whole":2.0"#),
        "{}",
        reply.text()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bird_numbers_with_the_embedded_store() {
    let (store, conn, dir) = sqlite_store("bird_numbers").await;
    let addr = serve(Group::B, store.clone(), &conn).await;
    every_number_as_sent(addr, &store).await;
    a_grid_of_numbers(addr).await;
    birds_of_the_old_format(addr, &store).await;

    // The file holds the texts as sent.
    let file = rusqlite::Connection::open(dir.path().join("birds.db")).expect("open");
    let body: String = file
        .query_row(
            "SELECT body FROM documents WHERE json_extract(body, '$.name') = 'nested'",
            [],
            |row| row.get(0),
        )
        .expect("the nested bird");
    assert!(
        body.contains(r#""c":18446744073709551616"#) && body.contains("[1e400]"),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bird_numbers_with_mongodb() {
    let Some((store, conn)) = mongo_store("bird_numbers").await else {
        return;
    };
    let addr = serve(Group::B, store.clone(), &conn).await;
    every_number_as_sent(addr, &store).await;
    a_grid_of_numbers(addr).await;
    birds_of_the_old_format(addr, &store).await;

    // The database holds BSON numbers of exactly the values sent, for other programs to read.
    use mongodb::bson::{doc, Bson, Document};
    let client = mongodb::Client::with_uri_str(conn.effective())
        .await
        .expect("a client");
    let birds = client
        .default_database()
        .expect("the test URI names a database")
        .collection::<Document>(group_b::BIRDS);
    let nested = birds
        .find_one(doc! { "name": "nested" })
        .await
        .expect("find")
        .expect("the nested bird");
    let a = nested.get_array("a").expect("a");
    assert_eq!(a[0], Bson::Double(100000.0));
    let b = a[1].as_document().and_then(|d| d.get_array("b").ok()).expect("b");
    assert_eq!(b[0], Bson::Decimal128("-0".parse().expect("decimal")));
    assert_eq!(b[1], Bson::Decimal128("1E-400".parse().expect("decimal")));
    let o = nested.get_document("o").expect("o");
    assert_eq!(o.get("x"), Some(&Bson::Double(1.5)));
    let kept = birds
        .find_one(doc! { "name": "kept-0" })
        .await
        .expect("find")
        .expect("kept-0");
    assert_eq!(
        kept.get("v"),
        Some(&Bson::Decimal128(
            "18446744073709551616".parse().expect("decimal")
        ))
    );
    // And the server compares them as numbers: 1E5 is found as the double 100000.
    let found = birds
        .find_one(doc! { "name": { "$regex": "^kept-" }, "v": 100000.0 })
        .await
        .expect("find");
    assert!(found.is_some());
}
