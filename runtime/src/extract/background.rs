//! [`BackgroundTasks`]: work a route hands over to run once it has answered (FastAPI's
//! `BackgroundTasks`).
//!
//! Rules enforced here:
//! - tasks run in the order they were added, one after another, once the route's function has
//!   returned (they never delay its answer), and not at all when it panicked;
//! - a task that fails (`Err`) or panics is logged at `ERROR` and the next one runs; nothing of it
//!   reaches the client, whose answer is already made;
//! - the app's tasks are tracked ([`StateMap::tasks`]): a server shutting down waits for them,
//!   within `shutdown_timeout`, after it drained its connections;
//! - a route that does not take the argument pays nothing for it.

use std::fmt::Display;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use tokio_util::task::TaskTracker;

use super::arg::Extract;
use super::param::Param;
use super::request::RequestCx;
use super::state::StateMap;
use crate::validate::ValidationErrors;

/// One task, its outcome already turned into a log line when it failed.
type Task = Pin<Box<dyn Future<Output = Option<String>> + Send>>;

/// What a background task may end with: nothing, or a `Result` whose error is logged.
pub trait TaskOutcome: Send + 'static {
    /// The error to log, if the task failed.
    #[doc(hidden)]
    fn failure(self) -> Option<String>;
}

impl TaskOutcome for () {
    fn failure(self) -> Option<String> {
        None
    }
}

impl<E: Display + Send + 'static> TaskOutcome for Result<(), E> {
    fn failure(self) -> Option<String> {
        self.err().map(|error| error.to_string())
    }
}

/// Work to do after the answer, as an argument: `tasks.add(send_mail(to))`. The tasks start once
/// the route's function has returned, one after another in the order added; one that returns
/// `Err` or panics is logged and the next runs. A server shutting down waits for them (within
/// [`Config::shutdown_timeout`](crate::Config)) after its last connection closed.
#[derive(Clone)]
pub struct BackgroundTasks(Arc<Pending>);

struct Pending {
    tasks: Mutex<Vec<Task>>,
    tracker: TaskTracker,
}

impl std::fmt::Debug for BackgroundTasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pending = self.0.tasks.lock().map_or(0, |tasks| tasks.len());
        f.debug_struct("BackgroundTasks")
            .field("pending", &pending)
            .finish()
    }
}

impl BackgroundTasks {
    /// Tasks tracked by `tracker`.
    pub(crate) fn new(tracker: TaskTracker) -> Self {
        BackgroundTasks(Arc::new(Pending {
            tasks: Mutex::new(Vec::new()),
            tracker,
        }))
    }

    /// Run `task` after the answer (after the tasks added before it).
    pub fn add<F>(&self, task: F)
    where
        F: Future + Send + 'static,
        F::Output: TaskOutcome,
    {
        if let Ok(mut tasks) = self.0.tasks.lock() {
            tasks.push(Box::pin(async move { task.await.failure() }));
        }
    }
}

impl Drop for Pending {
    /// The route is done with its tasks (every clone is gone): start them, unless it panicked.
    fn drop(&mut self) {
        let tasks = match self.tasks.get_mut() {
            Ok(tasks) => std::mem::take(tasks),
            Err(_) => return,
        };
        if tasks.is_empty() || std::thread::panicking() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!(
                tasks = tasks.len(),
                "background tasks dropped: no runtime to run them on"
            );
            return;
        };
        self.tracker.spawn_on(run(tasks), &runtime);
    }
}

/// Run `tasks` in order, each in a task of its own so that a panic is caught and logged.
async fn run(tasks: Vec<Task>) {
    for (index, task) in tasks.into_iter().enumerate() {
        match tokio::spawn(task).await {
            Ok(None) => {}
            Ok(Some(error)) => tracing::error!(task = index, %error, "a background task failed"),
            Err(error) if error.is_panic() => tracing::error!(task = index, "a background task panicked"),
            Err(_) => tracing::error!(task = index, "a background task was cancelled"),
        }
    }
}

// Not recommended: kept out of the list of argument kinds a compile error suggests (that list is
// the common kinds').
#[diagnostic::do_not_recommend]
impl Extract for BackgroundTasks {
    fn extract(cx: &RequestCx<'_>, _param: Param<Self>, _errors: &mut ValidationErrors) -> Option<Self> {
        Some(BackgroundTasks::new(cx.shared.tasks.clone()))
    }

    fn check(_state: &StateMap) -> Result<(), String> {
        Ok(())
    }
}
