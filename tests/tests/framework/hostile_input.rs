//! Hostile and malformed input over real HTTP on 127.0.0.1: every case gets a reply (never a
//! dropped connection, a panic or a 5xx), a 4xx where the request is wrong, and a JSON `detail`
//! whenever the answer comes from ferrapi. Answers hyper writes itself before a request exists
//! (400 for an unparsable head, 431 for an oversized head, 414 for an oversized target) have an
//! empty body: hyper offers no hook to change them; they are checked for their status only.
//!
//! After every case the server must still answer a normal request.

use std::net::SocketAddr;
use std::time::Duration;

use ferrapi_tests::app::{app, spawn};
use ferrapi_tests::client::{get, parse, send, send_json, Reply};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Send `bytes`, optionally close our sending half, and read the reply until the server closes.
async fn exchange(addr: SocketAddr, bytes: &[u8], half_close: bool) -> Reply {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream.write_all(bytes).await.expect("send");
    if half_close {
        stream.shutdown().await.expect("half-close");
    }
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buffer)).await;
    assert!(read.is_ok(), "no reply within 10 s to {:?}", preview(bytes));
    parse(&buffer)
}

fn preview(bytes: &[u8]) -> String {
    String::from_utf8_lossy(&bytes[..bytes.len().min(120)]).into_owned()
}

/// A 4xx whose body is `{"detail": …}`.
fn assert_detail(reply: &Reply, status: u16, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.text());
    assert!(
        reply.json().get("detail").is_some(),
        "{what}: no detail in {}",
        reply.text()
    );
}

async fn still_serving(addr: SocketAddr) {
    assert_eq!(get(addr, "/item/7").await.json(), json!({"id": 7}));
}

#[tokio::test]
async fn hostile_bodies_get_a_4xx_with_a_detail() {
    let addr = spawn(app()).await;

    // Over the limit while streaming (chunked, no length announced): 413 before the rest is read.
    let mut chunked = b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n\
        Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        .to_vec();
    let chunk = vec![b' '; 256 * 1024];
    for _ in 0..5 {
        chunked.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        chunked.extend_from_slice(&chunk);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let reply = exchange(addr, &chunked, false).await;
    assert_detail(&reply, 413, "chunked body over 1 MiB");
    assert!(reply.text().contains("larger than the limit"), "{}", reply.text());

    // Over the limit by Content-Length: refused before reading.
    let reply = exchange(
        addr,
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\
          Connection: close\r\n\r\n{",
        false,
    )
    .await;
    assert_detail(&reply, 413, "Content-Length over the limit");

    // A valid chunked body is read like any other.
    let reply = exchange(
        addr,
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\
          Connection: close\r\n\r\n5\r\n{\"nam\r\n13\r\ne\":\"a\",\"price\":1.5}\r\n0\r\n\r\n",
        false,
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.json()["price"], json!(1.5));

    // A broken chunk size: the body cannot be read.
    let reply = exchange(
        addr,
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\
          Connection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        false,
    )
    .await;
    assert_detail(&reply, 400, "broken chunk size");

    // Content-Length larger than what arrives before the client stops sending.
    let reply = exchange(
        addr,
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\
          Connection: close\r\n\r\n{\"name\":\"a\"",
        true,
    )
    .await;
    assert_detail(&reply, 400, "body shorter than Content-Length");

    // Content-Length smaller than what is sent: the body is the announced prefix.
    let reply = exchange(
        addr,
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\
          Connection: close\r\n\r\n{\"name\":\"a\",\"price\":1}",
        false,
    )
    .await;
    assert_detail(&reply, 422, "body longer than Content-Length");
    assert_eq!(reply.json()["detail"][0]["type"], json!("json_invalid"));

    // Deep nesting, non-finite numbers, invalid UTF-8.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let reply = send_json(addr, "POST", "/any", &deep).await;
    assert_detail(&reply, 422, "deep nesting");
    assert!(reply.text().contains("nested too deeply"));
    for body in [
        r#"{"name":"a","price":NaN}"#,
        r#"{"name":"a","price":-Infinity}"#,
        r#"{"name":"a","price":1e400}"#,
    ] {
        assert_detail(&send_json(addr, "POST", "/item", body).await, 422, body);
    }
    let reply = send(
        addr,
        "POST",
        "/any",
        &[("Content-Type", "application/json")],
        Some(b"{\"name\":\"\xc3\x28\"}"),
    )
    .await;
    assert_detail(&reply, 400, "invalid UTF-8");
    let reply = send(
        addr,
        "POST",
        "/any",
        &[("Content-Type", "application/json")],
        Some(b"{\"n\":\"\\ud800\"}"),
    )
    .await;
    assert!(reply.status < 500, "lone surrogate escape: {}", reply.text());

    // Huge arrays and strings within the limit are accepted or refused by validation, not by a crash.
    let big_array = format!("{{\"name\":\"a\",\"price\":1,\"x\":[{}0]}}", "0,".repeat(400_000));
    assert_eq!(send_json(addr, "POST", "/item", &big_array).await.status, 200);
    let big_string = format!("{{\"name\":\"{}\",\"price\":1}}", "é".repeat(400_000));
    assert_eq!(send_json(addr, "POST", "/item", &big_string).await.status, 200);

    // Duplicate keys: the last one wins, as in Python's json (and FastAPI).
    let reply = send_json(addr, "POST", "/item", r#"{"name":"a","price":1,"price":2}"#).await;
    assert_eq!((reply.status, reply.json()["price"].clone()), (200, json!(2.0)));
    let reply = send_json(addr, "POST", "/any", r#"{"k":1,"k":[2]}"#).await;
    assert_eq!(reply.json()["body"], json!({"k": [2]}));

    // A JSON body on a route without one is ignored, and the connection stays usable.
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(
            b"GET /item/3 HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"a\":[1]}\
              GET /item/4 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        )
        .await
        .expect("send");
    let mut buffer = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut buffer))
        .await
        .expect("replies within 10 s")
        .expect("read");
    let text = String::from_utf8_lossy(&buffer);
    assert!(
        text.contains(r#"{"id":3}"#) && text.contains(r#"{"id":4}"#),
        "{text}"
    );

    still_serving(addr).await;
}

#[tokio::test]
async fn hostile_heads_get_a_4xx() {
    let addr = spawn(app()).await;

    // Oversized header section (default limit 64 KiB): 431 from hyper.
    let big = format!(
        "GET /item/1 HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\nConnection: close\r\n\r\n",
        "a".repeat(80 * 1024)
    );
    assert_eq!(exchange(addr, big.as_bytes(), false).await.status, 431);

    // Too many header fields (over 100): 431.
    let mut many = "GET /item/1 HTTP/1.1\r\nHost: t\r\n".to_owned();
    for i in 0..120 {
        many.push_str(&format!("X-H{i}: v\r\n"));
    }
    many.push_str("Connection: close\r\n\r\n");
    assert_eq!(exchange(addr, many.as_bytes(), false).await.status, 431);

    // An oversized request line: 414 or 431 (whichever of hyper's limits is hit first).
    let long_line = format!(
        "GET /user/{} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        "a".repeat(70 * 1024)
    );
    let status = exchange(addr, long_line.as_bytes(), false).await.status;
    assert!(status == 414 || status == 431, "{status}");

    // An absurdly long segment within the limits is just a long value.
    let long = "b".repeat(60 * 1024);
    let reply = get(addr, &format!("/user/{long}")).await;
    assert_eq!(
        (reply.status, reply.json()["id"].as_str().map(str::len)),
        (200, Some(long.len()))
    );
    let reply = get(addr, &format!("/item/{}", "9".repeat(30_000))).await;
    assert_detail(&reply, 422, "an integer with 30,000 digits");

    // Invalid percent-encoding: kept as text (a valid string), or a validation error.
    let reply = get(addr, "/user/%ZZ%4").await;
    assert_eq!(reply.json(), json!({"id": "%ZZ%4"}));
    let reply = get(addr, "/item/%ZZ").await;
    assert_detail(&reply, 422, "%ZZ as an integer");
    let reply = get(addr, "/user/%FF%FE").await;
    assert_detail(&reply, 422, "percent-encoded invalid UTF-8 in the path");
    let reply = get(addr, "/person?skip=%FF").await;
    assert_detail(&reply, 422, "percent-encoded invalid UTF-8 in the query");
    let reply = get(addr, "/person?skip=%ZZ&limit=%").await;
    assert_detail(&reply, 422, "invalid percent-encoding in the query");

    // NUL and control bytes: percent-encoded they are values; raw they are a malformed request.
    let reply = get(addr, "/user/a%00b%01%7F").await;
    assert_eq!(reply.json(), json!({"id": "a\u{0}b\u{1}\u{7f}"}));
    for raw in [
        &b"GET /user/a\0b HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"[..],
        b"GET /user/a\x01b HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        b"GET /item/1 HTTP/1.1\r\nHost: t\r\nX-Bad: a\0b\r\nConnection: close\r\n\r\n",
        b"GET /item/1 HTTP/1.1\r\nHost: t\r\nX Bad: v\r\nConnection: close\r\n\r\n",
        b"GET /item/1 HTTP/9.9\r\nHost: t\r\nConnection: close\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n",
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\nConnection: close\r\n\r\n{}{}{}",
        b"POST /item HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\nConnection: close\r\n\r\n",
    ] {
        let reply = exchange(addr, raw, false).await;
        assert_eq!(reply.status, 400, "{:?}", preview(raw));
    }
    // Both Content-Length and chunked: hyper follows the chunked framing (RFC 9112 §6.3) and
    // closes the connection afterwards, so the length cannot smuggle a second request.
    let reply = exchange(
        addr,
        b"POST /any HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 4\r\n\
          Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\nGET /item/1 HTTP/1.1\r\nHost: t\r\n\r\n",
        false,
    )
    .await;
    assert!(reply.status < 500, "{}", reply.text());

    // `..` and empty segments are not resolved: they match no route, or fail validation.
    let reply = get(addr, "/user/..").await;
    assert_eq!(reply.json(), json!({"id": ".."}), "`..` as a value is just text");
    for path in [
        "/../../etc/passwd",
        "/user/../item/1",
        "//item//1",
        "/item/1/..",
        "/%2e%2e/item/1",
    ] {
        let reply = get(addr, path).await;
        assert!(
            (400..500).contains(&reply.status),
            "{path}: {} {}",
            reply.status,
            reply.text()
        );
        assert!(reply.json().get("detail").is_some(), "{path}: {}", reply.text());
    }
    // A request target that is not a path.
    let reply = exchange(
        addr,
        b"GET * HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n",
        false,
    )
    .await;
    assert!((400..500).contains(&reply.status), "{}", reply.status);

    still_serving(addr).await;
}
