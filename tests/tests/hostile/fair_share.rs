//! Fair share under attack (issue 41): a limit is not first come, first kept. Attackers from the
//! same address as the legitimate clients hold the memory budget with bodies they never finish,
//! or the connection limit with connections that do nothing or trickle a body, and reconnect as
//! soon as they are cut; the legitimate clients are counted while the attack runs.
//!
//! Before: 40 connections each holding a 1 MiB body sent but for 100 bytes let 2–4 % of small
//! POSTs and no budgeted read through (one HTTP/2 connection with 100 such streams, none);
//! evictions took the oldest connection, the pooled client's, whose next request was written to
//! a closing connection; 800 connections trickling bodies were busy and never evicted, and kept
//! a third of fresh clients out.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferrapi::memory::Memory;
use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::client::{read_one, request};
use http_body_util::{BodyExt, StreamBody};
use hyper::body::Frame;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{app, exclusive, frame_types, fresh, refusals, rss, serve};

/// The budget of the attacked app.
const BUDGET: usize = 8 << 20;
/// Its body limit: what each attacking body declares.
const LIMIT: usize = 256 << 10;
/// What a budgeted read reserves (the service's bird read reserves 2 MiB of 64).
const READ_ROOM: usize = 256 << 10;

/// A small typed body, as `POST /item`'s.
#[derive(Model)]
struct Item {
    name: String,
    price: f64,
}

/// Reads an item.
#[post("/item")]
async fn item(item: Item) -> Json<Value> {
    Json(json!({ "name": item.name, "price": item.price }))
}

/// Reserves room before "loading" something, as the service's bird read does.
#[get("/read")]
async fn read(memory: Memory) -> Response {
    match memory.reserve(READ_ROOM).await {
        Ok(_room) => "read".into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// The attacked app: a budget of 8 MiB, bodies of 256 KiB at most, its metrics.
fn budgeted() -> App {
    app()
        .routes(ferrapi::routes![item, read])
        .memory_budget(Some(BUDGET))
        .body_limit(LIMIT)
        .metrics(ferrapi::metrics::Metrics::new())
}

/// A body of `len` bytes of JSON: an empty array, spaces inside.
fn body_bytes(len: usize) -> Bytes {
    let mut body = vec![b' '; len];
    body[0] = b'[';
    body[len - 1] = b']';
    Bytes::from(body)
}

/// Until `stop`: connect, send the head of a body of `LIMIT` bytes and all of it but the last
/// 100, then hold until the server answers or closes; reconnect. Each answer is counted in
/// `cut` (503s in `reset`).
async fn hold_bodies(
    addr: SocketAddr,
    body: Bytes,
    stop: Arc<AtomicBool>,
    (cut, reset): (Arc<AtomicUsize>, Arc<AtomicUsize>),
) {
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {LIMIT}\r\n\r\n"
    );
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if stream.write_all(head.as_bytes()).await.is_err()
            || stream.write_all(&body[..LIMIT - 100]).await.is_err()
        {
            continue;
        }
        let mut answer = Box::pin(read_one(&mut stream));
        loop {
            if stop.load(Ordering::SeqCst) {
                return;
            }
            match tokio::time::timeout(Duration::from_millis(100), &mut answer).await {
                Err(_) => continue,
                Ok(reply) => {
                    cut.fetch_add(1, Ordering::SeqCst);
                    if reply.is_ok_and(|reply| reply.status == 503) {
                        reset.fetch_add(1, Ordering::SeqCst);
                    }
                    break;
                }
            }
        }
    }
}

/// A request on a new connection: true when it was answered 2xx within a second.
async fn served_within_a_second(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> bool {
    let attempt = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let headers: &[(&str, &str)] = match body {
            Some(_) => &[("Content-Type", "application/json")],
            None => &[],
        };
        stream
            .write_all(&request("t", method, path, headers, body))
            .await
            .ok()?;
        read_one(&mut stream).await.ok()
    };
    matches!(
        tokio::time::timeout(Duration::from_secs(1), attempt).await,
        Ok(Some(reply)) if (200..300).contains(&reply.status)
    )
}

/// Legitimate clients for `seconds`: a small POST and a budgeted read every 50 ms, each on a new
/// connection; the shares answered 2xx within a second.
async fn legitimate_clients(addr: SocketAddr, seconds: u64) -> ((usize, usize), (usize, usize)) {
    let (mut posts, mut reads) = ((0, 0), (0, 0));
    let item = br#"{"name":"pen","price":1.5}"#;
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        let (post, read) = tokio::join!(
            served_within_a_second(addr, "POST", "/item", Some(item)),
            served_within_a_second(addr, "GET", "/read", None)
        );
        posts = (posts.0 + usize::from(post), posts.1 + 1);
        reads = (reads.0 + usize::from(read), reads.1 + 1);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (posts, reads)
}

/// An upload of `LIMIT` bytes at 128 KiB/s (a client on a slow link, well above the minimum
/// rate), tried again after a 503 that refused it room as `Retry-After` says, at most 8 times:
/// its final status, and the answers of the attempts refused.
async fn steady_upload(addr: SocketAddr, body: Bytes) -> (u16, Vec<String>) {
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {LIMIT}\r\n\r\n"
    );
    let mut refused = Vec::new();
    for _ in 0..8 {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            return (0, refused);
        };
        let mut sent = stream.write_all(head.as_bytes()).await.is_ok();
        for piece in body.chunks(16 << 10) {
            if !sent || stream.write_all(piece).await.is_err() {
                sent = false;
                break;
            }
            tokio::time::sleep(Duration::from_millis(125)).await;
        }
        let reply = match tokio::time::timeout(Duration::from_secs(5), read_one(&mut stream)).await {
            Ok(Ok(reply)) => reply,
            _ => return (0, refused),
        };
        if reply.status != 503 || !sent && reply.header("retry-after").is_none() {
            return (reply.status, refused);
        }
        refused.push(reply.text());
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    (503, refused)
}

fn share((ok, of): (usize, usize)) -> f64 {
    ok as f64 / of.max(1) as f64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_held_unfinished_give_the_budget_back_to_small_requests_and_reads() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(budgeted()).await;
    let before = rss() as usize;
    let body = body_bytes(LIMIT);
    let stop = Arc::new(AtomicBool::new(false));
    let counts = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    // 60 connections × 256 KiB: nearly twice the budget, held, and taken again when cut.
    let attackers: Vec<_> = (0..60)
        .map(|_| tokio::spawn(hold_bodies(addr, body.clone(), stop.clone(), counts.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let upload = tokio::spawn(steady_upload(addr, body.clone()));
    let peak = Arc::new(AtomicUsize::new(0));
    let sampler = tokio::spawn({
        let (peak, stop) = (peak.clone(), stop.clone());
        async move {
            while !stop.load(Ordering::SeqCst) {
                peak.fetch_max(rss() as usize, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    });
    let (posts, reads) = legitimate_clients(addr, 6).await;
    let (upload, refused) = upload.await.unwrap_or((0, Vec::new()));
    stop.store(true, Ordering::SeqCst);
    for attacker in attackers {
        attacker.await.unwrap_or_else(|e| panic!("{e}"));
    }
    let _ = sampler.await;
    let (cut, reset) = (counts.0.load(Ordering::SeqCst), counts.1.load(Ordering::SeqCst));
    let grew = peak.load(Ordering::SeqCst).saturating_sub(before);
    let resets = refusals(addr, "memory_reset").await;
    eprintln!(
        "60 held 256 KiB bodies, budget 8 MiB: small POSTs {}/{}, reads {}/{}, steady upload {upload} after {} refusals; attack bodies answered {cut} ({reset} × 503), memory_reset {resets}; RSS +{} MiB",
        posts.0, posts.1, reads.0, reads.1, refused.len(), grew >> 20
    );
    assert!(share(posts) >= 0.9, "small POSTs served: {posts:?}");
    assert!(share(reads) >= 0.9, "budgeted reads served: {reads:?}");
    // An upload competes for a place among the bodies being received like any other newcomer
    // (the attackers' look the same when they start), but once it has one it is never reset.
    assert_eq!(upload, 200, "a steady upload never completed: {refused:?}");
    assert!(
        refused.iter().all(|answer| answer.contains("The server is busy")),
        "a steady upload was reset: {refused:?}"
    );
    assert!(resets > 0, "no stalled body was reset");
    assert!(grew <= 2 * BUDGET + (16 << 20), "RSS grew by {grew} bytes");
}

/// Until `stop`: one HTTP/2 connection with 100 streams, each sending all but 100 bytes of a
/// `LIMIT` body and holding; a stream answered is opened again.
async fn hold_streams(addr: SocketAddr, body: Bytes, stop: Arc<AtomicBool>, answered: Arc<AtomicUsize>) {
    let Ok(stream) = TcpStream::connect(addr).await else {
        return;
    };
    let Ok((sender, connection)) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream)).await
    else {
        return;
    };
    tokio::spawn(connection);
    let streams: Vec<_> = (0..100)
        .map(|_| {
            let (mut sender, body, stop, answered) = (sender.clone(), body.clone(), stop.clone(), answered.clone());
            tokio::spawn(async move {
                while !stop.load(Ordering::SeqCst) {
                    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(1);
                    let request = hyper::Request::post(format!("http://{addr}/echo"))
                        .header("content-type", "application/json")
                        .header("content-length", LIMIT.to_string())
                        .body(StreamBody::new(futures_util::stream::poll_fn({
                            let mut rx = rx;
                            move |cx| rx.poll_recv(cx)
                        })))
                        .unwrap_or_else(|e| panic!("{e}"));
                    if sender.ready().await.is_err() {
                        return;
                    }
                    let answer = sender.send_request(request);
                    let feed = async {
                        for piece in body[..LIMIT - 100].chunks(16 << 10) {
                            if tx.send(Ok(Frame::data(Bytes::copy_from_slice(piece)))).await.is_err() {
                                break;
                            }
                        }
                        // Held open: the last 100 bytes never come.
                        std::future::pending::<()>().await;
                    };
                    tokio::select! {
                        reply = answer => {
                            answered.fetch_add(1, Ordering::SeqCst);
                            if let Ok(reply) = reply {
                                let _ = reply.into_body().collect().await;
                            }
                        }
                        () = feed => {}
                        () = async { while !stop.load(Ordering::SeqCst) { tokio::time::sleep(Duration::from_millis(100)).await } } => return,
                    }
                }
            })
        })
        .collect();
    for stream in streams {
        let _ = stream.await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_http2_connection_of_held_bodies_holds_no_more_than_its_share() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(budgeted()).await;
    let body = body_bytes(LIMIT);
    let stop = Arc::new(AtomicBool::new(false));
    let answered = Arc::new(AtomicUsize::new(0));
    // Two connections of 100 streams × 256 KiB: 50 MiB declared, six times the budget.
    let attackers: Vec<_> = (0..2)
        .map(|_| tokio::spawn(hold_streams(addr, body.clone(), stop.clone(), answered.clone())))
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (posts, reads) = legitimate_clients(addr, 5).await;
    stop.store(true, Ordering::SeqCst);
    for attacker in attackers {
        let _ = attacker.await;
    }
    eprintln!(
        "2 HTTP/2 connections × 100 held 256 KiB bodies, budget 8 MiB: small POSTs {}/{}, reads {}/{}; streams answered {}",
        posts.0,
        posts.1,
        reads.0,
        reads.1,
        answered.load(Ordering::SeqCst)
    );
    assert!(share(posts) >= 0.9, "small POSTs served: {posts:?}");
    assert!(share(reads) >= 0.9, "budgeted reads served: {reads:?}");
    assert!(
        answered.load(Ordering::SeqCst) > 0,
        "no stream past its connection's share was answered"
    );
}

/// The app at a limit of `limit` connections, its metrics, with deadlines long enough that none
/// of them is what frees a place.
fn limited(limit: usize) -> App {
    app()
        .metrics(ferrapi::metrics::Metrics::new())
        .max_connections(Some(limit))
        .header_read_timeout(Duration::from_secs(20))
        .body_timeout(Duration::from_secs(20), Some(8 * 1024))
        .write_timeout(Duration::from_secs(20))
}

/// Until `stop`: open a connection that sends nothing, hold it until the server closes it, open
/// another (a churn of idle connections at the limit).
async fn churn_idle(addr: SocketAddr, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        let mut byte = [0u8; 1];
        while !stop.load(Ordering::SeqCst) {
            match tokio::time::timeout(Duration::from_millis(100), stream.read(&mut byte)).await {
                Err(_) => continue,
                Ok(_) => break,
            }
        }
    }
}

/// Run `tasks` on a runtime of their own, on a thread of their own, until they end: an attacker
/// that shares no worker thread with the server or the client it is measured against.
fn on_own_thread<F>(tasks: Vec<F>) -> std::thread::JoinHandle<()>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|e| panic!("{e}"));
        runtime.block_on(async move {
            let tasks: Vec<_> = tasks.into_iter().map(tokio::spawn).collect();
            for task in tasks {
                let _ = task.await;
            }
        });
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pooled_client_is_never_the_one_evicted_and_loses_no_request() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(40)).await;
    let stop = Arc::new(AtomicBool::new(false));
    // The pooled client first: the oldest connection, as it is in a real deployment, and busy
    // from the start (a connection idle for 100 ms or more may be asked to leave).
    let mut pooled = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    let attackers = on_own_thread((0..80).map(|_| churn_idle(addr, stop.clone())).collect());
    // Back-to-back POSTs for 5 s on the one connection; a request written that gets no status
    // line is lost, and a closed connection is reopened (and counted).
    let body = br#"{"a":1}"#;
    let (mut sent, mut lost, mut reopened) = (0, 0, 0);
    let until = Instant::now() + Duration::from_secs(5);
    let mut last_answer = Instant::now();
    while Instant::now() < until {
        let bytes = request(
            "t",
            "POST",
            "/echo",
            &[("Content-Type", "application/json")],
            Some(body),
        );
        let idle = last_answer.elapsed();
        if pooled.write_all(&bytes).await.is_err() {
            reopened += 1;
            pooled = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
            continue;
        }
        sent += 1;
        match tokio::time::timeout(Duration::from_secs(2), read_one(&mut pooled)).await {
            Ok(Ok(reply)) if reply.status == 200 => last_answer = Instant::now(),
            other => {
                eprintln!(
                    "request {sent} lost after {idle:?} idle: {:?}",
                    other.map(|r| r.map(|r| r.status))
                );
                lost += 1;
                reopened += 1;
                pooled = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }
    stop.store(true, Ordering::SeqCst);
    let _ = attackers.join();
    let evicted = refusals(addr, "evicted").await;
    eprintln!("a pooled client beside 80 idle connections churning at a limit of 40: {sent} requests, {lost} lost, {reopened} reopened; {evicted} evictions");
    assert!(
        evicted >= 100,
        "the churn made too few evictions to prove anything: {evicted}"
    );
    assert!(sent >= 500, "only {sent} requests in 5 s");
    assert_eq!(lost, 0, "requests written that never got a status line");
    assert_eq!(reopened, 0, "the pooled client's connection was closed under it");
}

/// Until `stop`: a request whose head declares a body of 100 bytes, then one byte every 2 s;
/// reopened when the server closes it.
async fn trickle_body(addr: SocketAddr, stop: Arc<AtomicBool>, cut: Arc<AtomicUsize>) {
    let head =
        b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[";
    while !stop.load(Ordering::SeqCst) {
        let Ok(mut stream) = TcpStream::connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        if stream.write_all(head).await.is_err() {
            continue;
        }
        let mut chunk = [0u8; 256];
        'held: while !stop.load(Ordering::SeqCst) {
            let next_byte = Instant::now() + Duration::from_secs(2);
            while Instant::now() < next_byte {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                // Answered (408) or closed while it waits.
                if let Ok(Ok(_)) =
                    tokio::time::timeout(Duration::from_millis(100), stream.read(&mut chunk)).await
                {
                    cut.fetch_add(1, Ordering::SeqCst);
                    break 'held;
                }
            }
            if stream.write_all(b" ").await.is_err() {
                cut.fetch_add(1, Ordering::SeqCst);
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_trickling_bodies_make_room_for_fresh_clients() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(40)).await;
    let (stop, cut) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicUsize::new(0)));
    // 48 for 40 places: 8 at a time wait in the listen backlog, before any fresh client.
    let attackers = on_own_thread(
        (0..48)
            .map(|_| trickle_body(addr, stop.clone(), cut.clone()))
            .collect(),
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // A fresh client every 100 ms for ~4 s.
    let (mut served, mut worst) = (0, Duration::ZERO);
    let rounds = 30;
    for _ in 0..rounds {
        let (status, took) = fresh(addr).await;
        if status == 200 && took < Duration::from_secs(1) {
            served += 1;
        }
        worst = worst.max(took);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.store(true, Ordering::SeqCst);
    let _ = attackers.join();
    let evicted = refusals(addr, "evicted").await;
    eprintln!(
        "48 connections trickling bodies at a limit of 40: fresh clients {served}/{rounds} within 1 s (worst {worst:?}); {} trickles cut, {evicted} evictions",
        cut.load(Ordering::SeqCst)
    );
    assert!(
        served * 100 >= rounds * 95,
        "fresh clients served: {served}/{rounds}"
    );
    assert!(evicted > 0, "no trickling connection was evicted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_http2_connection_closed_for_room_is_sent_a_goaway() {
    let _one = exclusive().await;
    let (addr, _stop) = serve(limited(1)).await;
    let mut h2 = TcpStream::connect(addr).await.unwrap_or_else(|e| panic!("{e}"));
    // The preface and an empty SETTINGS frame, then nothing: an idle HTTP/2 connection.
    h2.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    tokio::time::sleep(Duration::from_millis(150)).await;
    let newcomer = tokio::spawn(fresh(addr));
    // What the server sent it until it closed: a GOAWAY among it (and a PING it does not
    // answer, so it is closed after a grace).
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        match tokio::time::timeout(Duration::from_millis(500), h2.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => bytes.extend_from_slice(&chunk[..n]),
            Err(_) => {}
        }
    }
    let kinds = frame_types(&bytes);
    assert!(kinds.contains(&7), "no GOAWAY among the frames sent: {kinds:?}");
    let (status, took) = newcomer.await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 200);
    assert!(took < Duration::from_secs(1), "the newcomer took {took:?}");
}
