//! Dependencies (FastAPI's `Depends`): the [`Dependency`] trait, what its first step hands to
//! its second ([`Resolve`]), and the request's cache of resolved dependencies ([`Deps`]).
//!
//! Rules enforced here:
//! - a dependency is read in two steps: its inputs with the route's other arguments, in
//!   declaration order (their errors join the route's 422), then, once every argument is read,
//!   its resolution, which may await and may answer the request with any response;
//! - a dependency is resolved at most once per request: [`Deps`] keeps the first value of each
//!   dependency type and every later use gets a clone of it (FastAPI's `use_cache=True`, its
//!   default); a dependency whose resolution failed answered the request, so nothing is cached
//!   for it;
//! - a dependency a test overrides (`overrides`) is resolved by the override instead;
//! - what the cache needs (`Clone + Send + 'static`) is asked of the type where it is declared a
//!   dependency ([`Cacheable`], a supertrait), in words that say why.

use std::any::{Any, TypeId};
use std::future::Future;

use super::request::RequestCx;
use super::state::StateMap;
use crate::openapi::Operation;
use crate::response::{internal_error, Response};
use crate::validate::{SchemaRegistry, ValidationErrors};

/// What a dependency is: a value the request's cache can keep and hand out clones of. Its own
/// trait, not `Clone + Send` as supertraits, so a type that is neither is reported in its words
/// (a supertrait's bound would be reported as `Clone` or `Send` alone).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a dependency, so it must be `Clone + Send + 'static`",
    label = "a dependency that cannot be cached for the request",
    note = "a dependency used twice in one request runs once, and each use gets a clone of its value, kept in the request's future: derive `Clone` (put what is expensive to copy in an `Arc`), and hold no `Rc`, `RefCell` or borrowed data"
)]
pub trait Cacheable: Sized + 'static {
    /// A clone of the value, for another use in the same request.
    fn cached(&self) -> Self;

    /// The value, kept in the request's cache.
    fn kept(self) -> Box<dyn Any + Send>;
}

// Not recommended: the error then names `Cacheable` with the note above rather than `Clone` or
// `Send` alone.
#[diagnostic::do_not_recommend]
impl<T: Clone + Send + 'static> Cacheable for T {
    #[inline]
    fn cached(&self) -> Self {
        self.clone()
    }

    #[inline]
    fn kept(self) -> Box<dyn Any + Send> {
        Box::new(self)
    }
}

/// An async, cached dependency (FastAPI's `Depends`, axum's `FromRequestParts`): an argument
/// whose value may take awaiting (a store lookup), may fail with any response (401, 403, 404:
/// that response answers the request), and may take other arguments, dependencies among them.
/// The [`#[dependency]`](macro@crate::dependency) attribute implements it from an `fn`; the
/// manual's [Dependencies](crate#dependencies) chapter shows a hand-written impl too.
///
/// It is obtained in two steps: [`extract`](Dependency::extract), synchronous, with the route's
/// other arguments (so its input errors join the route's one 422), returns what resolves it; that
/// [`Resolve`] runs once every argument is read, dependencies in the order the route declares
/// them, the first failure answering the request even when another argument is invalid (as in
/// FastAPI, a missing credential is a 401, not a 422).
pub trait Dependency: Cacheable {
    /// Read what the dependency needs from the request, recording every validation error in
    /// `errors`; `None` when an input is missing or invalid (the request is then answered 422,
    /// unless another dependency answers first). What it returns borrows nothing of the request:
    /// write `impl Resolve<Self> + use<>` (or a type of yours).
    fn extract(cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<Self>>;

    /// Document what the dependency reads (its parameters, its security scheme) and the responses
    /// it may answer, in the operation of each route that takes it. The default documents nothing.
    fn doc(op: &mut Operation, registry: &mut SchemaRegistry) {
        let _ = (op, registry);
    }

    /// Check, when the app is built, that what the dependency needs is there (a state).
    fn check(state: &StateMap) -> Result<(), String> {
        let _ = state;
        Ok(())
    }
}

/// The second step of dependency `D`: what [`Dependency::extract`] read, turned into `D`'s value
/// or the response that answers the request. Sub-dependencies it takes are resolved through
/// `deps` (with [`Deps::resolve`]), so each still runs once per request.
pub trait Resolve<D>: Send + 'static {
    /// The value, or the response that answers the request.
    fn resolve(self, deps: &mut Deps) -> impl Future<Output = Result<D, Response>> + Send;
}

/// The dependencies already resolved for one request: each dependency type's value, so that a
/// dependency used twice (by the route and by another dependency) runs once.
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
    /// `input`'s resolution (what `D`'s [`Dependency::extract`] returned), kept for later uses.
    /// An `Err` is the response that answers the request.
    pub async fn resolve<D: Dependency>(&mut self, input: impl Resolve<D>) -> Result<D, Response> {
        self.resolve_cached(input).await?;
        self.get::<D>().map(D::cached).ok_or_else(internal_error)
    }

    /// [`Deps::resolve`] that keeps the value in the cache only: the route's handler takes it
    /// once every argument is resolved.
    pub(super) async fn resolve_cached<D: Dependency>(
        &mut self,
        input: impl Resolve<D>,
    ) -> Result<(), Response> {
        let id = TypeId::of::<D>();
        if self.values.iter().any(|(key, _)| *key == id) {
            return Ok(());
        }
        let value = match super::overrides::replacement(id) {
            None => input.resolve(self).await?,
            Some(replaced) => overridden::<D>(replaced.await?)?,
        };
        self.values.push((id, value.kept()));
        Ok(())
    }

    /// The value of dependency `D`, if it was resolved for this request.
    pub fn get<D: 'static>(&self) -> Option<&D> {
        let id = TypeId::of::<D>();
        self.values
            .iter()
            .find(|(key, _)| *key == id)
            .and_then(|(_, value)| value.downcast_ref::<D>())
    }
}

/// The value a test's override gave for dependency `D` (see `overrides`).
#[cold]
fn overridden<D: Dependency>(value: Box<dyn Any + Send>) -> Result<D, Response> {
    match value.downcast::<D>() {
        Ok(value) => Ok(*value),
        // `Overrides::set` keys each replacement by its own value's type.
        Err(_) => Err(internal_error()),
    }
}
