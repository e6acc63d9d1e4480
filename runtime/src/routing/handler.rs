//! The generic half of every generated handler (dropshot's "thin macro, generic runtime"): what a
//! route's handler does that does not depend on its argument types is written once, here; the
//! route macros write only what does: each argument's extraction, once, in declaration order,
//! one `async` block that resolves each argument, and one that calls the function.
//!
//! Rules enforced here:
//! - every validation error of a request is collected before it is answered (the groups'
//!   dependencies' inputs first, then the arguments), and answered in FastAPI's order: the
//!   arguments are extracted in declaration order and the errors sorted by their source (path,
//!   then the rest, then body; stable) only when there are any, so a valid request pays nothing;
//! - a route with a dependency among its arguments (a constant of the argument types) or in its
//!   groups (a non-empty slice: one length test) runs as a boxed future: the groups'
//!   dependencies first, then the arguments' in declaration order (the route's resolving block), and the
//!   first that fails answers the request, even when another argument is invalid (FastAPI's
//!   order); a body that cannot be validated at all is answered before any dependency runs;
//! - a route with neither runs exactly as if dependencies did not exist: validation errors are
//!   answered at once, else the route's two blocks run, in place when the function's body cannot
//!   suspend (`complete_now`: no box, no waker; every argument is ready at once), else boxed;
//! - nothing here is generic over an argument's type: every requirement of an argument type is
//!   checked in the route's own code, at the argument, so a mistake is one error there.

use std::future::Future;

use super::route::{complete_now, poll_now, suspended, Started};
use crate::extract::{DependencyFn, GroupInputs, RequestCx, Steps};
use crate::response::{internal_error, Invalid, Response};
use crate::validate::ValidationErrors;

/// How the route's function is called once its arguments are ready.
#[derive(Debug, Clone, Copy)]
pub enum Call {
    /// Its body has no `.await` (the route macro checked its tokens): run the route's blocks to
    /// completion in place (`complete_now`), named for the log should it suspend after all.
    InPlace(&'static str),
    /// Its body may suspend: a boxed future.
    Boxed,
}

/// A route's handler, given what only the route knows: `dependency` (a constant: an argument is
/// a dependency), `extract`, which reads the arguments (recording every validation error),
/// `resolve`, which resolves them (through the request's dependencies) and takes their values
/// with [`ready`], `call`, which calls the function with them, and `convert`, which makes its
/// output the response. See the module for the order of things.
///
/// `resolve` and the function's future are two futures, not one, and `convert` runs outside
/// them: on the in-place path each is polled once, here, and the one polled last is the
/// function's own future, which the compiler inlines; one future holding all of it was polled
/// out of line (≈ 280 instructions per request on ferrapi-bare's `POST /item`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn start<S, V, E, R, RF, C, CF, T>(
    cx: &RequestCx<'_>,
    group: &[DependencyFn],
    dependency: bool,
    extract: E,
    resolve: R,
    call: C,
    convert: T,
    run: Call,
) -> Started
where
    S: Send + 'static,
    E: FnOnce(&RequestCx<'_>, &mut ValidationErrors) -> S,
    R: FnOnce(S, Steps, Option<Invalid>) -> RF + Send + 'static,
    RF: Future<Output = Result<V, Response>> + Send + 'static,
    C: FnOnce(V) -> CF + Send + 'static,
    CF: Future + Send + 'static,
    T: FnOnce(CF::Output) -> Response + Send + 'static,
{
    let mut errors = ValidationErrors::new();
    let group = match group.is_empty() {
        true => None,
        false => Some(GroupInputs::extract(group, cx, &mut errors)),
    };
    let slots = extract(cx, &mut errors);
    if dependency || group.is_some() {
        return with_dependencies(cx, errors, group, slots, resolve, call, convert);
    }
    if let Some(response) = errors.answer_with(|errors| invalid(cx, errors)) {
        return Started::Now(response);
    }
    let values = resolve(slots, Steps::default(), None);
    match run {
        Call::InPlace(route) => Started::Now(match poll_now(values) {
            Some(Ok(values)) => complete_now(route, call(values), convert),
            Some(Err(response)) => response,
            None => suspended(route),
        }),
        Call::Boxed => Started::Later(Box::pin(async move {
            // The values are not held across an await: they need not be `Send`.
            let call = match values.await {
                Ok(values) => call(values),
                Err(response) => return response,
            };
            convert(call.await)
        })),
    }
}

/// [`start`] for a route with dependencies: the groups' then the arguments', in a boxed future
/// (which does not see the request: what a 422 needs is taken now, answered after the
/// dependencies ran).
#[inline]
#[allow(clippy::too_many_arguments)]
fn with_dependencies<S, V, R, RF, C, CF, T>(
    cx: &RequestCx<'_>,
    errors: ValidationErrors,
    group: Option<GroupInputs>,
    slots: S,
    resolve: R,
    call: C,
    convert: T,
) -> Started
where
    S: Send + 'static,
    R: FnOnce(S, Steps, Option<Invalid>) -> RF + Send + 'static,
    RF: Future<Output = Result<V, Response>> + Send + 'static,
    C: FnOnce(V) -> CF + Send + 'static,
    CF: Future + Send + 'static,
    T: FnOnce(CF::Output) -> Response + Send + 'static,
{
    // FastAPI reads the body before any dependency runs: a body that cannot be validated at all
    // is answered first.
    if errors.bad_body.is_some() {
        return Started::Now(invalid(cx, errors));
    }
    let deferred = errors.answer_with(|mut errors| {
        errors.sort_by_source();
        Invalid::new(cx.answers(), errors, cx.parts)
    });
    Started::Later(Box::pin(async move {
        let mut steps = Steps::default();
        if let Some(group) = group {
            if let Err(response) = group.resolve(&mut steps.deps).await {
                return response;
            }
        }
        let call = match resolve(slots, steps, deferred).await {
            Ok(values) => call(values),
            Err(response) => return response,
        };
        convert(call.await)
    }))
}

/// The values of every argument, once each was resolved, as the route's resolving block ends
/// (before its function is called with them): `Err` with the deferred answer to the request's validation errors, if any, else
/// with a logged 500 should a value be missing without an error (an `Arg` implementation that
/// returned `None` and recorded nothing).
#[inline(always)]
pub fn ready<V: AllSome>(invalid: Option<Invalid>, values: V) -> Result<V::Values, Response> {
    if let Some(invalid) = invalid {
        return Err(invalid.answer());
    }
    values.all().ok_or_else(internal_error)
}

/// A list `(Option<A>, (Option<B>, (.., ())))` of argument values: all of them, or `None`.
pub trait AllSome {
    /// The values, as the same list without the `Option`s.
    type Values;
    /// Every value, or `None` if one is missing.
    fn all(self) -> Option<Self::Values>;
}

impl AllSome for () {
    type Values = ();

    #[inline(always)]
    fn all(self) -> Option<()> {
        Some(())
    }
}

impl<H, T: AllSome> AllSome for (Option<H>, T) {
    type Values = (H, T::Values);

    #[inline(always)]
    fn all(self) -> Option<Self::Values> {
        Some((self.0?, self.1.all()?))
    }
}

/// The app's answer to `errors` (not empty), sorted into FastAPI's order: FastAPI's 422, or the
/// app's override of it.
#[cold]
#[inline(never)]
fn invalid(cx: &RequestCx<'_>, mut errors: ValidationErrors) -> Response {
    errors.sort_by_source();
    cx.answers().invalid(errors, cx.parts)
}
