//! Patients: the `/patients` group (tagged `patients`), with `GET`/`POST /patients` and
//! `GET`/`PUT`/`DELETE /patients/{patient_id}`; the routes' paths are relative to the group's
//! prefix, and the clinic's group documents their `503` (see [`super::group()`]).
//!
//! Rules enforced here:
//! - a patient is a [`PatientIn`] (a name, a date of birth not in the future, an optional phone
//!   number), validated before the handler runs, and is answered as a [`Patient`];
//! - `GET /patients` filters by `name` and `date_of_birth` (equality; a date that is not
//!   `YYYY-MM-DD` is 422), sorts by `name` or `date_of_birth` (`sort`, `order`) and pages by
//!   `skip` and `limit`, as every clinic list does;
//! - an unknown patient is 404 `{"detail": "Patient not found"}`;
//! - a patient who still has visits is not deleted (409); the store checks and deletes in one
//!   step, so no visit is booked for the patient in between, by this process or another.

use ferrapi::conditional::{Preconditions, Tagged, Write};
use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::memory::Memory;
use ferrapi::prelude::*;

use super::crud::{create, delete, list, read, replace, Page};
use super::dates::Date;
use super::models::{Patient, PatientIn, PatientSort};
use super::references::PATIENT_REFERRERS;
use super::{Clinic, PATIENTS, PATIENT_NOT_FOUND};
use crate::store::ListOptions;

/// List patients, optionally by name or date of birth, sorted and paged.
#[get("", paged)]
pub async fn list_patients(
    clinic: State<Clinic>,
    #[max_length(100)] name: Option<String>,
    date_of_birth: Option<Date>,
    sort: Option<PatientSort>,
    page: Page,
) -> Result<Json<Vec<Patient>>, Response> {
    let mut options = ListOptions::new();
    if let Some(name) = name {
        options = options.filter("name", name);
    }
    if let Some(date) = date_of_birth {
        options = options.filter("date_of_birth", date.to_string());
    }
    let field = sort.map(|sort| match sort {
        PatientSort::Name => "name",
        PatientSort::DateOfBirth => "date_of_birth",
    });
    list(&clinic.store, PATIENTS, page.apply(options, field)).await
}

/// Register a patient.
#[post("", status = 201)]
pub async fn create_patient(
    clinic: State<Clinic>,
    memory: Memory,
    patient: PatientIn,
) -> Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Patient>), Response> {
    create(&clinic.store, &memory, PATIENTS, &patient).await
}

/// A patient by id.
#[get("/{patient_id}", responses(404 = PATIENT_NOT_FOUND))]
pub async fn read_patient(
    clinic: State<Clinic>,
    patient_id: String,
    pre: Preconditions,
) -> Result<Tagged<Json<Patient>>, Response> {
    read(&clinic.store, PATIENTS, &patient_id, PATIENT_NOT_FOUND, &pre).await
}

/// Replace a patient.
#[put("/{patient_id}", responses(404 = PATIENT_NOT_FOUND))]
pub async fn replace_patient(
    clinic: State<Clinic>,
    patient_id: String,
    memory: Memory,
    patient: PatientIn,
    pre: Preconditions<Write>,
) -> Result<Tagged<Json<Patient>>, Response> {
    // Checked against no references, the store never answers missing ones.
    let no_references = |_: &[_]| HttpError::new(500, "Internal Server Error").into_response();
    replace(
        (&clinic.store, &memory),
        PATIENTS,
        &patient_id,
        &patient,
        &[],
        PATIENT_NOT_FOUND,
        &pre,
        no_references,
    )
    .await
}

/// Delete a patient who has no visits.
#[delete("/{patient_id}", status = 204, responses(404 = PATIENT_NOT_FOUND, 409 = "The patient has visits"))]
pub async fn delete_patient(
    clinic: State<Clinic>,
    patient_id: String,
    pre: Preconditions<Write>,
) -> Result<StatusCode, Response> {
    let (store, referrers) = (&clinic.store, &PATIENT_REFERRERS);
    delete(
        store,
        PATIENTS,
        &patient_id,
        referrers,
        ("Patient", PATIENT_NOT_FOUND),
        &pre,
    )
    .await
}

/// The `/patients` group: its routes, tagged `patients`.
pub fn group() -> Group {
    group!("/patients", tags("patients")).routes(routes![
        list_patients,
        create_patient,
        read_patient,
        replace_patient,
        delete_patient,
    ])
}
