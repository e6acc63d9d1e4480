//! The references between the clinic's resources: every visit names a doctor and a patient.
//!
//! Rules enforced here:
//! - a visit must name an existing doctor and patient: otherwise 422 with one pydantic-shaped
//!   error per unknown id, type `not_found`, at `["body", "doctor_id"]` / `["body", "patient_id"]`,
//!   with the resource's 404 detail as its message;
//! - a doctor or patient that still has visits cannot be deleted: 409 with a `detail` saying so
//!   (no cascade: medical records are not deleted as a side effect);
//! - these checks are only sound under the [`Clinic`](super::Clinic)'s lock, which the routes
//!   that book, replace or delete take before calling them.

use ferrapi::prelude::*;
use ferrapi::types::{Failure, LocItem, ValidationErrors};

use super::crud::failure;
use super::models::VisitIn;
use super::{DOCTORS, DOCTOR_NOT_FOUND, PATIENTS, PATIENT_NOT_FOUND, VISITS};
use crate::store::Store;

/// 422 with one `not_found` error per id of `visit` that names no stored doctor or patient.
pub(super) async fn check_references(store: &Store, visit: &VisitIn) -> Result<(), Response> {
    let mut errors = ValidationErrors::new();
    for (field, collection, id, message) in [
        ("doctor_id", DOCTORS, &visit.doctor_id, DOCTOR_NOT_FOUND),
        ("patient_id", PATIENTS, &visit.patient_id, PATIENT_NOT_FOUND),
    ] {
        if store
            .get(collection, id)
            .await
            .map_err(|err| failure(&err))?
            .is_none()
        {
            errors.push(Failure::new("not_found", message).at(
                vec![LocItem::Static("body"), LocItem::Static(field)],
                Value::from(id.as_str()),
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into_response())
    }
}

/// 409 when a visit still names this doctor or patient (`field` is `doctor_id`/`patient_id`).
pub(super) async fn refuse_if_referenced(
    store: &Store,
    field: &str,
    id: &str,
    who: &str,
) -> Result<(), Response> {
    match store.find_one(VISITS, field, &Value::from(id)).await {
        Ok(None) => Ok(()),
        Ok(Some(_)) => Err(
            HttpError::new(409, format!("{who} has visits; delete or reassign them first")).into_response(),
        ),
        Err(err) => Err(failure(&err)),
    }
}
