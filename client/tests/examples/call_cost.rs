//! The CPU cost of a generated call next to a hand-written hyper-util request doing the same work
//! (`GET /item/42`, `POST /item`), in one process, for callgrind: `bench/client_callgrind.py` runs
//! it under `valgrind --tool=callgrind --dump-before='*phase_boundary*'` against the release
//! service, and each phase's instructions are one dump's total.
//!
//! Rules enforced here: both clients are warmed up first (connections open, pools filled); each
//! phase makes the same number of calls on one thread (a current-thread runtime, so the
//! connection tasks' work is counted too); the hand-written request does what the generated one
//! does (builds the URI, sets `Content-Type` for the body, serializes and parses the same serde
//! types, checks the status) and nothing more; every answer is checked, so no phase is cheap by
//! failing.
//!
//! Usage: call_cost BASE_URL CALLS   (cargo build --release -p ferrapi-client-tests --example call_cost)

use std::process::ExitCode;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::header::CONTENT_TYPE;
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client as HyperClient;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use resource_api_client::ferrapi_client::Nullable;
use resource_api_client::types::Item;
use serde::{Deserialize, Serialize};

/// `GET /item/{id}`'s answer, as a hand-written client declares it.
#[derive(Deserialize)]
struct ItemId {
    id: i64,
}

/// `POST /item`'s body and answer, as a hand-written client declares them.
#[derive(Serialize)]
struct HandItem<'a> {
    name: &'a str,
    price: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    tax: Option<f64>,
}

#[derive(Deserialize)]
struct ItemWithTax {
    name: String,
    price_with_tax: Option<f64>,
}

type Hand = HyperClient<HttpConnector, Full<Bytes>>;

/// Where callgrind starts a new dump: between two phases.
#[inline(never)]
fn phase_boundary(name: &str) {
    std::hint::black_box(name);
}

async fn hand_get(client: &Hand, base: &str, id: i64) -> Result<i64, String> {
    let uri: hyper::Uri = format!("{base}/item/{id}").parse().map_err(|e| format!("{e}"))?;
    let request = Request::builder()
        .method(Method::GET)
        .uri(uri)
        .body(Full::new(Bytes::new()))
        .map_err(|e| e.to_string())?;
    let response = client.request(request).await.map_err(|e| e.to_string())?;
    if response.status() != StatusCode::OK {
        return Err(format!("status {}", response.status()));
    }
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    let item: ItemId = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    Ok(item.id)
}

async fn hand_post(client: &Hand, base: &str, item: &HandItem<'_>) -> Result<f64, String> {
    let uri: hyper::Uri = format!("{base}/item").parse().map_err(|e| format!("{e}"))?;
    let body = serde_json::to_vec(item).map_err(|e| e.to_string())?;
    let request = Request::builder()
        .method(Method::POST)
        .uri(uri)
        .header(CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    let response = client.request(request).await.map_err(|e| e.to_string())?;
    if response.status() != StatusCode::OK {
        return Err(format!("status {}", response.status()));
    }
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    let answer: ItemWithTax = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    std::hint::black_box(&answer.name);
    answer
        .price_with_tax
        .ok_or_else(|| "no price_with_tax".to_owned())
}

async fn run(base: &str, calls: usize) -> Result<(), String> {
    let generated = resource_api_client::Client::new(base).map_err(|e| e.to_string())?;
    // The same client without a timeout: what the timer costs.
    let untimed = resource_api_client::Client::from_client(
        ferrapi_client::Client::builder(base)
            .timeout(None)
            .build()
            .map_err(|e| e.to_string())?,
    );
    let mut connector = HttpConnector::new();
    connector.set_nodelay(true);
    let hand: Hand = HyperClient::builder(TokioExecutor::new())
        .pool_timer(TokioTimer::new())
        .pool_idle_timeout(Duration::from_secs(60))
        .build(connector);
    let item = Item {
        name: "Foo".into(),
        description: Nullable::Absent,
        price: 35.4,
        tax: Nullable::Value(3.2),
    };
    let hand_item = HandItem {
        name: "Foo",
        price: 35.4,
        tax: Some(3.2),
    };
    let check = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!("wrong answer: {what}"))
        }
    };

    for _ in 0..200 {
        check(
            generated
                .read_item(42)
                .await
                .map_err(|e| e.to_string())?
                .into_ok()
                .map_err(|e| e.to_string())?
                .id
                == 42,
            "generated GET",
        )?;
        check(
            untimed
                .read_item(42)
                .await
                .map_err(|e| e.to_string())?
                .into_ok()
                .map_err(|e| e.to_string())?
                .id
                == 42,
            "untimed GET",
        )?;
        check(hand_get(&hand, base, 42).await? == 42, "hand GET")?;
        generated
            .create_item(&item)
            .await
            .map_err(|e| e.to_string())?
            .into_ok()
            .map_err(|e| e.to_string())?;
        untimed
            .create_item(&item)
            .await
            .map_err(|e| e.to_string())?
            .into_ok()
            .map_err(|e| e.to_string())?;
        hand_post(&hand, base, &hand_item).await?;
    }

    phase_boundary("generated GET /item/42");
    for _ in 0..calls {
        let answer = generated.read_item(42).await.map_err(|e| e.to_string())?;
        check(
            answer.into_ok().map_err(|e| e.to_string())?.id == 42,
            "generated GET",
        )?;
    }
    phase_boundary("hand-written GET /item/42");
    for _ in 0..calls {
        check(hand_get(&hand, base, 42).await? == 42, "hand GET")?;
    }
    phase_boundary("generated GET /item/42, no timeout");
    for _ in 0..calls {
        let answer = untimed.read_item(42).await.map_err(|e| e.to_string())?;
        check(
            answer.into_ok().map_err(|e| e.to_string())?.id == 42,
            "untimed GET",
        )?;
    }
    phase_boundary("generated POST /item");
    for _ in 0..calls {
        let answer = generated.create_item(&item).await.map_err(|e| e.to_string())?;
        let created = answer.into_ok().map_err(|e| e.to_string())?;
        check(created.price_with_tax.is_value(), "generated POST")?;
    }
    phase_boundary("hand-written POST /item");
    for _ in 0..calls {
        hand_post(&hand, base, &hand_item).await?;
    }
    phase_boundary("generated POST /item, no timeout");
    for _ in 0..calls {
        let answer = untimed.create_item(&item).await.map_err(|e| e.to_string())?;
        let created = answer.into_ok().map_err(|e| e.to_string())?;
        check(created.price_with_tax.is_value(), "untimed POST")?;
    }
    phase_boundary("end");
    Ok(())
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(base), Some(calls)) = (args.next(), args.next().and_then(|n| n.parse().ok())) else {
        eprintln!("usage: call_cost BASE_URL CALLS");
        return ExitCode::from(2);
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(&base, calls)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("call_cost: {error}");
            ExitCode::FAILURE
        }
    }
}
