//! Server-Sent Events read by a real client: Python's `httpx` with `httpx-sse`'s event parser,
//! behaving as a browser's `EventSource` (support/sse_client.py): the events of a ferrapi route
//! parsed (`event`, `data` over two lines, `id`, `retry`), a reconnection after the server ended
//! the stream that sends `Last-Event-ID` (the handler sees it and resumes after it), and the
//! producer of the second stream dropped within a second of the client leaving, observed in the
//! server.
//!
//! The client runs as `$HTTPX_PYTHON support/sse_client.py` (scripts/test.sh installs `httpx`
//! and `httpx-sse` into its virtualenv and sets it); without it the test is skipped with a
//! notice, except in CI (`CI` set), where that is a failure.

use std::convert::Infallible;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ferrapi::prelude::*;
use ferrapi::streaming::{Event, LastEventId, Sse};
use ferrapi_tests::app::spawn;
use futures_util::{stream, StreamExt};

/// What the server saw: each request's `Last-Event-ID`, and when the open producer was dropped.
#[derive(Default, Clone)]
struct Feed {
    last_event_ids: Arc<Mutex<Vec<Option<String>>>>,
    dropped_at: Arc<Mutex<Option<Instant>>>,
}

/// Notes the time in [`Feed::dropped_at`] when dropped with the producer.
struct DropClock(Arc<Mutex<Option<Instant>>>);

impl Drop for DropClock {
    fn drop(&mut self) {
        if let Ok(mut at) = self.0.lock() {
            *at = Some(Instant::now());
        }
    }
}

fn count(i: u32) -> Result<Event, Infallible> {
    Ok(Event::default()
        .event("count")
        .id(i.to_string())
        .data(format!("tick {i}\nline two")))
}

/// Events 1 to 3 (the first asking for a 200 ms reconnection delay), then the end of the stream;
/// after a `Last-Event-ID`, the events after it up to 6, then silence until the client leaves.
#[get("/feed")]
async fn feed(last: LastEventId, state: State<Feed>) -> Sse {
    if let Ok(mut seen) = state.last_event_ids.lock() {
        seen.push(last.as_deref().map(str::to_owned));
    }
    let resumed = last.as_deref().and_then(|id| id.parse::<u32>().ok());
    match resumed {
        None => {
            let first = stream::once(async { count(1).map(|event| event.retry(Duration::from_millis(200))) });
            Sse::new(first.chain(stream::iter((2..=3).map(count))))
        }
        Some(id) => {
            let clock = DropClock(state.dropped_at.clone());
            // The clock lives in the producer's state: it is dropped with the producer.
            let silent = stream::unfold(clock, |clock| async move {
                std::future::pending::<()>().await;
                Some((count(0), clock))
            });
            Sse::new(stream::iter((id + 1..=6).map(count)).chain(silent))
        }
    }
}

#[tokio::test]
async fn an_httpx_event_source_parses_reconnects_with_last_event_id_and_its_leaving_drops_the_producer() {
    let Ok(python) = std::env::var("HTTPX_PYTHON") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "HTTPX_PYTHON is not set (scripts/test.sh sets it)"
        );
        eprintln!("skipped: the httpx SSE client (HTTPX_PYTHON is not set)");
        return;
    };
    let feed_state = Feed::default();
    let app = App::new().state(feed_state.clone()).routes(routes![feed]);
    let addr = spawn(app).await;
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/framework/support/sse_client.py"
    );
    let mut child = Command::new(python)
        .arg(script)
        .arg(format!("http://{addr}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the client");
    let stdout = child.stdout.take().expect("stdout");
    // The client prints its line right after closing the second response: the clock starts
    // when the line arrives.
    let (line, left) = tokio::task::spawn_blocking(move || {
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the client");
        (line, Instant::now())
    })
    .await
    .unwrap();
    if line.is_empty() {
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .ok();
        panic!("the client printed nothing: {stderr}");
    }
    loop {
        let dropped = *feed_state.dropped_at.lock().unwrap();
        if let Some(at) = dropped {
            assert!(
                at.saturating_duration_since(left) < Duration::from_secs(1),
                "the producer outlived its client by a second"
            );
            break;
        }
        assert!(
            left.elapsed() < Duration::from_secs(1),
            "the producer outlived its client by a second"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Still running (it sleeps after its line): the client closed the response, not its process.
    assert!(child.try_wait().unwrap().is_none(), "the client exited early");
    child.kill().ok();
    child.wait().ok();

    let out: Value = serde_json::from_str(&line).expect("a JSON line");
    let event = |id: u32, retry: Value| json!({"event": "count", "data": format!("tick {id}\nline two"), "id": id.to_string(), "retry": retry});
    assert_eq!(
        out["connections"],
        json!([
            {
                "status": 200,
                "content_type": "text/event-stream",
                "events": [event(1, json!(200)), event(2, Value::Null), event(3, Value::Null)],
            },
            {
                "status": 200,
                "content_type": "text/event-stream",
                "events": [event(4, Value::Null), event(5, Value::Null), event(6, Value::Null)],
            },
        ])
    );
    assert_eq!(
        *feed_state.last_event_ids.lock().unwrap(),
        [None, Some("3".to_owned())]
    );
}
