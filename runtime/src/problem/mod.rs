//! Problem details (RFC 9457) as an app-wide switch ([`App::problem_details`](crate::App::problem_details)):
//! every error answer in FastAPI's shape becomes `application/problem+json`, and the OpenAPI
//! document shows the problem schema on every error response.
//!
//! Its files: `body`, the conversion of one answer; `layer`, the tower layer that applies it to
//! every answer of the app; `document`, the change to the OpenAPI document.
//!
//! Rules enforced here: without the switch nothing here runs and the document is untouched (the
//! switch adds a layer, and an app without layers keeps the direct path); with it, only an answer
//! whose status is 4xx or 5xx and whose body is FastAPI's `{"detail": …}` is rewritten, so an
//! error answer of the app's own shape (`App::on_not_found`, a route's own body) is left alone.

mod body;
mod document;
mod layer;

pub(crate) use body::to_problem;
pub(crate) use document::document_problems;
pub use layer::{ProblemLayer, ProblemService};
