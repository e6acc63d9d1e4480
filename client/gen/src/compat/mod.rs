//! Whether a new OpenAPI 3.1 document breaks a caller of an old one (issue 44, item 6): a
//! released version's document, committed, compared with the one the app serves now.
//!
//! ```
//! let old = r#"{"openapi": "3.1.0", "paths": {"/item": {"get": {"responses": {"200": {"description": "OK",
//!     "content": {"application/json": {"schema": {"type": "integer"}}}}}}}}}"#;
//! let new = old.replace(r#""type": "integer""#, r#""type": "number""#);
//! let breaks = ferrapi_client_gen::compat::breaks_between(old, &new)?;
//! assert_eq!(breaks.len(), 1);
//! assert_eq!(
//!     breaks[0].to_string(),
//!     "response of GET /item: the type is wider: number may now be sent (it was integer) \
//!      (at #/paths/~1item/get/responses/200/content/application~1json/schema/type)"
//! );
//! # Ok::<(), ferrapi_client_gen::GenError>(())
//! ```
//!
//! Rules enforced here (the design's table, `runtime/manual/design/versions.md` section 6):
//! - operations are matched by path and method (a path's parameter names do not matter: a path
//!   parameter is matched by its position); one removed breaks;
//! - the **request** side (parameters by `in` and name, the request body) breaks when the new
//!   document accepts *less* than the old one did: a parameter, body or field made required (or a
//!   new required one), a type narrowed, an enum value removed, a constraint tightened
//!   (`maxLength`, `minLength`, `maximum`, `minimum`, `exclusive*`, `multipleOf`, `minItems`,
//!   `maxItems`, `uniqueItems`; a `pattern` or `format` added or changed at all, as regular
//!   expressions cannot be compared), a property removed where `additionalProperties` is `false`,
//!   a media type no longer accepted;
//! - the **response** side (each status's body) breaks when the new document may send *more*
//!   than the old one could: a type widened (`integer` → `number`, `null` added), an enum value
//!   added, a required field made optional or removed, a constraint loosened, a media type added
//!   to an answer that had one; a status removed breaks (a caller written for it never sees it);
//! - schemas: `$ref`s are followed through the document (a visited set of pairs stops recursive
//!   models); a schema is read as a list of alternatives, one per JSON type (`anyOf`/`oneOf`
//!   members flattened, `type: [a, b]` split, no `type` inferred from the keywords, `true` every
//!   type); on the request side every old alternative must find a new one of its type (an
//!   `integer` may be taken by a `number`), on the response side every new alternative an old
//!   one, and the pairs are compared keyword by keyword; `allOf` is merged into one schema
//!   (properties and `required` united, the first member's other keywords), as pydantic uses it
//!   to wrap one `$ref`;
//! - each [`Break`] names its JSON pointer: in the new document where the thing is now, in the
//!   old one where it is gone (a removed operation, status, property or enum value); one change
//!   reached from several operations is one break listing them;
//! - what is not a break: anything added that is optional (an operation, a status, a parameter, a
//!   response field, a request field not required), a response narrowed, a request widened,
//!   descriptions, titles, examples, `info`, the order of anything.
//!
//! Not compared (yet): response headers, parameters' `style`/`explode`, `readOnly`/`writeOnly`,
//! `not`, `if`/`then`/`else`, `dependentRequired`, security schemes; a status key is matched as
//! written (`default` and `2XX` are keys like any other); a union member's change that another
//! member absorbs is not reported (the union as a whole still takes the value).

mod blessed;
mod operations;
mod schemas;
#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::Value;

use crate::document::{Document, GenError};

pub use blessed::{Blessed, Checked, Release, SnapshotError, VersionsFailed};

/// Which side of a call a change concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// What a caller sends: the new document must accept all the old one did.
    Request,
    /// What a caller receives: the new document must send only what the old one could.
    Response,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Request => "request",
            Side::Response => "response",
        })
    }
}

/// The kind of a breaking change (one per row of the design's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An operation (path and method) is gone.
    OperationRemoved,
    /// A documented status is gone.
    StatusRemoved,
    /// A parameter is required now (or a new one is required).
    ParameterRequired,
    /// The request body is required now.
    BodyRequired,
    /// A request body's media type is no longer accepted, or an answer has no body any more.
    MediaTypeRemoved,
    /// An answer that had a body may come in another media type.
    MediaTypeAdded,
    /// A request value's type accepts less (`number` → `integer`, `null` refused).
    TypeNarrowed,
    /// A response value's type says more (`integer` → `number`, `null` added).
    TypeWidened,
    /// A request enum lost a value (or a value became limited to an enum).
    EnumValueRemoved,
    /// A response enum gained a value (or lost its limit).
    EnumValueAdded,
    /// A request constraint is tighter.
    ConstraintTightened,
    /// A response constraint is looser.
    ConstraintLoosened,
    /// A request field is required now (or a new field is required).
    PropertyRequired,
    /// A required response field may be missing now.
    PropertyOptional,
    /// A field is gone: a required response field, or a request field where no other is allowed.
    PropertyRemoved,
    /// A `$ref` cannot be followed: what it stands for cannot be compared.
    Unresolved,
}

/// A change of the new document that breaks a caller of the old one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Break {
    /// Where (RFC 6901 pointer): in the new document, or in the old one for what is gone.
    pub pointer: String,
    /// The side of the call it breaks.
    pub side: Side,
    /// What kind of change it is.
    pub kind: Kind,
    /// What changed, in words.
    pub what: String,
    /// The operations it breaks (`GET /item/{id}`), in the old document's order.
    pub operations: Vec<String>,
}

impl fmt::Display for Break {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {}: {} (at {})",
            self.side,
            self.operations.join(", "),
            self.what,
            self.pointer
        )
    }
}

/// The changes of `new` that break a caller of `old`, in the old document's order.
pub fn breaks(old: &Document<'_>, new: &Document<'_>) -> Vec<Break> {
    let mut found = Found::default();
    operations::compare(old, new, &mut found);
    found.breaks
}

/// [`breaks`] between two documents given as JSON text; an error if either is not an OpenAPI 3
/// document (its pointer names where).
pub fn breaks_between(old: &str, new: &str) -> Result<Vec<Break>, GenError> {
    let parse = |text: &str, which: &str| {
        serde_json::from_str::<Value>(text)
            .map_err(|error| GenError::at("#", format!("the {which} document is not JSON: {error}")))
    };
    let (old, new) = (parse(old, "old")?, parse(new, "new")?);
    Ok(breaks(&Document::new(&old)?, &Document::new(&new)?))
}

/// The breaks found so far: one change reached from several operations is kept once.
#[derive(Default)]
struct Found {
    breaks: Vec<Break>,
}

impl Found {
    /// Record a break of `operation`; the same change already found gains the operation.
    fn add(&mut self, operation: &str, side: Side, kind: Kind, pointer: String, what: String) {
        if let Some(known) = self
            .breaks
            .iter_mut()
            .find(|b| b.pointer == pointer && b.side == side && b.kind == kind && b.what == what)
        {
            if !known.operations.iter().any(|o| o == operation) {
                known.operations.push(operation.to_owned());
            }
            return;
        }
        self.breaks.push(Break {
            pointer,
            side,
            kind,
            what,
            operations: vec![operation.to_owned()],
        });
    }
}
