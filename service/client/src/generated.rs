//! A client of Resource API 0.1.0, generated from its OpenAPI document by ferrapi-client-gen 0.1.0: do not edit it. Regenerate it with `UPDATE_SNAPSHOTS=1 cargo test -p resource-api --test service client::snapshot`.
//!
//! Group A: typed parameters with FastAPI-compatible validation errors. Doctors, patients and visits of a clinic, kept in the service's store. Group B: JSON, text and HTML routes, and birds kept in the same store.
//!
//! [`Client`] has a method per operation; each returns a request, sent by `.await`, whose answer is an [`Answer`] holding the operation's enum of answers ([`operations`]); the document's schemas are in [`types`].
#![allow(
    clippy::large_enum_variant,
    clippy::enum_variant_names,
    clippy::too_many_arguments,
    clippy::upper_case_acronyms,
    clippy::doc_lazy_continuation
)]

/// The client runtime, and the features of it this client needs.
mod rt {
    pub use ::ferrapi_client::*;
    ::ferrapi_client::require_features!(chrono);
}

/// The client runtime this code is written for (and the value crates it re-exports).
#[allow(unused_imports)]
pub use ::ferrapi_client;

#[allow(unused_imports)]
pub use rt::{Answer, Call, Error, ErrorKind};

/// A client of Resource API: a method per operation of its document.
#[derive(Clone, Debug)]
#[allow(dead_code)]
pub struct Client {
    client: rt::Client,
}

#[allow(dead_code)]
impl Client {
    /// A client of the API at `base_url` (`http://127.0.0.1:8000`), with the runtime's defaults.
    pub fn new(base_url: &str) -> Result<Self, Error> {
        Ok(Client {
            client: rt::Client::new(base_url)?,
        })
    }

    /// The API through `client` (its own transport, timeout, retries, default headers).
    pub fn from_client(client: rt::Client) -> Self {
        Client { client }
    }

    /// The runtime's client.
    pub fn client(&self) -> &rt::Client {
        &self.client
    }

    /// Greets.
    ///
    /// `GET /`; answers [`operations::RootResponse`].
    pub fn root(&self) -> operations::RootRequest<'_> {
        operations::RootRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// Read an item by integer id (the simple form, served).
    ///
    /// `GET /item/{id}`; answers [`operations::ReadItemResponse`].
    pub fn read_item(&self, id: i64) -> operations::ReadItemRequest<'_> {
        operations::ReadItemRequest {
            client: &self.client,
            id,
            options: rt::CallOptions::default(),
        }
    }

    /// The current user.
    ///
    /// `GET /user/me`; answers [`operations::ReadUserMeResponse`].
    pub fn read_user_me(&self) -> operations::ReadUserMeRequest<'_> {
        operations::ReadUserMeRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// A user by id.
    ///
    /// `GET /user/{id}`; answers [`operations::ReadUserResponse`].
    pub fn read_user<'a>(&'a self, id: &'a str) -> operations::ReadUserRequest<'a> {
        operations::ReadUserRequest {
            client: &self.client,
            id,
            options: rt::CallOptions::default(),
        }
    }

    /// One item of a user.
    ///
    /// `GET /user/{user_id}/item/{item_id}`; answers [`operations::ReadUserItemResponse`].
    pub fn read_user_item<'a>(
        &'a self,
        user_id: i64,
        item_id: &'a str,
    ) -> operations::ReadUserItemRequest<'a> {
        operations::ReadUserItemRequest {
            client: &self.client,
            user_id,
            item_id,
            q: None,
            short: None,
            options: rt::CallOptions::default(),
        }
    }

    /// A price for `symbol`: the ask when buying, the bid when selling.
    ///
    /// `GET /stock/{symbol}/{type}`; answers [`operations::ReadStockResponse`].
    pub fn read_stock<'a>(
        &'a self,
        symbol: &'a str,
        type_: types::OrderType,
    ) -> operations::ReadStockRequest<'a> {
        operations::ReadStockRequest {
            client: &self.client,
            symbol,
            type_,
            options: rt::CallOptions::default(),
        }
    }

    /// A page of persons: indexes `skip` up to (not including) `skip + limit`.
    ///
    /// `GET /person`; answers [`operations::ReadPersonsResponse`].
    pub fn read_persons(&self) -> operations::ReadPersonsRequest<'_> {
        operations::ReadPersonsRequest {
            client: &self.client,
            skip: None,
            limit: None,
            options: rt::CallOptions::default(),
        }
    }

    /// The submitted item, with `price_with_tax` when a tax is given.
    ///
    /// `POST /item`; answers [`operations::CreateItemResponse`].
    pub fn create_item<'a>(
        &'a self,
        body: &'a types::Item,
    ) -> operations::CreateItemRequest<'a> {
        operations::CreateItemRequest {
            client: &self.client,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// Replace an item: echoes the id, the item's fields, and `q` when given.
    ///
    /// `PUT /item/{item_id}`; answers [`operations::UpdateItemResponse`].
    pub fn update_item<'a>(
        &'a self,
        item_id: i64,
        body: &'a types::Item,
    ) -> operations::UpdateItemRequest<'a> {
        operations::UpdateItemRequest {
            client: &self.client,
            item_id,
            q: None,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// An employee by id; 404 `{"detail": "Employee not found"}` for an unknown id.
    ///
    /// `GET /employee/{id}`; answers [`operations::ReadEmployeeResponse`].
    pub fn read_employee(&self, id: i64) -> operations::ReadEmployeeRequest<'_> {
        operations::ReadEmployeeRequest {
            client: &self.client,
            id,
            options: rt::CallOptions::default(),
        }
    }

    /// List doctors, optionally of one specialty or name, sorted and paged.
    ///
    /// `GET /doctors`; answers [`operations::ListDoctorsResponse`].
    pub fn list_doctors(&self) -> operations::ListDoctorsRequest<'_> {
        operations::ListDoctorsRequest {
            client: &self.client,
            specialty: None,
            name: None,
            sort: None,
            order: None,
            skip: None,
            limit: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Add a doctor.
    ///
    /// `POST /doctors`; answers [`operations::CreateDoctorResponse`].
    pub fn create_doctor<'a>(
        &'a self,
        body: &'a types::DoctorIn,
    ) -> operations::CreateDoctorRequest<'a> {
        operations::CreateDoctorRequest {
            client: &self.client,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// A doctor by id.
    ///
    /// `GET /doctors/{doctor_id}`; answers [`operations::ReadDoctorResponse`].
    pub fn read_doctor<'a>(
        &'a self,
        doctor_id: &'a str,
    ) -> operations::ReadDoctorRequest<'a> {
        operations::ReadDoctorRequest {
            client: &self.client,
            doctor_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Replace a doctor.
    ///
    /// `PUT /doctors/{doctor_id}`; answers [`operations::ReplaceDoctorResponse`].
    pub fn replace_doctor<'a>(
        &'a self,
        doctor_id: &'a str,
        body: &'a types::DoctorIn,
    ) -> operations::ReplaceDoctorRequest<'a> {
        operations::ReplaceDoctorRequest {
            client: &self.client,
            doctor_id,
            if_match: None,
            if_none_match: None,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// Delete a doctor who has no visits.
    ///
    /// `DELETE /doctors/{doctor_id}`; answers [`operations::DeleteDoctorResponse`].
    pub fn delete_doctor<'a>(
        &'a self,
        doctor_id: &'a str,
    ) -> operations::DeleteDoctorRequest<'a> {
        operations::DeleteDoctorRequest {
            client: &self.client,
            doctor_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// List patients, optionally by name or date of birth, sorted and paged.
    ///
    /// `GET /patients`; answers [`operations::ListPatientsResponse`].
    pub fn list_patients(&self) -> operations::ListPatientsRequest<'_> {
        operations::ListPatientsRequest {
            client: &self.client,
            name: None,
            date_of_birth: None,
            sort: None,
            order: None,
            skip: None,
            limit: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Register a patient.
    ///
    /// `POST /patients`; answers [`operations::CreatePatientResponse`].
    pub fn create_patient<'a>(
        &'a self,
        body: &'a types::PatientIn,
    ) -> operations::CreatePatientRequest<'a> {
        operations::CreatePatientRequest {
            client: &self.client,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// A patient by id.
    ///
    /// `GET /patients/{patient_id}`; answers [`operations::ReadPatientResponse`].
    pub fn read_patient<'a>(
        &'a self,
        patient_id: &'a str,
    ) -> operations::ReadPatientRequest<'a> {
        operations::ReadPatientRequest {
            client: &self.client,
            patient_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Replace a patient.
    ///
    /// `PUT /patients/{patient_id}`; answers [`operations::ReplacePatientResponse`].
    pub fn replace_patient<'a>(
        &'a self,
        patient_id: &'a str,
        body: &'a types::PatientIn,
    ) -> operations::ReplacePatientRequest<'a> {
        operations::ReplacePatientRequest {
            client: &self.client,
            patient_id,
            if_match: None,
            if_none_match: None,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// Delete a patient who has no visits.
    ///
    /// `DELETE /patients/{patient_id}`; answers [`operations::DeletePatientResponse`].
    pub fn delete_patient<'a>(
        &'a self,
        patient_id: &'a str,
    ) -> operations::DeletePatientRequest<'a> {
        operations::DeletePatientRequest {
            client: &self.client,
            patient_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// List visits, optionally of one doctor or patient, sorted and paged.
    ///
    /// `GET /visits`; answers [`operations::ListVisitsResponse`].
    pub fn list_visits(&self) -> operations::ListVisitsRequest<'_> {
        operations::ListVisitsRequest {
            client: &self.client,
            doctor_id: None,
            patient_id: None,
            sort: None,
            order: None,
            skip: None,
            limit: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Book a visit of an existing patient with an existing doctor. A retry with the same `Idempotency-Key` gets the first answer instead of a second booking, whichever process it reaches.
    ///
    /// `POST /visits`: sent with an `Idempotency-Key` (a fresh one per call), so the retries after a lost answer are safe; answers [`operations::CreateVisitResponse`].
    pub fn create_visit<'a>(
        &'a self,
        body: &'a types::VisitIn,
    ) -> operations::CreateVisitRequest<'a> {
        operations::CreateVisitRequest {
            client: &self.client,
            idempotency_key: None,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// A visit by id.
    ///
    /// `GET /visits/{visit_id}`; answers [`operations::ReadVisitResponse`].
    pub fn read_visit<'a>(
        &'a self,
        visit_id: &'a str,
    ) -> operations::ReadVisitRequest<'a> {
        operations::ReadVisitRequest {
            client: &self.client,
            visit_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Replace a visit (its doctor and patient must exist).
    ///
    /// `PUT /visits/{visit_id}`; answers [`operations::ReplaceVisitResponse`].
    pub fn replace_visit<'a>(
        &'a self,
        visit_id: &'a str,
        body: &'a types::VisitIn,
    ) -> operations::ReplaceVisitRequest<'a> {
        operations::ReplaceVisitRequest {
            client: &self.client,
            visit_id,
            if_match: None,
            if_none_match: None,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// Cancel a visit.
    ///
    /// `DELETE /visits/{visit_id}`; answers [`operations::DeleteVisitResponse`].
    pub fn delete_visit<'a>(
        &'a self,
        visit_id: &'a str,
    ) -> operations::DeleteVisitRequest<'a> {
        operations::DeleteVisitRequest {
            client: &self.client,
            visit_id,
            if_match: None,
            if_none_match: None,
            options: rt::CallOptions::default(),
        }
    }

    /// A greeting.
    ///
    /// `GET /api/hello`; answers [`operations::HelloResponse`].
    pub fn hello(&self) -> operations::HelloRequest<'_> {
        operations::HelloRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// A student, as JSON.
    ///
    /// `GET /student/{username}`; answers [`operations::ReadStudentResponse`].
    pub fn read_student<'a>(
        &'a self,
        username: &'a str,
    ) -> operations::ReadStudentRequest<'a> {
        operations::ReadStudentRequest {
            client: &self.client,
            username,
            options: rt::CallOptions::default(),
        }
    }

    /// A static HTML page with a heading.
    ///
    /// `GET /page`; answers [`operations::PageResponse`].
    pub fn page(&self) -> operations::PageRequest<'_> {
        operations::PageRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// Which page of a post the client wants, as text; sets `X-Message`. Without `page`, page \[`DEFAULT_PAGE`\] is meant.
    ///
    /// `GET /post/{id}`; answers [`operations::ReadPostResponse`].
    pub fn read_post<'a>(&'a self, id: &'a str) -> operations::ReadPostRequest<'a> {
        operations::ReadPostRequest {
            client: &self.client,
            id,
            page: None,
            options: rt::CallOptions::default(),
        }
    }

    /// Delete a post, as text.
    ///
    /// `DELETE /post/{id}`; answers [`operations::DeletePostResponse`].
    pub fn delete_post<'a>(&'a self, id: &'a str) -> operations::DeletePostRequest<'a> {
        operations::DeletePostRequest {
            client: &self.client,
            id,
            options: rt::CallOptions::default(),
        }
    }

    /// Create a post: 201 with a text body.
    ///
    /// `POST /post/`; answers [`operations::CreatePostResponse`].
    pub fn create_post(&self) -> operations::CreatePostRequest<'_> {
        operations::CreatePostRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// The database connection string in effect (the spec requires this route; it discloses any credential the string carries).
    ///
    /// `GET /api/env`; answers [`operations::ReadEnvResponse`].
    pub fn read_env(&self) -> operations::ReadEnvRequest<'_> {
        operations::ReadEnvRequest {
            client: &self.client,
            options: rt::CallOptions::default(),
        }
    }

    /// Store any JSON object as a bird; answers its new id.
    ///
    /// Every number is kept as the text sent, and read back so. A number no store can keep exactly
    /// (more than 34 significant digits, or a magnitude outside 1E-6176 to 1E+6145) is a 422 naming
    /// it, and nothing is stored.
    ///
    /// `POST /api/bird/`; answers [`operations::CreateBirdResponse`].
    pub fn create_bird<'a>(
        &'a self,
        body: &'a rt::JsonObject,
    ) -> operations::CreateBirdRequest<'a> {
        operations::CreateBirdRequest {
            client: &self.client,
            body,
            options: rt::CallOptions::default(),
        }
    }

    /// The first stored bird with this name; 404 `Not Found` (text) when there is none.
    ///
    /// Its numbers are the texts they were sent as.
    ///
    /// `GET /api/bird/{name}`; answers [`operations::ReadBirdResponse`].
    pub fn read_bird<'a>(&'a self, name: &'a str) -> operations::ReadBirdRequest<'a> {
        operations::ReadBirdRequest {
            client: &self.client,
            name,
            options: rt::CallOptions::default(),
        }
    }
}

/// The document's schemas.
#[allow(dead_code)]
pub mod types {
    use super::rt;

    /// The current user.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct CurrentUser {
        /// Who the current user is.
        pub user_id: String,
    }

    /// A stored doctor.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Doctor {
        /// The doctor's id (24 hexadecimal digits).
        pub id: String,
        /// Full name.
        pub name: String,
        /// Medical specialty.
        pub specialty: Specialty,
        /// Contact e-mail address.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub email: rt::Nullable<String>,
    }

    /// A doctor as a client creates or replaces one.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct DoctorIn {
        /// Full name.
        pub name: String,
        /// Medical specialty.
        pub specialty: Specialty,
        /// Contact e-mail address.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub email: rt::Nullable<String>,
    }

    /// The fields doctors can be sorted by.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum DoctorSort {
        ///`name`.
        #[serde(rename = "name")]
        Name,
        ///`specialty`.
        #[serde(rename = "specialty")]
        Specialty,
    }

    impl DoctorSort {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::Name => "name",
                Self::Specialty => "specialty",
            }
        }
    }

    impl ::std::fmt::Display for DoctorSort {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for DoctorSort {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }

    /// An employee.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Employee {
        /// The employee's name.
        pub name: String,
        /// The employee's job.
        pub job: String,
    }

    /// The schema `HTTPValidationError`.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct HTTPValidationError {
        /// `detail`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub detail: Option<Vec<ValidationError>>,
    }

    /// An item, the body of `POST /item` and `PUT /item/{item_id}`.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Item {
        /// The item's name.
        pub name: String,
        /// An optional description.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub description: rt::Nullable<String>,
        /// The price.
        pub price: f64,
        /// An optional tax, added to the price in `price_with_tax`.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub tax: rt::Nullable<f64>,
    }

    /// An item id, as an integer.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct ItemId {
        /// The id from the path.
        pub id: i64,
    }

    /// A submitted item, with the price including tax when a tax is given.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct ItemWithTax {
        /// The item's name.
        pub name: String,
        /// An optional description.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub description: rt::Nullable<String>,
        /// The price.
        pub price: f64,
        /// An optional tax.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub tax: rt::Nullable<f64>,
        /// `price + tax`, present only when a tax is given.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub price_with_tax: rt::Nullable<f64>,
    }

    /// A greeting.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Message {
        /// The greeting.
        pub message: String,
    }

    /// The side of a stock quote.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum OrderType {
        ///`buy`.
        #[serde(rename = "buy")]
        Buy,
        ///`sell`.
        #[serde(rename = "sell")]
        Sell,
    }

    impl OrderType {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::Buy => "buy",
                Self::Sell => "sell",
            }
        }
    }

    impl ::std::fmt::Display for OrderType {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for OrderType {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }

    /// A stored patient.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Patient {
        /// The patient's id (24 hexadecimal digits).
        pub id: String,
        /// Full name.
        pub name: String,
        /// Date of birth, `YYYY-MM-DD`.
        pub date_of_birth: rt::chrono::NaiveDate,
        /// Contact phone number.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub phone: rt::Nullable<String>,
    }

    /// A patient as a client creates or replaces one.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct PatientIn {
        /// Full name.
        pub name: String,
        /// Date of birth, `YYYY-MM-DD`, not in the future.
        pub date_of_birth: rt::chrono::NaiveDate,
        /// Contact phone number.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub phone: rt::Nullable<String>,
    }

    /// The fields patients can be sorted by.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum PatientSort {
        ///`name`.
        #[serde(rename = "name")]
        Name,
        ///`date_of_birth`.
        #[serde(rename = "date_of_birth")]
        DateOfBirth,
    }

    impl PatientSort {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::Name => "name",
                Self::DateOfBirth => "date_of_birth",
            }
        }
    }

    impl ::std::fmt::Display for PatientSort {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for PatientSort {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }

    /// A person of the fixed list.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Person {
        /// The person's name.
        pub name: String,
    }

    /// A price quote for one instrument.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Quote {
        /// The instrument.
        pub symbol: String,
        /// The ask when buying, the bid when selling.
        pub price: f64,
        /// The side quoted.
        #[serde(rename = "type")]
        pub type_: OrderType,
    }

    /// A sort direction.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum SortOrder {
        ///`asc`.
        #[serde(rename = "asc")]
        Asc,
        ///`desc`.
        #[serde(rename = "desc")]
        Desc,
    }

    impl SortOrder {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::Asc => "asc",
                Self::Desc => "desc",
            }
        }
    }

    impl ::std::fmt::Display for SortOrder {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for SortOrder {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }

    /// A doctor's medical specialty.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum Specialty {
        ///`general_practice`.
        #[serde(rename = "general_practice")]
        GeneralPractice,
        ///`cardiology`.
        #[serde(rename = "cardiology")]
        Cardiology,
        ///`dermatology`.
        #[serde(rename = "dermatology")]
        Dermatology,
        ///`neurology`.
        #[serde(rename = "neurology")]
        Neurology,
        ///`oncology`.
        #[serde(rename = "oncology")]
        Oncology,
        ///`orthopedics`.
        #[serde(rename = "orthopedics")]
        Orthopedics,
        ///`pediatrics`.
        #[serde(rename = "pediatrics")]
        Pediatrics,
        ///`psychiatry`.
        #[serde(rename = "psychiatry")]
        Psychiatry,
        ///`radiology`.
        #[serde(rename = "radiology")]
        Radiology,
        ///`surgery`.
        #[serde(rename = "surgery")]
        Surgery,
    }

    impl Specialty {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::GeneralPractice => "general_practice",
                Self::Cardiology => "cardiology",
                Self::Dermatology => "dermatology",
                Self::Neurology => "neurology",
                Self::Oncology => "oncology",
                Self::Orthopedics => "orthopedics",
                Self::Pediatrics => "pediatrics",
                Self::Psychiatry => "psychiatry",
                Self::Radiology => "radiology",
                Self::Surgery => "surgery",
            }
        }
    }

    impl ::std::fmt::Display for Specialty {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for Specialty {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }

    /// A replaced item.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct UpdatedItem {
        /// The item id from the path.
        pub item_id: i64,
        /// The item's name.
        pub name: String,
        /// An optional description.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub description: rt::Nullable<String>,
        /// The price.
        pub price: f64,
        /// An optional tax.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub tax: rt::Nullable<f64>,
        /// The query `q`, when given and not empty.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub q: rt::Nullable<String>,
    }

    /// A user id, as a string.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct UserId {
        /// The id from the path.
        pub id: String,
    }

    /// One item of a user.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct UserItem {
        /// The item id from the path.
        pub item_id: String,
        /// The user id from the path.
        pub owner_id: i64,
        /// The query `q`, when given and not empty.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub q: rt::Nullable<String>,
        /// A long description, unless `short` is true.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub description: rt::Nullable<String>,
    }

    /// The schema `ValidationError`.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct ValidationError {
        /// `loc`.
        pub loc: Vec<ValidationErrorLocItem>,
        /// `msg`.
        pub msg: String,
        /// `type`.
        #[serde(rename = "type")]
        pub type_: String,
        /// `input`.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub input: rt::Nullable<rt::Json>,
        /// `ctx`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub ctx: Option<rt::JsonObject>,
    }

    /// A schema at `#/components/schemas/ValidationError/properties/loc/items`.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    #[serde(untagged)]
    pub enum ValidationErrorLocItem {
        ///A `String`.
        String(String),
        ///A `Integer`.
        Integer(i64),
    }

    impl rt::ToParam for ValidationErrorLocItem {
        fn write_param(&self, out: &mut String) {
            match self {
                Self::String(value) => value.write_param(out),
                Self::Integer(value) => value.write_param(out),
            }
        }
    }

    /// A stored visit.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct Visit {
        /// The visit's id (24 hexadecimal digits).
        pub id: String,
        /// The doctor's id.
        pub doctor_id: String,
        /// The patient's id.
        pub patient_id: String,
        /// When the visit starts, in UTC.
        pub start_time: rt::DateTime,
        /// How long the visit lasts, in minutes.
        pub duration_minutes: u16,
        /// Why the patient comes.
        pub reason: String,
        /// The doctor's notes.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub notes: rt::Nullable<String>,
    }

    /// A visit as a client books or replaces one.
    #[derive(Clone, Debug, PartialEq, rt::serde::Serialize, rt::serde::Deserialize)]
    #[serde(crate = "rt::serde")]
    pub struct VisitIn {
        /// The id of an existing doctor (24 lowercase hexadecimal digits).
        pub doctor_id: String,
        /// The id of an existing patient (24 lowercase hexadecimal digits).
        pub patient_id: String,
        /// When the visit starts: RFC 3339 with an offset (`2024-05-01T09:30:00+02:00`); answered in
        /// UTC, to the second.
        pub start_time: rt::DateTime,
        /// How long the visit lasts, in minutes.
        ///
        /// Default: `30`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub duration_minutes: Option<u16>,
        /// Why the patient comes.
        pub reason: String,
        /// The doctor's notes.
        #[serde(default, skip_serializing_if = "rt::Nullable::is_absent")]
        pub notes: rt::Nullable<String>,
    }

    /// The fields visits can be sorted by.
    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Hash,
        PartialOrd,
        Ord,
        rt::serde::Serialize,
        rt::serde::Deserialize
    )]
    #[serde(crate = "rt::serde")]
    pub enum VisitSort {
        ///`start_time`.
        #[serde(rename = "start_time")]
        StartTime,
        ///`duration_minutes`.
        #[serde(rename = "duration_minutes")]
        DurationMinutes,
    }

    impl VisitSort {
        /// The value as the document writes it.
        pub fn as_str(&self) -> &'static str {
            match self {
                Self::StartTime => "start_time",
                Self::DurationMinutes => "duration_minutes",
            }
        }
    }

    impl ::std::fmt::Display for VisitSort {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str(self.as_str())
        }
    }

    impl rt::ToParam for VisitSort {
        fn write_param(&self, out: &mut String) {
            out.push_str(self.as_str());
        }
    }
}

/// Each operation's request and its answers.
#[allow(dead_code)]
pub mod operations {
    use super::types;

    use super::rt;

    /// The request of [`Client::root`](super::Client::root): `GET /`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct RootRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> RootRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<RootResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/",
                    options,
                    |request| {
                        request.path("/");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for RootRequest<'a> {
        type Output = Result<rt::Answer<RootResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for RootRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::root`](super::Client::root) (`GET /`), one variant per documented status.
    #[derive(Debug)]
    pub enum RootResponse {
        /// `200`: Successful Response
        Ok(types::Message),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for RootResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for RootResponse {
        type Ok = types::Message;

        fn into_ok(self) -> Result<types::Message, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_item`](super::Client::read_item): `GET /item/{id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadItemRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) id: i64,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadItemRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadItemResponse>, rt::Error> {
            let Self { client, id, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/item/{id}",
                    options,
                    |request| {
                        request.path("/item/");
                        request.path_param(&id);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadItemRequest<'a> {
        type Output = Result<rt::Answer<ReadItemResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadItemRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_item`](super::Client::read_item) (`GET /item/{id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadItemResponse {
        /// `200`: Successful Response
        Ok(types::ItemId),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadItemResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadItemResponse {
        type Ok = types::ItemId;

        fn into_ok(self) -> Result<types::ItemId, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_user_me`](super::Client::read_user_me): `GET /user/me`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadUserMeRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadUserMeRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadUserMeResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/user/me",
                    options,
                    |request| {
                        request.path("/user/me");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadUserMeRequest<'a> {
        type Output = Result<rt::Answer<ReadUserMeResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadUserMeRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_user_me`](super::Client::read_user_me) (`GET /user/me`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadUserMeResponse {
        /// `200`: Successful Response
        Ok(types::CurrentUser),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadUserMeResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadUserMeResponse {
        type Ok = types::CurrentUser;

        fn into_ok(self) -> Result<types::CurrentUser, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_user`](super::Client::read_user): `GET /user/{id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadUserRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) id: &'a str,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadUserRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadUserResponse>, rt::Error> {
            let Self { client, id, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/user/{id}",
                    options,
                    |request| {
                        request.path("/user/");
                        request.path_param(&id);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadUserRequest<'a> {
        type Output = Result<rt::Answer<ReadUserResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadUserRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_user`](super::Client::read_user) (`GET /user/{id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadUserResponse {
        /// `200`: Successful Response
        Ok(types::UserId),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadUserResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadUserResponse {
        type Ok = types::UserId;

        fn into_ok(self) -> Result<types::UserId, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_user_item`](super::Client::read_user_item): `GET /user/{user_id}/item/{item_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadUserItemRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) user_id: i64,
        pub(super) item_id: &'a str,
        pub(super) q: Option<String>,
        pub(super) short: Option<bool>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadUserItemRequest<'a> {
        /// The query parameter `q`.
        pub fn q(mut self, q: impl Into<String>) -> Self {
            self.q = Some(q.into());
            self
        }

        /// The query parameter `short`.
        ///
        /// Default: `false`.
        pub fn short(mut self, short: bool) -> Self {
            self.short = Some(short);
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadUserItemResponse>, rt::Error> {
            let Self { client, user_id, item_id, q, short, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/user/{user_id}/item/{item_id}",
                    options,
                    |request| {
                        request.path("/user/");
                        request.path_param(&user_id);
                        request.path("/item/");
                        request.path_param(&item_id);
                        request.query("q", &q);
                        request.query("short", &short);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadUserItemRequest<'a> {
        type Output = Result<rt::Answer<ReadUserItemResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadUserItemRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_user_item`](super::Client::read_user_item) (`GET /user/{user_id}/item/{item_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadUserItemResponse {
        /// `200`: Successful Response
        Ok(types::UserItem),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadUserItemResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadUserItemResponse {
        type Ok = types::UserItem;

        fn into_ok(self) -> Result<types::UserItem, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_stock`](super::Client::read_stock): `GET /stock/{symbol}/{type}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadStockRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) symbol: &'a str,
        pub(super) type_: types::OrderType,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadStockRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadStockResponse>, rt::Error> {
            let Self { client, symbol, type_, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/stock/{symbol}/{type}",
                    options,
                    |request| {
                        request.path("/stock/");
                        request.path_param(&symbol);
                        request.path("/");
                        request.path_param(&type_);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadStockRequest<'a> {
        type Output = Result<rt::Answer<ReadStockResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadStockRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_stock`](super::Client::read_stock) (`GET /stock/{symbol}/{type}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadStockResponse {
        /// `200`: Successful Response
        Ok(types::Quote),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadStockResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadStockResponse {
        type Ok = types::Quote;

        fn into_ok(self) -> Result<types::Quote, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_persons`](super::Client::read_persons): `GET /person`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadPersonsRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) skip: Option<i64>,
        pub(super) limit: Option<i64>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadPersonsRequest<'a> {
        /// The query parameter `skip`.
        ///
        /// Default: `0`.
        pub fn skip(mut self, skip: i64) -> Self {
            self.skip = Some(skip);
            self
        }

        /// The query parameter `limit`.
        ///
        /// Default: `5`.
        pub fn limit(mut self, limit: i64) -> Self {
            self.limit = Some(limit);
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadPersonsResponse>, rt::Error> {
            let Self { client, skip, limit, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/person",
                    options,
                    |request| {
                        request.path("/person");
                        request.query("skip", &skip);
                        request.query("limit", &limit);
                    },
                )
                .await
        }

        /// Every page of `GET /person`, asked one after the other: from the offset [`skip`](Self::skip) (default 0), [`limit`](Self::limit) items a page (default 5: the limit's default); the other parameters and call options are sent with every page.
        ///
        /// The stream ends after a page shorter than the limit asked (an empty one included); a page that fails ends it with its error (another status: an [`Error`](super::Error) of kind `Status`). The document gives the offset no maximum.
        pub fn pages(self) -> rt::Pages<'a, types::Person> {
            let Self { client, skip, limit, options } = self;
            rt::Pages::new(
                rt::Paging {
                    page_size: 5,
                    max_offset: None,
                },
                skip,
                limit,
                move |page_offset, page_limit| {
                    let page = Self {
                        client,
                        skip: Some(page_offset),
                        limit: Some(page_limit),
                        options: Clone::clone(&options),
                    };
                    Box::pin(async move {
                        page.send().await?.into_ok().map_err(rt::Error::from)
                    })
                },
            )
        }

        /// Every item of `GET /person`, read page after page as [`pages`](Self::pages) reads them (the same stop rules, the same ending at the maximum offset).
        pub fn items(self) -> rt::Items<'a, types::Person> {
            self.pages().items()
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadPersonsRequest<'a> {
        type Output = Result<rt::Answer<ReadPersonsResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadPersonsRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_persons`](super::Client::read_persons) (`GET /person`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadPersonsResponse {
        /// `200`: Successful Response
        Ok(Vec<types::Person>),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadPersonsResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadPersonsResponse {
        type Ok = Vec<types::Person>;

        fn into_ok(self) -> Result<Vec<types::Person>, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_item`](super::Client::create_item): `POST /item`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreateItemRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) body: &'a types::Item,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreateItemRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreateItemResponse>, rt::Error> {
            let Self { client, body, options } = self;
            client
                .call_route(
                    rt::Method::POST,
                    "/item",
                    options,
                    |request| {
                        request.path("/item");
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreateItemRequest<'a> {
        type Output = Result<rt::Answer<CreateItemResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreateItemRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_item`](super::Client::create_item) (`POST /item`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreateItemResponse {
        /// `200`: Successful Response
        Ok(types::ItemWithTax),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreateItemResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreateItemResponse {
        type Ok = types::ItemWithTax;

        fn into_ok(self) -> Result<types::ItemWithTax, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::update_item`](super::Client::update_item): `PUT /item/{item_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct UpdateItemRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) item_id: i64,
        pub(super) q: Option<String>,
        pub(super) body: &'a types::Item,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> UpdateItemRequest<'a> {
        /// The query parameter `q`.
        pub fn q(mut self, q: impl Into<String>) -> Self {
            self.q = Some(q.into());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<UpdateItemResponse>, rt::Error> {
            let Self { client, item_id, q, body, options } = self;
            client
                .call_route(
                    rt::Method::PUT,
                    "/item/{item_id}",
                    options,
                    |request| {
                        request.path("/item/");
                        request.path_param(&item_id);
                        request.query("q", &q);
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for UpdateItemRequest<'a> {
        type Output = Result<rt::Answer<UpdateItemResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for UpdateItemRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::update_item`](super::Client::update_item) (`PUT /item/{item_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum UpdateItemResponse {
        /// `200`: Successful Response
        Ok(types::UpdatedItem),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for UpdateItemResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for UpdateItemResponse {
        type Ok = types::UpdatedItem;

        fn into_ok(self) -> Result<types::UpdatedItem, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_employee`](super::Client::read_employee): `GET /employee/{id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadEmployeeRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) id: i64,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadEmployeeRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadEmployeeResponse>, rt::Error> {
            let Self { client, id, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/employee/{id}",
                    options,
                    |request| {
                        request.path("/employee/");
                        request.path_param(&id);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadEmployeeRequest<'a> {
        type Output = Result<rt::Answer<ReadEmployeeResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadEmployeeRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_employee`](super::Client::read_employee) (`GET /employee/{id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadEmployeeResponse {
        /// `200`: Successful Response
        Ok(types::Employee),
        /// `404`: Employee not found
        NotFound(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadEmployeeResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    404 => Self::NotFound(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadEmployeeResponse {
        type Ok = types::Employee;

        fn into_ok(self) -> Result<types::Employee, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::list_doctors`](super::Client::list_doctors): `GET /doctors`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ListDoctorsRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) specialty: Option<types::Specialty>,
        pub(super) name: Option<String>,
        pub(super) sort: Option<types::DoctorSort>,
        pub(super) order: Option<types::SortOrder>,
        pub(super) skip: Option<i64>,
        pub(super) limit: Option<i64>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ListDoctorsRequest<'a> {
        /// The query parameter `specialty`.
        pub fn specialty(mut self, specialty: types::Specialty) -> Self {
            self.specialty = Some(specialty);
            self
        }

        /// The query parameter `name`.
        pub fn name(mut self, name: impl Into<String>) -> Self {
            self.name = Some(name.into());
            self
        }

        /// The query parameter `sort`.
        pub fn sort(mut self, sort: types::DoctorSort) -> Self {
            self.sort = Some(sort);
            self
        }

        /// The query parameter `order`.
        ///
        /// Default: `"asc"`.
        pub fn order(mut self, order: types::SortOrder) -> Self {
            self.order = Some(order);
            self
        }

        /// The query parameter `skip`.
        ///
        /// Default: `0`.
        pub fn skip(mut self, skip: i64) -> Self {
            self.skip = Some(skip);
            self
        }

        /// The query parameter `limit`.
        ///
        /// Default: `20`.
        pub fn limit(mut self, limit: i64) -> Self {
            self.limit = Some(limit);
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ListDoctorsResponse>, rt::Error> {
            let Self { client, specialty, name, sort, order, skip, limit, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/doctors",
                    options,
                    |request| {
                        request.path("/doctors");
                        request.query("specialty", &specialty);
                        request.query("name", &name);
                        request.query("sort", &sort);
                        request.query("order", &order);
                        request.query("skip", &skip);
                        request.query("limit", &limit);
                    },
                )
                .await
        }

        /// Every page of `GET /doctors`, asked one after the other: from the offset [`skip`](Self::skip) (default 0), [`limit`](Self::limit) items a page (default 100: the limit's maximum); the other parameters and call options are sent with every page.
        ///
        /// The stream ends after a page shorter than the limit asked (an empty one included); a page that fails ends it with its error (another status: an [`Error`](super::Error) of kind `Status`). The server serves no page past offset 10000: when a full page leaves the next offset past it, the stream ends with an [`Error`](super::Error) of kind `PageLimit` (more may exist: narrow the query).
        pub fn pages(self) -> rt::Pages<'a, types::Doctor> {
            let Self { client, specialty, name, sort, order, skip, limit, options } = self;
            rt::Pages::new(
                rt::Paging {
                    page_size: 100,
                    max_offset: Some(10000),
                },
                skip,
                limit,
                move |page_offset, page_limit| {
                    let page = Self {
                        client,
                        specialty: Clone::clone(&specialty),
                        name: Clone::clone(&name),
                        sort: Clone::clone(&sort),
                        order: Clone::clone(&order),
                        skip: Some(page_offset),
                        limit: Some(page_limit),
                        options: Clone::clone(&options),
                    };
                    Box::pin(async move {
                        page.send().await?.into_ok().map_err(rt::Error::from)
                    })
                },
            )
        }

        /// Every item of `GET /doctors`, read page after page as [`pages`](Self::pages) reads them (the same stop rules, the same ending at the maximum offset).
        pub fn items(self) -> rt::Items<'a, types::Doctor> {
            self.pages().items()
        }
    }

    impl<'a> ::std::future::IntoFuture for ListDoctorsRequest<'a> {
        type Output = Result<rt::Answer<ListDoctorsResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ListDoctorsRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::list_doctors`](super::Client::list_doctors) (`GET /doctors`), one variant per documented status.
    #[derive(Debug)]
    pub enum ListDoctorsResponse {
        /// `200`: Successful Response
        Ok(Vec<types::Doctor>),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ListDoctorsResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ListDoctorsResponse {
        type Ok = Vec<types::Doctor>;

        fn into_ok(self) -> Result<Vec<types::Doctor>, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_doctor`](super::Client::create_doctor): `POST /doctors`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreateDoctorRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) body: &'a types::DoctorIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreateDoctorRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreateDoctorResponse>, rt::Error> {
            let Self { client, body, options } = self;
            client
                .call_route(
                    rt::Method::POST,
                    "/doctors",
                    options,
                    |request| {
                        request.path("/doctors");
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreateDoctorRequest<'a> {
        type Output = Result<rt::Answer<CreateDoctorResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreateDoctorRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_doctor`](super::Client::create_doctor) (`POST /doctors`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreateDoctorResponse {
        /// `201`: Successful Response
        Created(types::Doctor),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreateDoctorResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    201 => Self::Created(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreateDoctorResponse {
        type Ok = types::Doctor;

        fn into_ok(self) -> Result<types::Doctor, Self> {
            match self {
                Self::Created(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_doctor`](super::Client::read_doctor): `GET /doctors/{doctor_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadDoctorRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) doctor_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadDoctorRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadDoctorResponse>, rt::Error> {
            let Self { client, doctor_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/doctors/{doctor_id}",
                    options,
                    |request| {
                        request.path("/doctors/");
                        request.path_param(&doctor_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadDoctorRequest<'a> {
        type Output = Result<rt::Answer<ReadDoctorResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadDoctorRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_doctor`](super::Client::read_doctor) (`GET /doctors/{doctor_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadDoctorResponse {
        /// `200`: Successful Response
        Ok(types::Doctor),
        /// `304`: Not Modified
        NotModified,
        /// `404`: Doctor not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadDoctorResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    304 => {
                        incoming.empty();
                        Self::NotModified
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadDoctorResponse {
        type Ok = types::Doctor;

        fn into_ok(self) -> Result<types::Doctor, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::replace_doctor`](super::Client::replace_doctor): `PUT /doctors/{doctor_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReplaceDoctorRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) doctor_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) body: &'a types::DoctorIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReplaceDoctorRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReplaceDoctorResponse>, rt::Error> {
            let Self { client, doctor_id, if_match, if_none_match, body, options } = self;
            client
                .call_route(
                    rt::Method::PUT,
                    "/doctors/{doctor_id}",
                    options,
                    |request| {
                        request.path("/doctors/");
                        request.path_param(&doctor_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReplaceDoctorRequest<'a> {
        type Output = Result<rt::Answer<ReplaceDoctorResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReplaceDoctorRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::replace_doctor`](super::Client::replace_doctor) (`PUT /doctors/{doctor_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReplaceDoctorResponse {
        /// `200`: Successful Response
        Ok(types::Doctor),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `404`: Doctor not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReplaceDoctorResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReplaceDoctorResponse {
        type Ok = types::Doctor;

        fn into_ok(self) -> Result<types::Doctor, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::delete_doctor`](super::Client::delete_doctor): `DELETE /doctors/{doctor_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct DeleteDoctorRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) doctor_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> DeleteDoctorRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<DeleteDoctorResponse>, rt::Error> {
            let Self { client, doctor_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::DELETE,
                    "/doctors/{doctor_id}",
                    options,
                    |request| {
                        request.path("/doctors/");
                        request.path_param(&doctor_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for DeleteDoctorRequest<'a> {
        type Output = Result<rt::Answer<DeleteDoctorResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for DeleteDoctorRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::delete_doctor`](super::Client::delete_doctor) (`DELETE /doctors/{doctor_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum DeleteDoctorResponse {
        /// `204`: Successful Response
        NoContent,
        /// `404`: Doctor not found
        NotFound(rt::HttpError),
        /// `409`: The doctor has visits
        Conflict(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for DeleteDoctorResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    204 => {
                        incoming.empty();
                        Self::NoContent
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    409 => Self::Conflict(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for DeleteDoctorResponse {
        type Ok = ();

        fn into_ok(self) -> Result<(), Self> {
            match self {
                Self::NoContent => Ok(()),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::list_patients`](super::Client::list_patients): `GET /patients`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ListPatientsRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) name: Option<String>,
        pub(super) date_of_birth: Option<rt::chrono::NaiveDate>,
        pub(super) sort: Option<types::PatientSort>,
        pub(super) order: Option<types::SortOrder>,
        pub(super) skip: Option<i64>,
        pub(super) limit: Option<i64>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ListPatientsRequest<'a> {
        /// The query parameter `name`.
        pub fn name(mut self, name: impl Into<String>) -> Self {
            self.name = Some(name.into());
            self
        }

        /// The query parameter `date_of_birth`.
        pub fn date_of_birth(mut self, date_of_birth: rt::chrono::NaiveDate) -> Self {
            self.date_of_birth = Some(date_of_birth);
            self
        }

        /// The query parameter `sort`.
        pub fn sort(mut self, sort: types::PatientSort) -> Self {
            self.sort = Some(sort);
            self
        }

        /// The query parameter `order`.
        ///
        /// Default: `"asc"`.
        pub fn order(mut self, order: types::SortOrder) -> Self {
            self.order = Some(order);
            self
        }

        /// The query parameter `skip`.
        ///
        /// Default: `0`.
        pub fn skip(mut self, skip: i64) -> Self {
            self.skip = Some(skip);
            self
        }

        /// The query parameter `limit`.
        ///
        /// Default: `20`.
        pub fn limit(mut self, limit: i64) -> Self {
            self.limit = Some(limit);
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ListPatientsResponse>, rt::Error> {
            let Self {
                client,
                name,
                date_of_birth,
                sort,
                order,
                skip,
                limit,
                options,
            } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/patients",
                    options,
                    |request| {
                        request.path("/patients");
                        request.query("name", &name);
                        request.query("date_of_birth", &date_of_birth);
                        request.query("sort", &sort);
                        request.query("order", &order);
                        request.query("skip", &skip);
                        request.query("limit", &limit);
                    },
                )
                .await
        }

        /// Every page of `GET /patients`, asked one after the other: from the offset [`skip`](Self::skip) (default 0), [`limit`](Self::limit) items a page (default 100: the limit's maximum); the other parameters and call options are sent with every page.
        ///
        /// The stream ends after a page shorter than the limit asked (an empty one included); a page that fails ends it with its error (another status: an [`Error`](super::Error) of kind `Status`). The server serves no page past offset 10000: when a full page leaves the next offset past it, the stream ends with an [`Error`](super::Error) of kind `PageLimit` (more may exist: narrow the query).
        pub fn pages(self) -> rt::Pages<'a, types::Patient> {
            let Self {
                client,
                name,
                date_of_birth,
                sort,
                order,
                skip,
                limit,
                options,
            } = self;
            rt::Pages::new(
                rt::Paging {
                    page_size: 100,
                    max_offset: Some(10000),
                },
                skip,
                limit,
                move |page_offset, page_limit| {
                    let page = Self {
                        client,
                        name: Clone::clone(&name),
                        date_of_birth: Clone::clone(&date_of_birth),
                        sort: Clone::clone(&sort),
                        order: Clone::clone(&order),
                        skip: Some(page_offset),
                        limit: Some(page_limit),
                        options: Clone::clone(&options),
                    };
                    Box::pin(async move {
                        page.send().await?.into_ok().map_err(rt::Error::from)
                    })
                },
            )
        }

        /// Every item of `GET /patients`, read page after page as [`pages`](Self::pages) reads them (the same stop rules, the same ending at the maximum offset).
        pub fn items(self) -> rt::Items<'a, types::Patient> {
            self.pages().items()
        }
    }

    impl<'a> ::std::future::IntoFuture for ListPatientsRequest<'a> {
        type Output = Result<rt::Answer<ListPatientsResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ListPatientsRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::list_patients`](super::Client::list_patients) (`GET /patients`), one variant per documented status.
    #[derive(Debug)]
    pub enum ListPatientsResponse {
        /// `200`: Successful Response
        Ok(Vec<types::Patient>),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ListPatientsResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ListPatientsResponse {
        type Ok = Vec<types::Patient>;

        fn into_ok(self) -> Result<Vec<types::Patient>, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_patient`](super::Client::create_patient): `POST /patients`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreatePatientRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) body: &'a types::PatientIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreatePatientRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreatePatientResponse>, rt::Error> {
            let Self { client, body, options } = self;
            client
                .call_route(
                    rt::Method::POST,
                    "/patients",
                    options,
                    |request| {
                        request.path("/patients");
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreatePatientRequest<'a> {
        type Output = Result<rt::Answer<CreatePatientResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreatePatientRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_patient`](super::Client::create_patient) (`POST /patients`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreatePatientResponse {
        /// `201`: Successful Response
        Created(types::Patient),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreatePatientResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    201 => Self::Created(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreatePatientResponse {
        type Ok = types::Patient;

        fn into_ok(self) -> Result<types::Patient, Self> {
            match self {
                Self::Created(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_patient`](super::Client::read_patient): `GET /patients/{patient_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadPatientRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) patient_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadPatientRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadPatientResponse>, rt::Error> {
            let Self { client, patient_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/patients/{patient_id}",
                    options,
                    |request| {
                        request.path("/patients/");
                        request.path_param(&patient_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadPatientRequest<'a> {
        type Output = Result<rt::Answer<ReadPatientResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadPatientRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_patient`](super::Client::read_patient) (`GET /patients/{patient_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadPatientResponse {
        /// `200`: Successful Response
        Ok(types::Patient),
        /// `304`: Not Modified
        NotModified,
        /// `404`: Patient not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadPatientResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    304 => {
                        incoming.empty();
                        Self::NotModified
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadPatientResponse {
        type Ok = types::Patient;

        fn into_ok(self) -> Result<types::Patient, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::replace_patient`](super::Client::replace_patient): `PUT /patients/{patient_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReplacePatientRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) patient_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) body: &'a types::PatientIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReplacePatientRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(
            self,
        ) -> Result<rt::Answer<ReplacePatientResponse>, rt::Error> {
            let Self { client, patient_id, if_match, if_none_match, body, options } = self;
            client
                .call_route(
                    rt::Method::PUT,
                    "/patients/{patient_id}",
                    options,
                    |request| {
                        request.path("/patients/");
                        request.path_param(&patient_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReplacePatientRequest<'a> {
        type Output = Result<rt::Answer<ReplacePatientResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReplacePatientRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::replace_patient`](super::Client::replace_patient) (`PUT /patients/{patient_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReplacePatientResponse {
        /// `200`: Successful Response
        Ok(types::Patient),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `404`: Patient not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReplacePatientResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReplacePatientResponse {
        type Ok = types::Patient;

        fn into_ok(self) -> Result<types::Patient, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::delete_patient`](super::Client::delete_patient): `DELETE /patients/{patient_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct DeletePatientRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) patient_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> DeletePatientRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<DeletePatientResponse>, rt::Error> {
            let Self { client, patient_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::DELETE,
                    "/patients/{patient_id}",
                    options,
                    |request| {
                        request.path("/patients/");
                        request.path_param(&patient_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for DeletePatientRequest<'a> {
        type Output = Result<rt::Answer<DeletePatientResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for DeletePatientRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::delete_patient`](super::Client::delete_patient) (`DELETE /patients/{patient_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum DeletePatientResponse {
        /// `204`: Successful Response
        NoContent,
        /// `404`: Patient not found
        NotFound(rt::HttpError),
        /// `409`: The patient has visits
        Conflict(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for DeletePatientResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    204 => {
                        incoming.empty();
                        Self::NoContent
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    409 => Self::Conflict(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for DeletePatientResponse {
        type Ok = ();

        fn into_ok(self) -> Result<(), Self> {
            match self {
                Self::NoContent => Ok(()),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::list_visits`](super::Client::list_visits): `GET /visits`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ListVisitsRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) doctor_id: Option<String>,
        pub(super) patient_id: Option<String>,
        pub(super) sort: Option<types::VisitSort>,
        pub(super) order: Option<types::SortOrder>,
        pub(super) skip: Option<i64>,
        pub(super) limit: Option<i64>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ListVisitsRequest<'a> {
        /// The query parameter `doctor_id`.
        pub fn doctor_id(mut self, doctor_id: impl Into<String>) -> Self {
            self.doctor_id = Some(doctor_id.into());
            self
        }

        /// The query parameter `patient_id`.
        pub fn patient_id(mut self, patient_id: impl Into<String>) -> Self {
            self.patient_id = Some(patient_id.into());
            self
        }

        /// The query parameter `sort`.
        pub fn sort(mut self, sort: types::VisitSort) -> Self {
            self.sort = Some(sort);
            self
        }

        /// The query parameter `order`.
        ///
        /// Default: `"asc"`.
        pub fn order(mut self, order: types::SortOrder) -> Self {
            self.order = Some(order);
            self
        }

        /// The query parameter `skip`.
        ///
        /// Default: `0`.
        pub fn skip(mut self, skip: i64) -> Self {
            self.skip = Some(skip);
            self
        }

        /// The query parameter `limit`.
        ///
        /// Default: `20`.
        pub fn limit(mut self, limit: i64) -> Self {
            self.limit = Some(limit);
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ListVisitsResponse>, rt::Error> {
            let Self {
                client,
                doctor_id,
                patient_id,
                sort,
                order,
                skip,
                limit,
                options,
            } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/visits",
                    options,
                    |request| {
                        request.path("/visits");
                        request.query("doctor_id", &doctor_id);
                        request.query("patient_id", &patient_id);
                        request.query("sort", &sort);
                        request.query("order", &order);
                        request.query("skip", &skip);
                        request.query("limit", &limit);
                    },
                )
                .await
        }

        /// Every page of `GET /visits`, asked one after the other: from the offset [`skip`](Self::skip) (default 0), [`limit`](Self::limit) items a page (default 100: the limit's maximum); the other parameters and call options are sent with every page.
        ///
        /// The stream ends after a page shorter than the limit asked (an empty one included); a page that fails ends it with its error (another status: an [`Error`](super::Error) of kind `Status`). The server serves no page past offset 10000: when a full page leaves the next offset past it, the stream ends with an [`Error`](super::Error) of kind `PageLimit` (more may exist: narrow the query).
        pub fn pages(self) -> rt::Pages<'a, types::Visit> {
            let Self {
                client,
                doctor_id,
                patient_id,
                sort,
                order,
                skip,
                limit,
                options,
            } = self;
            rt::Pages::new(
                rt::Paging {
                    page_size: 100,
                    max_offset: Some(10000),
                },
                skip,
                limit,
                move |page_offset, page_limit| {
                    let page = Self {
                        client,
                        doctor_id: Clone::clone(&doctor_id),
                        patient_id: Clone::clone(&patient_id),
                        sort: Clone::clone(&sort),
                        order: Clone::clone(&order),
                        skip: Some(page_offset),
                        limit: Some(page_limit),
                        options: Clone::clone(&options),
                    };
                    Box::pin(async move {
                        page.send().await?.into_ok().map_err(rt::Error::from)
                    })
                },
            )
        }

        /// Every item of `GET /visits`, read page after page as [`pages`](Self::pages) reads them (the same stop rules, the same ending at the maximum offset).
        pub fn items(self) -> rt::Items<'a, types::Visit> {
            self.pages().items()
        }
    }

    impl<'a> ::std::future::IntoFuture for ListVisitsRequest<'a> {
        type Output = Result<rt::Answer<ListVisitsResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ListVisitsRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::list_visits`](super::Client::list_visits) (`GET /visits`), one variant per documented status.
    #[derive(Debug)]
    pub enum ListVisitsResponse {
        /// `200`: Successful Response
        Ok(Vec<types::Visit>),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ListVisitsResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ListVisitsResponse {
        type Ok = Vec<types::Visit>;

        fn into_ok(self) -> Result<Vec<types::Visit>, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_visit`](super::Client::create_visit): `POST /visits`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreateVisitRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) idempotency_key: Option<String>,
        pub(super) body: &'a types::VisitIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreateVisitRequest<'a> {
        /// The `Idempotency-Key` (default: a fresh one for this call, kept across its retries).
        pub fn idempotency_key(mut self, idempotency_key: impl Into<String>) -> Self {
            self.idempotency_key = Some(idempotency_key.into());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreateVisitResponse>, rt::Error> {
            let Self { client, idempotency_key, body, options } = self;
            let idempotency_key = idempotency_key.unwrap_or_else(rt::idempotency_key);
            client
                .call_route(
                    rt::Method::POST,
                    "/visits",
                    options,
                    |request| {
                        request.path("/visits");
                        request.header("Idempotency-Key", &idempotency_key);
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreateVisitRequest<'a> {
        type Output = Result<rt::Answer<CreateVisitResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreateVisitRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_visit`](super::Client::create_visit) (`POST /visits`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreateVisitResponse {
        /// `201`: Successful Response
        Created(types::Visit),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `409`: A request with this Idempotency-Key is being processed
        ///
        /// Headers: `Retry-After` (read them from the [`Answer`](super::Answer)).
        Conflict(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreateVisitResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    201 => Self::Created(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    409 => Self::Conflict(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreateVisitResponse {
        type Ok = types::Visit;

        fn into_ok(self) -> Result<types::Visit, Self> {
            match self {
                Self::Created(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_visit`](super::Client::read_visit): `GET /visits/{visit_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadVisitRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) visit_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadVisitRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadVisitResponse>, rt::Error> {
            let Self { client, visit_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/visits/{visit_id}",
                    options,
                    |request| {
                        request.path("/visits/");
                        request.path_param(&visit_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadVisitRequest<'a> {
        type Output = Result<rt::Answer<ReadVisitResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadVisitRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_visit`](super::Client::read_visit) (`GET /visits/{visit_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadVisitResponse {
        /// `200`: Successful Response
        Ok(types::Visit),
        /// `304`: Not Modified
        NotModified,
        /// `404`: Visit not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadVisitResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    304 => {
                        incoming.empty();
                        Self::NotModified
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadVisitResponse {
        type Ok = types::Visit;

        fn into_ok(self) -> Result<types::Visit, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::replace_visit`](super::Client::replace_visit): `PUT /visits/{visit_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReplaceVisitRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) visit_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) body: &'a types::VisitIn,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReplaceVisitRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReplaceVisitResponse>, rt::Error> {
            let Self { client, visit_id, if_match, if_none_match, body, options } = self;
            client
                .call_route(
                    rt::Method::PUT,
                    "/visits/{visit_id}",
                    options,
                    |request| {
                        request.path("/visits/");
                        request.path_param(&visit_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReplaceVisitRequest<'a> {
        type Output = Result<rt::Answer<ReplaceVisitResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReplaceVisitRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::replace_visit`](super::Client::replace_visit) (`PUT /visits/{visit_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReplaceVisitResponse {
        /// `200`: Successful Response
        Ok(types::Visit),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `404`: Visit not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReplaceVisitResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReplaceVisitResponse {
        type Ok = types::Visit;

        fn into_ok(self) -> Result<types::Visit, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::delete_visit`](super::Client::delete_visit): `DELETE /visits/{visit_id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct DeleteVisitRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) visit_id: &'a str,
        pub(super) if_match: Option<rt::ETag>,
        pub(super) if_none_match: Option<rt::ETag>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> DeleteVisitRequest<'a> {
        /// `If-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_match(mut self, if_match: &rt::ETag) -> Self {
            self.if_match = Some(if_match.clone());
            self
        }

        /// `If-None-Match`: the entity tag (`ETag`) of the version you have.
        pub fn if_none_match(mut self, if_none_match: &rt::ETag) -> Self {
            self.if_none_match = Some(if_none_match.clone());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<DeleteVisitResponse>, rt::Error> {
            let Self { client, visit_id, if_match, if_none_match, options } = self;
            client
                .call_route(
                    rt::Method::DELETE,
                    "/visits/{visit_id}",
                    options,
                    |request| {
                        request.path("/visits/");
                        request.path_param(&visit_id);
                        request.header("If-Match", &if_match);
                        request.header("If-None-Match", &if_none_match);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for DeleteVisitRequest<'a> {
        type Output = Result<rt::Answer<DeleteVisitResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for DeleteVisitRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::delete_visit`](super::Client::delete_visit) (`DELETE /visits/{visit_id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum DeleteVisitResponse {
        /// `204`: Successful Response
        NoContent,
        /// `404`: Visit not found
        NotFound(rt::HttpError),
        /// `412`: Precondition Failed
        PreconditionFailed(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for DeleteVisitResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    204 => {
                        incoming.empty();
                        Self::NoContent
                    }
                    404 => Self::NotFound(incoming.http_error().await?),
                    412 => Self::PreconditionFailed(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for DeleteVisitResponse {
        type Ok = ();

        fn into_ok(self) -> Result<(), Self> {
            match self {
                Self::NoContent => Ok(()),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::hello`](super::Client::hello): `GET /api/hello`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct HelloRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> HelloRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<HelloResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/api/hello",
                    options,
                    |request| {
                        request.path("/api/hello");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for HelloRequest<'a> {
        type Output = Result<rt::Answer<HelloResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for HelloRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::hello`](super::Client::hello) (`GET /api/hello`), one variant per documented status.
    #[derive(Debug)]
    pub enum HelloResponse {
        /// `200`: Successful Response
        Ok(rt::Json),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for HelloResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for HelloResponse {
        type Ok = rt::Json;

        fn into_ok(self) -> Result<rt::Json, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_student`](super::Client::read_student): `GET /student/{username}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadStudentRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) username: &'a str,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadStudentRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadStudentResponse>, rt::Error> {
            let Self { client, username, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/student/{username}",
                    options,
                    |request| {
                        request.path("/student/");
                        request.path_param(&username);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadStudentRequest<'a> {
        type Output = Result<rt::Answer<ReadStudentResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadStudentRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_student`](super::Client::read_student) (`GET /student/{username}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadStudentResponse {
        /// `200`: Successful Response
        Ok(rt::Json),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadStudentResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadStudentResponse {
        type Ok = rt::Json;

        fn into_ok(self) -> Result<rt::Json, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::page`](super::Client::page): `GET /page`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct PageRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> PageRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<PageResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/page",
                    options,
                    |request| {
                        request.path("/page");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for PageRequest<'a> {
        type Output = Result<rt::Answer<PageResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for PageRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::page`](super::Client::page) (`GET /page`), one variant per documented status.
    #[derive(Debug)]
    pub enum PageResponse {
        /// `200`: Successful Response
        Ok(String),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for PageResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.text().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for PageResponse {
        type Ok = String;

        fn into_ok(self) -> Result<String, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_post`](super::Client::read_post): `GET /post/{id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadPostRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) id: &'a str,
        pub(super) page: Option<String>,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadPostRequest<'a> {
        /// The query parameter `page`.
        pub fn page(mut self, page: impl Into<String>) -> Self {
            self.page = Some(page.into());
            self
        }

        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadPostResponse>, rt::Error> {
            let Self { client, id, page, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/post/{id}",
                    options,
                    |request| {
                        request.path("/post/");
                        request.path_param(&id);
                        request.query("page", &page);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadPostRequest<'a> {
        type Output = Result<rt::Answer<ReadPostResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadPostRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_post`](super::Client::read_post) (`GET /post/{id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadPostResponse {
        /// `200`: Successful Response
        Ok(String),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadPostResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.text().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadPostResponse {
        type Ok = String;

        fn into_ok(self) -> Result<String, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::delete_post`](super::Client::delete_post): `DELETE /post/{id}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct DeletePostRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) id: &'a str,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> DeletePostRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<DeletePostResponse>, rt::Error> {
            let Self { client, id, options } = self;
            client
                .call_route(
                    rt::Method::DELETE,
                    "/post/{id}",
                    options,
                    |request| {
                        request.path("/post/");
                        request.path_param(&id);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for DeletePostRequest<'a> {
        type Output = Result<rt::Answer<DeletePostResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for DeletePostRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::delete_post`](super::Client::delete_post) (`DELETE /post/{id}`), one variant per documented status.
    #[derive(Debug)]
    pub enum DeletePostResponse {
        /// `200`: Successful Response
        Ok(String),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for DeletePostResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.text().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for DeletePostResponse {
        type Ok = String;

        fn into_ok(self) -> Result<String, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_post`](super::Client::create_post): `POST /post/`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreatePostRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreatePostRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreatePostResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::POST,
                    "/post/",
                    options,
                    |request| {
                        request.path("/post/");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreatePostRequest<'a> {
        type Output = Result<rt::Answer<CreatePostResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreatePostRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_post`](super::Client::create_post) (`POST /post/`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreatePostResponse {
        /// `201`: Successful Response
        Created(String),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreatePostResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    201 => Self::Created(incoming.text().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreatePostResponse {
        type Ok = String;

        fn into_ok(self) -> Result<String, Self> {
            match self {
                Self::Created(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_env`](super::Client::read_env): `GET /api/env`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadEnvRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadEnvRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadEnvResponse>, rt::Error> {
            let Self { client, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/api/env",
                    options,
                    |request| {
                        request.path("/api/env");
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadEnvRequest<'a> {
        type Output = Result<rt::Answer<ReadEnvResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadEnvRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_env`](super::Client::read_env) (`GET /api/env`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadEnvResponse {
        /// `200`: Successful Response
        Ok(rt::Json),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadEnvResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadEnvResponse {
        type Ok = rt::Json;

        fn into_ok(self) -> Result<rt::Json, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::create_bird`](super::Client::create_bird): `POST /api/bird/`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct CreateBirdRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) body: &'a rt::JsonObject,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> CreateBirdRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<CreateBirdResponse>, rt::Error> {
            let Self { client, body, options } = self;
            client
                .call_route(
                    rt::Method::POST,
                    "/api/bird/",
                    options,
                    |request| {
                        request.path("/api/bird/");
                        request.json(body);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for CreateBirdRequest<'a> {
        type Output = Result<rt::Answer<CreateBirdResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for CreateBirdRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::create_bird`](super::Client::create_bird) (`POST /api/bird/`), one variant per documented status.
    #[derive(Debug)]
    pub enum CreateBirdResponse {
        /// `200`: Successful Response
        Ok(rt::Json),
        /// `400`: The request body could not be read or is not UTF-8
        BadRequest(rt::HttpError),
        /// `413`: The request body is larger than the limit
        PayloadTooLarge(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for CreateBirdResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    400 => Self::BadRequest(incoming.http_error().await?),
                    413 => Self::PayloadTooLarge(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for CreateBirdResponse {
        type Ok = rt::Json;

        fn into_ok(self) -> Result<rt::Json, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }

    /// The request of [`Client::read_bird`](super::Client::read_bird): `GET /api/bird/{name}`.
    ///
    /// Send it with `.await` (or [`send`](Self::send)); its optional parameters and [`Call`](super::Call)'s options first.
    #[derive(Debug)]
    #[must_use = "a request is sent when it is awaited"]
    pub struct ReadBirdRequest<'a> {
        pub(super) client: &'a rt::Client,
        pub(super) name: &'a str,
        pub(super) options: rt::CallOptions,
    }

    impl<'a> ReadBirdRequest<'a> {
        /// Send the request: the server's answer, whatever its status, or why there is none.
        pub async fn send(self) -> Result<rt::Answer<ReadBirdResponse>, rt::Error> {
            let Self { client, name, options } = self;
            client
                .call_route(
                    rt::Method::GET,
                    "/api/bird/{name}",
                    options,
                    |request| {
                        request.path("/api/bird/");
                        request.path_param(&name);
                    },
                )
                .await
        }
    }

    impl<'a> ::std::future::IntoFuture for ReadBirdRequest<'a> {
        type Output = Result<rt::Answer<ReadBirdResponse>, rt::Error>;

        type IntoFuture = rt::BoxFuture<'a, Self::Output>;

        fn into_future(self) -> Self::IntoFuture {
            Box::pin(self.send())
        }
    }

    impl rt::Call for ReadBirdRequest<'_> {
        fn options(&mut self) -> &mut rt::CallOptions {
            &mut self.options
        }
    }

    /// The answers of [`Client::read_bird`](super::Client::read_bird) (`GET /api/bird/{name}`), one variant per documented status.
    #[derive(Debug)]
    pub enum ReadBirdResponse {
        /// `200`: Successful Response
        Ok(rt::Json),
        /// `404`: Not Found
        NotFound(rt::HttpError),
        /// `422`: Validation Error
        UnprocessableEntity(types::HTTPValidationError),
        /// `503`: The database is unavailable
        ServiceUnavailable(rt::HttpError),
        /// A status the document does not list for this operation.
        Unexpected(rt::Unexpected),
    }

    impl rt::Decode for ReadBirdResponse {
        async fn decode(incoming: &mut rt::Incoming) -> Result<Self, rt::Error> {
            Ok(
                match incoming.status().as_u16() {
                    200 => Self::Ok(incoming.json().await?),
                    404 => Self::NotFound(incoming.http_error().await?),
                    422 => Self::UnprocessableEntity(incoming.json().await?),
                    503 => Self::ServiceUnavailable(incoming.http_error().await?),
                    _ => Self::Unexpected(incoming.unexpected().await?),
                },
            )
        }
    }

    impl rt::Outcome for ReadBirdResponse {
        type Ok = rt::Json;

        fn into_ok(self) -> Result<rt::Json, Self> {
            match self {
                Self::Ok(value) => Ok(value),
                other => Err(other),
            }
        }
    }
}
