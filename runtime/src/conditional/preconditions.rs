//! The [`Preconditions`] argument: a request's `If-Match` and `If-None-Match`, evaluated against
//! the current entity tag of the resource in RFC 9110's order, and the answers of a precondition
//! that does not hold ([`Unmet`]: 304, 412, 428).
//!
//! Rules enforced here:
//! - evaluation follows RFC 9110 §13.2.2: `If-Match` first (false → 412), then `If-None-Match`
//!   (false → 304 for GET and HEAD, 412 for any other method); `If-Unmodified-Since` and
//!   `If-Modified-Since` are not read (these types know no modification dates);
//! - a route that requires `If-Match` ([`IfMatchRequired`]) answers 428 to a request without one,
//!   before anything else (RFC 6585 §3);
//! - a field that is not `*` or a list of entity tags is a validation error at
//!   `["header", "if-match"]` (or `if-none-match`): a write is never made on a condition that
//!   could not be read;
//! - the 304 carries the current `ETag` and no body; 412 and 428 are `{"detail": …}` answers;
//! - the policy type decides only what the OpenAPI document shows (and the 428): the request's
//!   method decides between 304 and 412.

use std::marker::PhantomData;

use hyper::header::{ETAG, IF_MATCH, IF_NONE_MATCH};
use hyper::{HeaderMap, Method, StatusCode};
use serde_json::{json, Value};

use super::etag::{Condition, ETag};
use crate::extract::{Extract, Param, RequestCx};
use crate::openapi::Operation;
use crate::response::{HttpError, IntoResponse, Response};
use crate::validate::{Failure, LocItem, SchemaRegistry, ValidationErrors};

/// What a [`Preconditions`] argument documents, and whether `If-Match` is required. One of
/// [`Read`], [`Write`], [`IfMatchRequired`].
pub trait Policy: Send + 'static {
    /// Document 304 (a read's answer to a matching `If-None-Match`).
    #[doc(hidden)]
    const NOT_MODIFIED: bool;
    /// Answer 428 to a request without `If-Match`, and document it as required.
    #[doc(hidden)]
    const REQUIRE_IF_MATCH: bool;
}

/// The policy of a read (`GET`): documents 304 and 412.
#[derive(Debug, Clone, Copy, Default)]
pub struct Read;

/// The policy of a write (`PUT`, `PATCH`, `DELETE`) that may be sent unconditionally: documents
/// 412.
#[derive(Debug, Clone, Copy, Default)]
pub struct Write;

/// The policy of a write that must be conditional: 428 without `If-Match`; documents 412 and 428.
#[derive(Debug, Clone, Copy, Default)]
pub struct IfMatchRequired;

impl Policy for Read {
    const NOT_MODIFIED: bool = true;
    const REQUIRE_IF_MATCH: bool = false;
}

impl Policy for Write {
    const NOT_MODIFIED: bool = false;
    const REQUIRE_IF_MATCH: bool = false;
}

impl Policy for IfMatchRequired {
    const NOT_MODIFIED: bool = false;
    const REQUIRE_IF_MATCH: bool = true;
}

/// A request's preconditions (`If-Match`, `If-None-Match`), to evaluate against the resource's
/// current entity tag with [`evaluate`](Preconditions::evaluate), or to apply to the answer with
/// [`respond`](Preconditions::respond). `P` ([`Read`], [`Write`] or [`IfMatchRequired`]) says what
/// the OpenAPI document shows and whether `If-Match` is required.
#[derive(Debug, Clone)]
pub struct Preconditions<P = Read> {
    if_match: Option<Condition>,
    if_none_match: Option<Condition>,
    /// GET or HEAD: a false `If-None-Match` is a 304, not a 412.
    read: bool,
    policy: PhantomData<fn() -> P>,
}

/// A precondition that does not hold: the answer is 304 Not Modified, 412 Precondition Failed or
/// 428 Precondition Required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmet {
    status: StatusCode,
    /// The current tag, sent with a 304.
    current: Option<ETag>,
}

impl Unmet {
    /// 304, 412 or 428.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The answer, with `headers` (those of the answer the request would have had: a 304 keeps
    /// what RFC 9110 §15.4.5 lists) when it is a 304.
    pub(super) fn answer_with(self, headers: Option<&HeaderMap>) -> Response {
        match self.status {
            StatusCode::NOT_MODIFIED => {
                let mut response = StatusCode::NOT_MODIFIED.into_response();
                let out = response.headers_mut();
                if let Some(headers) = headers {
                    for name in &KEPT_BY_304 {
                        for value in headers.get_all(name) {
                            out.append(name.clone(), value.clone());
                        }
                    }
                }
                if let Some(current) = &self.current {
                    out.insert(ETAG, current.to_header_value());
                }
                response
            }
            StatusCode::PRECONDITION_REQUIRED => HttpError::new(428, "Precondition Required").into_response(),
            _ => HttpError::new(412, "Precondition Failed").into_response(),
        }
    }
}

/// The headers a 304 sends when the 200 would have (RFC 9110 §15.4.5).
const KEPT_BY_304: [hyper::header::HeaderName; 6] = [
    hyper::header::CACHE_CONTROL,
    hyper::header::CONTENT_LOCATION,
    hyper::header::DATE,
    ETAG,
    hyper::header::EXPIRES,
    hyper::header::VARY,
];

impl IntoResponse for Unmet {
    fn into_response(self) -> Response {
        self.answer_with(None)
    }
}

impl<P: Policy> Preconditions<P> {
    /// Preconditions read from request headers (for tests and other entry points than a route
    /// argument); `read` is true for GET and HEAD. A field that cannot be read is an `Err` naming
    /// it.
    pub fn from_headers(headers: &HeaderMap, read: bool) -> Result<Self, &'static str> {
        Ok(Preconditions {
            if_match: field(headers, &IF_MATCH).map_err(|()| "if-match")?,
            if_none_match: field(headers, &IF_NONE_MATCH).map_err(|()| "if-none-match")?,
            read,
            policy: PhantomData,
        })
    }

    /// The `If-Match` condition, if the request sent one.
    pub fn if_match(&self) -> Option<&Condition> {
        self.if_match.as_ref()
    }

    /// The `If-None-Match` condition, if the request sent one.
    pub fn if_none_match(&self) -> Option<&Condition> {
        self.if_none_match.as_ref()
    }

    /// Whether the request is conditional at all: without either field [`evaluate`] always holds
    /// (unless `If-Match` is required), so a route may skip reading the current tag.
    ///
    /// [`evaluate`]: Preconditions::evaluate
    pub fn is_conditional(&self) -> bool {
        self.if_match.is_some() || self.if_none_match.is_some()
    }

    /// Evaluate the preconditions against the resource's current entity tag (`None`: the
    /// resource has no current representation), in RFC 9110 §13.2.2's order: `Ok` when the
    /// request may proceed, else the answer ([`Unmet`]).
    pub fn evaluate(&self, current: Option<&ETag>) -> Result<(), Unmet> {
        let unmet = |status| Unmet {
            status,
            current: current.cloned(),
        };
        if P::REQUIRE_IF_MATCH && self.if_match.is_none() {
            return Err(unmet(StatusCode::PRECONDITION_REQUIRED));
        }
        if let Some(condition) = &self.if_match {
            if !condition.if_match(current) {
                return Err(unmet(StatusCode::PRECONDITION_FAILED));
            }
        }
        if let Some(condition) = &self.if_none_match {
            if !condition.if_none_match(current) {
                let status = if self.read {
                    StatusCode::NOT_MODIFIED
                } else {
                    StatusCode::PRECONDITION_FAILED
                };
                return Err(unmet(status));
            }
        }
        Ok(())
    }

    /// The same preconditions without the policy (what a response keeps of them).
    pub(super) fn erase(self) -> Preconditions<Write> {
        Preconditions {
            if_match: self.if_match,
            if_none_match: self.if_none_match,
            read: self.read,
            policy: PhantomData,
        }
    }
}

/// The condition in the lines of `name`: `None` without any, `Err` when they cannot be read.
fn field(headers: &HeaderMap, name: &hyper::header::HeaderName) -> Result<Option<Condition>, ()> {
    let mut lines = headers.get_all(name).iter().peekable();
    if lines.peek().is_none() {
        return Ok(None);
    }
    let text: Vec<String> = lines
        .map(|value| value.as_bytes().iter().map(|&b| char::from(b)).collect())
        .collect();
    Condition::parse(text.iter().map(String::as_str))
        .map(Some)
        .map_err(|_| ())
}

impl<P: Policy> Extract for Preconditions<P> {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let method = &cx.parts().method;
        let read = *method == Method::GET || *method == Method::HEAD;
        match Self::from_headers(cx.headers(), read) {
            Ok(preconditions) => Some(preconditions),
            Err(name) => {
                let input: Vec<Value> = cx
                    .headers()
                    .get_all(name)
                    .iter()
                    .map(|value| Value::from(String::from_utf8_lossy(value.as_bytes())))
                    .collect();
                errors.push(
                    Failure::new(
                        "value_error",
                        "Value error, expected `*` or a list of entity tags such as \"v1\", W/\"v2\"",
                    )
                    .at(
                        vec![LocItem::Static("header"), LocItem::Static(name)],
                        if input.len() == 1 {
                            input.into_iter().next().unwrap_or(Value::Null)
                        } else {
                            Value::from(input)
                        },
                    ),
                );
                None
            }
        }
    }

    fn doc(_param: Param<Self>, op: &mut Operation, _registry: &mut SchemaRegistry) {
        let schema = |title: &str| json!({ "type": "string", "title": title });
        op.header_param("If-Match", schema("If-Match"), P::REQUIRE_IF_MATCH);
        op.header_param("If-None-Match", schema("If-None-Match"), false);
        if P::NOT_MODIFIED {
            op.dependency_response(304, "Not Modified");
        }
        op.dependency_response(412, "Precondition Failed");
        if P::REQUIRE_IF_MATCH {
            op.dependency_response(428, "Precondition Required");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::header::HeaderValue;

    fn pre<P: Policy>(fields: &[(&'static str, &'static str)], read: bool) -> Preconditions<P> {
        let mut headers = HeaderMap::new();
        for (name, value) in fields {
            headers.append(*name, HeaderValue::from_static(value));
        }
        Preconditions::from_headers(&headers, read).unwrap()
    }

    fn status<P: Policy>(pre: &Preconditions<P>, current: Option<&str>) -> u16 {
        let current = current.map(|t| ETag::parse(t).unwrap());
        match pre.evaluate(current.as_ref()) {
            Ok(()) => 200,
            Err(unmet) => unmet.status().as_u16(),
        }
    }

    #[test]
    fn without_fields_every_request_proceeds_unless_if_match_is_required() {
        assert_eq!(status(&pre::<Read>(&[], true), Some("\"1\"")), 200);
        assert!(!pre::<Write>(&[], false).is_conditional());
        assert_eq!(status(&pre::<IfMatchRequired>(&[], false), Some("\"1\"")), 428);
        assert_eq!(
            status(&pre::<IfMatchRequired>(&[("if-none-match", "*")], false), None),
            428,
            "only If-Match satisfies the requirement"
        );
    }

    #[test]
    fn if_none_match_is_304_on_reads_and_412_on_writes() {
        let fields = [("if-none-match", "W/\"1\"")];
        assert_eq!(status(&pre::<Read>(&fields, true), Some("\"1\"")), 304);
        assert_eq!(status(&pre::<Write>(&fields, false), Some("\"1\"")), 412);
        assert_eq!(status(&pre::<Read>(&fields, true), Some("\"2\"")), 200);
        assert_eq!(status(&pre::<Write>(&[("if-none-match", "*")], false), None), 200);
        assert_eq!(
            status(&pre::<Write>(&[("if-none-match", "*")], false), Some("\"1\"")),
            412
        );
    }

    #[test]
    fn if_match_is_evaluated_first() {
        // If-Match false and If-None-Match false: 412 (step 1), not 304 (step 3).
        let fields = [("if-match", "\"2\""), ("if-none-match", "\"1\"")];
        assert_eq!(status(&pre::<Read>(&fields, true), Some("\"1\"")), 412);
        // If-Match true, If-None-Match false on a read: 304.
        let fields = [("if-match", "\"1\""), ("if-none-match", "\"1\"")];
        assert_eq!(status(&pre::<Read>(&fields, true), Some("\"1\"")), 304);
        assert_eq!(status(&pre::<Write>(&[("if-match", "*")], false), None), 412);
    }

    #[test]
    fn a_304_keeps_the_caching_headers_and_the_current_tag() {
        let unmet = Unmet {
            status: StatusCode::NOT_MODIFIED,
            current: Some(ETag::from_version(3)),
        };
        let mut headers = HeaderMap::new();
        headers.insert("cache-control", HeaderValue::from_static("max-age=60"));
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        let response = unmet.answer_with(Some(&headers));
        assert_eq!(response.status(), 304);
        assert_eq!(response.headers()["etag"], "\"3\"");
        assert_eq!(response.headers()["cache-control"], "max-age=60");
        assert!(response.headers().get("content-type").is_none());
    }

    #[test]
    fn an_unreadable_field_names_itself() {
        let mut headers = HeaderMap::new();
        headers.insert("if-none-match", HeaderValue::from_static("v1"));
        assert_eq!(
            Preconditions::<Read>::from_headers(&headers, true).map(|_| ()),
            Err("if-none-match")
        );
    }
}
