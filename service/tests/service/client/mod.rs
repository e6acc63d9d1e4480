//! The service driven through its own generated client (`resource-api-client`, made by
//! ferrapi-client-gen from the service's document) over real HTTP on 127.0.0.1: every route of
//! group A and group B, the clinic on both stores (its ETag / `If-Match` flow too), and a visit
//! booked with an `Idempotency-Key` whose first process is killed before it answers (the real
//! binary behind a relay), retried by the client itself. `snapshot` keeps the generated client
//! equal to what the generator makes of the current document.
//!
//! Rules enforced here: every call goes through the generated methods and their typed answers;
//! a route the document does not describe (a shadowed form, the docs pages, group B's employee)
//! is called with the runtime's `Client::call` and read as [`Raw`]; each test serves its own app
//! on its own store.

/// One `#[tokio::test]` per case and store: `both_stores![a]` makes `embedded::a` (SQLite) and
/// `mongodb::a` (skipped without `MONGODB_TEST_URI`), each calling `a(store, location)`.
macro_rules! both_stores {
    ($($case:ident),* $(,)?) => {
        mod embedded {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let (store, conn, _dir) = $crate::support::sqlite_store(stringify!($case)).await;
                    super::$case(store, conn).await;
                }
            )*
        }
        mod mongodb {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some((store, conn)) = $crate::support::mongo_store(stringify!($case)).await else { return };
                    super::$case(store, conn).await;
                }
            )*
        }
    };
}

mod clinic;
mod example;
mod group_a;
mod group_b;
mod idempotency;
mod snapshot;

use std::net::SocketAddr;

use ferrapi_client::{CallOptions, Method, Raw};
use ferrapi_tests::app::spawn;
use resource_api::config::Group;
use resource_api::store::{Store, StoreLocation};
use resource_api::{app, Db};
use resource_api_client::Client;

/// `group` of the service on `store`, served on a free port with request ids (as the binary
/// serves it by default): a generated client of it.
pub async fn serve(group: Group, store: Store, conn: &StoreLocation) -> Client {
    let db = Db::prepare(store, conn.effective())
        .await
        .expect("prepare the store");
    client(spawn(app(group, Some(db)).request_ids(true)).await)
}

/// A generated client of the service at `addr`.
pub fn client(addr: SocketAddr) -> Client {
    Client::new(&format!("http://{addr}")).expect("a client")
}

/// `GET target` (a path, and a query of `name=value` pairs) through the runtime, for a route the
/// document does not describe.
pub async fn raw_get(client: &Client, target: &str) -> Raw {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let pairs: Vec<(&str, &str)> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .collect();
    client
        .client()
        .call::<Raw, _>(Method::GET, CallOptions::default(), move |request| {
            request.path(path);
            for (name, value) in &pairs {
                request.query(name, value);
            }
        })
        .await
        .expect("an answer")
        .into_body()
}
