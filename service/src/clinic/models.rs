//! The clinic's models: what a client sends (`DoctorIn`, `PatientIn`, `VisitIn`, each validated
//! like a pydantic model) and what it gets back (the same fields with the `id` first).
//!
//! Rules enforced here: every text a write keeps has a length range or a pattern, documented in
//! the OpenAPI document (names 1–100 characters, an e-mail at most 254, a phone at most 32, a
//! visit's reason 1–500, notes at most 2,000; a doctor's or patient's id is [`ID_PATTERN`], 24
//! lowercase hex digits, as both stores assign them), so what a write stores, echoes and keeps
//! for an idempotency key is a few KiB at most, whatever the body (issue 41: a 900 KB
//! `doctor_id` was stored, echoed in a 422 and kept for a day); a specialty is one of
//! [`Specialty`]; a date of birth is a real `YYYY-MM-DD` day not in the future; a visit starts at
//! an RFC 3339 instant with an offset and lasts 5 to 480 minutes (30 when not given). Unknown
//! fields in a body are ignored, as pydantic does (the framework's memory budget charges them
//! while the body is read; nothing of them is copied). Stored documents are re-validated with the
//! output model when read, so a document that does not fit is an error in the log, never a
//! malformed answer.

use ferrapi::prelude::*;
use serde::Serialize;

use super::dates::{BirthDate, Instant};

/// A doctor's or patient's id as a visit names it (and as a list filters by it): 24 lowercase
/// hexadecimal digits, the ids both stores assign (`ObjectId::to_hex`). `#[pattern]` takes a
/// literal: the attributes below repeat it, and a test checks they agree.
pub const ID_PATTERN: &str = r"^[0-9a-f]{24}$";

/// A doctor's medical specialty.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Specialty {
    /// General practice (family medicine).
    #[value("general_practice")]
    GeneralPractice,
    /// Cardiology.
    #[value("cardiology")]
    Cardiology,
    /// Dermatology.
    #[value("dermatology")]
    Dermatology,
    /// Neurology.
    #[value("neurology")]
    Neurology,
    /// Oncology.
    #[value("oncology")]
    Oncology,
    /// Orthopedics.
    #[value("orthopedics")]
    Orthopedics,
    /// Pediatrics.
    #[value("pediatrics")]
    Pediatrics,
    /// Psychiatry.
    #[value("psychiatry")]
    Psychiatry,
    /// Radiology.
    #[value("radiology")]
    Radiology,
    /// Surgery.
    #[value("surgery")]
    Surgery,
}

/// A sort direction.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    /// Smallest first.
    #[value("asc")]
    Asc,
    /// Largest first.
    #[value("desc")]
    Desc,
}

/// The fields doctors can be sorted by.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoctorSort {
    /// By name.
    #[value("name")]
    Name,
    /// By specialty.
    #[value("specialty")]
    Specialty,
}

/// The fields patients can be sorted by.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatientSort {
    /// By name.
    #[value("name")]
    Name,
    /// By date of birth.
    #[value("date_of_birth")]
    DateOfBirth,
}

/// The fields visits can be sorted by.
#[derive(StrEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum VisitSort {
    /// By start time.
    #[value("start_time")]
    StartTime,
    /// By duration.
    #[value("duration_minutes")]
    DurationMinutes,
}

/// A doctor as a client creates or replaces one.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct DoctorIn {
    /// Full name.
    #[min_length(1)]
    #[max_length(100)]
    pub name: String,
    /// Medical specialty.
    pub specialty: Specialty,
    /// Contact e-mail address.
    #[max_length(254)]
    pub email: Option<String>,
}

/// A stored doctor.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Doctor {
    /// The doctor's id (24 hexadecimal digits).
    pub id: String,
    /// Full name.
    pub name: String,
    /// Medical specialty.
    pub specialty: Specialty,
    /// Contact e-mail address.
    pub email: Option<String>,
}

/// A patient as a client creates or replaces one.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct PatientIn {
    /// Full name.
    #[min_length(1)]
    #[max_length(100)]
    pub name: String,
    /// Date of birth, `YYYY-MM-DD`, not in the future.
    pub date_of_birth: BirthDate,
    /// Contact phone number.
    #[max_length(32)]
    pub phone: Option<String>,
}

/// A stored patient.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Patient {
    /// The patient's id (24 hexadecimal digits).
    pub id: String,
    /// Full name.
    pub name: String,
    /// Date of birth, `YYYY-MM-DD`.
    pub date_of_birth: BirthDate,
    /// Contact phone number.
    pub phone: Option<String>,
}

/// A visit as a client books or replaces one.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct VisitIn {
    /// The id of an existing doctor (24 lowercase hexadecimal digits).
    #[pattern(r"^[0-9a-f]{24}$")]
    pub doctor_id: String,
    /// The id of an existing patient (24 lowercase hexadecimal digits).
    #[pattern(r"^[0-9a-f]{24}$")]
    pub patient_id: String,
    /// When the visit starts: RFC 3339 with an offset (`2024-05-01T09:30:00+02:00`); answered in
    /// UTC, to the second.
    pub start_time: Instant,
    /// How long the visit lasts, in minutes.
    #[default(30)]
    #[ge(5)]
    #[le(480)]
    pub duration_minutes: u16,
    /// Why the patient comes.
    #[min_length(1)]
    #[max_length(500)]
    pub reason: String,
    /// The doctor's notes.
    #[max_length(2000)]
    pub notes: Option<String>,
}

/// A stored visit.
#[derive(Model, Serialize, Debug, Clone, PartialEq)]
pub struct Visit {
    /// The visit's id (24 hexadecimal digits).
    pub id: String,
    /// The doctor's id.
    pub doctor_id: String,
    /// The patient's id.
    pub patient_id: String,
    /// When the visit starts, in UTC.
    pub start_time: Instant,
    /// How long the visit lasts, in minutes.
    pub duration_minutes: u16,
    /// Why the patient comes.
    pub reason: String,
    /// The doctor's notes.
    pub notes: Option<String>,
}
