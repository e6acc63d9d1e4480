//! Floods of 1 MiB JSON bodies built to cost the most to parse (arrays nested 120 deep, flat lists
//! of zeros), against an echo route (`Json<Value>`, its answer 1 MiB too), a route that reads any
//! JSON and answers little, and a typed model: the server's resident memory stays within half
//! the budget again above what it held idle (plus the connections' own buffers, which the budget
//! does not count), each request is answered (200, or 503 / 413 from the budget), and afterwards
//! each body is served when it is alone: at the 64 MiB default a body that costs 40 MB to parse
//! waits its turn (503 while others hold the budget), it is not lost.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::support::{exclusive, flat_body, mib, nested_body, send, Server};

const BUDGET: usize = 64 << 20;

/// The flood's clients.
const CLIENTS: usize = 24;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_floods_hold_at_most_the_budget_and_a_half() {
    let _one = exclusive().await;
    let server = Server::start(BUDGET);
    let addr = server.addr;
    assert_eq!(
        send(addr, "POST", "/count", Some(b"[1,2]")).await.map(|r| r.0),
        Some(200)
    );
    let idle = server.status("VmRSS");

    let bodies = Arc::new([nested_body(120), flat_body()]);
    let targets = ["/count", "/echo", "/order"];
    let until = Instant::now() + Duration::from_secs(4);
    let clients: Vec<_> = (0..CLIENTS)
        .map(|client| {
            let bodies = bodies.clone();
            tokio::spawn(async move {
                let mut seen = BTreeMap::<(String, u16), usize>::new();
                let mut round = client;
                while Instant::now() < until {
                    let body = &bodies[round % 2];
                    let target = targets[(round / 2) % targets.len()];
                    let status = send(addr, "POST", target, Some(body)).await.map_or(0, |r| r.0);
                    *seen.entry((target.to_owned(), status)).or_default() += 1;
                    round += 1;
                }
                seen
            })
        })
        .collect();
    let mut seen = BTreeMap::<(String, u16), usize>::new();
    for client in clients {
        for (key, n) in client.await.unwrap_or_default() {
            *seen.entry(key).or_default() += n;
        }
    }
    let peak = server.status("VmHWM");
    eprintln!(
        "answers: {seen:?}; idle {:.1} MiB, peak {:.1} MiB (+{:.1} MiB; budget {:.0} MiB)",
        mib(idle),
        mib(peak),
        mib(peak.saturating_sub(idle)),
        mib(BUDGET as u64)
    );
    for ((target, status), n) in &seen {
        assert!(
            matches!(status, 200 | 413 | 422 | 503),
            "{n} × {status} from {target}: every request is answered, by the route or the budget"
        );
    }
    assert!(
        seen.iter().any(|((_, s), _)| *s == 200),
        "nothing served: {seen:?}"
    );
    // What the budget does not count: hyper's buffers of the 24 connections, reading and
    // writing (256 KiB each at most).
    let uncounted = CLIENTS as u64 * 2 * (256 << 10);
    assert!(
        peak.saturating_sub(idle) <= BUDGET as u64 * 3 / 2 + uncounted,
        "the flood took {:.1} MiB above idle, more than 1.5 × the budget and the connections' buffers",
        mib(peak.saturating_sub(idle))
    );
    // Alone, each is served; a nested body sent to a model can never be: checking it against
    // the model copies its 40 MB tree twice more, past the whole budget (413).
    for (target, body, status) in [
        ("/count", 0, 200),
        ("/count", 1, 200),
        ("/echo", 0, 200),
        ("/order", 1, 200),
        ("/order", 0, 413),
    ] {
        let answer = send(addr, "POST", target, Some(&bodies[body])).await.map(|r| r.0);
        assert_eq!(answer, Some(status), "{target} alone, body {body}");
    }
    assert_eq!(
        send(addr, "POST", "/count", Some(b"[1,2]")).await.map(|r| r.0),
        Some(200)
    );
}
