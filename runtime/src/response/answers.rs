//! The answers to the errors the framework meets by itself — no route for the path (404), a path
//! served for other methods (405), input that fails validation (422), a failure inside (500) —
//! and the app's overrides of them (`App::on_not_found`, `on_method_not_allowed`,
//! `on_validation_error`, `on_internal_error`).
//!
//! Rules enforced here:
//! - without an override each answer is FastAPI's, byte for byte: these defaults are the only
//!   ones the framework sends;
//! - an override replaces the body (and headers) of its answer; the status stays 404, 405 or 500,
//!   and a 405 keeps its `Allow`; the validation error's status is the app's choice, set once with
//!   the override (the OpenAPI document shows it);
//! - a body that is not UTF-8 is still answered 400 `There was an error parsing the body` (in
//!   FastAPI an HTTP error, not a validation error); a body that is not JSON is a validation
//!   error, its one `json_invalid` item;
//! - an override that panics is logged and answered with the default, never a dropped
//!   connection;
//! - every function here runs only for a request that is answered with an error: they are out of
//!   line, and an app without overrides pays one test of an empty slot for them.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use hyper::header::{HeaderValue, ALLOW};
use hyper::http::request::Parts;
use hyper::StatusCode;
use serde_json::{json, Value};

use super::{error_response, internal_error, IntoResponse, Response};
use crate::validate::{BadBody, SchemaRegistry, ValidationErrors};

/// An override of the answer to a request head (404, 405).
pub(crate) type HeadAnswer = Arc<dyn Fn(&Parts) -> Response + Send + Sync>;

/// An override of the 500.
pub(crate) type InternalAnswer = Arc<dyn Fn() -> Response + Send + Sync>;

/// An override of the validation error's answer.
type InvalidAnswer = Arc<dyn Fn(&ValidationErrors, &Parts) -> Response + Send + Sync>;

/// An override of the validation error: its status, the answer, and its body's schema for the
/// OpenAPI document.
#[derive(Clone)]
pub(crate) struct ValidationAnswer {
    pub(crate) status: StatusCode,
    pub(crate) answer: InvalidAnswer,
    pub(crate) schema: fn(&mut SchemaRegistry) -> Value,
}

/// The app's error answers: an empty slot is FastAPI's answer.
#[derive(Clone, Default)]
pub(crate) struct ErrorAnswers {
    pub(crate) not_found: Option<HeadAnswer>,
    pub(crate) method_not_allowed: Option<HeadAnswer>,
    pub(crate) validation: Option<ValidationAnswer>,
    pub(crate) internal: Option<InternalAnswer>,
}

impl std::fmt::Debug for ErrorAnswers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ErrorAnswers")
            .field("not_found", &self.not_found.is_some())
            .field("method_not_allowed", &self.method_not_allowed.is_some())
            .field("validation", &self.validation.as_ref().map(|v| v.status))
            .field("internal", &self.internal.is_some())
            .finish()
    }
}

impl ErrorAnswers {
    /// The answer to a request no route has the path of.
    #[cold]
    pub(crate) fn not_found(&self, head: &Parts) -> Response {
        self.not_found
            .as_ref()
            .and_then(|answer| guarded("not found", || answer(head)))
            .map(|response| with_status(response, StatusCode::NOT_FOUND))
            .unwrap_or_else(|| error_response(StatusCode::NOT_FOUND, &json!("Not Found")))
    }

    /// The answer to a request whose path routes serve for the methods in `allow` only.
    #[cold]
    pub(crate) fn method_not_allowed(&self, head: &Parts, allow: HeaderValue) -> Response {
        let mut response = self
            .method_not_allowed
            .as_ref()
            .and_then(|answer| guarded("method not allowed", || answer(head)))
            .map(|response| with_status(response, StatusCode::METHOD_NOT_ALLOWED))
            .unwrap_or_else(|| error_response(StatusCode::METHOD_NOT_ALLOWED, &json!("Method Not Allowed")));
        response.headers_mut().insert(ALLOW, allow);
        response
    }

    /// The answer to a request that failed validation (`errors` is not empty).
    #[cold]
    #[inline(never)]
    pub(crate) fn invalid(&self, errors: ValidationErrors, head: &Parts) -> Response {
        let Some(validation) = &self.validation else {
            return errors.into_response();
        };
        let errors = match errors.bad_body {
            None => errors,
            Some(BadBody::NotUtf8 | BadBody::OverBudget(_)) => return errors.into_response(),
            Some(BadBody::InvalidJson(item)) => ValidationErrors {
                items: vec![*item],
                bad_body: None,
            },
        };
        match guarded("validation error", || (validation.answer)(&errors, head)) {
            Some(response) => with_status(response, validation.status),
            None => errors.into_response(),
        }
    }

    /// The 500 of a failure inside the framework (a panic, a layer's error).
    #[cold]
    pub(crate) fn internal(&self) -> Response {
        internal_answer(self.internal.as_ref())
    }
}

/// The 500, by `answer` when the app has one.
#[cold]
pub(crate) fn internal_answer(answer: Option<&InternalAnswer>) -> Response {
    answer
        .and_then(|answer| guarded("internal error", || answer()))
        .map(|response| with_status(response, StatusCode::INTERNAL_SERVER_ERROR))
        .unwrap_or_else(internal_error)
}

/// An override's answer with the status it must have.
fn with_status(mut response: Response, status: StatusCode) -> Response {
    *response.status_mut() = status;
    response
}

/// `answer()`, or `None` (logged) when it panics: the caller answers the default.
fn guarded(what: &str, answer: impl FnOnce() -> Response) -> Option<Response> {
    // The override is not called again after a panic, and what it borrowed is only read
    // afterwards: asserting unwind safety is sound.
    match catch_unwind(AssertUnwindSafe(answer)) {
        Ok(response) => Some(response),
        Err(_) => {
            tracing::error!("the app's answer to a {what} panicked; answering the default");
            None
        }
    }
}

/// The app's answer to validation errors, kept to give later, when the request is no longer at
/// hand: the request head and the override when the app has one, nothing for FastAPI's 422. The
/// one way an answer to validation errors is given after the request ([`Invalid`], and the
/// [`Validation`](crate::validation::Validation) argument).
#[derive(Clone, Default)]
pub(crate) struct KeptValidation(Option<Box<(Parts, ValidationAnswer)>>);

impl KeptValidation {
    /// What answering validation errors of the request of `head` later needs (a copy of the
    /// head only when the app overrides the answer, which is given the head).
    pub(crate) fn keep(answers: &ErrorAnswers, head: &Parts) -> Self {
        KeptValidation(
            answers
                .validation
                .as_ref()
                .map(|validation| Box::new((head.clone(), validation.clone()))),
        )
    }

    /// Whether the app overrides the answer.
    pub(crate) fn is_app_answer(&self) -> bool {
        self.0.is_some()
    }

    /// The answer to `errors` (not empty).
    #[cold]
    pub(crate) fn answer(&self, errors: ValidationErrors) -> Response {
        match self.0.as_deref() {
            None => errors.into_response(),
            Some((head, validation)) => ErrorAnswers {
                validation: Some(validation.clone()),
                ..ErrorAnswers::default()
            }
            .invalid(errors, head),
        }
    }
}

/// A validation error found before a route's dependencies run, answered only after they did (a
/// dependency's own answer comes first, as in FastAPI): the errors, and what the app's override
/// needs to answer them later, when the route future no longer sees the request.
pub struct Invalid(Box<Deferred>);

struct Deferred {
    errors: ValidationErrors,
    kept: KeptValidation,
}

impl std::fmt::Debug for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Invalid").field(&self.0.errors).finish()
    }
}

impl Invalid {
    /// Keep `errors` (not empty) to answer later.
    #[cold]
    #[inline(never)]
    pub(crate) fn new(answers: &ErrorAnswers, errors: ValidationErrors, head: &Parts) -> Self {
        let kept = KeptValidation::keep(answers, head);
        Invalid(Box::new(Deferred { errors, kept }))
    }

    /// The answer.
    #[cold]
    pub fn answer(self) -> Response {
        let Deferred { errors, kept } = *self.0;
        kept.answer(errors)
    }
}
