//! The store's failures as HTTP answers, shared by group A's clinic and group B's birds.
//!
//! Rules enforced here: a store failure answers the status its kind calls for (503 while the
//! database is unavailable, 422 for a refused document, 500 for a bug) with the client-safe
//! [`StoreError::detail`]; its cause goes to the log, never to the client. Every route that uses
//! the store documents its 503 with the one description [`STORE_UNAVAILABLE`].

use ferrapi::prelude::*;

use crate::store::StoreError;

/// How the OpenAPI document describes the 503 of a route that uses the store (one text, so the
/// routes' descriptions cannot drift apart).
pub const STORE_UNAVAILABLE: &str = "The database is unavailable";

/// A store failure as an HTTP error: the status its kind calls for, a client-safe detail.
pub fn store_failure(err: &StoreError) -> HttpError {
    tracing::error!(error = %err, "store operation failed");
    HttpError::new(err.status(), err.detail())
}
