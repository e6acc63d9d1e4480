//! How each handler argument that is not a path parameter is obtained: the [`Arg`] trait (public:
//! a type of the user's implementing it is a dependency), and its implementations for query
//! parameters, state and the injected request parts.
//!
//! Rules enforced here (FastAPI's parameter conventions):
//! - a scalar query parameter is required unless it is `Option<T>` (absent → `None`) or has a
//!   default; `Vec<T>` collects every repetition (absent → empty) with the index in `loc`; a
//!   repeated scalar takes its last value, as Starlette does;
//! - `input` in a query error is the raw (decoded) string, as FastAPI reports it;
//! - which kind an argument type is (query, body, injected, dependency) is a property of the
//!   type ([`Arg::SOURCE`]): the `StrEnum` derive makes a query parameter, the `Model` derive a
//!   JSON body (see [`super::json_body`]), `State<T>`, `HeaderMap`, `Method`, `Uri` and `LastEventId` are
//!   injected, `#[dependency]` (or a hand-written impl) makes a dependency;
//! - every kind but a dependency is ready after the synchronous step: its second step is a
//!   `std::future::Ready` (see `dependency.rs` for why that costs a route nothing);
//! - each argument documents itself in the route's OpenAPI operation ([`Arg::doc`]): a query
//!   parameter with its schema, the body, a dependency's parameters and responses, or nothing for
//!   injected values.

use std::any::type_name;
use std::future::{Future, Ready};

use serde::Serialize;
use serde_json::{json, Value};

use super::dependency::{now, resolve, Deps, Sharing};
use super::request::RequestCx;
use super::state::{State, StateMap};
use crate::openapi::{param_schema, Operation};
use crate::response::Response;
use crate::validate::{
    query_loc, title_case, Constraint, FromParam, Loc, LocItem, SchemaRegistry, ValidationErrors,
};

/// Where an argument's value comes from; decides, when the route is compiled, how its handler
/// runs (the constant folds away: nothing is checked per request).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The query string.
    Query,
    /// A request header ([`Header<T>`](crate::Header)).
    Header,
    /// A cookie ([`Cookie<T>`](crate::Cookie)).
    Cookie,
    /// The request body, read whole (JSON, a form).
    Body,
    /// The request body, read by the route as it arrives ([`Multipart`](crate::Multipart)): the
    /// dispatcher hands it over unread.
    Stream,
    /// The server (state, headers): not part of the API.
    Injected,
    /// A dependency: its inputs are read with the route's other arguments, then
    /// [`Arg::resolve`] runs (it may await, and may answer the request itself) before the route's
    /// function is called. A route that takes one is run as a boxed future.
    Dependency,
}

impl Source {
    /// True for the body, read whole or streamed (a route takes one).
    pub const fn is_body(self) -> bool {
        matches!(self, Source::Body | Source::Stream)
    }

    /// True for a body the route reads as it arrives.
    pub const fn is_stream(self) -> bool {
        matches!(self, Source::Stream)
    }

    /// True for a dependency.
    pub const fn is_dependency(self) -> bool {
        matches!(self, Source::Dependency)
    }
}

/// How an argument is declared in the route's signature: its name in the API, its
/// `#[default(..)]` and its constraints (`#[ge(0)]`, `#[max_length(50)]`). A dependency, which is
/// not a parameter itself, usually ignores it.
pub struct Param<T> {
    name: &'static str,
    default: Option<fn() -> T>,
    constraints: &'static [Constraint],
}

impl<T> Clone for Param<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Param<T> {}

impl<T> std::fmt::Debug for Param<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Param")
            .field("name", &self.name)
            .field("default", &self.default.is_some())
            .field("constraints", &self.constraints)
            .finish()
    }
}

impl<T> Param<T> {
    /// The declaration the route macros write for one argument.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn new(
        name: &'static str,
        default: Option<fn() -> T>,
        constraints: &'static [Constraint],
    ) -> Self {
        Param {
            name,
            default,
            constraints,
        }
    }

    /// The argument's name: the parameter's name in the API.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The `#[default(..)]` value, evaluated now, if the argument has one.
    pub fn default_value(&self) -> Option<T> {
        self.default.map(|f| f())
    }

    /// The function giving the `#[default(..)]` value.
    pub fn default_fn(&self) -> Option<fn() -> T> {
        self.default
    }

    /// The constraint attributes, checked by the built-in parameter kinds.
    #[doc(hidden)]
    pub fn constraints(&self) -> &'static [Constraint] {
        self.constraints
    }
}

/// A route argument that is not a path parameter: how its value is obtained from a request, and
/// what it documents. The route macros send every such argument through this trait, so the kind
/// of an argument is a property of its type: the built-in implementations make the query
/// parameters, the JSON body (`#[derive(Model)]`, [`Json<T>`](crate::Json)) and the injected
/// values (`State<T>`, `HeaderMap`, `Method`, `Uri`); a type of yours implementing it with
/// [`SOURCE`](Arg::SOURCE) `= Source::Dependency` is a **dependency** (FastAPI's `Depends`, axum's
/// `FromRequestParts`). The [`#[dependency]`](macro@crate::dependency) attribute writes the
/// implementation from an `async fn`; the manual's [Dependencies](crate#dependencies) chapter
/// shows both ways.
///
/// An argument is obtained in two steps:
///
/// 1. [`extract`](Arg::extract), synchronous, runs for every argument of the route, in the order
///    path, query (dependencies among them, where they are declared), body, collecting every
///    validation error (they are answered together as one 422). It borrows the request and
///    returns what the second step needs, owned: the value itself for a parameter, the body or an
///    injected value; a dependency's inputs (its query parameters, state, headers, the inputs of
///    the dependencies it takes) for a dependency.
/// 2. [`resolve`](Arg::resolve), asynchronous, turns that input into the value. For a
///    dependency it may await (a store lookup) and may fail with any response (401, 403, 404):
///    that response is the request's answer. Every other kind is ready at once (a
///    `std::future::Ready`), and a route without a dependency never waits for it.
///
/// A dependency used twice in one request (by the route and by another dependency, say) is
/// resolved once: [`Deps`] keeps each dependency's value for the rest of the request and hands
/// out clones, so a dependency is `Clone + Send + 'static` (hold what is expensive to copy in an
/// `Arc`); the route macros check it at the argument.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a route argument",
    label = "not a query parameter, a JSON body, an injected value or a dependency",
    note = "query parameters are integers, floats, bool, String, an enum deriving `StrEnum`, or `Option`/`Vec` of those",
    note = "a JSON body is a struct deriving `Model`, a form body `Form<T>` of one, an upload `Multipart`; shared state is `State<T>` with `T: Send + Sync + 'static`",
    note = "a header is `Header<T>`, a cookie `Cookie<T>`, with `T` what a query parameter can be (a cookie: not a `Vec`); all headers are `HeaderMap`",
    note = "a dependency is a type implementing `ferrapi::Arg`, e.g. returned by an `async fn` marked `#[dependency]`"
)]
pub trait Arg: Sized {
    /// Where the value comes from.
    const SOURCE: Source;

    /// What [`extract`](Arg::extract) hands to [`resolve`](Arg::resolve): `Self` for every kind but
    /// a dependency, whose inputs it is.
    type Input: Send + 'static;

    /// Read and validate what the argument needs from the request, recording every validation
    /// error in `errors`; `None` when something is missing or invalid (the request is then
    /// answered 422, or a dependency's failure, see [`resolve`](Arg::resolve)).
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self::Input>;

    /// Turn the input into the value, or answer the request with a response. Runs only when
    /// `extract` succeeded, before the route's function; dependencies run in the order the route
    /// declares them, each after the dependencies it takes, and the first that fails answers the
    /// request, even when other arguments are invalid (as in FastAPI, a missing credential is a
    /// 401, not a 422). Sub-dependencies are resolved with [`Deps::resolve`].
    fn resolve(input: Self::Input, deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send;

    /// Document the argument in the route's OpenAPI operation: a query parameter, the body, or,
    /// for a dependency, the parameters it reads and the responses it may answer. The default
    /// documents nothing (injected values are not part of the API).
    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let _ = (param, op, registry);
    }

    /// Check, when the app is built, that what the argument needs is there (a dependency checks
    /// its inputs').
    fn check(state: &StateMap) -> Result<(), String> {
        let _ = state;
        Ok(())
    }

    /// What generated code calls for the second step (through the cache for a dependency): a
    /// method of this trait rather than a generic function, so that a type that is no argument is
    /// one error at the argument, not one more per call. Not part of the API: do not override.
    #[doc(hidden)]
    fn __resolve(
        input: Self::Input,
        deps: &mut Deps,
        sharing: Option<Sharing<Self>>,
    ) -> impl Future<Output = Result<Self, Response>> + Send {
        resolve::<Self>(input, deps, sharing)
    }

    /// The value of an argument that is ready at once, for a route without dependencies (see
    /// `dependency::now`). Not part of the API: do not override.
    #[doc(hidden)]
    #[inline(always)]
    fn __now(input: Option<Self::Input>) -> Option<Self> {
        now::<Self>(input)
    }
}

/// `std::future::ready(Ok(value))`: the second step of every kind but a dependency.
#[inline(always)]
pub(crate) fn ready<T>(value: T) -> Ready<Result<T, Response>> {
    std::future::ready(Ok(value))
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

/// The schema of an optional scalar parameter (query, header or cookie) `name`: the scalar's, with
/// its constraints, or null.
pub(crate) fn option_schema<T: FromParam>(
    name: &str,
    constraints: &[Constraint],
    registry: &mut SchemaRegistry,
) -> Value {
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
    json!({ "anyOf": [inner, { "type": "null" }], "title": title_case(name) })
}

/// The schema of a repeated scalar parameter (query or header) `name`, `default` when absent.
pub(crate) fn vec_schema<T: FromParam + Serialize>(
    name: &str,
    default: Vec<T>,
    constraints: &[Constraint],
    registry: &mut SchemaRegistry,
) -> Value {
    let mut items = param_schema::<T>(name, None, constraints, registry);
    if let Value::Object(map) = &mut items {
        map.remove("title");
    }
    json!({
        "type": "array",
        "items": items,
        "default": serde_json::to_value(&default).unwrap_or(Value::Array(Vec::new())),
        "title": title_case(name),
    })
}

// Not recommended: for a type that is no argument at all, the error names `Arg` and its notes
// rather than the scalar conversion this impl needs.
#[diagnostic::do_not_recommend]
impl<T: FromParam + Serialize + Send + 'static> Arg for T {
    const SOURCE: Source = Source::Query;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name;
        match cx.query_last(name) {
            Some(raw) => convert(&raw, param.constraints, || query_loc(name), errors),
            None => match param.default {
                Some(default) => Some(default()),
                None => {
                    errors.missing(query_loc(name));
                    None
                }
            },
        }
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let default = param.default_value();
        let schema = param_schema::<T>(param.name, default.as_ref(), param.constraints, registry);
        op.query_param(param.name, schema, default.is_none());
    }
}

impl<T: FromParam + Serialize + Send + 'static> Arg for Option<T> {
    const SOURCE: Source = Source::Query;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name;
        match cx.query_last(name) {
            Some(raw) => convert::<T>(&raw, param.constraints, || query_loc(name), errors).map(Some),
            None => Some(param.default.and_then(|f| f())),
        }
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let schema = option_schema::<T>(param.name, param.constraints, registry);
        op.query_param(param.name, schema, false);
    }
}

impl<T: FromParam + Serialize + Send + 'static> Arg for Vec<T> {
    const SOURCE: Source = Source::Query;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self> {
        let name = param.name;
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
            match convert::<T>(&raw, param.constraints, loc, errors) {
                Some(v) => values.push(v),
                None => ok = false,
            }
        }
        if !seen {
            return Some(param.default_value().unwrap_or_default());
        }
        ok.then_some(values)
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let default = param.default_value().unwrap_or_default();
        let schema = vec_schema::<T>(param.name, default, param.constraints, registry);
        op.query_param(param.name, schema, false);
    }
}

impl<S: Send + Sync + 'static> Arg for State<S> {
    const SOURCE: Source = Source::Injected;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let state = cx.state::<S>().map(State);
        if state.is_none() {
            tracing::error!(
                state = type_name::<S>(),
                "route asks for state the app does not hold"
            );
        }
        state
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
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
            type Input = Self;

            fn extract(
                $cx: &RequestCx<'_>,
                _param: Param<Self>,
                _errors: &mut ValidationErrors,
            ) -> Option<Self> {
                Some($get)
            }

            fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
                ready(input)
            }
        }
    };
}

injected!(hyper::HeaderMap, |cx| cx.headers().clone());
injected!(hyper::Method, |cx| cx.parts().method.clone());
injected!(hyper::Uri, |cx| cx.parts().uri.clone());

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds'; this one is for event streams only).
#[diagnostic::do_not_recommend]
impl Arg for crate::response::LastEventId {
    const SOURCE: Source = Source::Injected;
    type Input = Self;

    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        let id = cx
            .headers()
            .get("last-event-id")
            .and_then(|value| value.to_str().ok());
        Some(crate::response::LastEventId(id.map(str::to_owned)))
    }

    fn resolve(input: Self, _deps: &mut Deps) -> impl Future<Output = Result<Self, Response>> + Send {
        ready(input)
    }
}
