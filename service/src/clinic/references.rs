//! The references between the clinic's resources: every visit names a doctor and a patient.
//!
//! Rules enforced here:
//! - a visit must name an existing doctor and patient: otherwise 422 with one pydantic-shaped
//!   error per unknown id, type `not_found`, at `["body", "doctor_id"]` / `["body", "patient_id"]`,
//!   with the resource's 404 detail as its message;
//! - a doctor or patient that still has visits cannot be deleted: 409 with a `detail` saying so
//!   (no cascade: medical records are not deleted as a side effect);
//! - both hold across every process sharing the store, whatever the interleaving: the check and
//!   the write are one step of the store ([`VISIT_REFERENCES`] given to
//!   `insert_referencing`/`replace_versioned`, the referrers given to `delete_versioned`),
//!   never a read here followed by a write there.

use ferrapi::prelude::*;
use ferrapi::validation::{Failure, LocItem, ValidationErrors};

use super::models::VisitIn;
use super::{DOCTORS, DOCTOR_NOT_FOUND, PATIENTS, PATIENT_NOT_FOUND, VISITS};
use crate::store::{Reference, Referrer};

/// A visit's references: its doctor and its patient.
pub(super) const VISIT_REFERENCES: [Reference; 2] = [
    Reference {
        field: "doctor_id",
        target: DOCTORS,
    },
    Reference {
        field: "patient_id",
        target: PATIENTS,
    },
];

/// What refers to a doctor: visits, by `doctor_id`.
pub(super) const DOCTOR_REFERRERS: [Referrer; 1] = [Referrer {
    collection: VISITS,
    field: "doctor_id",
}];

/// What refers to a patient: visits, by `patient_id`.
pub(super) const PATIENT_REFERRERS: [Referrer; 1] = [Referrer {
    collection: VISITS,
    field: "patient_id",
}];

/// 422 with one `not_found` error per reference of `visit` the store found naming nothing.
pub(super) fn unknown_references(visit: &VisitIn, missing: &[Reference]) -> Response {
    let mut errors = ValidationErrors::new();
    for reference in missing {
        let (field, id, message) = if reference.target == DOCTORS {
            ("doctor_id", &visit.doctor_id, DOCTOR_NOT_FOUND)
        } else {
            ("patient_id", &visit.patient_id, PATIENT_NOT_FOUND)
        };
        errors.push(Failure::new("not_found", message).at(
            vec![LocItem::Static("body"), LocItem::Static(field)],
            Value::from(id.as_str()),
        ));
    }
    errors.into_response()
}
