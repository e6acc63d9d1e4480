//! Shared application state, injected into handlers as `State<T>`.
//!
//! Rules enforced here: one value per type; a route that asks for a state the app does not hold
//! is refused when the app is built, not when a request arrives; the app's error answers travel
//! with its state (see [`StateMap::answers`]), and so does the tracker of its background tasks
//! ([`StateMap::tasks`]).

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

use tokio_util::task::TaskTracker;

use crate::response::ErrorAnswers;

/// Values registered with `App::state`, by type.
#[derive(Default)]
pub struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
    answers: ErrorAnswers,
    tasks: TaskTracker,
}

impl std::fmt::Debug for StateMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateMap")
            .field("len", &self.values.len())
            .field("answers", &self.answers)
            .finish()
    }
}

impl StateMap {
    /// Store `value`, replacing an earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T`.
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.values.get(&TypeId::of::<T>())?.clone().downcast::<T>().ok()
    }

    /// True when a value of this type is stored.
    pub fn contains(&self, type_id: TypeId) -> bool {
        self.values.contains_key(&type_id)
    }

    /// The tracker of the app's background tasks, which a server shutting down waits for.
    pub(crate) fn tasks(&self) -> &TaskTracker {
        &self.tasks
    }

    /// The app's answers to 404, 405, validation errors and 500 (`App::on_not_found`, ...). They
    /// are kept here because every generated handler already holds the state's address: the
    /// handler of a request that fails validation reaches the override through it, and no request
    /// carries anything more for it.
    pub(crate) fn answers(&self) -> &ErrorAnswers {
        &self.answers
    }

    /// The app's error answers, to set them.
    pub(crate) fn answers_mut(&mut self) -> &mut ErrorAnswers {
        &mut self.answers
    }
}

/// Application state of type `T`, shared by all requests: `async fn f(db: State<Db>)`.
#[derive(Debug)]
pub struct State<T>(pub Arc<T>);

impl<T> Clone for State<T> {
    fn clone(&self) -> Self {
        State(self.0.clone())
    }
}

impl<T> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}
