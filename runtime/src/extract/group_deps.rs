//! Dependencies run for their effect alone, without being an argument ([`DependencyFn`], a
//! plain-data record of fn pointers): what a route group keeps for the dependencies it runs for
//! every route in it. The trait and the per-request cache are `dependency`'s.
//!
//! Rules enforced here: [`GroupInputs`] reads the group's dependencies with the route's
//! arguments and resolves them, outermost group first, in the route's [`Deps`] before the route's
//! own dependencies (so a dependency the route also takes still runs once); one whose inputs were
//! invalid is skipped (its errors answer 422, unless a dependency answers first), as a route's
//! own are.

use std::any::type_name;
use std::future::Future;
use std::pin::Pin;

use super::dependency::{Dependency, Deps, Resolve};
use super::request::RequestCx;
use super::state::StateMap;
use crate::openapi::Operation;
use crate::response::Response;
use crate::validate::{SchemaRegistry, ValidationErrors};

/// The future of a group dependency's second step.
pub type EffectFuture<'a> = Pin<Box<dyn Future<Output = Result<(), Response>> + Send + 'a>>;

/// A group dependency between its two steps, its type erased: what resolves it.
trait Effect: Send {
    /// Resolve the dependency through `deps`, discarding its value.
    fn resolve(self: Box<Self>, deps: &mut Deps) -> EffectFuture<'_>;
}

/// Dependency `D`'s input, as an [`Effect`].
struct Input<D, R>(R, std::marker::PhantomData<fn() -> D>);

impl<D: Dependency, R: Resolve<D>> Effect for Input<D, R> {
    fn resolve(self: Box<Self>, deps: &mut Deps) -> EffectFuture<'_> {
        Box::pin(deps.resolve_cached::<D>(self.0))
    }
}

/// Dependency `D` run for its effect alone (its value discarded), as plain data: what a route
/// group keeps for each of its `dependencies`, to run them for every route in it without the
/// routes naming them. The steps are those of an argument: its extraction with the route's other
/// arguments (its errors join the route's 422), then its resolution through the request's
/// [`Deps`] (so a dependency the route also takes still runs once) before the route's own
/// dependencies.
#[derive(Clone, Copy)]
pub struct DependencyFn {
    name: &'static str,
    /// The first step: what resolves the dependency, or `None` with errors recorded.
    extract: for<'a> fn(&RequestCx<'a>, &mut ValidationErrors) -> Option<Box<dyn Effect>>,
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
    pub fn of<D: Dependency>() -> Self {
        DependencyFn {
            name: type_name::<D>(),
            extract: extract_erased::<D>,
            doc: D::doc,
            check: D::check,
        }
    }
}

/// The inputs of a route's group dependencies for one request, read by the route's handler
/// (`Handler`, made by the route macros) with its own arguments when its groups have
/// dependencies, then resolved first in its future.
pub struct GroupInputs {
    // Each dependency whose inputs were valid.
    inputs: Vec<Box<dyn Effect>>,
}

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
            .filter_map(|dependency| (dependency.extract)(cx, errors))
            .collect();
        GroupInputs { inputs }
    }

    /// Resolve them in order through `deps`: `Err` is the first failing dependency's answer.
    pub async fn resolve(self, deps: &mut Deps) -> Result<(), Response> {
        for input in self.inputs {
            input.resolve(deps).await?;
        }
        Ok(())
    }
}

fn extract_erased<D: Dependency>(
    cx: &RequestCx<'_>,
    errors: &mut ValidationErrors,
) -> Option<Box<dyn Effect>> {
    let input = D::extract(cx, errors)?;
    Some(Box::new(Input::<D, _>(input, std::marker::PhantomData)))
}

#[cfg(test)]
mod tests {
    use std::pin::pin;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::task::{Context, Poll, Waker};

    use super::*;
    use crate::body::BodyInput;
    use crate::extract::{Extract, Param, PathParams, Shared};

    static RUNS: AtomicUsize = AtomicUsize::new(0);

    /// A dependency reading query parameter `n`, counting its resolutions.
    #[derive(Clone, Debug, PartialEq)]
    struct Counted(i64);

    struct N(i64);

    impl Resolve<Counted> for N {
        async fn resolve(self, _deps: &mut Deps) -> Result<Counted, Response> {
            RUNS.fetch_add(1, Ordering::Relaxed);
            Ok(Counted(self.0))
        }
    }

    impl Dependency for Counted {
        fn extract(cx: &RequestCx<'_>, errors: &mut ValidationErrors) -> Option<impl Resolve<Self> + use<>> {
            <i64 as Extract>::extract(cx, Param::named("n"), errors).map(N)
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
        let (params, body, shared) = (PathParams::default(), BodyInput::Missing, Shared::default());
        let cx = RequestCx {
            parts: &parts,
            path: "/x",
            params: &params,
            body_input: &body,
            shared: &shared,
            charge: None,
            budget: None,
            version: crate::versions::Chosen::NONE,
            trace: None,
            tracer: None,
            version_date: None,
            shape_date: None,
        };
        let group = DependencyFn::of::<Counted>();
        let mut errors = ValidationErrors::new();
        let mut deps = Deps::new();
        for _ in 0..2 {
            let input = (group.extract)(&cx, &mut errors).unwrap_or_else(|| unreachable!());
            assert!(block_on(input.resolve(&mut deps)).is_ok());
        }
        assert!(errors.is_empty());
        assert_eq!(RUNS.load(Ordering::Relaxed), 1);
        // The route's own use of the dependency finds it resolved.
        assert_eq!(deps.get::<Counted>(), Some(&Counted(5)));
        let again = block_on(deps.resolve::<Counted>(N(5)));
        assert_eq!(again.ok(), Some(Counted(5)));
        assert_eq!(RUNS.load(Ordering::Relaxed), 1);
    }
}
