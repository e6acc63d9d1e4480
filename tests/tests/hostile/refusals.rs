//! Attack 9: refusals are visible. Before: 367,008 overload 503s produced no log line at the
//! default level. Now each reason is counted in the metrics and reported at WARN once a second,
//! with the count.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::{Event, Level, Metadata, Subscriber};

use crate::support::{app, exclusive, refusals, serve};

/// The WARN lines of `ferrapi`'s server, as they were logged.
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Warnings;

struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

impl Subscriber for Warnings {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() == Level::WARN && metadata.target().starts_with("ferrapi")
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut message = Message(String::new());
        event.record(&mut message);
        if let Ok(mut lines) = WARNINGS.lock() {
            lines.push(message.0);
        }
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

fn capture_warnings() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let _ = tracing::subscriber::set_global_default(Warnings);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overload_refusals_are_counted_and_logged_once_a_second_with_their_count() {
    let _one = exclusive().await;
    capture_warnings();
    #[ferrapi::get("/slow")]
    async fn slow() -> &'static str {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        "slow"
    }
    let app = app()
        .routes(ferrapi::routes![slow])
        .metrics(ferrapi::metrics::Metrics::new())
        .max_concurrency(Some(1));
    let (addr, _stop) = serve(app).await;
    let held = tokio::spawn(async move { ferrapi_tests::client::get(addr, "/slow").await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let before: Vec<String> = WARNINGS.lock().map(|l| l.clone()).unwrap_or_default();
    let mut refused = 0;
    for _ in 0..300 {
        if ferrapi_tests::client::get(addr, "/fast").await.status == 503 {
            refused += 1;
        }
    }
    assert_eq!(refused, 300, "the place was not held");
    let _ = held.await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let lines: Vec<String> = WARNINGS
        .lock()
        .map(|l| l[before.len().min(l.len())..].to_vec())
        .unwrap_or_default();
    let overload: Vec<&String> = lines.iter().filter(|l| l.contains("answered 503")).collect();
    assert!(
        !overload.is_empty() && overload.len() <= 3,
        "300 refusals in ~1 s gave {} lines: {overload:?}",
        overload.len()
    );
    let counted: u64 = overload
        .iter()
        .filter_map(|l| l.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
        .sum();
    assert_eq!(counted, 300, "{overload:?}");
    // The metrics count them too (the metrics scrape itself may be refused while held: after).
    assert_eq!(refusals(addr, "overload").await, 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_budget_refusals_are_counted_and_logged_with_their_count() {
    let _one = exclusive().await;
    capture_warnings();
    let app = app()
        .metrics(ferrapi::metrics::Metrics::new())
        .memory_budget(Some(64 * 1024));
    let (addr, _stop) = serve(app).await;
    let before: Vec<String> = WARNINGS.lock().map(|l| l.clone()).unwrap_or_default();
    // Each needs more than the whole budget: 413, counted as the budget's refusal.
    let body = format!("[{}]", vec!["0"; 20_000].join(","));
    for _ in 0..40 {
        let reply = ferrapi_tests::client::send_json(addr, "POST", "/echo", &body).await;
        assert_eq!(reply.status, 413);
    }
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let lines: Vec<String> = WARNINGS
        .lock()
        .map(|l| l[before.len().min(l.len())..].to_vec())
        .unwrap_or_default();
    let budget: Vec<&String> = lines.iter().filter(|l| l.contains("memory budget")).collect();
    let counted: u64 = budget
        .iter()
        .filter_map(|l| l.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()))
        .sum();
    assert_eq!(counted, 40, "{budget:?}");
    assert_eq!(refusals(addr, "memory_budget").await, 40);
}
