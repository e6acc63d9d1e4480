//! Conditional requests (RFC 9110 §13): entity tags ([`ETag`]), the request's `If-Match` and
//! `If-None-Match` as a route argument ([`Preconditions`]), and an answer carrying its tag
//! ([`Tagged`]), so that a write made on a stale copy is refused (412) and a read of an unchanged
//! resource costs no body (304). The manual's "Safe writes" chapter shows them in use.
//!
//! Its files: `etag`, the tags, the field values and the two comparisons; `preconditions`, the
//! argument and the evaluation in the RFC's order; `tagged`, the answer.
//!
//! Rules enforced here: nothing runs for a route that takes no [`Preconditions`] and answers no
//! [`Tagged`] (they are an argument and a response like any other); the state a precondition is
//! evaluated against (the resource's current tag) is the route's to supply, so a route that knows
//! its version cheaply evaluates before doing any work ([`Preconditions::evaluate`]), and one that
//! does not evaluates against the answer it made ([`Preconditions::respond_hashed`]).

mod etag;
mod preconditions;
mod tagged;

pub use etag::{Condition, ETag, InvalidETag};
pub use preconditions::{IfMatchRequired, Policy, Preconditions, Read, Unmet, Write};
pub use tagged::Tagged;
