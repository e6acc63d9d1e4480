//! Visits: the `/visits` group (tagged `visits`), with `GET`/`POST /visits` and
//! `GET`/`PUT`/`DELETE /visits/{visit_id}`; the routes' paths are relative to the group's
//! prefix, and the clinic's group documents their `503` (see [`super::group()`]).
//!
//! Rules enforced here:
//! - a visit is a [`VisitIn`] (a doctor, a patient, a start instant with an offset, 5 to 480
//!   minutes, a reason, optional notes), validated before the handler runs, and is answered as a
//!   [`Visit`] (its start in UTC);
//! - `GET /visits` filters by `doctor_id` and `patient_id` (equality; each an id's pattern, 24
//!   lowercase hex digits, else 422), sorts by `start_time` or `duration_minutes` (`sort`,
//!   `order`) and pages by `skip` and `limit`, as every clinic list does;
//! - a visit booked or replaced must name an existing doctor and patient (422 otherwise, one
//!   error per unknown id), checked by the store in the same step as the write, so neither is
//!   deleted in between, by this process or another; an id that is not 24 lowercase hex digits
//!   is refused by the model before (so the 422 that echoes an id, and the answer kept for an
//!   idempotency key, stay small);
//! - replacing an unknown visit is 404 before its doctor and patient are looked at; any unknown
//!   visit is 404 `{"detail": "Visit not found"}`;
//! - cancelling a visit needs no check: removing a reference cannot leave one dangling.

use ferrapi::conditional::{Preconditions, Tagged, Write};
use ferrapi::http::header::{HeaderName, HeaderValue};
use ferrapi::idempotency::{IdempotencyKey, Kept};
use ferrapi::memory::Memory;
use ferrapi::prelude::*;

use super::crud::{created, delete, failure, list, read, replace, to_document, CreatedParts, Page};
use super::models::{Visit, VisitIn, VisitSort};
use super::references::{unknown_references, VISIT_REFERENCES};
use super::room::Room;
use super::{Clinic, VISITS, VISIT_NOT_FOUND};
use crate::store::{Checked, ListOptions};

/// List visits, optionally of one doctor or patient, sorted and paged.
#[get("", paged)]
pub async fn list_visits(
    clinic: State<Clinic>,
    #[pattern(r"^[0-9a-f]{24}$")] doctor_id: Option<String>,
    #[pattern(r"^[0-9a-f]{24}$")] patient_id: Option<String>,
    sort: Option<VisitSort>,
    page: Page,
) -> Result<Json<Vec<Visit>>, Response> {
    let mut options = ListOptions::new();
    if let Some(doctor_id) = doctor_id {
        options = options.filter("doctor_id", doctor_id);
    }
    if let Some(patient_id) = patient_id {
        options = options.filter("patient_id", patient_id);
    }
    let field = sort.map(|sort| match sort {
        VisitSort::StartTime => "start_time",
        VisitSort::DurationMinutes => "duration_minutes",
    });
    list(&clinic.store, VISITS, page.apply(options, field)).await
}

/// Book a visit of an existing patient with an existing doctor. A retry with the same
/// `Idempotency-Key` gets the first answer instead of a second booking, whichever process it
/// reaches.
#[post("", status = 201)]
pub async fn create_visit(
    clinic: State<Clinic>,
    memory: Memory,
    visit: VisitIn,
    key: IdempotencyKey,
) -> Kept<Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Visit>), Response>> {
    // The tuple written out, not `CreatedParts`: the route macro reads the schema from the tokens.
    let booked = book(&clinic, &memory, &visit, &key).await;
    if booked.is_ok() {
        clinic.fault.after_booking().await;
    }
    key.keep(booked).await
}

/// The id of the visit a request with an idempotency key books: a digest of the key and the
/// request's fingerprint, so an attempt run again after the first one's process died (its key's
/// lease over) finds the first one's visit instead of booking a second.
fn keyed_id(key: &IdempotencyKey) -> Option<String> {
    let (key, fingerprint) = key.key().zip(key.fingerprint())?;
    Some(crate::idempotency::key_id(&format!(
        "visit\n{key}\n{fingerprint}"
    )))
}

/// Store `visit` if its doctor and patient exist: 201, or 422 naming the unknown ones. With a
/// key, under [`keyed_id`]: a visit already there is the first attempt's, answered as it was.
/// Its copies are reserved in `memory` first.
async fn book(
    clinic: &Clinic,
    memory: &Memory,
    visit: &VisitIn,
    key: &IdempotencyKey,
) -> Result<CreatedParts<Visit>, Response> {
    let room = Room::of(memory, visit).await?;
    let document = to_document(visit)?;
    let (store, keyed, source) = (clinic.store.clone(), keyed_id(key), &document);
    let written = room
        .store(move || {
            let document = source.clone();
            async move {
                match keyed {
                    Some(id) => store
                        .insert_referencing_at(VISITS, &id, document, &VISIT_REFERENCES)
                        .await
                        .map(|checked| checked.map(|_| id)),
                    None => {
                        store
                            .insert_referencing(VISITS, document, &VISIT_REFERENCES)
                            .await
                    }
                }
            }
        })
        .await?;
    match written {
        Ok(Checked::Written(id)) => created(VISITS, document, id),
        Ok(Checked::Missing(missing)) => Err(unknown_references(visit, &missing)),
        // An insert has no document to miss; answered as the store's bug it would be.
        Ok(Checked::NotFound) => Err(failure(&crate::store::StoreError::invalid(
            "an insert answered `not found`",
        ))),
        Err(err) => Err(failure(&err)),
    }
}

/// A visit by id.
#[get("/{visit_id}", responses(404 = VISIT_NOT_FOUND))]
pub async fn read_visit(
    clinic: State<Clinic>,
    visit_id: String,
    pre: Preconditions,
) -> Result<Tagged<Json<Visit>>, Response> {
    read(&clinic.store, VISITS, &visit_id, VISIT_NOT_FOUND, &pre).await
}

/// Replace a visit (its doctor and patient must exist).
#[put("/{visit_id}", responses(404 = VISIT_NOT_FOUND))]
pub async fn replace_visit(
    clinic: State<Clinic>,
    visit_id: String,
    memory: Memory,
    visit: VisitIn,
    pre: Preconditions<Write>,
) -> Result<Tagged<Json<Visit>>, Response> {
    // The store answers an unknown visit (404) before looking at its references.
    let missing = |missing: &[_]| unknown_references(&visit, missing);
    let (store, references) = (&clinic.store, &VISIT_REFERENCES);
    replace(
        (store, &memory),
        VISITS,
        &visit_id,
        &visit,
        references,
        VISIT_NOT_FOUND,
        &pre,
        missing,
    )
    .await
}

/// Cancel a visit.
#[delete("/{visit_id}", status = 204, responses(404 = VISIT_NOT_FOUND))]
pub async fn delete_visit(
    clinic: State<Clinic>,
    visit_id: String,
    pre: Preconditions<Write>,
) -> Result<StatusCode, Response> {
    delete(
        &clinic.store,
        VISITS,
        &visit_id,
        &[],
        ("Visit", VISIT_NOT_FOUND),
        &pre,
    )
    .await
}

/// The `/visits` group: its routes, tagged `visits`.
pub fn group() -> Group {
    group!("/visits", tags("visits")).routes(routes![
        list_visits,
        create_visit,
        read_visit,
        replace_visit,
        delete_visit,
    ])
}
