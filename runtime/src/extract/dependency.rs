//! Dependencies: the second, asynchronous step of an argument ([`Arg::resolve`]) and the
//! per-request cache that makes a dependency run once however often a request uses it.
//!
//! Rules enforced here:
//! - a dependency is resolved at most once per request: [`Deps`] keeps the first value of each
//!   dependency type and every later use gets a clone of it (FastAPI's `use_cache=True`, its
//!   default); a dependency whose resolution failed answered the request, so nothing is cached
//!   for it;
//! - a route without a dependency never builds a [`Deps`] nor awaits: [`now`] takes the value of
//!   an argument that is ready at once (every kind but a dependency), by one poll without a
//!   waker, which the optimiser folds away for the built-in kinds (`std::future::Ready`);
//! - a dependency can also run for its effect alone, without being an argument
//!   ([`DependencyFn`], a plain-data record of fn pointers, for dependencies a route group runs
//!   for every route in it): [`GroupInputs`] reads the group's dependencies with the route's
//!   arguments and resolves them, outermost group first, in the route's [`Deps`] before the
//!   route's own dependencies; one whose inputs were invalid is skipped (its errors answer 422,
//!   unless a dependency answers first), as a route's own are.

use std::any::{type_name, Any, TypeId};
use std::future::Future;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

use super::arg::{Arg, Param};
use super::request::RequestCx;
use super::state::StateMap;
use crate::openapi::Operation;
use crate::response::{internal_error, Response};
use crate::validate::{SchemaRegistry, ValidationErrors};

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
    /// `Clone`), can call it (see `codegen::Share`).
    async fn resolve_shared<D: Arg>(&mut self, input: D::Input, sharing: Sharing<D>) -> Result<D, Response> {
        let id = (sharing.type_id)();
        let cached = self.values.iter().find(|(key, _)| *key == id);
        if let Some(value) = cached.and_then(|(_, value)| (sharing.get)(&**value)) {
            return Ok((sharing.clone)(value));
        }
        let value = D::resolve(input, self).await?;
        self.values.push((id, (sharing.boxed)((sharing.clone)(&value))));
        Ok(value)
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
/// dependency, see `codegen::Share`).
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

/// The value of an argument whose second step is ready at once, for a route without
/// dependencies (the route macros pick this path only then, by a constant). `None` if it is not
/// ready after all (an `Arg` implementation that awaits without being a dependency), which the
/// handler answers with a logged 500.
#[inline(always)]
pub(crate) fn now<T: Arg>(input: Option<T::Input>) -> Option<T> {
    let input = input?;
    let mut deps = Deps { values: Vec::new() };
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

/// The future of a [`DependencyFn`]'s second step.
pub type EffectFuture<'a> = Pin<Box<dyn Future<Output = Result<(), Response>> + Send + 'a>>;

/// Dependency `D` run for its effect alone (its value discarded), as plain data: what a route
/// group keeps for each of its `dependencies`, to run them for every route in it without the
/// routes naming them. The steps are those of an argument: [`extract`](DependencyFn::extract)
/// with the route's other arguments (its errors join the route's 422), then
/// [`resolve`](DependencyFn::resolve) through the request's [`Deps`] (so a dependency the route
/// also takes still runs once) before the route's own dependencies.
#[derive(Clone, Copy)]
pub struct DependencyFn {
    name: &'static str,
    /// The first step: the dependency's input, type-erased, or `None` with errors recorded.
    pub extract: for<'a> fn(&RequestCx<'a>, &mut ValidationErrors) -> Option<Box<dyn Any + Send>>,
    /// The second step: `Err` is the response that answers the request.
    pub resolve: for<'d> fn(Box<dyn Any + Send>, &'d mut Deps) -> EffectFuture<'d>,
    /// What the dependency documents, added to each route's operation.
    pub doc: fn(&mut Operation, &mut SchemaRegistry),
    /// Its build-time check against the app's state.
    pub check: fn(&StateMap) -> Result<(), String>,
}

impl std::fmt::Debug for DependencyFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DependencyFn").field("name", &self.name).finish()
    }
}

impl DependencyFn {
    /// The dependency's type name, for messages.
    pub(crate) fn name(&self) -> &'static str {
        self.name
    }

    /// Dependency `D`, to be run for its effect.
    pub fn of<D: Arg + Clone + Send + 'static>() -> Self {
        DependencyFn {
            name: type_name::<D>(),
            extract: extract_erased::<D>,
            resolve: resolve_erased::<D>,
            doc: doc_erased::<D>,
            check: D::check,
        }
    }
}

/// The inputs of a route's group dependencies for one request, read by the route's grouped
/// handler (`GroupedHandler`, made by the route macros) with its own arguments, then
/// resolved first in its future.
pub struct GroupInputs {
    // Each dependency whose inputs were valid, with its second step.
    inputs: Vec<(ResolveFn, Box<dyn Any + Send>)>,
}

type ResolveFn = for<'d> fn(Box<dyn Any + Send>, &'d mut Deps) -> EffectFuture<'d>;

impl std::fmt::Debug for GroupInputs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupInputs")
            .field("valid", &self.inputs.len())
            .finish()
    }
}

impl GroupInputs {
    /// Read the inputs of `group`'s dependencies (outermost group first) from `cx`, recording
    /// every validation error in `errors`.
    pub fn extract(group: &[DependencyFn], cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Self {
        let inputs = group
            .iter()
            .filter_map(|dependency| Some((dependency.resolve, (dependency.extract)(cx, errors)?)))
            .collect();
        GroupInputs { inputs }
    }

    /// Resolve them in order through `deps`: `Err` is the first failing dependency's answer.
    pub async fn resolve(self, deps: &mut Deps) -> Result<(), Response> {
        for (resolve, input) in self.inputs {
            resolve(input, deps).await?;
        }
        Ok(())
    }
}

fn extract_erased<D: Arg + 'static>(
    cx: &RequestCx<'_>,
    errors: &mut ValidationErrors,
) -> Option<Box<dyn Any + Send>> {
    let input = D::extract(cx, Param::new(type_name::<D>(), None, &[]), errors)?;
    Some(Box::new(input))
}

fn resolve_erased<D: Arg + Clone + Send + 'static>(
    input: Box<dyn Any + Send>,
    deps: &mut Deps,
) -> EffectFuture<'_> {
    Box::pin(async move {
        // Only `extract_erased::<D>` made this box: the downcast cannot fail.
        let Ok(input) = input.downcast::<D::Input>() else {
            return Err(internal_error());
        };
        deps.resolve::<D>(*input).await.map(drop)
    })
}

fn doc_erased<D: Arg>(op: &mut Operation, registry: &mut SchemaRegistry) {
    D::doc(Param::new(type_name::<D>(), None, &[]), op, registry);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::extract::{BodyInput, PathParams, Source};

    static RUNS: AtomicUsize = AtomicUsize::new(0);

    /// A dependency reading query parameter `n`, counting its resolutions.
    #[derive(Clone, Debug, PartialEq)]
    struct Counted(i64);

    impl Arg for Counted {
        const SOURCE: Source = Source::Dependency;
        type Input = i64;

        fn extract(cx: &RequestCx<'_>, _param: Param<Self>, errors: &mut ValidationErrors) -> Option<i64> {
            i64::extract(cx, Param::new("n", None, &[]), errors)
        }

        async fn resolve(n: i64, _deps: &mut Deps) -> Result<Self, Response> {
            RUNS.fetch_add(1, Ordering::Relaxed);
            Ok(Counted(n))
        }
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                return output;
            }
        }
    }

    #[test]
    fn a_dependency_fn_runs_a_dependency_once_per_request_and_discards_its_value() {
        let (parts, ()) = hyper::Request::builder()
            .uri("/x?n=5")
            .body(())
            .map(hyper::Request::into_parts)
            .unwrap_or_else(|_| unreachable!());
        let (params, body, state) = (PathParams::default(), BodyInput::Missing, StateMap::default());
        let cx = RequestCx {
            parts: &parts,
            path: "/x",
            params: &params,
            body_input: &body,
            state: &state,
        };
        let group = DependencyFn::of::<Counted>();
        let mut errors = ValidationErrors::new();
        let mut deps = Deps::new();
        for _ in 0..2 {
            let input = (group.extract)(&cx, &mut errors).unwrap_or_else(|| unreachable!());
            assert!(block_on((group.resolve)(input, &mut deps)).is_ok());
        }
        assert!(errors.is_empty());
        assert_eq!(RUNS.load(Ordering::Relaxed), 1);
        // The route's own use of the dependency finds it resolved.
        assert_eq!(deps.get::<Counted>(), Some(&Counted(5)));
        let again = block_on(resolve::<Counted>(5, &mut deps, Some(Sharing::NEW)));
        assert_eq!(again.ok(), Some(Counted(5)));
        assert_eq!(RUNS.load(Ordering::Relaxed), 1);
    }
}
