//! An app's lifecycle over real HTTP (issue 24, item 5): startup hooks run in order before the
//! first connection and the first failure stops the start with one line; background tasks run
//! after the answer, in order, a failing or panicking one logged and the next run; on shutdown
//! the server drains its connections, waits for the background tasks, then runs its shutdown
//! hooks; a startup hook's value is the app's state (issue 32, item 6: FastAPI's `app.state` set
//! in the lifespan, without a `OnceLock`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::serve::ServeError;
use ferrapi::BackgroundTasks;
use ferrapi_tests::client::get;

/// What happened, in order.
#[derive(Clone, Default)]
struct Events(Arc<Mutex<Vec<String>>>);

impl Events {
    fn push(&self, event: &str) {
        if let Ok(mut events) = self.0.lock() {
            events.push(event.to_owned());
        }
    }

    fn all(&self) -> Vec<String> {
        self.0.lock().map(|events| events.clone()).unwrap_or_default()
    }

    /// Wait (at most 5 s) until `event` happened.
    async fn wait_for(&self, event: &str) {
        for _ in 0..500 {
            if self.all().iter().any(|e| e == event) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{event} did not happen: {:?}", self.all());
    }
}

/// Answers at once and leaves four tasks: a slow one, one that fails, one that panics, a last one.
#[get("/work")]
async fn work(tasks: BackgroundTasks, events: State<Events>) -> &'static str {
    let events = Events::clone(&events);
    let slow = events.clone();
    tasks.add(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        slow.push("slow task");
    });
    tasks.add(async { Err::<(), _>("the mail server is down") });
    tasks.add(async {
        if std::hint::black_box(true) {
            panic!("a task's bug");
        }
    });
    let last = events.clone();
    tasks.add(async move { last.push("last task") });
    events.push("answered");
    "accepted"
}

/// The app, its hooks recording into `events`.
fn app(events: &Events) -> App {
    let (first, second, down) = (events.clone(), events.clone(), events.clone());
    App::new()
        .state(events.clone())
        .routes(routes![work])
        .on_startup("first", move || async move {
            first.push("startup first");
            Ok::<(), String>(())
        })
        .on_startup("second", move || async move {
            second.push("startup second");
            Ok::<(), String>(())
        })
        .on_shutdown("close", move || async move {
            down.push("shutdown hook");
            Ok::<(), String>(())
        })
}

/// A connection pool the startup hook opens, as FastAPI's lifespan sets `app.state.pool`.
struct Pool {
    url: String,
    opened: Mutex<u32>,
}

/// A route taking the state the startup hook gives.
#[get("/pool")]
async fn pool(pool: State<Pool>) -> Json<Value> {
    let uses = pool.opened.lock().map_or(0, |mut n| {
        *n += 1;
        *n
    });
    // `State::arc` for what outlives the request (a task); the state itself derefs to `Pool`.
    let shared = pool.arc();
    tokio::spawn(async move { drop(shared) });
    Json(json!({ "url": pool.url, "uses": uses }))
}

fn pool_app() -> App {
    App::new().routes(routes![pool]).on_startup("pool", || async {
        Ok::<_, String>(Pool {
            url: "postgres://db".to_owned(),
            opened: Mutex::new(0),
        })
    })
}

#[tokio::test]
async fn a_startup_hooks_value_is_the_apps_state() {
    // The app builds: the hook is known to give the `State<Pool>` the route takes.
    let server = pool_app().bind("127.0.0.1:0").await.expect("starts");
    let addr = server.local_addr();
    let running = tokio::spawn(server.run_until(std::future::pending()));
    let reply = get(addr, "/pool").await;
    assert_eq!(reply.json(), json!({ "url": "postgres://db", "uses": 1 }));
    assert_eq!(
        get(addr, "/pool").await.json(),
        json!({ "url": "postgres://db", "uses": 2 })
    );
    running.abort();
    // In-process, `TestClient::start` runs the hooks first, as FastAPI's `with TestClient(app)`.
    let client = ferrapi::testing::TestClient::start(pool_app()).await;
    assert_eq!(client.get("/pool").send().await.json::<Value>()["uses"], 1);
    // A hook returning `Ok(())` gives no state: a route taking one is refused at build.
    let error = App::new()
        .routes(routes![pool])
        .on_startup("nothing", || async { Ok::<(), String>(()) })
        .build()
        .map(drop)
        .expect_err("no Pool");
    assert!(error.to_string().contains("State<"), "{error}");
}

#[tokio::test]
async fn startup_hooks_run_in_order_before_the_first_connection() {
    let events = Events::default();
    let server = app(&events).bind("127.0.0.1:0").await.expect("starts");
    assert_eq!(events.all(), ["startup first", "startup second"]);
    drop(server);
}

#[tokio::test]
async fn a_failing_startup_hook_stops_the_start_with_one_line() {
    let events = Events::default();
    let later = events.clone();
    let app = App::new()
        .on_startup("database", || async {
            Err::<(), _>("connection refused (127.0.0.1:5432)")
        })
        .on_startup("cache", move || async move {
            later.push("cache");
            Ok::<(), String>(())
        });
    let error = app.bind("127.0.0.1:0").await.expect_err("the start fails");
    assert!(matches!(error, ServeError::Startup(_)));
    assert_eq!(
        error.to_string(),
        "startup hook `database` failed: connection refused (127.0.0.1:5432)"
    );
    assert_eq!(
        format!("{error:?}"),
        error.to_string(),
        "what a `main` returning it prints after `Error: `"
    );
    assert!(events.all().is_empty(), "the hooks after it do not run");
}

#[tokio::test]
async fn background_tasks_run_after_the_answer_in_order_and_past_failures() {
    let events = Events::default();
    let server = app(&events).bind("127.0.0.1:0").await.expect("starts");
    let addr = server.local_addr();
    tokio::spawn(server.run_until(std::future::pending()));
    let reply = get(addr, "/work").await;
    assert_eq!((reply.status, reply.text()), (200, "accepted".to_owned()));
    assert!(
        !events.all().iter().any(|e| e == "slow task"),
        "the answer does not wait for the tasks"
    );
    events.wait_for("last task").await;
    let all = events.all();
    assert_eq!(
        all[2..],
        ["answered", "slow task", "last task"],
        "in order, the failing and the panicking task logged and passed"
    );
}

#[tokio::test]
async fn shutdown_waits_for_background_tasks_then_runs_the_shutdown_hooks() {
    let events = Events::default();
    let server = app(&events).bind("127.0.0.1:0").await.expect("starts");
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run_until(async {
        let _ = stopped.await;
    }));
    assert_eq!(get(addr, "/work").await.status, 200);
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), running)
        .await
        .expect("the server stops")
        .expect("the server task ends");
    assert_eq!(
        events.all()[2..],
        ["answered", "slow task", "last task", "shutdown hook"],
        "the tasks finished before the server returned, the hook after them"
    );
}
