//! An app's lifecycle: what runs before the server takes its first connection
//! ([`App::on_startup`]) and after its last one closed ([`App::on_shutdown`]).
//!
//! Rules enforced here:
//! - startup hooks run in the order added, each awaited, after the app is built and before the
//!   address is bound; the first that fails stops the start: [`App::bind`] and [`App::serve`]
//!   return [`ServeError::Startup`](crate::serve::ServeError::Startup), one line naming the hook and its
//!   error, and the hooks after it do not run;
//! - shutdown hooks run in the order added, once the server drained its connections and the
//!   background tasks finished (both within `shutdown_timeout`); one that fails or panics is
//!   logged and the next runs;
//! - a startup hook's `Ok` value is the app's state of its type (`Ok(())` none): its slot is in
//!   the state from the start, so routes taking it build, and it is filled when the hook ran;
//! - an app without hooks keeps none and runs none.

use std::any::TypeId;
use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;

use super::App;

/// A hook's future: `Err` with its error as one line.
type HookFuture = Pin<Box<dyn Future<Output = Result<(), String>> + Send>>;

/// One hook: its name (for the log), and the function starting it.
pub(crate) struct Hook {
    name: String,
    start: Box<dyn FnOnce() -> HookFuture + Send>,
}

/// The app's startup and shutdown hooks.
#[derive(Default)]
pub(crate) struct Lifecycle {
    pub(crate) startup: Vec<Hook>,
    pub(crate) shutdown: Vec<Hook>,
}

impl std::fmt::Debug for Lifecycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |hooks: &[Hook]| hooks.iter().map(|h| h.name.clone()).collect::<Vec<_>>();
        f.debug_struct("Lifecycle")
            .field("startup", &names(&self.startup))
            .field("shutdown", &names(&self.shutdown))
            .finish()
    }
}

fn hook<F, Fut, T, E>(name: &str, hook: F) -> Hook
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: Future<Output = Result<T, E>> + Send + 'static,
    E: Display,
{
    Hook {
        name: name.to_owned(),
        start: Box::new(move || {
            let running = hook();
            Box::pin(async move { running.await.map(drop).map_err(|error| error.to_string()) })
        }),
    }
}

/// Run the startup hooks in order; the first failure, as one line, stops them.
pub(crate) async fn start(hooks: Vec<Hook>) -> Result<(), String> {
    for Hook { name, start } in hooks {
        tracing::debug!(hook = %name, "startup hook");
        start()
            .await
            .map_err(|error| format!("startup hook `{name}` failed: {error}"))?;
    }
    Ok(())
}

/// Run the shutdown hooks in order, each in a task of its own (a panic is caught), logging each
/// failure.
pub(crate) async fn stop(hooks: Vec<Hook>) {
    for Hook { name, start } in hooks {
        match tokio::spawn(start()).await {
            Ok(Ok(())) => tracing::debug!(hook = %name, "shutdown hook done"),
            Ok(Err(error)) => tracing::error!(hook = %name, %error, "shutdown hook failed"),
            Err(_) => tracing::error!(hook = %name, "shutdown hook panicked"),
        }
    }
}

impl App {
    /// Run `hook` before the server takes its first connection (open a pool, warm a cache, check
    /// a dependency service): hooks run in the order added, and the first that returns `Err`
    /// stops the start, [`App::serve`] returning
    /// [`ServeError::Startup`](crate::serve::ServeError::Startup) with `name` and the error on one line.
    /// FastAPI's `lifespan` before its `yield`.
    ///
    /// What the hook returns in `Ok` becomes the app's state (FastAPI's `app.state.pool = ..` in
    /// the lifespan): a hook returning `Ok(pool)` gives routes `State<Pool>`, as
    /// [`App::state`]`(pool)` would, but made when the server starts; a hook returning `Ok(())`
    /// gives none. A route taking that state builds (the hook is known to give it), and gets it
    /// from the first request on.
    pub fn on_startup<F, Fut, T, E>(mut self, name: &str, hook_fn: F) -> Self
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<T, E>> + Send + 'static,
        T: Send + Sync + 'static,
        E: Display,
    {
        if TypeId::of::<T>() == TypeId::of::<()>() {
            self.lifecycle.startup.push(hook(name, hook_fn));
            return self;
        }
        let slot = self.state.late::<T>();
        let hook_fn = move || {
            let running = hook_fn();
            async move {
                let value = running.await.map_err(|error| error.to_string())?;
                match slot.set(value) {
                    true => Ok(()),
                    false => Err("it gave its state twice".to_owned()),
                }
            }
        };
        self.lifecycle.startup.push(hook(name, hook_fn));
        self
    }

    /// Run `hook` when the server stops, after it drained its connections and background tasks:
    /// hooks run in the order added; one that fails or panics is logged and the next runs.
    /// FastAPI's `lifespan` after its `yield`.
    pub fn on_shutdown<F, Fut, E>(mut self, name: &str, hook_fn: F) -> Self
    where
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = Result<(), E>> + Send + 'static,
        E: Display,
    {
        self.lifecycle.shutdown.push(hook(name, hook_fn));
        self
    }
}
