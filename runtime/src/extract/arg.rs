//! The argument contract: the [`Arg`] trait (public: a type of the user's implementing it is a
//! dependency), the argument's declaration ([`Param`]) and kind ([`Source`]), and the per-request
//! cache its second step runs with ([`Deps`]); the trait and the cache name each other, so they
//! live together. The kinds are in files of their own (`query_param`, `injected`, `header`,
//! `json_body`, `form`, `multipart`, `security`; a dependency is the user's).
//!
//! Rules enforced here:
//! - which kind an argument type is (query, body, injected, dependency) is a property of the
//!   type ([`Arg::SOURCE`]): the `StrEnum` derive makes a query parameter, the `Model` derive a
//!   JSON body (see the `json_body` module), `State<T>`, `HeaderMap`, `Method`, `Uri` and
//!   `LastEventId` are injected, `#[dependency]` (or a hand-written impl) makes a dependency;
//! - every kind but a dependency is ready after the synchronous step: its second step is a
//!   `std::future::Ready`, and a route without a dependency never waits for it: its handler takes
//!   each value by one poll without a waker (`slot::Slots::now`), which the optimiser folds away
//!   for the built-in kinds;
//! - a dependency a test overrides (`overrides`) is resolved by the override instead;
//! - a dependency is resolved at most once per request: [`Deps`] keeps the first value of each
//!   dependency type and every later use gets a clone of it (FastAPI's `use_cache=True`, its
//!   default); a dependency whose resolution failed answered the request, so nothing is cached
//!   for it;
//! - each argument documents itself in the route's OpenAPI operation ([`Arg::doc`]): a query
//!   parameter with its schema, the body, a dependency's parameters and responses, or nothing for
//!   injected values.

use std::any::{Any, TypeId};
use std::future::{Future, Ready};

use super::request::RequestCx;
use super::state::StateMap;
use crate::openapi::Operation;
use crate::response::Response;
use crate::validate::{Constraint, SchemaRegistry, ValidationErrors};

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
    /// The request body, read by the route as it arrives ([`Multipart`](crate::files::Multipart)): the
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

    /// [`Param::new`] without a default or constraints (a shorter expansion).
    #[doc(hidden)]
    #[inline(always)]
    pub const fn named(name: &'static str) -> Self {
        Self::new(name, None, &[])
    }

    /// [`Param::new`] without a default.
    #[doc(hidden)]
    #[inline(always)]
    pub const fn constrained(name: &'static str, constraints: &'static [Constraint]) -> Self {
        Self::new(name, None, constraints)
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
/// 1. [`extract`](Arg::extract), synchronous, runs for every argument of the route, in
///    declaration order, collecting every validation error (they are answered together as one
///    422, in FastAPI's order: path, query, header, cookie, body). It borrows the request and
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
    note = "a JSON body is a struct deriving `Model`, a form body `Form<T>` of one, a form field `Form<T>` of what a query parameter can be, a file `UploadFile` (or an `Option` or `Vec` of them), a streamed upload `Multipart`; shared state is `State<T>` with `T: Send + Sync + 'static`",
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
    /// one error at the argument, not one more per call. Not part of the API, and sealed: its
    /// last parameter's type cannot be named outside ferrapi, so no impl can override it.
    #[doc(hidden)]
    fn __resolve(
        input: Self::Input,
        deps: &mut Deps,
        sharing: Option<Sharing<Self>>,
        _sealed: sealed::Sealed,
    ) -> impl Future<Output = Result<Self, Response>> + Send {
        resolve::<Self>(input, deps, sharing)
    }
}

/// The seal of [`Arg`]'s hidden methods: a type public in a module no path outside this crate
/// reaches, so an impl elsewhere cannot write the methods' signatures (the sealed-method
/// pattern); the generated code passes [`sealed::SEALED`], a value it can use but not name.
pub(crate) mod sealed {
    /// The seal (see the module).
    #[allow(unreachable_pub)] // Unnameable outside the crate on purpose.
    #[derive(Debug, Clone, Copy)]
    pub struct Sealed(());

    /// The one value of the seal, for the generated code.
    pub const SEALED: Sealed = Sealed(());
}

/// `std::future::ready(Ok(value))`: the second step of every kind but a dependency.
#[inline(always)]
pub(crate) fn ready<T>(value: T) -> Ready<Result<T, Response>> {
    std::future::ready(Ok(value))
}

/// The dependencies already resolved for one request: each dependency type's value, so that a
/// dependency used twice (by the route and by another dependency) runs once. A dependency's
/// [`Arg::resolve`] gets it to resolve the dependencies it takes, with [`Deps::resolve`].
#[derive(Default)]
pub struct Deps {
    // Linear search: a request resolves a handful of dependencies at most.
    values: Vec<(TypeId, Box<dyn Any + Send>)>,
}

impl std::fmt::Debug for Deps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deps")
            .field("resolved", &self.values.len())
            .finish()
    }
}

impl Deps {
    /// No dependency resolved yet: one per request that has dependencies.
    #[doc(hidden)]
    pub fn new() -> Self {
        Self::default()
    }

    /// The value of dependency `D` for this request: a clone of the value already resolved, or
    /// `D`'s resolution from `input` (what `D`'s [`Arg::extract`] returned), kept for later uses.
    /// An `Err` is the response that answers the request.
    pub async fn resolve<D: Arg + Clone + Send + 'static>(&mut self, input: D::Input) -> Result<D, Response> {
        self.resolve_shared(input, Sharing::<D>::NEW).await
    }

    /// [`Deps::resolve`] with what the cache needs of `D` passed in as functions, so that
    /// generated code, which cannot name the bounds (most arguments, models among them, are not
    /// `Clone`), can call it (see `slot::Share`).
    async fn resolve_shared<D: Arg>(&mut self, input: D::Input, sharing: Sharing<D>) -> Result<D, Response> {
        if let Some(value) = self.cloned_ref(sharing) {
            return Ok((sharing.clone)(value));
        }
        let id = (sharing.type_id)();
        let value = match super::overrides::replacement(id) {
            None => D::resolve(input, self).await?,
            Some(replaced) => overridden(replaced.await?, sharing)?,
        };
        self.values.push((id, (sharing.boxed)((sharing.clone)(&value))));
        Ok(value)
    }

    /// [`Deps::resolve_shared`] that keeps the value in the cache only: the route's handler takes
    /// it with [`Deps::cloned`] once every argument is resolved, so no generic code holds a
    /// dependency's value across an `.await` (a dependency is `Send` by the route's own check,
    /// at the argument, not by a bound here).
    pub(super) async fn resolve_cached<D: Arg>(
        &mut self,
        input: D::Input,
        sharing: Sharing<D>,
    ) -> Result<(), Response> {
        if self.cloned_ref(sharing).is_some() {
            return Ok(());
        }
        let id = (sharing.type_id)();
        let value = match super::overrides::replacement(id) {
            None => D::resolve(input, self).await?,
            Some(replaced) => overridden(replaced.await?, sharing)?,
        };
        self.values.push((id, (sharing.boxed)(value)));
        Ok(())
    }

    /// A clone of dependency `D`'s cached value.
    pub(super) fn cloned<D>(&self, sharing: Sharing<D>) -> Option<D> {
        self.cloned_ref(sharing).map(sharing.clone)
    }

    /// Dependency `D`'s cached value, if it was resolved for this request.
    fn cloned_ref<D>(&self, sharing: Sharing<D>) -> Option<&D> {
        let id = (sharing.type_id)();
        let cached = self.values.iter().find(|(key, _)| *key == id);
        cached.and_then(|(_, value)| (sharing.get)(&**value))
    }

    /// The value of dependency `D`, if it was resolved for this request.
    pub fn get<D: Arg + 'static>(&self) -> Option<&D> {
        let id = TypeId::of::<D>();
        self.values
            .iter()
            .find(|(key, _)| *key == id)
            .and_then(|(_, value)| value.downcast_ref::<D>())
    }
}

/// The value a test's override gave for dependency `D` (see `overrides`).
#[cold]
fn overridden<D>(value: Box<dyn Any + Send>, sharing: Sharing<D>) -> Result<D, Response> {
    match (sharing.get)(&*value) {
        Some(value) => Ok((sharing.clone)(value)),
        // `Overrides::set` keys each replacement by its own value's type.
        None => Err(crate::response::internal_error()),
    }
}

/// What the per-request cache needs of a dependency type, as functions: its `TypeId`, a clone,
/// and the conversions to and from the cache's erased values.
pub struct Sharing<T> {
    type_id: fn() -> TypeId,
    clone: fn(&T) -> T,
    boxed: fn(T) -> Box<dyn Any + Send>,
    get: fn(&(dyn Any + Send)) -> Option<&T>,
}

impl<T> Clone for Sharing<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Sharing<T> {}

impl<T: Clone + Send + 'static> Sharing<T> {
    /// The functions for `T`.
    pub const NEW: Self = Sharing {
        type_id: TypeId::of::<T>,
        clone: T::clone,
        boxed: |value| Box::new(value),
        get: |value| value.downcast_ref::<T>(),
    };
}

/// The second step of a route's argument `T`, through the cache when `sharing` is given (`T` is a
/// dependency, see `slot::Share`).
pub(crate) async fn resolve<T: Arg>(
    input: T::Input,
    deps: &mut Deps,
    sharing: Option<Sharing<T>>,
) -> Result<T, Response> {
    match sharing {
        Some(sharing) => deps.resolve_shared(input, sharing).await,
        None => T::resolve(input, deps).await,
    }
}
