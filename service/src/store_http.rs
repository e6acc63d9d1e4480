//! The store's failures as HTTP answers, shared by group A's clinic and group B's birds.
//!
//! Rules enforced here: a store failure answers the status its kind calls for (503 while the
//! database is unavailable, 422 for a refused document, 500 for a bug) with the client-safe
//! [`StoreError::detail`]; its cause goes to the log, never to the client. Every route that uses
//! the store documents its 503 with the one description [`STORE_UNAVAILABLE`]. Numbers no store
//! can keep exactly ([`unstorable_numbers`]) are a 422 in the framework's validation-error shape,
//! one item per number, so a client reads them as it reads every other 422 of the service.

use ferrapi::prelude::*;
use ferrapi::validation::{ErrorItem, Failure, LocItem};
use serde_json::json;

use crate::exact::{Unkeepable, DECIMAL128_DIGITS};
use crate::store::{PathItem, StoreError, Unstorable};

/// How the OpenAPI document describes the 503 of a route that uses the store (one text, so the
/// routes' descriptions cannot drift apart).
pub const STORE_UNAVAILABLE: &str = "The database is unavailable";

/// A store failure as an HTTP error: the status its kind calls for, a client-safe detail.
pub fn store_failure(err: &StoreError) -> HttpError {
    tracing::error!(error = %err, "store operation failed");
    HttpError::new(err.status(), err.detail())
}

/// Numbers no store can keep exactly, as the 422 a client gets: `{"detail": [...]}` with one item
/// per number, in document order, each with its place in the body (`["body", "a", 0]`), the number
/// as sent (a string: no JSON value a client reads could hold it unchanged) and why:
/// `number_too_precise` (more than 34 significant digits) or `number_out_of_range` (a magnitude
/// below 1E-6176 or from 1E+6145 up).
pub fn unstorable_numbers(refused: &[Unstorable]) -> HttpError {
    let items: Vec<ErrorItem> = refused
        .iter()
        .map(|number| {
            let failure = match number.reason {
                Unkeepable::TooManyDigits => Failure::with_ctx(
                    "number_too_precise",
                    format!(
                        "Number should have at most {DECIMAL128_DIGITS} significant digits to be stored exactly"
                    ),
                    json!({ "max_digits": DECIMAL128_DIGITS }),
                ),
                Unkeepable::OutOfRange => Failure::new(
                    "number_out_of_range",
                    "Number should be 0 or between 1E-6176 and 1E+6145 in magnitude to be stored exactly",
                ),
            };
            let mut loc = vec![LocItem::Static("body")];
            loc.extend(number.path.iter().map(|step| match step {
                PathItem::Key(key) => LocItem::Owned(key.clone()),
                PathItem::Index(index) => LocItem::Index(*index),
            }));
            failure.at(loc, Value::String(number.number.as_str().to_owned()))
        })
        .collect();
    HttpError::new(422, serde_json::to_value(items).unwrap_or_default())
}
