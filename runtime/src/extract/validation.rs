//! [`Validation`]: the app's answer to validation errors, for the errors a route finds itself
//! (an upload read part by part, a rule across fields).
//!
//! Rules enforced here: errors a route records answer exactly as the errors the framework finds
//! (FastAPI's 422, or the app's `on_validation_error` with its status); the argument is injected
//! (documents nothing, records nothing); it costs a route that does not take it nothing, and a
//! route that takes it a copy of the request head only when the app overrides the answer (the
//! override is given the head).

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use crate::response::{KeptValidation, Response};
use crate::validate::ValidationErrors;

/// The app's answer to validation errors, as an argument: record errors in a
/// [`ValidationErrors`] and end with `validation.finish(errors)?`, which answers them as the
/// framework answers its own (FastAPI's 422, or [`App::on_validation_error`]'s answer).
/// [`ValidationErrors::finish`] alone always answers FastAPI's 422.
///
/// [`App::on_validation_error`]: crate::App::on_validation_error
#[derive(Clone, Default)]
pub struct Validation(KeptValidation);

impl std::fmt::Debug for Validation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Validation")
            .field(&if self.0.is_app_answer() {
                "app's answer"
            } else {
                "FastAPI's answer"
            })
            .finish()
    }
}

impl Validation {
    /// `Err` with the app's answer to `errors` when there are any, else `Ok`.
    pub fn finish(&self, errors: ValidationErrors) -> Result<(), Response> {
        if errors.is_empty() {
            return Ok(());
        }
        Err(self.answer(errors))
    }

    /// The app's answer to `errors` (which should not be empty).
    pub fn answer(&self, errors: ValidationErrors) -> Response {
        self.0.answer(errors)
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl Extract for Validation {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(Validation(KeptValidation::keep(cx.answers(), cx.parts)))
    }
}
