//! HTTP/1 framing hyper 1.12 is lenient about (issue 21, attack 8), over real connections on
//! 127.0.0.1 with raw bytes: a front proxy that reads such a request differently from the server
//! is how requests are smuggled, so each is refused, the connection closed, and a request
//! pipelined after it is never answered. A head is refused with 400 or 501 and a JSON `detail`; a
//! broken chunked body makes the route's body read fail (400). Valid requests next to them (an
//! HTTP/1.0 request without `Host`, a chunk extension after whitespace, a pipeline, a WebSocket
//! upgrade) are still served.
//!
//! Refused by hyper itself, before any request exists (400, empty body): `Transfer-Encoding` on
//! HTTP/1.0, and a bare LF in a chunk-size line or after chunk data (the route's body read fails).
//! They are here so that they stay refused.

use std::net::SocketAddr;
use std::time::Duration;

use ferrapi::prelude::*;
use ferrapi::ws::{Message, WebSocketUpgrade};
use ferrapi_tests::app::spawn;
use ferrapi_tests::client::{try_parse, Reply};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Its id.
#[get("/item/{id}")]
async fn item(id: i64) -> Json<Value> {
    Json(json!({"id": id}))
}

/// The JSON object it was sent.
#[post("/echo")]
async fn echo(body: Json<serde_json::Map<String, Value>>) -> Json<Value> {
    Json(Value::Object(body.0))
}

/// Echoes WebSocket messages.
#[get("/ws")]
async fn socket(ws: WebSocketUpgrade) -> Response {
    ws.on_upgrade(|mut socket| async move {
        while let Some(Ok(message)) = socket.recv().await {
            if message.is_text() && socket.send(message).await.is_err() {
                break;
            }
        }
    })
}

async fn serve() -> SocketAddr {
    spawn(App::new().routes(routes![item, echo, socket])).await
}

/// How long the server may take to answer and close.
const WAIT: Duration = Duration::from_secs(3);

/// Send `bytes` on a new connection; every response the server writes, in order, and whether it
/// closed the connection (within [`WAIT`]).
async fn exchange(addr: SocketAddr, bytes: &[u8]) -> (Vec<Reply>, bool) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(bytes).await.expect("send");
    let mut received = Vec::new();
    let closed = matches!(
        tokio::time::timeout(WAIT, stream.read_to_end(&mut received)).await,
        Ok(Ok(_) | Err(_))
    );
    (responses(&received), closed)
}

/// The responses in `bytes`, each framed by its `Content-Length` (none: no body).
fn responses(mut bytes: &[u8]) -> Vec<Reply> {
    let mut replies = Vec::new();
    while let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
        let head = try_parse(&bytes[..end + 4]).expect("a response head");
        let length: usize = head
            .header("content-length")
            .map_or(0, |v| v.parse().expect("a Content-Length"));
        let whole = (end + 4 + length).min(bytes.len());
        replies.push(try_parse(&bytes[..whole]).expect("a response"));
        bytes = &bytes[whole..];
    }
    replies
}

/// One answer, `status` with `{"detail": detail}` (when given), then the connection closed.
fn assert_refused(sent: &str, (replies, closed): (Vec<Reply>, bool), status: u16, detail: Option<&str>) {
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [status], "{sent}: answered {statuses:?}");
    if let Some(detail) = detail {
        assert_eq!(replies[0].json(), json!({ "detail": detail }), "{sent}");
    }
    assert!(closed, "{sent}: the connection stayed open");
}

/// A request the server must answer (it is pipelined after the refused one, never answered).
const NEXT: &str = "GET /item/2 HTTP/1.1\r\nHost: t\r\n\r\n";

#[tokio::test]
async fn an_http11_head_without_host_is_refused() {
    let addr = serve().await;
    let sent = format!("GET /item/1 HTTP/1.1\r\nAccept: */*\r\n\r\n{NEXT}");
    let answer = exchange(addr, sent.as_bytes()).await;
    assert_refused(&sent, answer, 400, Some("The request has no Host header"));
}

#[tokio::test]
async fn a_head_with_two_hosts_is_refused() {
    let addr = serve().await;
    for version in ["1.1", "1.0"] {
        let sent = format!("GET /item/1 HTTP/{version}\r\nHost: a\r\nhost: b\r\n\r\n{NEXT}");
        let answer = exchange(addr, sent.as_bytes()).await;
        assert_refused(
            &sent,
            answer,
            400,
            Some("The request has more than one Host header"),
        );
    }
}

#[tokio::test]
async fn a_bare_lf_in_a_head_is_refused() {
    let addr = serve().await;
    for sent in [
        format!("GET /item/1 HTTP/1.1\nHost: t\r\n\r\n{NEXT}"),
        format!("GET /item/1 HTTP/1.1\r\nHost: t\nAccept: */*\r\n\r\n{NEXT}"),
        format!("GET /item/1 HTTP/1.1\r\nHost: t\r\n\n{NEXT}"),
    ] {
        let answer = exchange(addr, sent.as_bytes()).await;
        let detail = "A line of the request head ends in LF without CR";
        assert_refused(&sent, answer, 400, Some(detail));
    }
}

#[tokio::test]
async fn a_transfer_coding_other_than_chunked_is_not_implemented() {
    let addr = serve().await;
    // The body is chunked JSON, not gzip: served, it would be echoed as if decoded.
    let sent = format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: gzip, chunked\r\n\r\n7\r\n{{\"a\":1}}\r\n0\r\n\r\n{NEXT}"
    );
    let answer = exchange(addr, sent.as_bytes()).await;
    let detail = "The only transfer coding implemented is chunked";
    assert_refused(&sent, answer, 501, Some(detail));
}

#[tokio::test]
async fn transfer_encoding_on_http10_is_refused() {
    // hyper refuses it itself (400, no body).
    let addr = serve().await;
    let sent = format!(
        "POST /echo HTTP/1.0\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
         7\r\n{{\"a\":1}}\r\n0\r\n\r\n{NEXT}"
    );
    let answer = exchange(addr, sent.as_bytes()).await;
    assert_refused(&sent, answer, 400, None);
}

/// A chunked POST of `body` to `/echo`, then [`NEXT`].
fn chunked(body: &str) -> String {
    format!(
        "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\n\r\n{body}{NEXT}"
    )
}

/// Each of `bodies`, sent chunked: the route's body read fails (400) and the connection closes.
async fn assert_unreadable(bodies: &[&str]) {
    let addr = serve().await;
    for body in bodies {
        let sent = chunked(body);
        let detail = "The request body could not be read";
        assert_refused(&sent, exchange(addr, sent.as_bytes()).await, 400, Some(detail));
    }
}

#[tokio::test]
async fn whitespace_after_a_chunk_size_breaks_the_body() {
    assert_unreadable(&["7 \r\n{\"a\":1}\r\n0\r\n\r\n", "7\t\r\n{\"a\":1}\r\n0\r\n\r\n"]).await;
}

#[tokio::test]
async fn a_bare_lf_in_the_trailer_section_breaks_the_body() {
    assert_unreadable(&[
        // hyper would read the request below as a trailer, and a proxy that takes the bare LF as
        // the body's end would forward it as a request: smuggled.
        "7\r\n{\"a\":1}\r\n0\r\n\nGET /item/666 HTTP/1.1\r\nHost: t\r\n\r\n",
        "7\r\n{\"a\":1}\r\n0\r\nX-Trailer: 1\nGET /item/666 HTTP/1.1\r\n\r\n",
    ])
    .await;
}

#[tokio::test]
async fn a_bare_lf_in_a_chunk_size_line_or_after_chunk_data_breaks_the_body() {
    // hyper refuses these itself.
    assert_unreadable(&[
        "7\n{\"a\":1}\r\n0\r\n\r\n",
        "7;x\n{\"a\":1}\r\n0\r\n\r\n",
        "7\r\n{\"a\":1}\n0\r\n\r\n",
    ])
    .await;
}

#[tokio::test]
async fn lenient_but_valid_requests_are_still_served() {
    let addr = serve().await;
    // HTTP/1.0 needs no Host; whitespace before a chunk extension is allowed; a pipeline of a GET,
    // a POST by Content-Length, a chunked POST with extensions and a trailer, and a last GET.
    let cases: [(&str, &[Value]); 3] = [
        ("GET /item/1 HTTP/1.0\r\n\r\n", &[json!({"id": 1})]),
        (
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nConnection: close\r\n\
             Transfer-Encoding: chunked\r\n\r\n7 ;x=y\r\n{\"a\":1}\r\n0\t; end\r\n\r\n",
            &[json!({"a": 1})],
        ),
        (
            "GET /item/1 HTTP/1.1\r\nHost: t\r\n\r\n\
             POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n\
             {\"b\":2}\
             POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
             Transfer-Encoding: chunked\r\n\r\n3;n=v\r\n{\"c\r\n4\r\n\":3}\r\n0\r\nX-Trailer: 1\r\n\r\n\
             GET /item/4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
            &[
                json!({"id": 1}),
                json!({"b": 2}),
                json!({"c": 3}),
                json!({"id": 4}),
            ],
        ),
    ];
    for (sent, bodies) in cases {
        let (replies, closed) = exchange(addr, sent.as_bytes()).await;
        let got: Vec<(u16, Value)> = replies.iter().map(|r| (r.status, r.json())).collect();
        let expected: Vec<(u16, Value)> = bodies.iter().map(|b| (200, b.clone())).collect();
        assert_eq!(got, expected, "{sent}");
        assert!(closed, "{sent}: the connection stayed open");
    }
}

#[tokio::test]
async fn a_websocket_upgrade_still_works() {
    let addr = serve().await;
    let request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("a request");
    let tcp = TcpStream::connect(addr).await.expect("connect");
    let (mut socket, response) = tokio::time::timeout(WAIT, tokio_tungstenite::client_async(request, tcp))
        .await
        .expect("a handshake within 3 s")
        .expect("the handshake");
    assert_eq!(response.status(), 101);
    // Frames are not HTTP: a bare LF and what looks like a chunk size pass untouched.
    let text = "GET / HTTP/1.1\nHost: a\r\nHost: b\r\n\r\n5 \r\n";
    socket.send(Message::text(text)).await.expect("send");
    let echoed = tokio::time::timeout(WAIT, socket.next())
        .await
        .expect("an echo within 3 s")
        .expect("the connection is open")
        .expect("a valid message");
    assert_eq!(echoed, Message::text(text));
}

#[tokio::test]
async fn with_strict_http1_off_the_lenient_heads_are_served() {
    let addr = spawn(App::new().routes(routes![item, echo, socket]).strict_http1(false)).await;
    let sent = "GET /item/1 HTTP/1.1\r\nAccept: */*\r\nConnection: close\r\n\r\n";
    let (replies, _) = exchange(addr, sent.as_bytes()).await;
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200], "{sent}: hyper's own leniency is back");
}

/// An HPACK literal header field without indexing, new name, no Huffman coding.
fn literal(name: &str, value: &str) -> Vec<u8> {
    let mut field = vec![0u8, name.len() as u8];
    field.extend_from_slice(name.as_bytes());
    field.push(value.len() as u8);
    field.extend_from_slice(value.as_bytes());
    field
}

/// The status of an HTTP/2 `GET /item/1` on a new connection whose `:authority` and `Host` are
/// given: the first byte of the answer's header block (the server indexes the common statuses).
async fn h2_status(addr: SocketAddr, authority: &str, host: &str) -> u8 {
    let frame = |kind: u8, flags: u8, stream: u32, payload: &[u8]| {
        let mut bytes = (payload.len() as u32).to_be_bytes()[1..].to_vec();
        bytes.extend_from_slice(&[kind, flags]);
        bytes.extend_from_slice(&stream.to_be_bytes());
        bytes.extend_from_slice(payload);
        bytes
    };
    let mut block = Vec::new();
    for (name, value) in [
        (":method", "GET"),
        (":scheme", "http"),
        (":path", "/item/1"),
        (":authority", authority),
        ("host", host),
    ] {
        block.extend(literal(name, value));
    }
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let mut sent = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".to_vec();
    sent.extend(frame(4, 0, 0, &[]));
    // END_STREAM | END_HEADERS.
    sent.extend(frame(1, 0x5, 1, &block));
    stream.write_all(&sent).await.expect("send");
    let mut received = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let mut at = 0;
        while received.len() >= at + 9 {
            let length = usize::from(received[at]) << 16
                | usize::from(received[at + 1]) << 8
                | usize::from(received[at + 2]);
            let (kind, stream_id) = (
                received[at + 3],
                u32::from_be_bytes([
                    received[at + 5],
                    received[at + 6],
                    received[at + 7],
                    received[at + 8],
                ]),
            );
            if received.len() < at + 9 + length {
                break;
            }
            if kind == 1 && stream_id == 1 {
                return received[at + 9];
            }
            at += 9 + length;
        }
        let n = tokio::time::timeout(WAIT, stream.read(&mut chunk))
            .await
            .expect("an answer")
            .expect("read");
        assert!(n > 0, "closed before answering");
        received.extend_from_slice(&chunk[..n]);
    }
}

#[tokio::test]
async fn an_http2_host_that_is_not_the_authority_is_refused() {
    let addr = serve().await;
    // HPACK's static table: index 8 is `:status 200`, 12 is `:status 400`.
    assert_eq!(
        h2_status(addr, "a.example", "b.example").await,
        0x80 | 12,
        "Host ≠ :authority was served"
    );
    assert_eq!(
        h2_status(addr, "a.example", "A.Example").await,
        0x80 | 8,
        "the same authority, another case"
    );
}
