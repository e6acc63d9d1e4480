//! Shared application state, injected into handlers as `State<T>`.
//!
//! Rules enforced here: one value per type; a [`State<T>`] is the value (it dereferences to
//! `T`; its `Arc` is [`State::arc`], never a public field a `.0` would reach by mistake); a route
//! that asks for a state the app does not hold is refused when the app is built, not when a
//! request arrives (a state a startup hook gives is held by its slot from the start, filled when
//! the hook ran: a value of `App::state` is read as it was, at no extra
//! cost); a [`StateMap`] holds the user's values and nothing else: what else every request
//! shares of the compiled app (its error answers, the tracker of its background tasks) is beside
//! it in [`Shared`], reached through the same one address a request carries.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, OnceLock};

use tokio_util::task::TaskTracker;

use crate::response::ErrorAnswers;

/// Values registered with `App::state`, by type.
#[derive(Default)]
pub struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl std::fmt::Debug for StateMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateMap")
            .field("len", &self.values.len())
            .finish()
    }
}

/// What every request shares of the compiled app besides its routes: the user's state, the
/// app's error answers (`App::on_not_found`, ...) and the tracker of its background tasks, which
/// a server shutting down waits for. One address in each request's context reaches all three: a
/// request that fails validation finds the app's 422 through it, and carries nothing more for it.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    pub(crate) state: StateMap,
    pub(crate) answers: ErrorAnswers,
    pub(crate) tasks: TaskTracker,
}

impl StateMap {
    /// Store `value`, replacing an earlier value of the same type.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// The value of type `T` (a value a startup hook gives, once it has given it).
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        match self.values.get(&TypeId::of::<T>())?.clone().downcast::<T>() {
            Ok(value) => Some(value),
            Err(other) => other.downcast_ref::<Late<T>>()?.0.get().cloned(),
        }
    }

    /// Hold a value of type `T` that a startup hook gives later (`App::on_startup` returning
    /// it): the app builds with routes that take `State<T>`, and the hook fills the slot
    /// returned before the server takes a connection.
    pub(crate) fn late<T: Send + Sync + 'static>(&mut self) -> Arc<Late<T>> {
        let slot = Arc::new(Late(OnceLock::new()));
        self.values.insert(TypeId::of::<T>(), slot.clone());
        slot
    }

    /// True when a value of this type is stored.
    pub fn contains(&self, type_id: TypeId) -> bool {
        self.values.contains_key(&type_id)
    }
}

/// The slot of a state a startup hook gives (see [`StateMap::late`]): empty until the hook ran.
pub(crate) struct Late<T>(OnceLock<Arc<T>>);

impl<T> Late<T> {
    /// Fill the slot; `false` when it was filled already.
    pub(crate) fn set(&self, value: T) -> bool {
        self.0.set(Arc::new(value)).is_ok()
    }
}

/// Application state of type `T`, shared by all requests: `async fn f(db: State<Db>)`. It
/// dereferences to `T` (`db.query(..)`, `counter.0.lock()` for a tuple struct `Counter`);
/// [`State::arc`] gives the `Arc` it is shared through, to move into a task.
#[derive(Debug)]
pub struct State<T>(pub(crate) Arc<T>);

impl<T> State<T> {
    /// Another reference to the shared value, to keep beyond the request (a spawned task, a
    /// WebSocket's loop): `let hub = hub.arc();`.
    pub fn arc(&self) -> Arc<T> {
        Arc::clone(&self.0)
    }

    /// The reference to the shared value this state holds.
    pub fn into_arc(self) -> Arc<T> {
        self.0
    }
}

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
