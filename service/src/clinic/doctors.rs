//! Doctors: the `/doctors` group (tagged `doctors`), with `GET`/`POST /doctors` and
//! `GET`/`PUT`/`DELETE /doctors/{doctor_id}`; the routes' paths are relative to the group's
//! prefix, and the clinic's group documents their `503` (see [`super::group()`]).
//!
//! Rules enforced here:
//! - a doctor is a [`DoctorIn`] (a name, one [`Specialty`], an optional e-mail), validated before
//!   the handler runs, and is answered as a [`Doctor`];
//! - `GET /doctors` filters by `specialty` and `name` (equality), sorts by `name` or `specialty`
//!   (`sort`, `order`) and pages by `skip` and `limit`, as every clinic list does;
//! - an unknown doctor is 404 `{"detail": "Doctor not found"}`;
//! - a doctor who still has visits is not deleted (409); the store checks and deletes in one
//!   step, so no visit is booked with the doctor in between, by this process or another.

use ferrapi::conditional::{Preconditions, Tagged, Write};
use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::memory::Memory;
use ferrapi::prelude::*;

use super::crud::{create, delete, list, read, replace, Page};
use super::models::{Doctor, DoctorIn, DoctorSort, Specialty};
use super::references::DOCTOR_REFERRERS;
use super::{Clinic, DOCTORS, DOCTOR_NOT_FOUND};
use crate::store::ListOptions;

/// List doctors, optionally of one specialty or name, sorted and paged.
#[get("", paged)]
pub async fn list_doctors(
    clinic: State<Clinic>,
    specialty: Option<Specialty>,
    #[max_length(100)] name: Option<String>,
    sort: Option<DoctorSort>,
    page: Page,
) -> Result<Json<Vec<Doctor>>, Response> {
    let mut options = ListOptions::new();
    if let Some(specialty) = specialty {
        options = options.filter("specialty", specialty.to_string());
    }
    if let Some(name) = name {
        options = options.filter("name", name);
    }
    let field = sort.map(|sort| match sort {
        DoctorSort::Name => "name",
        DoctorSort::Specialty => "specialty",
    });
    list(&clinic.store, DOCTORS, page.apply(options, field)).await
}

/// Add a doctor.
#[post("", status = 201)]
pub async fn create_doctor(
    clinic: State<Clinic>,
    memory: Memory,
    doctor: DoctorIn,
) -> Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Doctor>), Response> {
    create(&clinic.store, &memory, DOCTORS, &doctor).await
}

/// A doctor by id.
#[get("/{doctor_id}", responses(404 = DOCTOR_NOT_FOUND))]
pub async fn read_doctor(
    clinic: State<Clinic>,
    doctor_id: String,
    pre: Preconditions,
) -> Result<Tagged<Json<Doctor>>, Response> {
    read(&clinic.store, DOCTORS, &doctor_id, DOCTOR_NOT_FOUND, &pre).await
}

/// Replace a doctor.
#[put("/{doctor_id}", responses(404 = DOCTOR_NOT_FOUND))]
pub async fn replace_doctor(
    clinic: State<Clinic>,
    doctor_id: String,
    memory: Memory,
    doctor: DoctorIn,
    pre: Preconditions<Write>,
) -> Result<Tagged<Json<Doctor>>, Response> {
    // Checked against no references, the store never answers missing ones.
    let no_references = |_: &[_]| HttpError::new(500, "Internal Server Error").into_response();
    replace(
        (&clinic.store, &memory),
        DOCTORS,
        &doctor_id,
        &doctor,
        &[],
        DOCTOR_NOT_FOUND,
        &pre,
        no_references,
    )
    .await
}

/// Delete a doctor who has no visits.
#[delete("/{doctor_id}", status = 204, responses(404 = DOCTOR_NOT_FOUND, 409 = "The doctor has visits"))]
pub async fn delete_doctor(
    clinic: State<Clinic>,
    doctor_id: String,
    pre: Preconditions<Write>,
) -> Result<StatusCode, Response> {
    let (store, referrers) = (&clinic.store, &DOCTOR_REFERRERS);
    delete(
        store,
        DOCTORS,
        &doctor_id,
        referrers,
        ("Doctor", DOCTOR_NOT_FOUND),
        &pre,
    )
    .await
}

/// The `/doctors` group: its routes, tagged `doctors`.
pub fn group() -> Group {
    group!("/doctors", tags("doctors")).routes(routes![
        list_doctors,
        create_doctor,
        read_doctor,
        replace_doctor,
        delete_doctor,
    ])
}
