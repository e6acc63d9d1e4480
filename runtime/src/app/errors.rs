//! The app's overrides of the answers the framework gives by itself: 404, 405, the validation
//! error and 500 (see the manual's [Error answers of your own](crate#error-answers-of-your-own)).
//!
//! Rules enforced here: an override is a plain function of what the request showed (its head,
//! the validation errors) to anything [`IntoResponse`]; the status is the framework's (404, 405
//! with `Allow`, 500), except the validation error's, which the app names with the override (a
//! client error, 4xx: any other would take the place of a success or a server error in the
//! document, so the app does not build), and whose body type gives the schema the OpenAPI
//! document shows in place of `HTTPValidationError`.

use std::sync::Arc;

use hyper::http::request::Parts;
use hyper::StatusCode;

use super::{App, Declared, Mistake, MistakeKind};
use crate::openapi::ErrorBody;
use crate::response::{IntoResponse, ValidationAnswer};
use crate::validate::{JsonSchema, ValidationErrors};

impl App {
    /// Answer a request whose path no route has with `answer(head)` instead of FastAPI's
    /// `{"detail":"Not Found"}`. The status stays 404.
    pub fn on_not_found<F, R>(mut self, answer: F) -> Self
    where
        F: Fn(&Parts) -> R + Send + Sync + 'static,
        R: IntoResponse,
    {
        self.answers.not_found = Some(Arc::new(move |head| answer(head).into_response()));
        self
    }

    /// Answer a request whose path routes serve for other methods only with `answer(head)`
    /// instead of FastAPI's `{"detail":"Method Not Allowed"}`. The status stays 405, and the
    /// `Allow` header is added to the answer.
    pub fn on_method_not_allowed<F, R>(mut self, answer: F) -> Self
    where
        F: Fn(&Parts) -> R + Send + Sync + 'static,
        R: IntoResponse,
    {
        self.answers.method_not_allowed = Some(Arc::new(move |head| answer(head).into_response()));
        self
    }

    /// Answer a request whose path, query or body fails validation with `status` and
    /// `answer(errors, head)` instead of FastAPI's 422 `{"detail": [...]}`: `errors` holds every
    /// error of the request ([`ValidationErrors::items`]), or the one `json_invalid` error of a
    /// body that is not JSON. (A body that is not UTF-8 is still FastAPI's 400.)
    ///
    /// The OpenAPI document follows: each operation that validates input documents `status` with
    /// the schema of `R` (`Json<T>` has `T`'s) in place of `422` and `HTTPValidationError`.
    /// `status` is a client error (4xx); with any other the app does not build.
    pub fn on_validation_error<F, R>(mut self, status: StatusCode, answer: F) -> Self
    where
        F: Fn(&ValidationErrors, &Parts) -> R + Send + Sync + 'static,
        R: IntoResponse + JsonSchema,
    {
        self.answers.validation = Some(ValidationAnswer {
            status,
            answer: Arc::new(move |errors, head| answer(errors, head).into_response()),
            schema: R::schema,
        });
        self
    }

    /// Answer the failures the framework answers 500 with `answer()` instead of FastAPI's
    /// `{"detail":"Internal Server Error"}`: a handler that panicked (before or after it
    /// suspended) and a layer's error other than a timeout or overload. The status stays 500, and
    /// the cause is still logged. (A response a handler builds itself, an [`HttpError`] of 500
    /// say, is its own; so is the 500 of a `Json` value that cannot be serialized.)
    ///
    /// [`HttpError`]: crate::HttpError
    pub fn on_internal_error<F, R>(mut self, answer: F) -> Self
    where
        F: Fn() -> R + Send + Sync + 'static,
        R: IntoResponse,
    {
        self.answers.internal = Some(Arc::new(move || answer().into_response()));
        self
    }

    /// How the document shows the validation error, when the app answers it its own way.
    pub(super) fn validation_error_body(&self) -> Result<Option<ErrorBody>, Mistake> {
        let Some(validation) = &self.answers.validation else {
            return Ok(None);
        };
        if !validation.status.is_client_error() {
            return Err(Mistake::new(
                MistakeKind::ValidationStatus {
                    status: validation.status.as_u16(),
                },
                Declared::App {
                    setting: "on_validation_error",
                },
            ));
        }
        Ok(Some(ErrorBody {
            status: validation.status.as_u16(),
            schema: validation.schema,
        }))
    }
}
