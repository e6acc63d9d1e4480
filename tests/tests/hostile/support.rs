//! The app under attack, how it is served, and what the tests measure: a fresh client's answers,
//! this process's CPU time and resident memory.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ferrapi::prelude::*;
use ferrapi::App;
use ferrapi_tests::client::{request, try_parse};
pub use ferrapi_tests::process::{cpu_time, rss};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::{oneshot, Mutex, MutexGuard};

/// The size of `/big`'s answer.
pub const BIG: usize = 1 << 20;

/// Answers at once.
#[get("/fast")]
async fn fast() -> &'static str {
    "fast"
}

/// Echoes a JSON body.
#[post("/echo")]
async fn echo(body: Json<Value>) -> Json<Value> {
    body
}

/// A 1 MiB answer (the attacks' 1 MiB bird).
#[get("/big")]
async fn big() -> String {
    "x".repeat(BIG)
}

/// The app every attack is aimed at (with the upload routes of the framework's test app).
pub fn app() -> App {
    App::new().routes(ferrapi::routes![
        fast,
        echo,
        big,
        ferrapi_tests::inputs::upload_echo
    ])
}

static ONE_AT_A_TIME: Mutex<()> = Mutex::const_new(());

/// Hold this while attacking: the tests measure this process.
pub async fn exclusive() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().await
}

/// Serve `app` until the returned sender is dropped.
pub async fn serve(app: App) -> (SocketAddr, oneshot::Sender<()>) {
    let server = app
        .bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("bind: {e}"));
    let addr = server.local_addr();
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// One `GET /fast` on a new connection: its status and how long it took.
pub async fn fresh(addr: SocketAddr) -> (u16, Duration) {
    let started = Instant::now();
    let status = async {
        let mut stream = TcpStream::connect(addr).await.ok()?;
        let bytes = request("t", "GET", "/fast", &[("Connection", "close")], None);
        stream.write_all(&bytes).await.ok()?;
        let mut reply = Vec::new();
        stream.read_to_end(&mut reply).await.ok()?;
        try_parse(&reply).ok().map(|reply| reply.status)
    };
    let status = tokio::time::timeout(Duration::from_secs(5), status)
        .await
        .ok()
        .flatten()
        .unwrap_or(0);
    (status, started.elapsed())
}

/// `rounds` fresh requests 50 ms apart: each must be a 200 within 100 ms.
pub async fn fresh_clients_are_served(addr: SocketAddr, rounds: usize, during: &str) {
    for round in 0..rounds {
        let (status, took) = fresh(addr).await;
        assert_eq!(status, 200, "{during}: fresh request {round} answered {status}");
        assert!(
            took < Duration::from_millis(100),
            "{during}: fresh request {round} took {took:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A connection with a small receive buffer, so the server's writes stall soon.
pub async fn small_window(addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap_or_else(|e| panic!("{e}"));
    socket
        .set_recv_buffer_size(4096)
        .unwrap_or_else(|e| panic!("{e}"));
    socket.connect(addr).await.unwrap_or_else(|e| panic!("{e}"))
}

/// Read until the peer closes (or resets) the connection; the bytes read, or `None` when it was
/// still open after `within`.
pub async fn closed_within(stream: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 16384];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        match tokio::time::timeout(left, stream.read(&mut chunk)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(bytes),
            Ok(Ok(n)) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
}

/// The value of `http_refusals_total{reason="<reason>"}` on the app's `/metrics`.
pub async fn refusals(addr: SocketAddr, reason: &str) -> u64 {
    let reply = ferrapi_tests::client::get(addr, "/metrics").await;
    let needle = format!("http_refusals_total{{reason=\"{reason}\"}} ");
    reply
        .text()
        .lines()
        .find_map(|line| line.strip_prefix(&needle))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// The frame types in `bytes`, a sequence of HTTP/2 frames.
pub fn frame_types(mut bytes: &[u8]) -> Vec<u8> {
    let mut types = Vec::new();
    while bytes.len() >= 9 {
        let length = usize::from(bytes[0]) << 16 | usize::from(bytes[1]) << 8 | usize::from(bytes[2]);
        types.push(bytes[3]);
        bytes = bytes.get(9 + length..).unwrap_or_default();
    }
    types
}
