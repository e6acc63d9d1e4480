//! The generic half of every generated handler (dropshot's "thin macro, generic runtime"): what a
//! route's handler does that does not depend on its argument types is written once, here; the
//! route macros write only what does: one generic call per argument (`extract::arg`), in
//! declaration order, making the list of the route's arguments (`extract::Arguments`: values,
//! and dependencies pending), and one block that calls the function.
//!
//! Rules enforced here:
//! - every validation error of a request is collected before it is answered (the groups'
//!   dependencies' inputs first, then the arguments), and answered in FastAPI's order: the
//!   arguments are extracted in declaration order and the errors sorted by their source (path,
//!   then the rest, then body; stable) only when there are any, so a valid request pays nothing;
//! - a route with a dependency among its arguments (`Arguments::DEPENDENCY`, a constant of the
//!   list's type) or in its groups (a non-empty slice: one length test) runs as a boxed future:
//!   the groups' dependencies first, then the arguments' in declaration order
//!   (`Arguments::resolve`), and the
//!   first that fails answers the request, even when another argument is invalid (FastAPI's
//!   order); a body that cannot be validated at all is answered before any dependency runs;
//! - a route with neither runs exactly as if dependencies did not exist: validation errors are
//!   answered at once, every value is taken at once (`Arguments::now`: no future around the
//!   arguments), and the function runs in place when its body cannot suspend (`complete_now`: no
//!   box, no waker), else boxed;
//! - every requirement of an argument type is checked in the route's own code, at the argument,
//!   so a mistake is one error there: the bounds here are met whenever the route's own code
//!   compiles (a value that is not `Send + 'static` aside, which `Arguments` asks here).

use std::future::Future;

use super::route::{complete_now, Started};
use crate::extract::{Arguments, DependencyFn, Deps, GroupInputs, RequestCx};
use crate::response::{internal_error, Invalid, Response};
use crate::validate::ValidationErrors;
use crate::versions::{scoped, Scoped};

/// How the route's function is called once its arguments are ready.
#[derive(Debug, Clone, Copy)]
pub enum Call {
    /// Its body has no `.await` (the route macro checked its tokens): run it to completion in
    /// place (`complete_now`), named for the log should it suspend after all.
    InPlace(&'static str),
    /// Its body may suspend: a boxed future.
    Boxed,
}

/// A route's handler, given what only the route knows: `extract`, which reads the arguments
/// (recording every validation error) into their list ([`Arguments`]), `call`, which calls the
/// function with their values, and `convert`, which makes its output the response. See the
/// module for the order of things.
///
/// The function's future and `convert` are apart so that on the in-place path the future polled
/// here is the function's own, which the compiler inlines.
#[inline(always)]
pub fn start<S, E, C, CF, T>(
    cx: &RequestCx<'_>,
    group: &[DependencyFn],
    extract: E,
    call: C,
    convert: T,
    run: Call,
) -> Started
where
    S: Arguments,
    E: FnOnce(&RequestCx<'_>, &mut ValidationErrors) -> S,
    C: FnOnce(S::Values) -> CF + Send + 'static,
    CF: Future + Send + 'static,
    T: FnOnce(CF::Output) -> Response + Send + 'static,
{
    let mut errors = ValidationErrors::new();
    let group = match group.is_empty() {
        true => None,
        false => Some(GroupInputs::extract(group, cx, &mut errors)),
    };
    // In an app with versions, the route's code runs at the request's version (`versions::at`):
    // a versioned model reads its body, and writes its JSON, in that version's shape.
    let at = cx.shape_date;
    let slots = scoped(at, || extract(cx, &mut errors));
    if S::DEPENDENCY || group.is_some() {
        return with_dependencies(cx, errors, group, slots, call, convert);
    }
    if let Some(response) = errors.answer_with(|errors| invalid(cx, errors)) {
        return Started::Now(response);
    }
    let Some(values) = slots.now() else {
        return Started::Now(internal_error());
    };
    let call = call(values);
    match (run, at) {
        (Call::InPlace(route), at) => Started::Now(scoped(at, || complete_now(route, call, convert))),
        (Call::Boxed, None) => Started::Later(Box::pin(async move { convert(call.await) })),
        (Call::Boxed, Some(at)) => {
            Started::Later(Box::pin(Scoped::new(at, async move { convert(call.await) })))
        }
    }
}

/// [`start`] for a route with dependencies: the groups' then the arguments', in a boxed future
/// (which does not see the request: what a 422 needs is taken now, answered after the
/// dependencies ran).
// Out of line: a route without dependencies does not carry it in its handler's body.
#[inline(never)]
fn with_dependencies<S, C, CF, T>(
    cx: &RequestCx<'_>,
    errors: ValidationErrors,
    group: Option<GroupInputs>,
    slots: S,
    call: C,
    convert: T,
) -> Started
where
    S: Arguments,
    C: FnOnce(S::Values) -> CF + Send + 'static,
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
    let future = async move {
        let mut deps = Deps::new();
        if let Some(group) = group {
            if let Err(response) = group.resolve(&mut deps).await {
                return response;
            }
        }
        let held = match slots.resolve(&mut deps).await {
            Ok(held) => held,
            Err(response) => return response,
        };
        if let Some(invalid) = deferred {
            return invalid.answer();
        }
        // A value missing without an error: an `Arg` implementation that returned `None` and
        // recorded nothing.
        let Some(values) = held.and_then(|held| S::take(held, &deps)) else {
            return internal_error();
        };
        drop(deps);
        let call = call(values);
        convert(call.await)
    };
    match cx.shape_date {
        None => Started::Later(Box::pin(future)),
        Some(at) => Started::Later(Box::pin(Scoped::new(at, future))),
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
