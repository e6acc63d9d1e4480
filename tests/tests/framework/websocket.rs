//! WebSocket routes over real connections on 127.0.0.1, with tokio-tungstenite as the client:
//! echo, broadcast, ping/pong, close codes, 1009 for an oversize message, and what is refused
//! before the upgrade (a request that is no handshake, a failed dependency, invalid parameters),
//! and WebSocket routes marked in the route table; a client that does not read (a ping flood,
//! a silent one) cut off with the server's memory bounded, and the write buffer's limit.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use ferrapi::prelude::*;
use ferrapi::ws::{CloseCode, Message, WebSocketUpgrade};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::send;
use ferrapi_tests::process::rss;
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use tokio::net::TcpStream;
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::WebSocketStream;

/// Echo text and binary messages.
#[get("/ws/echo")]
async fn echo(ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(|mut socket| async move {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Text(_) | Message::Binary(_)) && socket.send(message).await.is_err()
            {
                break;
            }
        }
    })
}

/// Messages of at most 1 KiB, echoed.
#[get("/ws/small")]
async fn small(ws: WebSocketUpgrade) -> Response {
    ws.max_message_size(1024).on_upgrade(|mut socket| async move {
        while let Some(Ok(message)) = socket.recv().await {
            if message.is_text() && socket.send(message).await.is_err() {
                break;
            }
        }
    })
}

/// One greeting, then a close with 4001.
#[get("/ws/bye")]
async fn bye(ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(|mut socket| async move {
        let _ = socket.send(Message::text("hello")).await;
        let _ = socket.close(CloseCode::Library(4001), "that is all").await;
    })
}

/// The chat room every `/ws/chat` connection shares.
struct Room(broadcast::Sender<String>);

/// Every text message of a member, to every member, tagged with `name`.
#[get("/ws/chat/{room}")]
async fn chat(room: u32, name: String, ws: WebSocketUpgrade, hub: State<Room>) -> Response {
    let hub = hub.arc();
    ws.on_upgrade(move |mut socket| async move {
        let mut inbox = hub.0.subscribe();
        loop {
            tokio::select! {
                received = socket.recv() => match received {
                    Some(Ok(Message::Text(text))) => {
                        let _ = hub.0.send(format!("{room}/{name}: {}", text.as_str()));
                    }
                    Some(Ok(_)) => {}
                    _ => break,
                },
                Ok(line) = inbox.recv() => {
                    if socket.send(Message::text(line)).await.is_err() {
                        break;
                    }
                }
            }
        }
    })
}

/// The caller, from `Authorization: Bearer letmein`; 401 otherwise.
#[derive(Debug, Clone)]
struct Caller;

#[ferrapi::dependency(responses(401 = "Not authenticated"))]
fn caller(headers: HeaderMap) -> Result<Caller, HttpError> {
    match headers.get("authorization").and_then(|v| v.to_str().ok()) {
        Some("Bearer letmein") => Ok(Caller),
        _ => Err(HttpError::new(401, "Not authenticated")),
    }
}

/// An echo for authenticated callers only.
#[get("/ws/private")]
async fn private(ws: WebSocketUpgrade, _caller: Caller) -> Response {
    ws.on_upgrade(|mut socket| async move {
        let _ = socket.send(Message::text("welcome")).await;
    })
}

/// A plain route next to the WebSocket ones: the route table must not mark it.
#[get("/ws/plain")]
async fn plain() -> &'static str {
    "plain"
}

fn sockets() -> App {
    let (sender, _) = broadcast::channel(16);
    App::new()
        .state(Room(sender))
        .routes(routes![echo, small, bye, chat, private, plain])
}

type Client = WebSocketStream<TcpStream>;

/// Open a WebSocket to `path`, with `headers`.
async fn connect(
    addr: SocketAddr,
    path: &str,
    headers: &[(&'static str, &'static str)],
) -> Result<Client, WsError> {
    let mut request = format!("ws://{addr}{path}").into_client_request()?;
    for (name, value) in headers {
        request.headers_mut().insert(*name, value.parse().unwrap());
    }
    let tcp = TcpStream::connect(addr).await.unwrap();
    let (socket, response) = tokio_tungstenite::client_async(request, tcp).await?;
    assert_eq!(response.status(), 101);
    Ok(socket)
}

/// The next message, within 5 s.
async fn next(socket: &mut Client) -> Message {
    tokio::time::timeout(Duration::from_secs(5), socket.next())
        .await
        .expect("a message within 5 s")
        .expect("the connection is open")
        .expect("a valid message")
}

/// The status of a refused handshake.
fn refused_status(result: Result<Client, WsError>) -> u16 {
    match result {
        Err(WsError::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("refused with {other}"),
        Ok(_) => panic!("the handshake was accepted"),
    }
}

#[tokio::test]
async fn text_and_binary_are_echoed_and_pings_answered() {
    let addr = spawn(sockets()).await;
    let mut socket = connect(addr, "/ws/echo", &[]).await.unwrap();
    socket.send(Message::text("hello")).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::text("hello"));
    socket.send(Message::binary(vec![0u8, 1, 2, 255])).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::binary(vec![0u8, 1, 2, 255]));
    socket.send(Message::Ping("are you there".into())).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::Pong("are you there".into()));
    socket.close(None).await.unwrap();
}

#[tokio::test]
async fn a_message_reaches_every_member_of_the_room() {
    let addr = spawn(sockets()).await;
    let mut ann = connect(addr, "/ws/chat/7?name=ann", &[]).await.unwrap();
    let mut bob = connect(addr, "/ws/chat/7?name=bob", &[]).await.unwrap();
    // Each is subscribed once its own message has come back to it.
    for (socket, me) in [(&mut ann, "ann"), (&mut bob, "bob")] {
        socket.send(Message::text("joined")).await.unwrap();
        wait_for(socket, &format!("7/{me}: joined")).await;
    }
    ann.send(Message::text("hi all")).await.unwrap();
    wait_for(&mut bob, "7/ann: hi all").await;
    wait_for(&mut ann, "7/ann: hi all").await;
}

/// Read messages until the text `expected` comes.
async fn wait_for(socket: &mut Client, expected: &str) {
    loop {
        if let Message::Text(text) = next(socket).await {
            if text.as_str() == expected {
                return;
            }
        }
    }
}

#[tokio::test]
async fn an_oversize_message_closes_with_1009() {
    let addr = spawn(sockets()).await;
    let mut socket = connect(addr, "/ws/small", &[]).await.unwrap();
    socket.send(Message::text("x".repeat(1000))).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::text("x".repeat(1000)));
    socket.send(Message::text("y".repeat(2000))).await.unwrap();
    match next(&mut socket).await {
        Message::Close(Some(frame)) => assert_eq!(frame.code, CloseCode::Size),
        other => panic!("expected a close with 1009, got {other:?}"),
    }
}

#[tokio::test]
async fn the_server_closes_with_its_code() {
    let addr = spawn(sockets()).await;
    let mut socket = connect(addr, "/ws/bye", &[]).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::text("hello"));
    match next(&mut socket).await {
        Message::Close(Some(frame)) => {
            assert_eq!(u16::from(frame.code), 4001);
            assert_eq!(frame.reason.as_str(), "that is all");
        }
        other => panic!("expected a close with 4001, got {other:?}"),
    }
}

#[tokio::test]
async fn dependencies_and_parameters_are_checked_before_the_upgrade() {
    let addr = spawn(sockets()).await;
    assert_eq!(refused_status(connect(addr, "/ws/private", &[]).await), 401);
    let mut socket = connect(addr, "/ws/private", &[("authorization", "Bearer letmein")])
        .await
        .unwrap();
    assert_eq!(next(&mut socket).await, Message::text("welcome"));

    assert_eq!(refused_status(connect(addr, "/ws/chat/7", &[]).await), 422);
    assert_eq!(refused_status(connect(addr, "/ws/chat/x?name=a", &[]).await), 422);
    match connect(addr, "/ws/chat/7", &[]).await {
        Err(WsError::Http(response)) => {
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap_or_default()).unwrap();
            assert_eq!(body["detail"][0]["loc"], json!(["query", "name"]));
        }
        other => panic!("expected a 422, got {other:?}"),
    }
    // Not a handshake at all: the upgrade, a dependency, answers first, as a failed dependency
    // does before validation errors.
    assert_eq!(send(addr, "GET", "/ws/chat/7", &[], None).await.status, 426);
}

#[tokio::test]
async fn a_plain_request_to_a_websocket_route_is_426() {
    let addr = spawn(sockets()).await;
    let reply = send(addr, "GET", "/ws/echo", &[], None).await;
    assert_eq!(reply.status, 426);
    assert_eq!(reply.header("upgrade"), Some("websocket"));
    let old = [
        ("Connection", "Upgrade"),
        ("Upgrade", "websocket"),
        ("Sec-WebSocket-Version", "8"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    let reply = send(addr, "GET", "/ws/echo", &old, None).await;
    assert_eq!(reply.status, 426);
    assert_eq!(reply.header("sec-websocket-version"), Some("13"));
}

#[test]
fn websocket_routes_are_marked_in_the_openapi_document() {
    let service = sockets().build().unwrap();
    let doc: Value = serde_json::from_slice(service.openapi_json()).unwrap();
    let op = &doc["paths"]["/ws/echo"]["get"];
    assert_eq!(op["x-websocket"], json!(true));
    assert!(op["responses"]["101"].is_object(), "{op}");
    let chat = &doc["paths"]["/ws/chat/{room}"]["get"];
    assert_eq!(chat["x-websocket"], json!(true));
    assert_eq!(chat["parameters"][1]["name"], "name");
}

#[test]
fn websocket_routes_are_marked_in_the_route_table() {
    let app = sockets();
    let table = app.route_table().unwrap();
    let marked: Vec<(&str, bool)> = table.iter().map(|row| (row.name, row.websocket)).collect();
    assert_eq!(
        marked,
        [
            ("echo", true),
            ("small", true),
            ("bye", true),
            ("chat", true),
            ("private", true),
            ("plain", false),
        ]
    );
    let service = app.build().unwrap();
    assert_eq!(service.route_table(), &table[..]);
    assert_eq!(
        table[3].to_string(),
        "GET     /ws/chat/{room}                          chat  [websocket]"
    );
    assert_eq!(
        table[5].to_string(),
        "GET     /ws/plain                                plain"
    );
}

/// A WebSocket handshake to `path` on a blocking socket; the answer's head.
fn raw_handshake(stream: &mut std::net::TcpStream, path: &str) -> String {
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).expect("handshake");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        assert_eq!(
            stream.read(&mut byte).expect("the answer"),
            1,
            "closed during the handshake"
        );
        head.push(byte[0]);
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// What became of a ping flood.
#[derive(Debug)]
struct Flood {
    /// Pings written whole.
    pings: usize,
    /// When the server cut the connection off (a write failed), after the flood began.
    cut_off: Option<Duration>,
}

/// Send pings of 125 bytes to the echo route as fast as the server takes them, never reading
/// the pongs, until a write fails (the server cut the connection off) or `max_pings` or
/// `max_time` is reached.
fn flood_pings(addr: SocketAddr, max_pings: usize, max_time: Duration) -> Flood {
    const BATCH: usize = 1000;
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    let head = raw_handshake(&mut stream, "/ws/echo");
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    // Masked (with a zero key, so the payload goes as it is), final, 125 bytes: the largest ping.
    let ping: Vec<u8> = [0x89, 0x80 | 125, 0, 0, 0, 0]
        .into_iter()
        .chain([b'p'; 125])
        .collect();
    let batch = ping.repeat(BATCH);
    stream
        .set_write_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let started = Instant::now();
    let (mut pings, mut offset) = (0, 0);
    while pings < max_pings && started.elapsed() < max_time {
        // Partial writes are resumed where they stopped, so frames never break.
        match stream.write(&batch[offset..]) {
            Ok(0) => break,
            Ok(n) => {
                offset += n;
                if offset == batch.len() {
                    pings += BATCH;
                    offset = 0;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => {
                return Flood {
                    pings: pings + offset / ping.len(),
                    cut_off: Some(started.elapsed()),
                }
            }
        }
    }
    Flood { pings, cut_off: None }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_flood_that_never_reads_is_cut_off_in_bounded_memory() {
    let addr = spawn(sockets()).await;
    // Warm: the first connection's buffers and the runtime's are not the flood's.
    assert_eq!(send(addr, "GET", "/ws/plain", &[], None).await.status, 200);
    let baseline = rss();
    let flood = std::thread::spawn(move || flood_pings(addr, 2_000_000, Duration::from_secs(10)));
    let (mut peak, mut slowest, mut probes) = (baseline, Duration::ZERO, 0);
    // Meanwhile, and once it is over, a fresh client is answered at once.
    loop {
        let over = flood.is_finished();
        let t = Instant::now();
        let reply = send(addr, "GET", "/ws/plain", &[], None).await;
        slowest = slowest.max(t.elapsed());
        probes += 1;
        assert_eq!((reply.status, reply.text()), (200, "plain".to_owned()));
        peak = peak.max(rss());
        if over {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let flood = flood.join().expect("the flood");
    eprintln!(
        "ping flood: {flood:?}; RSS {} → peak {} KiB; slowest of {probes} probes {slowest:?}",
        baseline >> 10,
        peak >> 10
    );
    let cut_off = flood.cut_off.unwrap_or_else(|| panic!("not cut off: {flood:?}"));
    assert!(cut_off < Duration::from_secs(8), "{flood:?}");
    // Cut off for not reading, not refused at the first ping.
    assert!(flood.pings >= 10_000, "{flood:?}");
    assert!(slowest < Duration::from_millis(100), "a probe took {slowest:?}");
    let growth = peak.saturating_sub(baseline);
    assert!(growth < 64 << 20, "RSS grew by {} KiB", growth >> 10);
}

/// Where `/ws/firehose` reports how its sending ended, and after how long.
struct Outcomes(tokio::sync::mpsc::UnboundedSender<(Duration, String)>);

/// Binary messages of 64 KiB, sent until a send fails (or for 20 s), to a peer allowed 500 ms
/// without taking any; the outcome goes to [`Outcomes`].
#[get("/ws/firehose")]
async fn firehose(ws: WebSocketUpgrade, outcomes: State<Outcomes>) -> Response {
    let outcomes = outcomes.arc();
    ws.write_timeout(Duration::from_millis(500))
        .on_upgrade(move |mut socket| async move {
            let chunk = Message::binary(vec![7u8; 64 << 10]);
            let started = Instant::now();
            let outcome = loop {
                if let Err(error) = socket.send(chunk.clone()).await {
                    break match error {
                        WsError::Io(error) => format!("io {:?}", error.kind()),
                        other => format!("{other}"),
                    };
                }
                if started.elapsed() > Duration::from_secs(20) {
                    break "still sending after 20 s".to_owned();
                }
            };
            let _ = outcomes.0.send((started.elapsed(), outcome));
        })
}

/// At most 4 KiB waiting to be written: an 8 KiB message is refused (the refusal is sent as
/// text), then text messages are echoed.
#[get("/ws/limited")]
async fn limited(ws: WebSocketUpgrade) -> Response {
    ws.max_write_buffer_size(4096)
        .on_upgrade(|mut socket| async move {
            let refusal = match socket.send(Message::binary(vec![0u8; 8192])).await {
                Err(WsError::WriteBufferFull(_)) => "refused".to_owned(),
                other => format!("{other:?}"),
            };
            if socket.send(Message::text(refusal)).await.is_err() {
                return;
            }
            while let Some(Ok(message)) = socket.recv().await {
                if message.is_text() && socket.send(message).await.is_err() {
                    break;
                }
            }
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_reads_nothing_is_cut_off_after_the_write_timeout() {
    let (sender, mut outcomes) = tokio::sync::mpsc::unbounded_channel();
    let app = App::new().state(Outcomes(sender)).routes(routes![firehose]);
    let addr = spawn(app).await;
    let mut socket = connect(addr, "/ws/firehose", &[]).await.unwrap();
    // The client reads nothing: the route's send fails once the socket buffers are full and
    // 500 ms have passed without room.
    let (after, outcome) = tokio::time::timeout(Duration::from_secs(10), outcomes.recv())
        .await
        .expect("the route's send failed within 10 s")
        .expect("an outcome");
    assert_eq!(outcome, "io TimedOut");
    assert!(after >= Duration::from_millis(500), "{after:?}");
    // The route returned: the connection is gone (the messages already buffered, then its end).
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(_)) = socket.next().await {}
    })
    .await;
    assert!(ended.is_ok(), "the connection is still open");
}

#[tokio::test]
async fn a_message_over_the_write_buffer_limit_is_refused_and_the_socket_goes_on() {
    let addr = spawn(App::new().routes(routes![limited])).await;
    let mut socket = connect(addr, "/ws/limited", &[]).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::text("refused"));
    socket.send(Message::text("x".repeat(3000))).await.unwrap();
    assert_eq!(next(&mut socket).await, Message::text("x".repeat(3000)));
}

#[tokio::test]
async fn the_largest_message_accepted_is_echoed_back_by_default() {
    let addr = spawn(sockets()).await;
    let mut socket = connect(addr, "/ws/echo", &[]).await.unwrap();
    let largest = Message::binary(vec![5u8; ferrapi::ws::DEFAULT_MAX_MESSAGE]);
    socket.send(largest.clone()).await.unwrap();
    assert_eq!(next(&mut socket).await, largest);
}
