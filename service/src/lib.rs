//! The Resource API service (see the specification in `shared/spec`), built on ferrapi: route
//! group A (typed, FastAPI-compatible, with the clinic's doctors, patients and visits), route
//! group B (JSON, text and HTML, with birds), both keeping their records in one
//! [`store::DocumentStore`], and their configuration.
//!
//! Rules enforced here: group A is declared before group B (the spec's rule 7), so where both
//! declare one path shape for one method (`GET /employee/{id}`) group A's route is served and
//! group B's is shadowed; the routes of both groups get the store (group A's clinic through
//! [`clinic::Clinic`], group B's birds directly) and group B the connection string as state, and
//! an app built without them is refused at start-up, not at the first request; `GET /api/env`
//! (which discloses the connection string) can be left out with `expose_env = false`, in which
//! case group B is built without it. Each group is a ferrapi route group (`group_a::group`,
//! `group_b::group`, the clinic's nested in group A's), added in that order.

pub mod clinic;
pub mod config;
pub mod exact;
pub mod group_a;
pub mod group_b;
pub mod idempotency;
pub mod store;
pub mod store_http;

use config::{Group, ReportedConnString};
use ferrapi::App;
use store::{Store, StoreError, StoreLocation};

/// What the routes need: the store (clinic and birds) and the connection string `/api/env`
/// reports.
#[derive(Debug, Clone)]
pub struct Db {
    /// The store.
    pub store: Store,
    /// The effective connection string.
    pub conn_string: String,
}

impl Db {
    /// Open the store at `location` and prepare it (the indexes of the clinic's lists and of
    /// the birds' `name`).
    pub async fn open(location: &StoreLocation) -> Result<Self, StoreError> {
        let store = store::open(location).await?;
        Self::prepare(store, location.effective()).await
    }

    /// Prepare an open `store` for both groups; `conn_string` is what `/api/env` will report.
    pub async fn prepare(store: Store, conn_string: &str) -> Result<Self, StoreError> {
        store.ensure_index(group_b::BIRDS, "name").await?;
        clinic::Clinic::prepare(&store).await?;
        idempotency::StoreKeys::prepare(&store).await?;
        Ok(Db {
            store,
            conn_string: conn_string.to_owned(),
        })
    }
}

/// The app serving `group`: group A declared first, then group B. `db` is required (building
/// the app fails without it): group A keeps doctors, patients and visits in its store, group B
/// its birds.
pub fn app(group: Group, db: Option<Db>) -> App {
    app_with_env(group, db, true)
}

/// [`app`], with `GET /api/env` served only when `expose_env` is true (it discloses the
/// connection string, credentials included).
pub fn app_with_env(group: Group, db: Option<Db>, expose_env: bool) -> App {
    let mut app = ferrapi::app_info!()
        .title("Resource API")
        .description(
            "Group A: typed parameters with FastAPI-compatible validation errors. \
             Doctors, patients and visits of a clinic, kept in the service's store. \
             Group B: JSON, text and HTML routes, and birds kept in the same store.",
        )
        // Every status the service answers is in its document (RELIABILITY.md: schemathesis
        // finds no undocumented one): a body's 400 and 413 too, which FastAPI, and ferrapi by
        // default, leave out.
        .document_implicit_responses(true);
    if matches!(group, Group::A | Group::All) {
        app = app.group(group_a::group());
    }
    if group.serves_b() {
        app = app.group(group_b::group(expose_env));
    }
    if let Some(db) = db {
        app = app
            .state(idempotency::keys(&db.store, idempotency::LEASE))
            .state(clinic::Clinic::new(db.store.clone()))
            .state(db.store)
            .state(ReportedConnString(db.conn_string));
    }
    app
}
