//! Routing and responses: declaration order, shadowing, 404/405, trailing slashes, the kinds of
//! answers and the served document, in-process through the test client; and what the server
//! does with them over real HTTP on 127.0.0.1: HEAD on the wire, body limits, a panic that leaves
//! the server serving, keep-alive, timeouts, graceful shutdown, HTTP/2.

use std::time::Duration;

use ferrapi::testing::TestClient;
use ferrapi_tests::app::{app, service, spawn};
use ferrapi_tests::client::{get, raw, send};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn unknown_path_is_404_detail_not_found() {
    let client = TestClient::new(app());
    let reply = client.get("/nope").send().await;
    assert_eq!(reply.status(), 404);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.text(), r#"{"detail":"Not Found"}"#);
    assert_eq!(client.get("/item/1/extra").send().await.status(), 404);
}

#[tokio::test]
async fn other_method_is_405_with_allow() {
    let client = TestClient::new(app());
    let reply = client.delete("/item/42").send().await;
    assert_eq!(reply.status(), 405);
    assert_eq!(reply.text(), r#"{"detail":"Method Not Allowed"}"#);
    assert_eq!(reply.header("allow"), Some("GET, PUT, HEAD"));
    let reply = client.get("/item").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.header("allow")),
        (405, Some("POST"))
    );
}

#[tokio::test]
async fn head_is_answered_by_get_routes_without_a_body() {
    let addr = spawn(app()).await;
    let reply = send(addr, "HEAD", "/item/42", &[], None).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("content-length"), Some("9"));
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert!(reply.body.is_empty());
}

#[tokio::test]
async fn declaration_order_decides_and_shadowed_routes_never_run() {
    let client = TestClient::new(app());
    // `/user/me` is declared before `/user/{id}`.
    assert_eq!(
        client.get("/user/me").send().await.text(),
        r#"{"user_id":"the current user"}"#
    );
    assert_eq!(client.get("/user/7").send().await.text(), r#"{"id":"7"}"#);
    // `/dup/{id}` is declared twice; the first declaration serves.
    assert_eq!(client.get("/dup/x").send().await.text(), "first x");
    let table = app().route_table().expect("route table");
    let shadowed: Vec<_> = table.iter().filter(|r| r.shadowed_by.is_some()).collect();
    assert_eq!(shadowed.len(), 1);
    assert_eq!(shadowed[0].name, "dup_second");
    assert_eq!(
        shadowed[0].shadowed_by,
        Some(("dup_first", "/dup/{id}".to_owned()))
    );
    assert_eq!(
        shadowed[0].to_string(),
        "GET     /dup/{other}                             dup_second  [shadowed by dup_first (/dup/{id})]"
    );
    // The shadowed route still exists as a function and can be called directly.
    assert_eq!(ferrapi_tests::app::dup_second("y".into()).await, "second y");
}

#[tokio::test]
async fn a_later_static_route_loses_to_an_earlier_parameter_route() {
    use ferrapi::prelude::*;
    #[get("/user/{id}")]
    async fn by_id(id: String) -> String {
        format!("id {id}")
    }
    #[get("/user/me")]
    async fn me() -> &'static str {
        "me"
    }
    let app = App::new().routes(ferrapi::routes![by_id, me]);
    let table = app.route_table().expect("table");
    assert_eq!(table[1].shadowed_by, Some(("by_id", "/user/{id}".to_owned())));
    let client = TestClient::new(app);
    assert_eq!(client.get("/user/me").send().await.text(), "id me");
}

#[tokio::test]
async fn trailing_slash_is_served_by_the_route() {
    let client = TestClient::new(app());
    assert_eq!(client.get("/item/42/").send().await.text(), r#"{"id":42}"#);
    assert_eq!(
        client.get("/user/me/").send().await.text(),
        r#"{"user_id":"the current user"}"#
    );
    assert_eq!(client.post("/created/").send().await.status(), 201);
}

#[tokio::test]
async fn response_kinds() {
    let client = TestClient::new(app());
    let reply = client.get("/employee/2").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text().as_str()),
        (404, r#"{"detail":"Employee not found"}"#)
    );
    assert_eq!(
        client.get("/employee/1").send().await.text(),
        r#"{"name":"Ada","job":"engineer"}"#
    );
    let reply = client.get("/string-body").send().await;
    assert_eq!(
        (reply.status().as_u16(), reply.text().as_str()),
        (404, r#""Empleat no trobat""#)
    );
    assert_eq!(reply.header("content-type"), Some("application/json"));
    let reply = client
        .get("/hello/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
        .send()
        .await;
    assert_eq!(reply.header("content-type"), Some("text/html; charset=utf-8"));
    assert_eq!(
        reply.text(),
        "<h1>Hello &lt;script&gt;alert(1)&lt;/script&gt;</h1>"
    );
    let reply = client.post("/created").send().await;
    assert_eq!(reply.status(), 201);
    assert_eq!(reply.header("x-message"), Some("made"));
    assert_eq!(reply.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(reply.text(), "created");
}

#[tokio::test]
async fn a_panicking_handler_is_a_500_and_the_server_keeps_serving() {
    let addr = spawn(app()).await;
    for _ in 0..3 {
        let reply = get(addr, "/panic").await;
        assert_eq!(reply.status, 500);
        assert_eq!(reply.text(), r#"{"detail":"Internal Server Error"}"#);
    }
    assert_eq!(get(addr, "/item/1").await.status, 200);
}

#[tokio::test]
async fn declared_content_length_over_the_limit_is_413_without_reading() {
    let addr = spawn(app().body_limit(64)).await;
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let head = "POST /item HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n";
    stream.write_all(head.as_bytes()).await.expect("send head");
    let mut buffer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buffer))
        .await
        .expect("the server answers without waiting for 100 MB")
        .expect("read");
    let reply = ferrapi_tests::client::parse(&buffer);
    assert_eq!(reply.status, 413);
    assert_eq!(
        reply.text(),
        r#"{"detail":"Request body is larger than the limit of 64 bytes"}"#
    );
}

#[tokio::test]
async fn chunked_body_growing_over_the_limit_is_413() {
    let addr = spawn(app().body_limit(64)).await;
    let mut request = b"POST /item HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    for _ in 0..10 {
        request.extend_from_slice(b"10\r\n0123456789abcdef\r\n");
    }
    request.extend_from_slice(b"0\r\n\r\n");
    let reply = raw(addr, &request).await;
    assert_eq!(reply.status, 413);
    // Within the limit, a chunked body is read normally.
    let body = br#"{"name":"a","price":1}"#;
    let mut request = b"POST /item HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
    request.extend_from_slice(format!("{:x}\r\n", body.len()).as_bytes());
    request.extend_from_slice(body);
    request.extend_from_slice(b"\r\n0\r\n\r\n");
    assert_eq!(raw(addr, &request).await.status, 200);
}

#[tokio::test]
async fn keep_alive_serves_several_requests_on_one_connection() {
    let addr = spawn(app()).await;
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(b"GET /item/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /item/2 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("send");
    let mut buffer = Vec::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buffer))
        .await
        .expect("in time")
        .expect("read");
    let text = String::from_utf8_lossy(&buffer);
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 2, "{text}");
    assert!(text.contains(r#"{"id":1}"#) && text.contains(r#"{"id":2}"#));
}

#[tokio::test]
async fn a_client_that_never_finishes_its_head_is_disconnected() {
    let addr = spawn(app().header_read_timeout(Duration::from_millis(300))).await;
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(b"GET /item/1 HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("send part of the head");
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut buffer)).await;
    assert!(
        read.is_ok(),
        "the server closed the connection after the header-read timeout"
    );
    // Other clients are served meanwhile and afterwards.
    assert_eq!(get(addr, "/item/1").await.status, 200);
}

#[tokio::test]
async fn openapi_document_is_served_as_prebuilt_bytes() {
    let svc = service();
    let client = TestClient::new(app());
    let reply = client.get("/openapi.json").send().await;
    assert_eq!(reply.status(), 200);
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(reply.bytes(), svc.openapi_json());
    let doc = reply.json::<Value>();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "ferrapi test app");
    assert!(doc["paths"].get("/dup/{id}").is_some());
    assert!(doc["paths"].get("/hidden").is_none(), "include_in_schema = false");
    assert_eq!(
        doc["paths"]["/items/{item_id}"]["get"]["operationId"],
        "read_needy_items__item_id__get"
    );
    let moved = TestClient::new(app().openapi_url(None));
    assert_eq!(moved.get("/openapi.json").send().await.status(), 404);
}

#[tokio::test]
async fn graceful_shutdown_finishes_and_stops_accepting() {
    let server = app().bind("127.0.0.1:0").await.expect("bind");
    let addr = server.local_addr();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run_until(async move {
        let _ = stopped.await;
    }));
    assert_eq!(get(addr, "/item/1").await.status, 200);
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("stops in time")
        .expect("no panic");
    assert!(
        TcpStream::connect(addr).await.is_err(),
        "new connections are refused after shutdown"
    );
}

#[tokio::test]
async fn missing_state_is_refused_when_the_app_is_built() {
    let err = ferrapi::App::new()
        .routes(ferrapi::routes![ferrapi_tests::app::count])
        .build()
        .expect_err("State<Counter> is not registered");
    assert!(
        err.to_string().contains("State<ferrapi_tests::app::Counter>"),
        "{err}"
    );
}

#[tokio::test]
async fn http2_with_prior_knowledge_is_served() {
    use bytes::Bytes;
    use http_body_util::{BodyExt, Full};
    use hyper_util::rt::{TokioExecutor, TokioIo};

    let addr = spawn(app()).await;
    let stream = TcpStream::connect(addr).await.expect("connect");
    let (mut sender, connection) =
        hyper::client::conn::http2::handshake(TokioExecutor::new(), TokioIo::new(stream))
            .await
            .expect("h2 handshake");
    tokio::spawn(connection);
    let request = hyper::Request::post(format!("http://{addr}/item"))
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from_static(br#"{"name":"h2","price":2}"#)))
        .expect("request");
    let response = sender.send_request(request).await.expect("response");
    assert_eq!(response.version(), hyper::Version::HTTP_2);
    assert_eq!(response.status(), 200);
    let body = response.into_body().collect().await.expect("body").to_bytes();
    assert_eq!(
        &body[..],
        br#"{"name":"h2","description":null,"price":2.0,"tax":null}"#
    );
}
