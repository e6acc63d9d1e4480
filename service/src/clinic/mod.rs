//! Doctors, patients and visits (the spec's "group A exercise"): REST resources kept in the
//! service's [`Store`], following the spec's recommended conventions for resource paths. Each
//! resource has its file ([`doctors`], [`patients`], [`visits`]) and its route group (prefix and
//! tag), nested in the clinic's [`group()`]; the CRUD they share is in `crud.rs`, the references
//! between them in `references.rs`.
//!
//! Rules enforced here, for every resource:
//! - plural nouns, no trailing slash, no version segment (the service's own routes have none);
//! - `GET /{resources}` lists with equality filters and a sort field as query parameters, ties
//!   and the default in creation order (`desc` reverses both), paged by `skip` (0 to
//!   [`MAX_SKIP`], default 0) and `limit` (1 to [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]);
//! - a list's cost does not grow with the collection: every sort field (and insertion order) is
//!   indexed on both stores ([`Clinic::prepare`]), so a page is a walk of at most
//!   `MAX_SKIP + MAX_LIMIT` index entries, never a sort of the collection; a deeper page is a 422
//!   (`less_than_equal`, FastAPI's answer to a `le` constraint) where it would have grown with it.
//!   A maximum `skip` rather than key-based paging (a `next` cursor): the lists keep their
//!   parameters and answers, and the OpenAPI document changes by one `maximum`;
//! - `GET /{resources}/{id}` → 200; `POST` → 201 with `Location: /{resources}/{id}` and the
//!   created resource; `PUT` (a whole replacement) → 200 with the resource; `DELETE` → 204;
//!   an unknown id (also one that is not 24 hex digits) → 404 `{"detail": "<Resource> not found"}`;
//! - no visit is ever left naming a deleted doctor or patient, across any number of processes
//!   sharing the store: the store checks the references atomically with the write
//!   (`references.rs`), so the clinic holds no lock of its own;
//! - query values reach the store only as values ([`ListOptions`](crate::store::ListOptions)
//!   filters), never as operators;
//! - `GET /{resources}/{id}` sends the resource's version as a strong `ETag` and answers a
//!   matching `If-None-Match` with 304; `PUT` and `DELETE` honour `If-Match` (412 when stale,
//!   across processes: the store compares the version atomically with the write; see
//!   `versions.rs`); without these headers nothing changes;
//! - a store failure answers its status (503 while the database is unavailable) with a
//!   client-safe detail; the cause goes to the log.

// Early answers travel as `Err(Response)`, as in the runtime: boxing them would cost an
// allocation on every error path for nothing.
#![allow(clippy::result_large_err)]

mod crud;
pub mod dates;
pub mod doctors;
mod fault;
pub mod models;
pub mod patients;
mod references;
mod room;
mod versions;
pub mod visits;

use ferrapi::{group, Group};

use crate::store::{Store, StoreError};
use crate::store_http::STORE_UNAVAILABLE;
pub use crud::Page;
pub use dates::{BirthDate, Date, Instant};
pub use models::{
    Doctor, DoctorIn, DoctorSort, Patient, PatientIn, PatientSort, SortOrder, Specialty, Visit, VisitIn,
    VisitSort,
};

/// The collection doctors are stored in.
pub const DOCTORS: &str = "doctors";
/// The collection patients are stored in.
pub const PATIENTS: &str = "patients";
/// The collection visits are stored in.
pub const VISITS: &str = "visits";
/// The most resources one list answers.
pub const MAX_LIMIT: i64 = 100;
/// How many resources a list answers when `limit` is not given.
pub const DEFAULT_LIMIT: i64 = 20;
/// The most resources a list passes over (`skip`): a page starts within the first 10,100.
/// Deeper pages cost a walk of the index as long as the skip; 10,000 keeps the slowest page at
/// a few milliseconds on the embedded store (see `clinic::crud`), as Elasticsearch's and
/// OpenSearch's default result window does.
pub const MAX_SKIP: i64 = 10_000;

// Each resource's 404 detail, here because a visit naming an unknown doctor or patient reports
// the same words (in `references.rs`).
const DOCTOR_NOT_FOUND: &str = "Doctor not found";
const PATIENT_NOT_FOUND: &str = "Patient not found";
const VISIT_NOT_FOUND: &str = "Visit not found";

/// The clinic's state: the store (which keeps the references between the resources).
#[derive(Debug)]
pub struct Clinic {
    store: Store,
    fault: fault::Fault,
}

impl Clinic {
    /// The clinic over `store`.
    pub fn new(store: Store) -> Self {
        Clinic {
            store,
            fault: fault::Fault::from_env(),
        }
    }

    /// Create the indexes the clinic's lists and reference checks use (idempotent): one for
    /// every field a list filters or sorts by (the checks of a deletion seek `visits` by
    /// `doctor_id` and `patient_id`), and, with them, insertion order's.
    pub async fn prepare(store: &Store) -> Result<(), StoreError> {
        for (collection, field) in [
            (VISITS, "doctor_id"),
            (VISITS, "patient_id"),
            (VISITS, "start_time"),
            (VISITS, "duration_minutes"),
            (DOCTORS, "specialty"),
            (DOCTORS, "name"),
            (PATIENTS, "name"),
            (PATIENTS, "date_of_birth"),
        ] {
            store.ensure_index(collection, field).await?;
        }
        Ok(())
    }
}

/// The clinic's routes: the doctors, patients and visits groups, each with its prefix and tag,
/// in a group that documents on all of them the `503` a store failure answers.
pub fn group() -> Group {
    group!("", responses(503 = STORE_UNAVAILABLE))
        .group(doctors::group())
        .group(patients::group())
        .group(visits::group())
}
