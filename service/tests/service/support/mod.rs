//! Shared by the service's tests: temporary directories, the two stores, the MongoDB test URI, a
//! relay to cut the database off; the real binary as a child process is in [`process`].
//!
//! Rules enforced here: every test gets its own embedded database file and its own MongoDB
//! database, so tests run in parallel without seeing each other's documents; MongoDB tests need
//! `MONGODB_TEST_URI` (scripts/test.sh starts a server and sets it) — in CI (`CI` set) a missing
//! URI fails the test, elsewhere the test is skipped with one line saying how to run it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Once;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use resource_api::store::{self, Store, StoreLocation};

pub mod process;

static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A unique suffix for names made by this process.
pub fn unique(tag: &str) -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!(
        "{tag}_{}_{}_{nanos:x}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A directory removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new(tag: &str) -> Self {
        let path = std::env::temp_dir().join("resource-api-tests").join(unique(tag));
        std::fs::create_dir_all(&path).expect("create a temporary directory");
        TempDir(path)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The `sqlite://` connection string of the database file `file` in this directory.
    pub fn sqlite(&self, file: &str) -> String {
        format!("sqlite://{}", self.0.join(file).display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An embedded store in a fresh directory (keep the `TempDir` alive while using the store).
pub async fn sqlite_store(tag: &str) -> (Store, StoreLocation, TempDir) {
    let dir = TempDir::new(tag);
    let conn = StoreLocation::parse(Some(&dir.sqlite("birds.db"))).expect("a sqlite:// connection string");
    let store = store::open(&conn).await.expect("open the embedded store");
    (store, conn, dir)
}

/// The document the service serves with the binary's defaults (`--group all`, `GET /api/env`
/// served), as JSON text: the one its generated client and its released baseline are made of.
pub fn served_document(tag: &str) -> String {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let (store, conn, _dir) = sqlite_store(tag).await;
        let db = resource_api::Db::prepare(store, conn.effective())
            .await
            .expect("prepare");
        let service = resource_api::app(resource_api::config::Group::All, Some(db))
            .build()
            .expect("the app builds");
        String::from_utf8(service.openapi_json().to_vec()).expect("UTF-8")
    })
}

/// `MONGODB_TEST_URI` with its database replaced by a fresh one named after `tag`, or `None`
/// (outside CI only) when no test server was given.
pub fn mongo_uri(tag: &str) -> Option<String> {
    let base = match std::env::var("MONGODB_TEST_URI") {
        Ok(uri) if !uri.trim().is_empty() => uri,
        _ => {
            if std::env::var_os("CI").is_some() {
                panic!(
                    "MONGODB_TEST_URI is not set: CI must run the MongoDB tests (scripts/test.sh starts a server)"
                );
            }
            // One line per test binary, past libtest's capture (which takes only the print macros).
            static SAID: Once = Once::new();
            SAID.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "MongoDB tests skipped: MONGODB_TEST_URI is not set (scripts/test.sh starts a server and sets it)"
                );
            });
            return None;
        }
    };
    Some(with_database(&base, &unique(tag)))
}

/// `uri` with the database path replaced by `database` (options kept).
pub fn with_database(uri: &str, database: &str) -> String {
    let (scheme, rest) = uri.split_once("://").expect("a URI with a scheme");
    let (hosts_and_path, options) = match rest.split_once('?') {
        Some((left, options)) => (left, Some(options)),
        None => (rest, None),
    };
    let hosts = hosts_and_path.split('/').next().unwrap_or(hosts_and_path);
    match options {
        Some(options) => format!("{scheme}://{hosts}/{database}?{options}"),
        None => format!("{scheme}://{hosts}/{database}"),
    }
}

/// A MongoDB store on a fresh database, or `None` when skipped (see [`mongo_uri`]).
pub async fn mongo_store(tag: &str) -> Option<(Store, StoreLocation)> {
    let uri = mongo_uri(tag)?;
    let conn = StoreLocation::parse(Some(&uri)).expect("a mongodb:// connection string");
    let store = store::open(&conn)
        .await
        .expect("connect to the MongoDB test server");
    Some((store, conn))
}

/// A MongoDB store on a fresh database reached through a [`Relay`] to the test server (so the test
/// can cut it off), giving up on an unreachable server after `selection_timeout`; `None` when
/// skipped (see [`mongo_uri`]).
pub async fn relayed_mongo_store(
    tag: &str,
    selection_timeout: Duration,
) -> Option<(Relay, Store, StoreLocation)> {
    let uri = mongo_uri(tag)?;
    let rest = uri.split_once("://").map_or("", |(_, rest)| rest);
    let target = rest.split(['/', '?']).next().unwrap_or_default().to_owned();
    let relay = Relay::start(target).await;
    let relayed = with_database(&format!("mongodb://{}/", relay.addr), &unique(tag));
    let conn = StoreLocation::parse(Some(&format!(
        "{relayed}?serverSelectionTimeoutMS={}&directConnection=true",
        selection_timeout.as_millis()
    )))
    .expect("parse");
    let store = store::open(&conn).await.expect("connect through the relay");
    Some((relay, store, conn))
}

/// A TCP relay (to the MongoDB test server) that can be cut — existing connections closed, new
/// ones dropped — and restored: how the tests simulate a database outage.
pub struct Relay {
    /// Where clients connect.
    pub addr: std::net::SocketAddr,
    up: std::sync::Arc<std::sync::atomic::AtomicBool>,
    cut: tokio::sync::watch::Sender<u64>,
}

impl Relay {
    /// Relay 127.0.0.1:<free port> to `target`.
    pub async fn start(target: String) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the relay");
        let addr = listener.local_addr().expect("relay address");
        let up = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (cut, _) = tokio::sync::watch::channel(0u64);
        let (up2, cut2) = (up.clone(), cut.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !up2.load(Ordering::SeqCst) {
                    continue; // dropped: the client sees the connection closed
                }
                let target = target.clone();
                let mut cuts = cut2.subscribe();
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(&target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cuts.changed() => {}
                    }
                });
            }
        });
        Relay { addr, up, cut }
    }

    /// Cut (`false`) or restore (`true`) the relay.
    pub fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            self.cut.send_modify(|n| *n += 1);
        }
    }
}

/// One `#[tokio::test]` per case and store: `store_cases![a, b]` in a module whose `a` and `b`
/// are `async fn(Store)` makes `embedded::a` (SQLite) and `mongodb::a` (skipped without
/// `MONGODB_TEST_URI`, see [`mongo_uri`]), and the same for `b`.
macro_rules! store_cases {
    ($($case:ident),* $(,)?) => {
        mod embedded {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let (store, _conn, _dir) = $crate::support::sqlite_store(stringify!($case)).await;
                    super::$case(store).await;
                }
            )*
        }
        mod mongodb {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some((store, _conn)) = $crate::support::mongo_store(stringify!($case)).await else { return };
                    super::$case(store).await;
                }
            )*
        }
    };
}
pub(crate) use store_cases;
