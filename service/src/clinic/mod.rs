//! Doctors, patients and visits (the spec's "group A exercise"): REST resources kept in the
//! service's [`Store`], following the spec's recommended conventions for resource paths.
//!
//! Rules enforced here:
//! - plural nouns, no trailing slash, no version segment (the service's own routes have none);
//! - `GET /{resources}` lists with equality filters and a sort field as query parameters, ties
//!   and the default in creation order, paged by `skip` (≥ 0, default 0) and `limit` (1 to
//!   [`MAX_LIMIT`], default [`DEFAULT_LIMIT`]);
//! - `GET /{resources}/{id}` → 200; `POST` → 201 with `Location: /{resources}/{id}` and the
//!   created resource; `PUT` (a whole replacement) → 200 with the resource; `DELETE` → 204;
//!   an unknown id (also one that is not 24 hex digits) → 404 `{"detail": "<Resource> not found"}`;
//! - a visit must name an existing doctor and patient: otherwise 422 with one pydantic-shaped
//!   error per unknown id, type `not_found`, at `["body", "doctor_id"]` / `["body", "patient_id"]`;
//! - a doctor or patient that still has visits cannot be deleted: 409 with a `detail` saying so
//!   (no cascade: medical records are not deleted as a side effect);
//! - within one process, booking or replacing a visit and deleting a doctor or patient are
//!   serialized ([`Clinic`]'s lock), so no visit is left naming a deleted doctor or patient;
//! - query values reach the store only as values ([`ListOptions`] filters), never as operators;
//! - a store failure answers its status (503 while the database is unavailable) with a
//!   client-safe detail; the cause goes to the log.

// Early answers travel as `Err(Response)`, as in the runtime: boxing them would cost an
// allocation on every error path for nothing.
#![allow(clippy::result_large_err)]

pub mod dates;
pub mod models;

use ferrapi::header::{HeaderName, HeaderValue, LOCATION};
use ferrapi::prelude::*;
use ferrapi::{Failure, FromJson, LocItem, RouteDef, ValidationErrors};
use serde::Serialize;
use serde_json::Map;
use tokio::sync::Mutex;

use crate::store::{Direction, Document, ListOptions, Store, StoreError, ID_FIELD};
use crate::store_http::store_failure;
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

/// The clinic's state: the store, and the lock that serializes reference checks with writes.
#[derive(Debug)]
pub struct Clinic {
    store: Store,
    references: Mutex<()>,
}

impl Clinic {
    /// The clinic over `store`.
    pub fn new(store: Store) -> Self {
        Clinic {
            store,
            references: Mutex::new(()),
        }
    }

    /// Create the indexes the clinic's lists and reference checks use (idempotent).
    pub async fn prepare(store: &Store) -> Result<(), StoreError> {
        for (collection, field) in [
            (VISITS, "doctor_id"),
            (VISITS, "patient_id"),
            (VISITS, "start_time"),
            (DOCTORS, "specialty"),
            (DOCTORS, "name"),
            (PATIENTS, "name"),
        ] {
            store.ensure_index(collection, field).await?;
        }
        Ok(())
    }
}

/// The answer to a `POST`: 201, `Location`, the created resource.
type CreatedParts<T> = (StatusCode, [(HeaderName, HeaderValue); 1], Json<T>);

fn failure(err: &StoreError) -> Response {
    store_failure(err).into_response()
}

fn internal(what: &str) -> Response {
    tracing::error!("{what}");
    HttpError::new(500, "Internal Server Error").into_response()
}

/// `input` as a document to store.
fn to_document<T: Serialize>(input: &T) -> Result<Document, Response> {
    match serde_json::to_value(input) {
        Ok(Value::Object(document)) => Ok(document),
        Ok(_) | Err(_) => Err(internal("a clinic model did not serialize to a JSON object")),
    }
}

/// A stored document as the output model `T`: `_id` becomes `id`, and the fields are validated
/// (a document that does not fit is logged and answered 500).
fn from_stored<T: FromJson>(mut document: Document, collection: &str) -> Result<T, Response> {
    let id = document.remove(ID_FIELD).unwrap_or(Value::Null);
    let mut object = Map::with_capacity(document.len() + 1);
    object.insert("id".to_owned(), id);
    object.extend(document);
    let value = Value::Object(object);
    let mut errors = ValidationErrors::new();
    let mut loc = vec![LocItem::Static("stored")];
    T::from_json(&value, &mut loc, &mut errors).ok_or_else(|| {
        internal(&format!(
            "a stored document of `{collection}` does not fit its model: {}",
            String::from_utf8_lossy(&errors.to_json_bytes())
        ))
    })
}

fn page(options: ListOptions, skip: i64, limit: i64) -> ListOptions {
    options
        .skip(u64::try_from(skip).unwrap_or(0))
        .limit(u64::try_from(limit).unwrap_or(0))
}

fn sorted(options: ListOptions, field: Option<&'static str>, order: SortOrder) -> ListOptions {
    match (field, order) {
        (Some(field), SortOrder::Asc) => options.sort(field, Direction::Ascending),
        (Some(field), SortOrder::Desc) => options.sort(field, Direction::Descending),
        (None, SortOrder::Asc) => options,
        // Without a sort field, `desc` is newest first.
        (None, SortOrder::Desc) => options.newest_first(),
    }
}

async fn list<T: FromJson>(
    store: &Store,
    collection: &str,
    options: ListOptions,
) -> Result<Json<Vec<T>>, Response> {
    let documents = store
        .list(collection, &options)
        .await
        .map_err(|err| failure(&err))?;
    documents
        .into_iter()
        .map(|document| from_stored(document, collection))
        .collect::<Result<Vec<T>, _>>()
        .map(Json)
}

async fn read<T: FromJson>(
    store: &Store,
    collection: &str,
    id: &str,
    not_found: &'static str,
) -> Result<Json<T>, Response> {
    match store.get(collection, id).await {
        Ok(Some(document)) => from_stored(document, collection).map(Json),
        Ok(None) => Err(HttpError::not_found(not_found).into_response()),
        Err(err) => Err(failure(&err)),
    }
}

async fn create<I: Serialize, T: FromJson>(
    store: &Store,
    collection: &'static str,
    input: &I,
) -> Result<CreatedParts<T>, Response> {
    let mut document = to_document(input)?;
    let id = store
        .insert(collection, document.clone())
        .await
        .map_err(|err| failure(&err))?;
    let location = HeaderValue::try_from(format!("/{collection}/{id}"))
        .map_err(|_| internal("a new id does not fit in a Location header"))?;
    document.insert(ID_FIELD.to_owned(), Value::String(id));
    let created = from_stored(document, collection)?;
    Ok((StatusCode::CREATED, [(LOCATION, location)], Json(created)))
}

async fn replace<I: Serialize, T: FromJson>(
    store: &Store,
    collection: &'static str,
    id: &str,
    input: &I,
    not_found: &'static str,
) -> Result<Json<T>, Response> {
    let mut document = to_document(input)?;
    if !store
        .replace(collection, id, document.clone())
        .await
        .map_err(|err| failure(&err))?
    {
        return Err(HttpError::not_found(not_found).into_response());
    }
    document.insert(ID_FIELD.to_owned(), Value::String(id.to_owned()));
    from_stored(document, collection).map(Json)
}

async fn delete(
    store: &Store,
    collection: &str,
    id: &str,
    not_found: &'static str,
) -> Result<StatusCode, Response> {
    if store.delete(collection, id).await.map_err(|err| failure(&err))? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(HttpError::not_found(not_found).into_response())
    }
}

const DOCTOR_NOT_FOUND: &str = "Doctor not found";
const PATIENT_NOT_FOUND: &str = "Patient not found";
const VISIT_NOT_FOUND: &str = "Visit not found";

/// List doctors, optionally of one specialty or name, sorted and paged.
#[get("/doctors", tags("doctors"), responses(503 = "The database is unavailable"))]
pub async fn list_doctors(
    clinic: State<Clinic>,
    specialty: Option<Specialty>,
    name: Option<String>,
    sort: Option<DoctorSort>,
    #[default(SortOrder::Asc)] order: SortOrder,
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(DEFAULT_LIMIT)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
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
    list(
        &clinic.store,
        DOCTORS,
        page(sorted(options, field, order), skip, limit),
    )
    .await
}

/// Add a doctor.
#[post("/doctors", status = 201, tags("doctors"), responses(503 = "The database is unavailable"))]
pub async fn create_doctor(
    clinic: State<Clinic>,
    doctor: DoctorIn,
) -> Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Doctor>), Response> {
    create(&clinic.store, DOCTORS, &doctor).await
}

/// A doctor by id.
#[get(
    "/doctors/{doctor_id}",
    tags("doctors"),
    responses(404 = "Doctor not found", 503 = "The database is unavailable")
)]
pub async fn read_doctor(clinic: State<Clinic>, doctor_id: String) -> Result<Json<Doctor>, Response> {
    read(&clinic.store, DOCTORS, &doctor_id, DOCTOR_NOT_FOUND).await
}

/// Replace a doctor.
#[put(
    "/doctors/{doctor_id}",
    tags("doctors"),
    responses(404 = "Doctor not found", 503 = "The database is unavailable")
)]
pub async fn replace_doctor(
    clinic: State<Clinic>,
    doctor_id: String,
    doctor: DoctorIn,
) -> Result<Json<Doctor>, Response> {
    replace(&clinic.store, DOCTORS, &doctor_id, &doctor, DOCTOR_NOT_FOUND).await
}

/// Delete a doctor who has no visits.
#[delete(
    "/doctors/{doctor_id}",
    status = 204,
    tags("doctors"),
    responses(
        404 = "Doctor not found",
        409 = "The doctor has visits",
        503 = "The database is unavailable"
    )
)]
pub async fn delete_doctor(clinic: State<Clinic>, doctor_id: String) -> Result<StatusCode, Response> {
    let _serialized = clinic.references.lock().await;
    refuse_if_referenced(&clinic.store, "doctor_id", &doctor_id, "Doctor").await?;
    delete(&clinic.store, DOCTORS, &doctor_id, DOCTOR_NOT_FOUND).await
}

/// List patients, optionally by name or date of birth, sorted and paged.
#[get("/patients", tags("patients"), responses(503 = "The database is unavailable"))]
pub async fn list_patients(
    clinic: State<Clinic>,
    name: Option<String>,
    date_of_birth: Option<Date>,
    sort: Option<PatientSort>,
    #[default(SortOrder::Asc)] order: SortOrder,
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(DEFAULT_LIMIT)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
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
    list(
        &clinic.store,
        PATIENTS,
        page(sorted(options, field, order), skip, limit),
    )
    .await
}

/// Register a patient.
#[post("/patients", status = 201, tags("patients"), responses(503 = "The database is unavailable"))]
pub async fn create_patient(
    clinic: State<Clinic>,
    patient: PatientIn,
) -> Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Patient>), Response> {
    create(&clinic.store, PATIENTS, &patient).await
}

/// A patient by id.
#[get(
    "/patients/{patient_id}",
    tags("patients"),
    responses(404 = "Patient not found", 503 = "The database is unavailable")
)]
pub async fn read_patient(clinic: State<Clinic>, patient_id: String) -> Result<Json<Patient>, Response> {
    read(&clinic.store, PATIENTS, &patient_id, PATIENT_NOT_FOUND).await
}

/// Replace a patient.
#[put(
    "/patients/{patient_id}",
    tags("patients"),
    responses(404 = "Patient not found", 503 = "The database is unavailable")
)]
pub async fn replace_patient(
    clinic: State<Clinic>,
    patient_id: String,
    patient: PatientIn,
) -> Result<Json<Patient>, Response> {
    replace(&clinic.store, PATIENTS, &patient_id, &patient, PATIENT_NOT_FOUND).await
}

/// Delete a patient who has no visits.
#[delete(
    "/patients/{patient_id}",
    status = 204,
    tags("patients"),
    responses(
        404 = "Patient not found",
        409 = "The patient has visits",
        503 = "The database is unavailable"
    )
)]
pub async fn delete_patient(clinic: State<Clinic>, patient_id: String) -> Result<StatusCode, Response> {
    let _serialized = clinic.references.lock().await;
    refuse_if_referenced(&clinic.store, "patient_id", &patient_id, "Patient").await?;
    delete(&clinic.store, PATIENTS, &patient_id, PATIENT_NOT_FOUND).await
}

/// List visits, optionally of one doctor or patient, sorted and paged.
#[get("/visits", tags("visits"), responses(503 = "The database is unavailable"))]
pub async fn list_visits(
    clinic: State<Clinic>,
    doctor_id: Option<String>,
    patient_id: Option<String>,
    sort: Option<VisitSort>,
    #[default(SortOrder::Asc)] order: SortOrder,
    #[default(0)]
    #[ge(0)]
    skip: i64,
    #[default(DEFAULT_LIMIT)]
    #[ge(1)]
    #[le(100)]
    limit: i64,
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
    list(
        &clinic.store,
        VISITS,
        page(sorted(options, field, order), skip, limit),
    )
    .await
}

/// Book a visit of an existing patient with an existing doctor.
#[post(
    "/visits",
    status = 201,
    tags("visits"),
    responses(503 = "The database is unavailable")
)]
pub async fn create_visit(
    clinic: State<Clinic>,
    visit: VisitIn,
) -> Result<(StatusCode, [(HeaderName, HeaderValue); 1], Json<Visit>), Response> {
    let _serialized = clinic.references.lock().await;
    check_references(&clinic.store, &visit).await?;
    create(&clinic.store, VISITS, &visit).await
}

/// A visit by id.
#[get(
    "/visits/{visit_id}",
    tags("visits"),
    responses(404 = "Visit not found", 503 = "The database is unavailable")
)]
pub async fn read_visit(clinic: State<Clinic>, visit_id: String) -> Result<Json<Visit>, Response> {
    read(&clinic.store, VISITS, &visit_id, VISIT_NOT_FOUND).await
}

/// Replace a visit (its doctor and patient must exist).
#[put(
    "/visits/{visit_id}",
    tags("visits"),
    responses(404 = "Visit not found", 503 = "The database is unavailable")
)]
pub async fn replace_visit(
    clinic: State<Clinic>,
    visit_id: String,
    visit: VisitIn,
) -> Result<Json<Visit>, Response> {
    let _serialized = clinic.references.lock().await;
    // An unknown visit is 404 before its references are looked at.
    if clinic
        .store
        .get(VISITS, &visit_id)
        .await
        .map_err(|err| failure(&err))?
        .is_none()
    {
        return Err(HttpError::not_found(VISIT_NOT_FOUND).into_response());
    }
    check_references(&clinic.store, &visit).await?;
    replace(&clinic.store, VISITS, &visit_id, &visit, VISIT_NOT_FOUND).await
}

/// Cancel a visit.
#[delete(
    "/visits/{visit_id}",
    status = 204,
    tags("visits"),
    responses(404 = "Visit not found", 503 = "The database is unavailable")
)]
pub async fn delete_visit(clinic: State<Clinic>, visit_id: String) -> Result<StatusCode, Response> {
    delete(&clinic.store, VISITS, &visit_id, VISIT_NOT_FOUND).await
}

/// 422 with one `not_found` error per id of `visit` that names no stored doctor or patient.
async fn check_references(store: &Store, visit: &VisitIn) -> Result<(), Response> {
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
async fn refuse_if_referenced(store: &Store, field: &str, id: &str, who: &str) -> Result<(), Response> {
    match store.find_one(VISITS, field, &Value::from(id)).await {
        Ok(None) => Ok(()),
        Ok(Some(_)) => Err(
            HttpError::new(409, format!("{who} has visits; delete or reassign them first")).into_response(),
        ),
        Err(err) => Err(failure(&err)),
    }
}

/// The clinic's routes: doctors, patients, visits.
pub fn routes() -> Vec<RouteDef> {
    ferrapi::routes![
        list_doctors,
        create_doctor,
        read_doctor,
        replace_doctor,
        delete_doctor,
        list_patients,
        create_patient,
        read_patient,
        replace_patient,
        delete_patient,
        list_visits,
        create_visit,
        read_visit,
        replace_visit,
        delete_visit,
    ]
}
