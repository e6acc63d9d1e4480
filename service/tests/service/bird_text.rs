//! A bird is its text over real HTTP on 127.0.0.1, once with the embedded store and once with
//! MongoDB: read back as the canonical text of what was sent (compact, strings escaped as
//! serde_json escapes them, every number as sent, a key sent twice at any depth in its first
//! place with its last value), `_id` and `_store` dropped at the top only, and a field name a
//! store cannot hold (a NUL, on MongoDB) a 4xx with nothing stored, never a 5xx.

use std::net::SocketAddr;

use ferrapi_tests::client::{get, send_json};
use resource_api::config::Group;
use resource_api::store::Store;

use crate::group_b::{bird_count, serve};
use crate::support::{mongo_store, sqlite_store};

async fn bird_text(addr: SocketAddr, store: &Store) {
    let sent = r#" { "name" : "text", "s":"a\"b\\c\/\u00e9\ud83d\ude00\u0001\t", "o" : {"k":1,"j":{"k":2,"k":[3, {"x":1,"x":1.50}]},"k":{"z":1,"z":2}}, "k":[ ], "_id":"mine", "_store":{"seq":-1}, "i":{"_id":1,"_store":2} } "#;
    let reply = send_json(addr, "POST", "/api/bird/", sent).await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let id = reply.json()["id"].as_str().expect("an id").to_owned();
    assert_eq!(
        get(addr, "/api/bird/text").await.text(),
        format!(
            r#"{{"_id":"{id}","name":"text","s":"a\"b\\c/é😀\u0001\t","o":{{"k":{{"z":2}},"j":{{"k":[3,{{"x":1.50}}]}}}},"k":[],"i":{{"_id":1,"_store":2}}}}"#
        )
    );

    // A NUL in a field name: the embedded store keeps it, MongoDB cannot (a 422); never a 5xx.
    let before = bird_count(store).await;
    let reply = send_json(addr, "POST", "/api/bird/", r#"{"name":"nul","a\u0000b":1}"#).await;
    match reply.status {
        200 => {
            let id = reply.json()["id"].as_str().expect("an id").to_owned();
            assert_eq!(
                get(addr, "/api/bird/nul").await.text(),
                format!(r#"{{"_id":"{id}","name":"nul","a\u0000b":1}}"#)
            );
        }
        status => {
            assert_eq!(status, 422, "{}", reply.text());
            assert_eq!(get(addr, "/api/bird/nul").await.status, 404);
            assert_eq!(bird_count(store).await, before, "nothing stored");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bird_is_its_text_with_the_embedded_store() {
    let (store, conn, _dir) = sqlite_store("bird_text").await;
    let addr = serve(Group::B, store.clone(), &conn).await;
    bird_text(addr, &store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bird_is_its_text_with_mongodb() {
    let Some((store, conn)) = mongo_store("bird_text").await else {
        return;
    };
    let addr = serve(Group::B, store.clone(), &conn).await;
    bird_text(addr, &store).await;
}
