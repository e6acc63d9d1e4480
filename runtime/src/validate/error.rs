//! Validation errors in pydantic v2's shape, as FastAPI sends them.
//!
//! Rules enforced here:
//! - a 422 body is `{"detail":[{"type","loc","msg","input"[,"ctx"]}]}`, keys in that order;
//! - every error of one request is collected before answering (path, then query, then header,
//!   then cookie, then body);
//! - messages are pydantic's own words, so clients written against FastAPI keep working.

use std::borrow::Cow;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::budget::OverBudget;

/// One element of an error location: a name (`"query"`, `"price"`) or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocItem {
    /// A name known at compile time.
    Static(&'static str),
    /// A name known only at run time (a map key).
    Owned(String),
    /// A position in a JSON array, or a byte offset for `json_invalid`.
    Index(usize),
}

impl Serialize for LocItem {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LocItem::Static(name) => s.serialize_str(name),
            LocItem::Owned(name) => s.serialize_str(name),
            LocItem::Index(i) => s.serialize_u64(*i as u64),
        }
    }
}

/// Where a value sits in the request, e.g. `["body", "items", 2, "price"]`.
pub type Loc = Vec<LocItem>;

/// One failed check: a pydantic error type, where, a human message, the offending input.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorItem {
    /// pydantic's error type, e.g. `int_parsing`.
    pub kind: Cow<'static, str>,
    /// Where the failure is.
    pub loc: Loc,
    /// pydantic's message.
    pub msg: Cow<'static, str>,
    /// The raw input that failed (`null` when missing).
    pub input: Value,
    /// Extra context, e.g. `{"ge": 0}`.
    pub ctx: Option<Value>,
}

impl Serialize for ErrorItem {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(if self.ctx.is_some() { 5 } else { 4 }))?;
        map.serialize_entry("type", &self.kind)?;
        map.serialize_entry("loc", &self.loc)?;
        map.serialize_entry("msg", &self.msg)?;
        map.serialize_entry("input", &self.input)?;
        if let Some(ctx) = &self.ctx {
            map.serialize_entry("ctx", ctx)?;
        }
        map.end()
    }
}

/// A check that failed, before it knows where: the converters return this and the caller adds the
/// location and input.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// pydantic's error type.
    pub kind: &'static str,
    /// pydantic's message.
    pub msg: Cow<'static, str>,
    /// Extra context.
    pub ctx: Option<Value>,
}

impl Failure {
    /// A failure without context.
    pub fn new(kind: &'static str, msg: impl Into<Cow<'static, str>>) -> Self {
        Failure {
            kind,
            msg: msg.into(),
            ctx: None,
        }
    }

    /// A failure with a context object.
    pub fn with_ctx(kind: &'static str, msg: impl Into<Cow<'static, str>>, ctx: Value) -> Self {
        Failure {
            kind,
            msg: msg.into(),
            ctx: Some(ctx),
        }
    }

    /// Place the failure at `loc` with the offending `input`.
    pub fn at(self, loc: Loc, input: Value) -> ErrorItem {
        ErrorItem {
            kind: Cow::Borrowed(self.kind),
            loc,
            msg: self.msg,
            input,
            ctx: self.ctx,
        }
    }
}

/// A body that cannot be validated at all; it replaces every other error of the request, as in
/// FastAPI (which parses the body before looking at anything else).
#[derive(Debug, Clone, PartialEq)]
pub enum BadBody {
    /// Not UTF-8: 400 `There was an error parsing the body`.
    NotUtf8,
    /// Not JSON: the one `json_invalid` error.
    InvalidJson(Box<ErrorItem>),
    /// Reading it would take more memory than the budget has (`Config::memory_budget`): 503, or
    /// 413 when it needs more than the whole budget.
    OverBudget(OverBudget),
}

/// All validation errors of one request, answered as one 422.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ValidationErrors {
    pub(crate) items: Vec<ErrorItem>,
    pub(crate) bad_body: Option<BadBody>,
}

impl ValidationErrors {
    /// No errors yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Record one error.
    pub fn push(&mut self, item: ErrorItem) {
        self.items.push(item);
    }

    /// True when every check so far passed.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.bad_body.is_none()
    }

    /// Record a body that cannot be validated; the response will report only that.
    pub fn bad_body(&mut self, bad: BadBody) {
        self.bad_body = Some(bad);
    }

    /// The errors, in the order they were found.
    pub fn items(&self) -> &[ErrorItem] {
        &self.items
    }

    /// Record that a required value is absent.
    pub fn missing(&mut self, loc: Loc) {
        self.push(Failure::new("missing", "Field required").at(loc, Value::Null));
    }

    /// Put the errors in FastAPI's order when the handler extracted its arguments in
    /// declaration order: path parameters first, the body's last, the rest between them, each
    /// source in the order found (stable). Run only on a request that failed.
    pub(crate) fn sort_by_source(&mut self) {
        self.items.sort_by_key(|item| match item.loc.first() {
            Some(LocItem::Static("path")) => 0u8,
            Some(LocItem::Static("body")) => 2,
            _ => 1,
        });
    }

    /// The JSON body `{"detail": [...]}`.
    pub fn to_json_bytes(&self) -> Vec<u8> {
        struct Detail<'a>(&'a [ErrorItem]);
        impl Serialize for Detail<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("detail", &Items(self.0))?;
                map.end()
            }
        }
        struct Items<'a>(&'a [ErrorItem]);
        impl Serialize for Items<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for item in self.0 {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
        }
        // Serializing plain strings, numbers and `Value`s cannot fail.
        if !self.items.iter().any(|item| matches!(source_rank(item), 1 | 2)) {
            return serde_json::to_vec(&Detail(&self.items)).unwrap_or_default();
        }
        // Header and cookie errors: after the path and query ones, before the body's, as FastAPI
        // orders them (stable: declaration order within each source).
        let mut items = self.items.clone();
        items.sort_by_key(source_rank);
        serde_json::to_vec(&Detail(&items)).unwrap_or_default()
    }
}

/// Where an error's source sorts in a 422: 0 for path and query (and anything but a header,
/// cookie or body), then header, cookie, body. Only consulted when a header or cookie failed.
fn source_rank(item: &ErrorItem) -> u8 {
    match item.loc.first() {
        Some(LocItem::Static("header")) => 1,
        Some(LocItem::Static("cookie")) => 2,
        Some(LocItem::Static("body")) => 3,
        _ => 0,
    }
}

/// Location of a path parameter.
pub(crate) fn path_loc(name: &'static str) -> Loc {
    vec![LocItem::Static("path"), LocItem::Static(name)]
}

/// Location of a query parameter.
pub(crate) fn query_loc(name: &'static str) -> Loc {
    vec![LocItem::Static("query"), LocItem::Static(name)]
}
