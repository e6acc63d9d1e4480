//! [`Tagged`]: an answer with an entity tag, given or computed from its body, and the request's
//! preconditions evaluated against it once the answer is made.
//!
//! Rules enforced here:
//! - only a 2xx answer gets an `ETag` (an error describes no representation of the resource), and
//!   only a 2xx answer is checked against the preconditions;
//! - a tag computed from the body needs the whole body: a streamed body is sent untagged (logged
//!   at debug), never read into memory for it;
//! - when a precondition does not hold, the answer is [`Unmet`](super::Unmet)'s: a 304 keeps the
//!   answer's `Cache-Control`, `Content-Location`, `Date`, `ETag`, `Expires` and `Vary` and drops
//!   its body and `Content-Type` (RFC 9110 §15.4.5); a 412 is the usual error answer.

use hyper::header::ETAG;

use super::etag::ETag;
use super::preconditions::{Policy, Preconditions, Write};
use crate::response::{IntoResponse, Response};

/// An answer with an entity tag: `ETag` set on a 2xx, and, when made by
/// [`Preconditions::respond`], the request's `If-Match` / `If-None-Match` evaluated against it (a
/// 304 or 412 instead of the answer when one does not hold).
#[derive(Debug)]
pub struct Tagged<R> {
    inner: R,
    /// `None`: computed from the body.
    etag: Option<ETag>,
    weak: bool,
    preconditions: Option<Preconditions<Write>>,
}

impl<R> Tagged<R> {
    /// `inner` with the entity tag `etag`.
    pub fn new(etag: ETag, inner: R) -> Self {
        Tagged {
            inner,
            etag: Some(etag),
            weak: false,
            preconditions: None,
        }
    }

    /// `inner` with the strong entity tag of its body ([`ETag::of_bytes`]).
    pub fn hashed(inner: R) -> Self {
        Tagged {
            inner,
            etag: None,
            weak: false,
            preconditions: None,
        }
    }

    /// The tag made weak (for a body that may differ in bytes between equivalent answers).
    pub fn weak(mut self) -> Self {
        self.weak = true;
        self
    }

    /// Evaluate `preconditions` against the tag when the answer is made.
    pub(super) fn under(mut self, preconditions: Preconditions<Write>) -> Self {
        self.preconditions = Some(preconditions);
        self
    }
}

// The answers of a request's preconditions live here, beside the answer they make.
impl<P: Policy> Preconditions<P> {
    /// The answer `inner` with the entity tag `etag` (see [`Tagged`]): `ETag` set
    /// on a 2xx, and these preconditions evaluated against it (a 304 keeps the answer's caching
    /// headers and drops its body).
    pub fn respond<R: IntoResponse>(self, etag: ETag, inner: R) -> Tagged<R> {
        Tagged::new(etag, inner).under(self.erase())
    }

    /// As [`respond`](Preconditions::respond), the entity tag computed from the answer's body
    /// ([`ETag::of_bytes`]) once it is made: for a representation whose version is not known
    /// without making it.
    pub fn respond_hashed<R: IntoResponse>(self, inner: R) -> Tagged<R> {
        Tagged::hashed(inner).under(self.erase())
    }
}

impl<R: IntoResponse> IntoResponse for Tagged<R> {
    fn into_response(self) -> Response {
        let mut response = self.inner.into_response();
        if !response.status().is_success() {
            return response;
        }
        let etag = match self.etag {
            Some(etag) => etag,
            None => match response.body().whole() {
                Some(bytes) => ETag::of_bytes(bytes),
                None => {
                    tracing::debug!("a streamed answer is sent without an entity tag");
                    return response;
                }
            },
        };
        let etag = if self.weak { etag.into_weak() } else { etag };
        response.headers_mut().insert(ETAG, etag.to_header_value());
        match self.preconditions.map(|pre| pre.evaluate(Some(&etag))) {
            Some(Err(unmet)) => unmet.answer_with(Some(response.headers())),
            Some(Ok(())) | None => response,
        }
    }
}
