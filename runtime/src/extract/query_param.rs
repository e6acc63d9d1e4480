//! Query parameters as arguments: a scalar ([`FromParam`]: integers, floats, bool, `String`, a
//! `StrEnum`), an `Option` of one, a `Vec` of them.
//!
//! Rules enforced here (FastAPI's parameter conventions):
//! - a scalar query parameter is required unless it is `Option<T>` (absent → `None`) or has a
//!   default; a `Nullable<T>` is required, and documented as may-be-null (FastAPI's `T | None`
//!   without a default); `Vec<T>` collects every repetition (absent → empty) with the index in `loc`; a
//!   repeated scalar takes its last value, as Starlette does;
//! - `input` in a query error is the raw (decoded) string, as FastAPI reports it;
//! - each documents itself as a query parameter, with its schema, default and constraints.

use serde::Serialize;

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use crate::openapi::{option_param_schema, param_schema, vec_param_schema, Operation};
use crate::validate::{
    convert_param, query_loc, FromParam, LocItem, Nullable, SchemaRegistry, ValidationErrors,
};

// Not recommended: for a type that is no argument at all, the error names `Arg` and its notes
// rather than the scalar conversion this impl needs.
#[diagnostic::do_not_recommend]
impl<T: FromParam + Serialize + Send + 'static> Extract for T {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name();
        match cx.query_last(name) {
            Some(raw) => convert_param(&raw, param.constraints(), || query_loc(name), errors),
            None => match param.default_fn() {
                Some(default) => Some(default()),
                None => {
                    errors.missing(query_loc(name));
                    None
                }
            },
        }
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let default = param.default_value();
        let schema = param_schema::<T>(param.name(), default.as_ref(), param.constraints(), registry);
        op.query_param(param.name(), schema, default.is_none());
    }
}

impl<T: FromParam + Serialize + Send + 'static> Extract for Option<T> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name();
        match cx.query_last(name) {
            Some(raw) => convert_param::<T>(&raw, param.constraints(), || query_loc(name), errors).map(Some),
            None => Some(param.default_fn().and_then(|f| f())),
        }
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let schema = option_param_schema::<T>(param.name(), param.constraints(), registry);
        op.query_param(param.name(), schema, false);
    }
}

impl<T: FromParam + Serialize + Send + 'static> Extract for Nullable<T> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name();
        match cx.query_last(name) {
            Some(raw) => convert_param::<T>(&raw, param.constraints(), || query_loc(name), errors)
                .map(|v| Nullable(Some(v))),
            None => {
                errors.missing(query_loc(name));
                None
            }
        }
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let schema = option_param_schema::<T>(param.name(), param.constraints(), registry);
        op.query_param(param.name(), schema, true);
    }
}

impl<T: FromParam + Serialize + Send + 'static> Extract for Vec<T> {
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name();
        let mut values = Vec::new();
        let mut ok = true;
        let mut seen = false;
        for (index, raw) in cx.query_all(name).enumerate() {
            seen = true;
            let loc = || {
                vec![
                    LocItem::Static("query"),
                    LocItem::Static(name),
                    LocItem::Index(index),
                ]
            };
            match convert_param::<T>(&raw, param.constraints(), loc, errors) {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
        if !seen {
            return Some(param.default_value().unwrap_or_default());
        }
        ok.then_some(values)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let default = param.default_value().unwrap_or_default();
        let schema = vec_param_schema::<T>(param.name(), default, param.constraints(), registry);
        op.query_param(param.name(), schema, false);
    }
}
