//! The clinic's conditional requests: each doctor, patient and visit has a version kept by the
//! store, sent as its strong `ETag` (`"<version>"`); a read answers `If-None-Match` with 304, and
//! a replacement or deletion sent with `If-Match` (or `If-None-Match`) is made only if the
//! precondition holds against the version it is written over.
//!
//! Rules enforced here:
//! - a write without preconditions is made as before, in one store operation, whatever the
//!   version (the clinic's behaviour without these headers is unchanged);
//! - a conditional write reads the current version, evaluates the preconditions against it, and
//!   writes on the condition that the document is still at that version (the store compares it
//!   atomically with the write, across processes); when another write came in between, the
//!   preconditions are evaluated again against the new version, so `If-Match: *` still holds and
//!   a stale tag gets 412; after [`ATTEMPTS`] such races the answer is 412, never a blind write;
//! - an unknown resource is 404 whatever the preconditions (RFC 9110 §13.2.1: they are ignored
//!   when the answer without them would not be a 2xx).

use std::future::Future;

use ferrapi::conditional::{ETag, Preconditions, Write};
use ferrapi::prelude::*;

use crate::store::{Stale, Store};
use crate::store_http::store_failure;

/// How many times a conditional write re-evaluates after losing a race before answering 412.
const ATTEMPTS: usize = 8;

/// 412 Precondition Failed, as the framework answers it.
fn precondition_failed() -> Response {
    HttpError::new(412, "Precondition Failed").into_response()
}

/// Run `write` as `pre` allows: at once and unconditionally (`None`) when the request has no
/// precondition, else at the version the preconditions held against (`Some(version)`), again
/// when that version was no longer current.
pub(super) async fn conditionally<R, F, W>(
    store: &Store,
    collection: &str,
    id: &str,
    not_found: &'static str,
    pre: &Preconditions<Write>,
    mut write: W,
) -> Result<R, Response>
where
    W: FnMut(Option<u64>) -> F,
    F: Future<Output = Result<Result<R, Stale>, Response>>,
{
    if !pre.is_conditional() {
        // Not asked for a version, no store answers stale; were one to, 412 is the safe answer.
        return write(None).await?.map_err(|Stale| precondition_failed());
    }
    for _ in 0..ATTEMPTS {
        let version = match store.get_versioned(collection, id).await {
            Ok(Some(current)) => current.version,
            Ok(None) => return Err(HttpError::not_found(not_found).into_response()),
            Err(err) => return Err(store_failure(&err).into_response()),
        };
        pre.evaluate(Some(&ETag::from_version(version)))
            .map_err(IntoResponse::into_response)?;
        match write(Some(version)).await? {
            Ok(written) => return Ok(written),
            Err(Stale) => continue,
        }
    }
    Err(precondition_failed())
}
