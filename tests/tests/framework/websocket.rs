//! WebSocket routes over real connections on 127.0.0.1, with tokio-tungstenite as the client:
//! echo, broadcast, ping/pong, close codes, 1009 for an oversize message, and what is refused
//! before the upgrade (a request that is no handshake, a failed dependency, invalid parameters),
//! and WebSocket routes marked in the route table.

use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::ws::{CloseCode, Message, WebSocketUpgrade};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::send;
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
    let hub = hub.0.clone();
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
