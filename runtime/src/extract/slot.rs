//! An argument between the generated handler's two steps: what its first step (`Arg::extract`)
//! read, held as a [`Slot`] that knows, by a constant the route macro wrote at the argument's
//! type, whether it is a dependency; and the route's arguments as one list ([`Slots`]) that the
//! runtime's half of the handler (`routing::handler`) takes their values from.
//!
//! Rules enforced here:
//! - a route without dependencies takes every value at once ([`Slots::now`]): each argument's
//!   `resolve` polled once, in place, with no waker (only a dependency awaits), and no future
//!   around the arguments;
//! - a route with dependencies resolves its arguments in declaration order ([`Slots::resolve`]),
//!   a dependency through the request's cache; an argument whose first step failed is skipped,
//!   not a stop, so a later dependency's failure still answers the request (FastAPI's order);
//! - the cache's bounds (`Clone + Send + 'static`) are asked of dependencies only, and only at the
//!   argument: [`Share`] is implemented for every type when `DEPENDENCY` is false, so most
//!   arguments (models) need not meet them, and the generic code here asks nothing of a dependency
//!   but `Arg` (its value stays in the cache until every argument is resolved), so a dependency
//!   that cannot be cached is one error, at the argument.

use std::any::type_name;
use std::future::{ready, Future};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use super::arg::{Arg, Deps, Param, Sharing};
use super::request::RequestCx;
use crate::response::Response;
use crate::validate::ValidationErrors;

/// Compile-time check that a dependency can be cached for the request: the cache keeps its value
/// and hands each use a clone. `SHARE` is what the cache needs of a dependency (`DEPENDENCY`),
/// `None` for any other argument, so generic code resolves an argument without naming the bounds,
/// which most arguments (models) do not meet.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is a dependency, so it must be `Clone + Send + 'static`",
    label = "a dependency that cannot be cached for the request",
    note = "a dependency used twice in one request runs once, and each use gets a clone of its value, kept in the request's future: derive `Clone` (put what is expensive to copy in an `Arc`), and hold no `Rc`, `RefCell` or borrowed data"
)]
pub trait Share<const DEPENDENCY: bool>: Sized {
    /// The cache's functions, for a dependency.
    const SHARE: Option<Sharing<Self>>;

    /// The argument's first step, [`Arg::extract`], its input kept in a `Slot` with the cache's
    /// functions (the generated handler's one call per argument).
    #[inline(always)]
    fn slot(cx: &RequestCx<'_>, param: Param<Self>, errors: &mut ValidationErrors) -> Slot<Self, DEPENDENCY>
    where
        Self: Arg,
    {
        Slot {
            input: Self::extract(cx, param, errors),
            sharing: Self::SHARE,
        }
    }
}
impl<T> Share<false> for T {
    const SHARE: Option<Sharing<Self>> = None;
}
// Not recommended: the error then names `Share` with the note above rather than `Clone` or
// `Send` alone.
#[diagnostic::do_not_recommend]
impl<T: Clone + Send + 'static> Share<true> for T {
    const SHARE: Option<Sharing<Self>> = Some(Sharing::NEW);
}

/// An argument's input, `None` when its first step failed; `DEPENDENCY` says whether it is
/// resolved through the request's cache, with `sharing` (a constant, `None` for any other
/// argument). The impls of [`Step`] ask nothing of a dependency but `Arg`: what the cache needs
/// was checked where `sharing` was made, at the argument, so a dependency that cannot be cached is
/// that one error.
pub struct Slot<T: Arg, const DEPENDENCY: bool> {
    input: Option<T::Input>,
    sharing: Option<Sharing<T>>,
}

/// One argument of a route between its two steps: a [`Slot`], or a path parameter's value.
pub trait Step: Send + 'static {
    /// The argument's value.
    type Value;

    /// What [`Step::step`] leaves for [`Step::take`] (held while a later argument is resolved:
    /// `Send`): the value, or for a dependency nothing but the cache's functions.
    type Held: Send;

    /// The value at once, for a route without dependencies; `None` if the first step failed or
    /// the argument did not resolve at once after all (logged).
    fn now(self) -> Option<Self::Value>;

    /// The second step, through the request's cache for a dependency; `Ok(None)` if the first
    /// step failed; `Err` is a dependency's answer to the request.
    fn step(self, deps: &mut Deps) -> impl Future<Output = Result<Option<Self::Held>, Response>> + Send;

    /// The value, once every argument made its second step.
    fn take(held: Self::Held, deps: &Deps) -> Option<Self::Value>;
}

/// A path parameter: its value is read in the first step.
impl<V: Send + 'static> Step for Option<V> {
    type Value = V;
    type Held = V;

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

/// Any other argument but a dependency: resolved at once.
impl<T: Arg + Send + 'static> Step for Slot<T, false> {
    type Value = T;
    type Held = T;

    #[inline(always)]
    fn now(self) -> Option<T> {
        resolve_now(self.input?)
    }

    #[inline(always)]
    async fn step(self, deps: &mut Deps) -> Result<Option<T>, Response> {
        match self.input {
            Some(input) => T::resolve(input, deps).await.map(Some),
            None => Ok(None),
        }
    }

    #[inline(always)]
    fn take(held: T, _deps: &Deps) -> Option<T> {
        Some(held)
    }
}

/// A dependency: resolved into the request's cache, and its value a clone of the cached one.
impl<T: Arg + 'static> Step for Slot<T, true> {
    type Value = T;
    type Held = Sharing<T>;

    #[inline(always)]
    fn now(self) -> Option<T> {
        resolve_now(self.input?)
    }

    async fn step(self, deps: &mut Deps) -> Result<Option<Sharing<T>>, Response> {
        match (self.input, self.sharing) {
            (Some(input), Some(sharing)) => deps.resolve_cached(input, sharing).await.map(|()| Some(sharing)),
            _ => Ok(None),
        }
    }

    #[inline]
    fn take(sharing: Sharing<T>, deps: &Deps) -> Option<T> {
        deps.cloned(sharing)
    }
}

/// The value of an argument whose second step is ready at once (every kind but a dependency),
/// polled once with no waker; `None` (logged) if it was not ready after all.
#[inline(always)]
fn resolve_now<T: Arg>(input: T::Input) -> Option<T> {
    let mut deps = Deps::new();
    let future = pin!(T::resolve(input, &mut deps));
    match future.poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(Ok(value)) => Some(value),
        Poll::Ready(Err(_)) | Poll::Pending => not_ready::<T>(),
    }
}

#[cold]
fn not_ready<T>() -> Option<T> {
    tracing::error!(
        argument = type_name::<T>(),
        "an argument that is not a dependency did not resolve at once; declare `SOURCE = Source::Dependency`"
    );
    None
}

/// A route's arguments as the list `(a, (b, (.., ())))` of their `Step`s.
pub trait Slots: Send + 'static {
    /// The values, as the same list.
    type Values;

    /// What the second steps leave, as the same list.
    type Held: Send;

    /// Every value at once (a route without dependencies), or `None` if one is missing.
    fn now(self) -> Option<Self::Values>;

    /// Every argument's second step in declaration order (a route with dependencies): `Ok(None)`
    /// when a value is missing (the request's validation errors answer it), `Err` the answer of
    /// the first dependency that failed.
    fn resolve(self, deps: &mut Deps) -> impl Future<Output = Result<Option<Self::Held>, Response>> + Send;

    /// The values, after [`Slots::resolve`].
    fn take(held: Self::Held, deps: &Deps) -> Option<Self::Values>;
}

impl Slots for () {
    type Values = ();
    type Held = ();

    #[inline(always)]
    fn now(self) -> Option<()> {
        Some(())
    }

    #[inline(always)]
    fn resolve(self, _deps: &mut Deps) -> impl Future<Output = Result<Option<()>, Response>> + Send {
        ready(Ok(Some(())))
    }

    #[inline(always)]
    fn take(_held: (), _deps: &Deps) -> Option<()> {
        Some(())
    }
}

impl<H: Step, T: Slots> Slots for (H, T) {
    type Values = (H::Value, T::Values);
    type Held = (H::Held, T::Held);

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
