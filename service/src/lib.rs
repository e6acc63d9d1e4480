//! The Resource API service (see the specification in `shared/spec`), built on ferrapi: route
//! group A (typed, FastAPI-compatible), route group B (JSON, text and HTML, with birds kept in a
//! [`store::DocumentStore`]), and their configuration.
//!
//! Rules enforced here: group A is declared before group B (the spec's rule 7), so where both
//! declare one path shape for one method (`GET /employee/{id}`) group A's route is served and
//! group B's is shadowed; group B's routes get their store and connection string as state, and
//! an app built without them is refused at start-up, not at the first request; `GET /api/env`
//! (which discloses the connection string) can be left out with `expose_env = false`.

pub mod config;
pub mod group_a;
pub mod group_b;
pub mod store;

use config::{DbConnString, Group};
use ferrapi::App;
use store::{ConnString, Store, StoreError};

/// What group B needs: the bird store and the connection string `/api/env` reports.
#[derive(Debug, Clone)]
pub struct Db {
    /// The store.
    pub store: Store,
    /// The effective connection string.
    pub conn_string: String,
}

impl Db {
    /// Open the store `conn` names and prepare it for group B (an index on the birds' `name`).
    pub async fn open(conn: &ConnString) -> Result<Self, StoreError> {
        let store = store::open(conn).await?;
        Self::prepare(store, conn.effective()).await
    }

    /// Prepare an open `store` for group B; `conn_string` is what `/api/env` will report.
    pub async fn prepare(store: Store, conn_string: &str) -> Result<Self, StoreError> {
        store.ensure_index(group_b::BIRDS, "name").await?;
        Ok(Db {
            store,
            conn_string: conn_string.to_owned(),
        })
    }
}

/// The app serving `group`: group A declared first, then group B. `db` is required when group B
/// is served (building the app fails otherwise).
pub fn app(group: Group, db: Option<Db>) -> App {
    app_with_env(group, db, true)
}

/// [`app`], with `GET /api/env` served only when `expose_env` is true (it discloses the
/// connection string, credentials included).
pub fn app_with_env(group: Group, db: Option<Db>, expose_env: bool) -> App {
    let mut app = ferrapi::app_info!().title("Resource API").description(
        "Group A: typed parameters with FastAPI-compatible validation errors. \
         Group B: JSON, text and HTML routes, and birds kept in a document store.",
    );
    if matches!(group, Group::A | Group::All) {
        app = app.routes(group_a::routes());
    }
    if group.serves_b() {
        app = app.routes(
            group_b::routes()
                .into_iter()
                .filter(|route| expose_env || route.name != group_b::ENV_ROUTE),
        );
    }
    if let Some(db) = db {
        app = app.state(db.store).state(DbConnString(db.conn_string));
    }
    app
}
