//! `examples/client.rs`, the program a user of the API copies, run against the service: each step
//! it says is what the service does.

use resource_api::config::Group;

use super::serve;
use crate::support::sqlite_store;

// The example program itself, compiled into this test (its `main` is not called).
#[allow(dead_code)]
#[path = "../../../../examples/client.rs"]
mod program;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_example_runs_against_the_service() {
    let (store, conn, _dir) = sqlite_store("client_example").await;
    let api = serve(Group::All, store, &conn).await;
    let said = program::tour(&api).await.expect("the example runs");
    assert_eq!(
        said,
        [
            "item 42",
            "created Foo at 38.6 with tax",
            "404: Employee not found",
            "422: Input should be greater than or equal to 0 (greater_than_equal)",
            "412: changed since read; reading again",
            "updated Dr. House <house@example.org>",
            "booked one visit at 2030-05-01T07:30:00Z (replayed: false); again: the same visit (replayed: true)",
            "request id example-1",
            r#"request id made by the client: true; raw body {"message":"Hello World"}"#,
        ]
    );
}
