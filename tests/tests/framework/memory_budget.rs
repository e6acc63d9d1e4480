//! The memory budget over real HTTP on 127.0.0.1 (issue 34): with a budget of 64 KiB, a body
//! declared larger than the budget, a JSON body whose tree would cost more, a body read while
//! others hold the budget, and an answer nobody reads get the budget's answers (413, 503 with
//! `Retry-After: 1`), before the memory is taken; once the holder lets go the same request is
//! served. An app without a budget takes what the same requests need.

use std::net::SocketAddr;
use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::client::{get, request, send, send_json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::oneshot;

const BUDGET: usize = 64 * 1024;

/// Echoes any JSON body.
#[post("/echo")]
async fn echo(body: Json<Value>) -> Json<Value> {
    body
}

/// A typed body.
#[derive(Model)]
struct Order {
    name: String,
    lines: Vec<f64>,
}

/// Reads an order.
#[post("/order")]
async fn order(order: Order) -> Json<Value> {
    Json(json!({ "lines": order.lines.len(), "name": order.name }))
}

/// Asks the budget for `kib` KiB before "loading" them, answers little.
#[get("/reserve/{kib}")]
async fn reserve(kib: usize, memory: ferrapi::memory::Memory) -> Response {
    match memory.reserve(kib * 1024).await {
        Ok(_room) => "loaded".into_response(),
        Err(refused) => refused.into_response(),
    }
}

/// Holds `kib` KiB of the budget for 3 s (a route loading something large, slowly).
#[get("/hold/{kib}")]
async fn hold(kib: usize, memory: ferrapi::memory::Memory) -> Response {
    match memory.reserve(kib * 1024).await {
        Ok(_room) => {
            tokio::time::sleep(Duration::from_secs(3)).await;
            "held".into_response()
        }
        Err(refused) => refused.into_response(),
    }
}

/// An answer of `kib` KiB.
#[get("/big/{kib}")]
async fn big(kib: usize) -> String {
    "x".repeat(kib * 1024)
}

async fn serve(budget: Option<usize>) -> (SocketAddr, oneshot::Sender<()>) {
    let app = App::new()
        .routes(ferrapi::routes![echo, order, big, reserve, hold])
        .memory_budget(budget);
    let server = app.bind("127.0.0.1:0").await.expect("bind");
    let addr = server.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    (addr, stop)
}

fn detail(body: &[u8]) -> Value {
    serde_json::from_slice::<Value>(body).map_or(Value::Null, |v| v["detail"].clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_that_alone_needs_more_than_the_budget_is_413_before_it_is_read() {
    let (addr, _stop) = serve(Some(BUDGET)).await;
    // Declared larger than the budget: refused from its head, no byte of it read.
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        BUDGET + 1
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    let reply = ferrapi_tests::client::read_one(&mut stream)
        .await
        .expect("a reply");
    assert_eq!(reply.status, 413);
    assert_eq!(
        detail(&reply.body),
        json!("The request needs more memory than the server allows one request")
    );
    // 2 KiB of arrays nested 100 deep: small, but its tree would cost ~160 KiB.
    let nested = format!(
        "[{}]",
        vec![format!("{}{}", "[".repeat(10), "]".repeat(10)); 100].join(",")
    );
    let reply = send_json(addr, "POST", "/echo", &nested).await;
    assert_eq!(reply.status, 413, "{}", String::from_utf8_lossy(&reply.body));
    // What fits is served.
    let reply = send_json(addr, "POST", "/echo", r#"{"a":[1,2,3]}"#).await;
    assert_eq!((reply.status, reply.body), (200, br#"{"a":[1,2,3]}"#.to_vec()));
    let reply = send_json(addr, "POST", "/order", r#"{"name":"n","lines":[1.5,2]}"#).await;
    assert_eq!(reply.status, 200);
    // Without a budget the same nested body is simply read.
    let (unlimited, _stop) = serve(None).await;
    assert_eq!(send_json(unlimited, "POST", "/echo", &nested).await.status, 200);
}

/// A connection that sent the head of a body of `declared` bytes and the first `sent` of them.
async fn stalled_body(addr: SocketAddr, declared: usize, sent: usize) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {declared}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    stream.write_all(&vec![b' '; sent]).await.expect("send");
    stream
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_read_while_stalled_bodies_hold_the_budget_waits_and_is_served_once_they_are_reset() {
    let (addr, _stop) = serve(Some(BUDGET)).await;
    // Clients that declare 60 KiB and send nothing hold nothing: what a body holds is what came.
    let mut idle = Vec::new();
    for _ in 0..10 {
        idle.push(stalled_body(addr, 60 * 1024, 1).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let small = format!("\"{}\"", "x".repeat(5000));
    assert_eq!(send_json(addr, "POST", "/echo", &small).await.status, 200);
    // Bodies that wait for their bytes hold at most three quarters of the budget, together and
    // each: 60 KiB that came of a body stalled before its last byte is too large (413).
    let mut greedy = stalled_body(addr, 60 * 1024 + 1, 60 * 1024).await;
    let reply = ferrapi_tests::client::read_one(&mut greedy)
        .await
        .expect("a reply");
    assert_eq!(reply.status, 413, "{}", String::from_utf8_lossy(&reply.body));
    drop(greedy);
    // Two bodies stalled before their last byte hold 46 KiB (30 KiB and 16 KiB), and a route
    // 15 more: 3 KiB are left.
    let mut holders = Vec::new();
    for size in [30 * 1024, 16 * 1024] {
        holders.push(stalled_body(addr, size + 1, size).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stalled_since = std::time::Instant::now();
    let mut holding = TcpStream::connect(addr).await.expect("connect");
    holding
        .write_all(&request("t", "GET", "/hold/15", &[], None))
        .await
        .expect("send");
    tokio::time::sleep(Duration::from_millis(200)).await;
    // A body of 3.5 KB (a string: its tree is its text; it comes whole) does not fit beside
    // them while they are fresh: it waits for room a bounded time (it is within the budget's
    // headroom, what waiting requests may hold), then 503.
    let body = format!("\"{}\"", "x".repeat(3_500));
    let asked = std::time::Instant::now();
    let reply = send_json(addr, "POST", "/echo", &body).await;
    assert_eq!(reply.status, 503, "{}", String::from_utf8_lossy(&reply.body));
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(detail(&reply.body), json!("The server is busy; retry shortly"));
    let waited = asked.elapsed();
    assert!(
        waited >= Duration::from_millis(190) && waited < Duration::from_secs(1),
        "{waited:?}"
    );
    // A request without a body is not refused.
    assert_eq!(get(addr, "/big/1").await.status, 200);
    // Once they brought nothing for a second, the same request resets the largest (as many as
    // it needs: one) and is served.
    tokio::time::sleep(
        (stalled_since + Duration::from_millis(1100)).saturating_duration_since(std::time::Instant::now()),
    )
    .await;
    let reply = send_json(addr, "POST", "/echo", &body).await;
    assert_eq!(reply.status, 200, "{}", String::from_utf8_lossy(&reply.body));
    let mut reset = Vec::new();
    for mut holder in holders {
        let reply = tokio::time::timeout(
            Duration::from_millis(500),
            ferrapi_tests::client::read_one(&mut holder),
        )
        .await;
        if let Ok(Ok(reply)) = &reply {
            assert_eq!(reply.status, 503);
            assert_eq!(reply.header("retry-after"), Some("1"));
            assert_eq!(reply.header("connection"), Some("close"));
            assert_eq!(
                detail(&reply.body),
                json!("The request body stopped arriving while the server needed its memory; retry shortly")
            );
        }
        reset.push(matches!(reply, Ok(Ok(_))));
    }
    assert_eq!(reset, [true, false], "the largest stalled body, and only it");
    drop((idle, holding));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_nobody_reads_hold_their_charge_until_written() {
    // Answers larger than what the kernel buffers for a connection (4 MiB here), so they stay
    // with the server while their client reads nothing.
    const BIG_BUDGET: usize = 16 << 20;
    let (addr, _stop) = serve(Some(BIG_BUDGET)).await;
    let mut readers = Vec::new();
    for _ in 0..3 {
        let socket = TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
        let mut reader = socket.connect(addr).await.expect("connect");
        reader
            .write_all(&request("t", "GET", "/big/5120", &[], None))
            .await
            .expect("send");
        readers.push(reader);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    // 15 MiB are held, so a fourth 5 MiB answer does not fit: 503; a small one does.
    let reply = get(addr, "/big/5120").await;
    assert_eq!(reply.status, 503);
    assert_eq!(reply.header("retry-after"), Some("1"));
    assert_eq!(get(addr, "/big/1").await.status, 200);
    // A route that asks for room before loading is refused before it loads, as the budget
    // answers (and more than the whole budget is a 413).
    let reply = get(addr, "/reserve/2048").await;
    assert_eq!((reply.status, reply.header("retry-after")), (503, Some("1")));
    assert_eq!(get(addr, "/reserve/512").await.status, 200);
    assert_eq!(get(addr, "/reserve/20480").await.status, 413);
    // Once one client reads its answer, its charge comes back.
    let mut answer = Vec::new();
    let mut reader = readers.remove(0);
    let mut chunk = vec![0u8; 1 << 16];
    while answer.len() < 5 << 20 {
        let n = reader.read(&mut chunk).await.expect("read");
        if n == 0 {
            break;
        }
        answer.extend_from_slice(&chunk[..n]);
    }
    assert!(answer.len() >= 5 << 20);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(get(addr, "/big/5120").await.status, 200);
    // An answer larger than the whole budget can never be served: the app's mistake, a 500.
    assert_eq!(get(addr, "/big/20480").await.status, 500);
    drop(readers);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chunked_body_is_charged_as_it_arrives() {
    let (addr, _stop) = serve(Some(BUDGET)).await;
    // No declared length: each frame is charged before it is kept; past the budget, 413.
    let mut chunked = TcpStream::connect(addr).await.expect("connect");
    chunked
        .write_all(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        .await
        .expect("send");
    let piece = vec![b' '; 16 * 1024];
    for _ in 0..5 {
        let frame = [
            format!("{:x}\r\n", piece.len()).into_bytes(),
            piece.clone(),
            b"\r\n".to_vec(),
        ]
        .concat();
        if chunked.write_all(&frame).await.is_err() {
            break;
        }
    }
    let reply = ferrapi_tests::client::read_one(&mut chunked)
        .await
        .expect("a reply");
    assert_eq!(reply.status, 413);
    // A chunked body within the budget is read.
    let mut small = TcpStream::connect(addr).await.expect("connect");
    small
        .write_all(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1]\r\n0\r\n\r\n")
        .await
        .expect("send");
    let reply = ferrapi_tests::client::read_one(&mut small)
        .await
        .expect("a reply");
    assert_eq!((reply.status, reply.body), (200, b"[1]".to_vec()));
    assert_eq!(send(addr, "GET", "/big/1", &[], None).await.status, 200);
}
