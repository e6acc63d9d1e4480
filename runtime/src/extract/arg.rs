//! How each handler argument that is not a path parameter is obtained: the [`Arg`] trait, and its
//! implementations for query parameters, state and the injected request parts.
//!
//! Rules enforced here (FastAPI's parameter conventions):
//! - a scalar query parameter is required unless it is `Option<T>` (absent → `None`) or has a
//!   default; `Vec<T>` collects every repetition (absent → empty) with the index in `loc`; a
//!   repeated scalar takes its last value, as Starlette does;
//! - `input` in a query error is the raw (decoded) string, as FastAPI reports it;
//! - which kind an argument type is (query, body, injected) is a property of the type: the
//!   `StrEnum` derive makes a query parameter, the `Model` derive a JSON body (see
//!   [`super::json_body`]), `State<T>`, `HeaderMap`, `Method` and `Uri` are injected;
//! - each argument documents itself in the route's OpenAPI operation ([`Arg::doc`]): a query
//!   parameter with its schema, the body, or nothing for injected values.

use std::any::type_name;

use serde::Serialize;
use serde_json::{json, Value};

use super::request::RequestCx;
use super::state::{State, StateMap};
use crate::openapi::{param_schema, ArgDoc, Operation};
use crate::validate::{
    query_loc, title_case, Constraint, FromParam, Loc, LocItem, SchemaRegistry, ValidationErrors,
};

/// Where an argument's value comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The query string.
    Query,
    /// The JSON request body.
    Body,
    /// The server (state, headers): not part of the API.
    Injected,
}

impl Source {
    /// True for the body.
    pub const fn is_body(self) -> bool {
        matches!(self, Source::Body)
    }
}

/// A handler argument that is not a path parameter.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a route argument",
    label = "not a query parameter, a JSON body or an injected value",
    note = "query parameters are integers, floats, bool, String, an enum deriving `StrEnum`, or `Option`/`Vec` of those",
    note = "a JSON body is a struct deriving `Model`; shared state is `State<T>` with `T: Send + Sync + 'static`; headers are `HeaderMap`"
)]
pub trait Arg: Sized {
    /// Where the value comes from.
    const SOURCE: Source;

    /// Obtain the value; on failure record errors and return `None`.
    fn extract(
        cx: &RequestCx,
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &'static [Constraint],
        errors: &mut ValidationErrors,
    ) -> Option<Self>;

    /// Describe the argument for the OpenAPI document.
    fn doc(
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> ArgDoc;

    /// Check, when the app is built, that what the argument needs is there.
    fn check(_state: &StateMap) -> Result<(), String> {
        Ok(())
    }
}

/// Convert `raw` to `T` and check `constraints`, recording any failure at `loc`.
pub(crate) fn convert<T: FromParam>(
    raw: &str,
    constraints: &[Constraint],
    loc: impl FnOnce() -> Loc,
    errors: &mut ValidationErrors,
) -> Option<T> {
    let result = T::from_param(raw).and_then(|v| match Constraint::check_all(constraints, &v) {
        Some(failure) => Err(failure),
        None => Ok(v),
    });
    // The location is built only on failure: valid requests allocate nothing for it.
    result
        .map_err(|f| errors.push(f.at(loc(), Value::String(raw.to_owned()))))
        .ok()
}

// Not recommended: for a type that is no argument at all, the error names `Arg` and its notes
// rather than the scalar conversion this impl needs.
#[diagnostic::do_not_recommend]
impl<T: FromParam + Serialize> Arg for T {
    const SOURCE: Source = Source::Query;

    fn extract(
        cx: &RequestCx,
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &'static [Constraint],
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        match cx.query_last(name) {
            Some(raw) => convert(&raw, constraints, || query_loc(name), errors),
            None => match default {
                Some(default) => Some(default()),
                None => {
                    errors.missing(query_loc(name));
                    None
                }
            },
        }
    }

    fn doc(
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> ArgDoc {
        let default = default.map(|f| f());
        ArgDoc::Query {
            schema: param_schema::<T>(name, default.as_ref(), constraints, registry),
            required: default.is_none(),
        }
    }
}

impl<T: FromParam + Serialize> Arg for Option<T> {
    const SOURCE: Source = Source::Query;

    fn extract(
        cx: &RequestCx,
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &'static [Constraint],
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
        match cx.query_last(name) {
            Some(raw) => convert::<T>(&raw, constraints, || query_loc(name), errors).map(Some),
            None => Some(default.and_then(|f| f())),
        }
    }

    fn doc(
        name: &'static str,
        _default: Option<fn() -> Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> ArgDoc {
        let inner = param_schema::<T>(name, None, &[], registry);
        let mut inner = match inner {
            Value::Object(mut map) => {
                map.remove("title");
                for constraint in constraints {
                    constraint.annotate(&mut map);
                }
                Value::Object(map)
            }
            other => other,
        };
        if inner.is_null() {
            inner = json!({});
        }
        ArgDoc::Query {
            schema: json!({ "anyOf": [inner, { "type": "null" }], "title": title_case(name) }),
            required: false,
        }
    }
}

impl<T: FromParam + Serialize> Arg for Vec<T> {
    const SOURCE: Source = Source::Query;

    fn extract(
        cx: &RequestCx,
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &'static [Constraint],
        errors: &mut ValidationErrors,
    ) -> Option<Self> {
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
            match convert::<T>(&raw, constraints, loc, errors) {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
        if !seen {
            return Some(default.map(|f| f()).unwrap_or_default());
        }
        ok.then_some(values)
    }

    fn doc(
        name: &'static str,
        default: Option<fn() -> Self>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) -> ArgDoc {
        let mut items = param_schema::<T>(name, None, constraints, registry);
        if let Value::Object(map) = &mut items {
            map.remove("title");
        }
        let default = default.map(|f| f()).unwrap_or_default();
        ArgDoc::Query {
            schema: json!({
                "type": "array",
                "items": items,
                "default": serde_json::to_value(&default).unwrap_or(Value::Array(Vec::new())),
                "title": title_case(name),
            }),
            required: false,
        }
    }
}

impl<S: Send + Sync + 'static> Arg for State<S> {
    const SOURCE: Source = Source::Injected;

    fn extract(
        cx: &RequestCx,
        _name: &'static str,
        _default: Option<fn() -> Self>,
        _constraints: &'static [Constraint],
        _errors: &mut ValidationErrors,
    ) -> Option<Self> {
        let state = cx.state::<S>().map(State);
        if state.is_none() {
            tracing::error!(
                state = type_name::<S>(),
                "route asks for state the app does not hold"
            );
        }
        state
    }

    fn doc(_: &'static str, _: Option<fn() -> Self>, _: &[Constraint], _: &mut SchemaRegistry) -> ArgDoc {
        ArgDoc::Hidden
    }

    fn check(state: &StateMap) -> Result<(), String> {
        if state.contains(std::any::TypeId::of::<S>()) {
            Ok(())
        } else {
            Err(format!(
                "a route takes `State<{}>` but the app holds no such state; add it with `App::state(value)`",
                type_name::<S>()
            ))
        }
    }
}

macro_rules! injected {
    ($ty:ty, |$cx:ident| $get:expr) => {
        impl Arg for $ty {
            const SOURCE: Source = Source::Injected;

            fn extract(
                $cx: &RequestCx,
                _name: &'static str,
                _default: Option<fn() -> Self>,
                _constraints: &'static [Constraint],
                _errors: &mut ValidationErrors,
            ) -> Option<Self> {
                Some($get)
            }

            fn doc(
                _: &'static str,
                _: Option<fn() -> Self>,
                _: &[Constraint],
                _: &mut SchemaRegistry,
            ) -> ArgDoc {
                ArgDoc::Hidden
            }
        }
    };
}

injected!(hyper::HeaderMap, |cx| cx.headers().clone());
injected!(hyper::Method, |cx| cx.parts().method.clone());
injected!(hyper::Uri, |cx| cx.parts().uri.clone());

// Defined here rather than beside `Operation`: documenting an argument is the argument's job (see
// `Arg::doc`), and the OpenAPI layer sits below extraction, knowing nothing of `Arg`.
impl Operation {
    /// Document a non-path argument (query parameter or body; injected ones are skipped).
    pub fn arg<T: Arg>(
        &mut self,
        name: &'static str,
        default: Option<fn() -> T>,
        constraints: &[Constraint],
        registry: &mut SchemaRegistry,
    ) {
        self.arg_doc(name, T::doc(name, default, constraints, registry));
    }
}
