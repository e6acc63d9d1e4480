//! Dependency overrides (FastAPI's `app.dependency_overrides`): a test replaces a dependency type
//! with a function of its own, without touching the routes ([`TestClient::override_dependency`]).
//!
//! Rules enforced here:
//! - an override replaces the dependency's resolution wherever it is used (a route's argument,
//!   another dependency's input, a group's dependency), once per request as the dependency
//!   would be; the inputs the dependency reads are still read (what it would have resolved with
//!   them, its own sub-dependencies included, is not);
//! - overrides belong to the requests of the test client that set them (a task-local scope
//!   around each of its requests), never to a server, nor to another client's requests;
//! - a process that never sets an override pays one relaxed atomic load per dependency
//!   resolution for them, and a route without dependencies nothing.
//!
//! [`TestClient::override_dependency`]: crate::testing::TestClient::override_dependency

use std::any::{Any, TypeId};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::response::Response;

/// A replacement's future: the value, boxed, or the response answering the request.
type Replaced = Pin<Box<dyn Future<Output = Result<Box<dyn Any + Send>, Response>> + Send>>;

/// One replacement.
type Replacement = Arc<dyn Fn() -> Replaced + Send + Sync>;

/// Replacements by dependency type.
#[derive(Clone, Default)]
pub(crate) struct Overrides(Vec<(TypeId, Replacement)>);

impl std::fmt::Debug for Overrides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Overrides").field("len", &self.0.len()).finish()
    }
}

/// Set once any override was made in this process: until then no request looks for one.
static ANY: AtomicBool = AtomicBool::new(false);

tokio::task_local! {
    static CURRENT: Overrides;
}

impl Overrides {
    /// Replace dependency `D` by `replace()`, or the override of `D` made before; `keep` puts
    /// its value in the request's cache (`Cacheable::kept`).
    pub(crate) fn set<D, F, Fut>(&mut self, replace: F, keep: fn(D) -> Box<dyn Any + Send>)
    where
        D: 'static,
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<D, Response>> + Send + 'static,
    {
        ANY.store(true, Ordering::Relaxed);
        let replacement: Replacement = Arc::new(move || {
            let replaced = replace();
            Box::pin(async move { replaced.await.map(keep) })
        });
        self.0.retain(|(id, _)| *id != TypeId::of::<D>());
        self.0.push((TypeId::of::<D>(), replacement));
    }

    /// True when there is no override.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Run `future` (a request) with these overrides.
    pub(crate) async fn run<F: Future>(self, future: F) -> F::Output {
        CURRENT.scope(self, future).await
    }
}

/// The replacement of the dependency of type `id` for the current request, if a test set one.
#[inline]
pub(super) fn replacement(id: TypeId) -> Option<Replaced> {
    if !ANY.load(Ordering::Relaxed) {
        return None;
    }
    find(id)
}

#[cold]
fn find(id: TypeId) -> Option<Replaced> {
    CURRENT
        .try_with(|overrides| {
            overrides
                .0
                .iter()
                .find(|(known, _)| *known == id)
                .map(|(_, replace)| replace())
        })
        .ok()
        .flatten()
}
