//! The argument contract: the two traits an argument type implements, one or the other — a
//! synchronous extractor ([`Extract`]; [`Body`] marks one that reads the request body) or an
//! async, cached dependency ([`Dependency`](super::Dependency)) — and [`Arg`], which the
//! generated code calls for every argument and which picks between them.
//!
//! Rules enforced here:
//! - the kind of an argument is the trait its type implements: the route macros write the same
//!   call for every argument (`<T as Arg<_>>::extract`), and the compiler picks the implementation of
//!   [`Arg`] by its marker parameter ([`ByExtract`], [`ByDependency`]), inferred from the one
//!   blanket impl whose bound the type meets (axum's marker-type inference, without
//!   specialisation). A type that implements neither is `Arg`'s one error, in its words, at the
//!   argument; one that implements both is one ambiguity error there, naming both impls;
//! - an extractor is ready when it is read: it returns its value, and a route without a
//!   dependency never waits (no future around its arguments, see `arguments`);
//! - each argument documents itself in the route's OpenAPI operation and checks, when the app is
//!   built, that the app holds what it needs (a state).

use super::arguments::{Extracted, Pending};
use super::dependency::Dependency;
use super::param::Param;
use super::request::RequestCx;
use super::state::StateMap;
use crate::openapi::Operation;
use crate::validate::{SchemaRegistry, ValidationErrors};

/// A synchronous extractor: an argument read from the request as the route's handler starts,
/// before anything awaits — a query parameter, a header or cookie, the body (see [`Body`]), a
/// form field, state, the request's head. The built-in kinds implement it; so does
/// `#[derive(Model)]` (a JSON body); implement it for a kind of your own that reads the request
/// and needs nothing async. Something that awaits, or may answer the request itself (401), is a
/// [`Dependency`](super::Dependency).
///
/// Every argument of a route is extracted in declaration order, and every validation error is
/// collected: the request is answered with one 422 listing them in FastAPI's order (path,
/// query, header, cookie, body).
pub trait Extract: Sized {
    /// Read and validate the value from the request, recording every validation error in
    /// `errors`; `None` when something is missing or invalid (the request is then answered 422).
    fn extract(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Option<Self>;

    /// Document the argument in the route's OpenAPI operation (a query parameter, a header, the
    /// body). The default documents nothing (values the server injects are not part of the API).
    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        let _ = (param, op, registry);
    }

    /// Check, when the app is built, that what the argument needs is there (a state).
    fn check(state: &StateMap) -> Result<(), String> {
        let _ = state;
        Ok(())
    }
}

/// Marks an extractor that reads the request body. A route takes at most one such argument
/// (form fields aside, which share the one form), a compile error at the second; and the route
/// reads its body before the handler runs, or hands it over unread when [`STREAMED`](Body::STREAMED).
pub trait Body: Extract {
    /// True when the argument reads the body as it arrives (an upload), not whole.
    const STREAMED: bool = false;
}

/// The marker of [`Arg`]'s implementation for an [`Extract`] type.
#[derive(Debug)]
pub enum ByExtract {}

/// The marker of [`Arg`]'s implementation for a [`Dependency`] type.
#[derive(Debug)]
pub enum ByDependency {}

/// A route argument that is not a path parameter: what the generated code calls for each. Not
/// implemented by hand: it is implemented for every [`Extract`] type (marker [`ByExtract`]) and
/// every [`Dependency`] type (marker [`ByDependency`]); the generated code leaves the marker to
/// the compiler, which finds it from the trait the type implements.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a route argument",
    label = "not a query parameter, a JSON body, an injected value or a dependency",
    note = "query parameters are integers, floats, bool, String, an enum deriving `StrEnum`, or `Option`/`Vec` of those",
    note = "a JSON body is a struct deriving `Model`, a form body `Form<T>` of one, a form field `Form<T>` of what a query parameter can be, a file `UploadFile` (or an `Option` or `Vec` of them), a streamed upload `Multipart`; shared state is `State<T>` with `T: Send + Sync + 'static`",
    note = "a header is `Header<T>`, a cookie `Cookie<T>`, with `T` what a query parameter can be (a cookie: not a `Vec`); all headers are `HeaderMap`",
    note = "a dependency is a type implementing `ferrapi::Dependency`, e.g. returned by an `async fn` marked `#[dependency]`; an extractor of your own implements `ferrapi::arg::Extract`"
)]
pub trait Arg<M>: Sized {
    /// The argument read from the request: its value, or a dependency's pending resolution.
    fn extract(
        cx: &RequestCx<'_>,
        param: Param<Self>,
        errors: &mut ValidationErrors,
    ) -> impl Extracted<Value = Self> + use<Self, M>;

    /// [`Extract::doc`], or a dependency's [`doc`](Dependency::doc).
    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry);

    /// [`Extract::check`], or a dependency's [`check`](Dependency::check).
    fn check(state: &StateMap) -> Result<(), String>;
}

// Not recommended (both): a type that is neither is reported as no argument, in `Arg`'s words,
// not as a type missing one of the two traits.
#[diagnostic::do_not_recommend]
impl<T: Extract + Send> Arg<ByExtract> for T {
    #[inline(always)]
    fn extract(
        cx: &RequestCx<'_>,
        param: Param<Self>,
        errors: &mut ValidationErrors,
    ) -> impl Extracted<Value = Self> + use<T> {
        <T as Extract>::extract(cx, param, errors)
    }

    fn doc(param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        <T as Extract>::doc(param, op, registry);
    }

    fn check(state: &StateMap) -> Result<(), String> {
        <T as Extract>::check(state)
    }
}

#[diagnostic::do_not_recommend]
impl<D: Dependency> Arg<ByDependency> for D {
    #[inline(always)]
    fn extract(
        cx: &RequestCx<'_>,
        _param: Param<Self>,
        errors: &mut ValidationErrors,
    ) -> impl Extracted<Value = Self> + use<D> {
        Pending::new(D::extract(cx, errors))
    }

    fn doc(_param: Param<Self>, op: &mut Operation, registry: &mut SchemaRegistry) {
        D::doc(op, registry);
    }

    fn check(state: &StateMap) -> Result<(), String> {
        D::check(state)
    }
}
