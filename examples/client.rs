//! The Resource API called through its generated client: what a program that uses an API writes.
//! (The client, `resource-api-client`, is generated from the service's OpenAPI document by
//! `ferrapi-client generate openapi.json -o src/generated.rs`; the manual's "Clients" chapter
//! says how to make one for any ferrapi or FastAPI service.)
//!
//! Shows: a read and a write on one line each (`.await?.into_ok()?`); an answer of another
//! status matched as a variant, not caught (`NotFound`, `UnprocessableEntity` with pydantic's
//! items typed); a doctor updated only if nobody changed it since it was read (its `ETag` carried
//! into `If-Match`: a lost update is a `PreconditionFailed` to read again and retry, never a
//! silent overwrite); a visit booked with an `Idempotency-Key` (the client sends a fresh one per
//! call and retries it after a lost answer, so a crash never books twice; the same key sent again
//! gets the first answer back); a request id sent and returned, one the client makes, and an
//! answer's body as received.
//!
//! Run the service, then this program, from the workspace root:
//!
//! ```text
//! cargo run -p resource-api &
//! cargo run -p ferrapi-examples --example client            # or: -- http://HOST:PORT
//! ```
//!
//! It prints one line per step (the service's test `client::example` runs it and checks them).

use std::process::ExitCode;

use resource_api_client::ferrapi_client::{chrono::NaiveDate, DateTime, Error, ErrorKind, Nullable};
use resource_api_client::operations::{ReadEmployeeResponse, ReadPersonsResponse, ReplaceDoctorResponse};
use resource_api_client::types::{DoctorIn, Item, PatientIn, Specialty, VisitIn};
use resource_api_client::{Call as _, Client};

/// Each step, said as a line.
pub async fn tour(api: &Client) -> Result<Vec<String>, Error> {
    let mut said = Vec::new();

    // A read, in one line: the value of the documented success, or an error for anything else.
    let item = api.read_item(42).await?.into_ok()?;
    said.push(format!("item {}", item.id));

    // A write: optional fields are `Option`s, left out when `None`.
    let item = Item {
        name: "Foo".into(),
        description: Nullable::Absent,
        price: 35.4,
        tax: Nullable::Value(3.2),
    };
    let created = api.create_item(&item).await?.into_ok()?;
    said.push(format!(
        "created {} at {:.1} with tax",
        created.name,
        created.price_with_tax.into_option().unwrap_or(created.price)
    ));

    // Every documented status is a variant: a 404 is matched, not caught.
    match api.read_employee(99).await?.into_body() {
        ReadEmployeeResponse::Ok(employee) => said.push(format!("employee {}", employee.name)),
        ReadEmployeeResponse::NotFound(error) => {
            said.push(format!("404: {}", error.message().unwrap_or_default()))
        }
        other => said.push(format!("unexpected: {other:?}")),
    }

    // A 422 carries pydantic's items, typed.
    if let ReadPersonsResponse::UnprocessableEntity(error) = api.read_persons().skip(-1).await?.into_body() {
        for item in error.detail.unwrap_or_default() {
            said.push(format!("422: {} ({})", item.msg, item.type_));
        }
    }

    // A lost update refused: read the doctor with its version (ETag), change it, and write it
    // only if it is still that version; if someone else wrote in between, read again and redo.
    let doctor = api
        .create_doctor(&DoctorIn {
            name: "Gregory House".into(),
            specialty: Specialty::Neurology,
            email: Nullable::Absent,
        })
        .await?
        .into_ok()?;
    let someone_else = DoctorIn {
        name: "Dr. House".into(),
        specialty: Specialty::Neurology,
        email: Nullable::Absent,
    };
    let mut interfere = true;
    loop {
        let read = api.read_doctor(&doctor.id).await?;
        let Some(etag) = read.etag() else {
            said.push("no ETag".into());
            break;
        };
        let mut changed: DoctorIn = {
            let current = read.into_ok()?;
            DoctorIn {
                name: current.name,
                specialty: current.specialty,
                email: current.email,
            }
        };
        changed.email = Nullable::Value("house@example.org".into());
        if interfere {
            // Someone else writes between our read and our write (once, for the example).
            api.replace_doctor(&doctor.id, &someone_else).await?.into_ok()?;
            interfere = false;
        }
        match api
            .replace_doctor(&doctor.id, &changed)
            .if_match(&etag)
            .await?
            .into_body()
        {
            ReplaceDoctorResponse::Ok(updated) => {
                said.push(format!(
                    "updated {} <{}>",
                    updated.name,
                    updated.email.into_option().unwrap_or_default()
                ));
                break;
            }
            ReplaceDoctorResponse::PreconditionFailed(_) => {
                said.push("412: changed since read; reading again".into())
            }
            other => {
                said.push(format!("unexpected: {other:?}"));
                break;
            }
        }
    }

    // A booking with an Idempotency-Key: the client makes one per call and retries with it after
    // a lost answer; here the key is ours, and sending it again gets the first answer back.
    let patient = api
        .create_patient(&PatientIn {
            name: "Bob".into(),
            date_of_birth: NaiveDate::from_ymd_opt(1990, 1, 31).unwrap_or_default(),
            phone: Nullable::Absent,
        })
        .await?
        .into_ok()?;
    let start_time: DateTime = "2030-05-01T09:30:00+02:00"
        .parse()
        .map_err(|error| ErrorKind::InvalidRequest(format!("{error}")))?;
    let booking = VisitIn {
        doctor_id: doctor.id.clone(),
        patient_id: patient.id,
        start_time,
        duration_minutes: None,
        reason: "check-up".into(),
        notes: Nullable::Absent,
    };
    let key = format!("booking-{}", doctor.id);
    let first = api.create_visit(&booking).idempotency_key(&key).await?;
    let replayed = api.create_visit(&booking).idempotency_key(&key).await?;
    let (first_replayed, again_replayed) = (first.replayed(), replayed.replayed());
    let (first, again) = (first.into_ok()?, replayed.into_ok()?);
    said.push(format!(
        "booked {} at {} (replayed: {first_replayed}); again: {} (replayed: {again_replayed})",
        if first.id == again.id {
            "one visit"
        } else {
            "two visits"
        },
        first.start_time,
        if first.id == again.id {
            "the same visit"
        } else {
            "another visit"
        },
    ));

    // A request id of ours, returned by the service (and on its log lines).
    let answer = api.root().with_request_id("example-1").await?;
    said.push(format!("request id {}", answer.request_id().unwrap_or("none")));

    // Without one, the client makes an id per call (32 hex digits; every error of the call
    // names it), and an answer keeps its body's bytes as sent.
    let answer = api.root().await?;
    let made = answer
        .request_id()
        .is_some_and(|id| id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()));
    let raw = answer
        .raw_body()
        .map(|body| String::from_utf8_lossy(body).into_owned());
    said.push(format!(
        "request id made by the client: {made}; raw body {}",
        raw.as_deref().unwrap_or("none")
    ));
    Ok(said)
}

#[tokio::main]
async fn main() -> ExitCode {
    let base_url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:8000".to_owned());
    let api = match Client::new(&base_url) {
        Ok(api) => api,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    match tour(&api).await {
        Ok(said) => {
            for line in said {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("{base_url}: {error}");
            ExitCode::FAILURE
        }
    }
}
