//! A route's (or a `#[dependency]`'s) arguments between their extraction and the call of its
//! function: each one [`Extracted`] — a value, or a dependency's [`Pending`] resolution — and all
//! of them as one list ([`Arguments`]) that the generic half of the handler
//! (`routing::handler`) takes the values from; [`depend`] makes such a list and its function a
//! dependency's resolution.
//!
//! Rules enforced here:
//! - whether a route has a dependency is a constant of its list's type
//!   ([`Arguments::DEPENDENCY`]): a route without one takes every value at once
//!   ([`Arguments::now`]: the extracted values themselves, no future, no poll);
//! - a list with dependencies resolves them in declaration order ([`Arguments::resolve`]), each
//!   through the request's cache; an argument whose extraction failed is skipped, not a stop, so
//!   a later dependency's failure still answers the request (FastAPI's order);
//! - a dependency's value stays in the cache until every argument is resolved, then each use
//!   takes a clone ([`Arguments::take`]): no generic code holds one across an `.await`.

use std::future::{ready, Future};
use std::marker::PhantomData;

use super::dependency::{Dependency, Deps, Resolve};
use crate::response::{internal_error, Response};

/// One argument after its extraction (what `Arg::extract` returns).
pub trait Extracted {
    /// The argument's value.
    type Value;

    /// What [`Extracted::step`] leaves for [`Extracted::take`]: the value, or for a dependency
    /// nothing (its value is in the cache).
    type Held: Send;

    /// True for a dependency.
    const DEPENDENCY: bool;

    /// True when the extraction succeeded.
    fn is_some(&self) -> bool;

    /// The value at once; `None` if the extraction failed (or for a dependency, which a list
    /// with one never asks).
    fn now(self) -> Option<Self::Value>;

    /// The second step, a dependency's resolution through the request's cache; `Ok(None)` if
    /// the extraction failed; `Err` is a dependency's answer to the request.
    fn step(self, deps: &mut Deps) -> impl Future<Output = Result<Option<Self::Held>, Response>> + Send;

    /// The value, once every argument made its second step.
    fn take(held: Self::Held, deps: &Deps) -> Option<Self::Value>;
}

/// An extractor's value, or a path parameter's: read in the first step.
impl<V: Send> Extracted for Option<V> {
    type Value = V;
    type Held = V;
    const DEPENDENCY: bool = false;

    #[inline(always)]
    fn is_some(&self) -> bool {
        Option::is_some(self)
    }

    #[inline(always)]
    fn now(self) -> Option<V> {
        self
    }

    #[inline(always)]
    fn step(self, _deps: &mut Deps) -> impl Future<Output = Result<Option<V>, Response>> + Send {
        ready(Ok(self))
    }

    #[inline(always)]
    fn take(held: V, _deps: &Deps) -> Option<V> {
        Some(held)
    }
}

/// Dependency `D` between its two steps: what resolves it, `None` when its extraction failed.
pub(super) struct Pending<D, R> {
    input: Option<R>,
    dependency: PhantomData<fn() -> D>,
}

impl<D, R> Pending<D, R> {
    /// What `D`'s extraction returned.
    #[inline(always)]
    pub(super) fn new(input: Option<R>) -> Self {
        Pending {
            input,
            dependency: PhantomData,
        }
    }
}

impl<D: Dependency, R: Resolve<D>> Extracted for Pending<D, R> {
    type Value = D;
    type Held = ();
    const DEPENDENCY: bool = true;

    #[inline(always)]
    fn is_some(&self) -> bool {
        self.input.is_some()
    }

    fn now(self) -> Option<D> {
        None
    }

    async fn step(self, deps: &mut Deps) -> Result<Option<()>, Response> {
        match self.input {
            Some(input) => deps.resolve_cached::<D>(input).await.map(Some),
            None => Ok(None),
        }
    }

    #[inline]
    fn take((): (), deps: &Deps) -> Option<D> {
        deps.get::<D>().map(D::cached)
    }
}

/// The arguments of a route or a dependency as the list `(a, (b, (.., ())))` of what each
/// extraction returned.
pub trait Arguments: Send + 'static {
    /// The values, as the same list.
    type Values;

    /// What the second steps leave, as the same list.
    type Held: Send;

    /// True when one of the arguments is a dependency.
    const DEPENDENCY: bool;

    /// True when every extraction succeeded.
    fn is_some(&self) -> bool;

    /// Every value at once (a list without dependencies), or `None` if one is missing.
    fn now(self) -> Option<Self::Values>;

    /// Every argument's second step in declaration order: `Ok(None)` when a value is missing
    /// (the request's validation errors answer it), `Err` the answer of the first dependency that
    /// failed.
    fn resolve(self, deps: &mut Deps) -> impl Future<Output = Result<Option<Self::Held>, Response>> + Send;

    /// The values, after [`Arguments::resolve`].
    fn take(held: Self::Held, deps: &Deps) -> Option<Self::Values>;
}

impl Arguments for () {
    type Values = ();
    type Held = ();
    const DEPENDENCY: bool = false;

    #[inline(always)]
    fn is_some(&self) -> bool {
        true
    }

    #[inline(always)]
    fn now(self) -> Option<()> {
        Some(())
    }

    #[inline(always)]
    fn resolve(self, _deps: &mut Deps) -> impl Future<Output = Result<Option<()>, Response>> + Send {
        ready(Ok(Some(())))
    }

    #[inline(always)]
    fn take((): (), _deps: &Deps) -> Option<()> {
        Some(())
    }
}

impl<H: Extracted + Send + 'static, T: Arguments> Arguments for (H, T) {
    type Values = (H::Value, T::Values);
    type Held = (H::Held, T::Held);
    const DEPENDENCY: bool = H::DEPENDENCY || T::DEPENDENCY;

    #[inline(always)]
    fn is_some(&self) -> bool {
        self.0.is_some() && self.1.is_some()
    }

    #[inline(always)]
    fn now(self) -> Option<Self::Values> {
        Some((self.0.now()?, self.1.now()?))
    }

    async fn resolve(self, deps: &mut Deps) -> Result<Option<Self::Held>, Response> {
        let head = self.0.step(deps).await?;
        let tail = self.1.resolve(deps).await?;
        Ok(head.zip(tail))
    }

    #[inline(always)]
    fn take(held: Self::Held, deps: &Deps) -> Option<Self::Values> {
        Some((H::take(held.0, deps)?, T::take(held.1, deps)?))
    }
}

/// A `#[dependency]`'s resolution: its arguments, read as a route's are, and the call of its
/// function with their values (see [`depend`]).
pub struct Depend<A, C> {
    arguments: A,
    call: C,
}

/// What a `#[dependency]`'s extraction returns: its `arguments`, then `call` with their values,
/// once they are resolved; `None` when an argument's extraction failed (the dependency is then
/// not resolved, nor are the dependencies it takes).
#[inline(always)]
pub fn depend<D, A, C, F>(arguments: A, call: C) -> Option<Depend<A, C>>
where
    A: Arguments,
    C: FnOnce(A::Values) -> F + Send + 'static,
    F: Future<Output = Result<D, Response>> + Send,
{
    arguments.is_some().then_some(Depend { arguments, call })
}

impl<D, A, C, F> Resolve<D> for Depend<A, C>
where
    A: Arguments,
    C: FnOnce(A::Values) -> F + Send + 'static,
    F: Future<Output = Result<D, Response>> + Send,
{
    async fn resolve(self, deps: &mut Deps) -> Result<D, Response> {
        let held = self.arguments.resolve(deps).await?;
        // A value missing without an error: an extractor that returned `None` and recorded
        // nothing.
        let Some(values) = held.and_then(|held| A::take(held, deps)) else {
            return Err(internal_error());
        };
        (self.call)(values).await
    }
}
