//! The HTTP/1.1 client of every black-box test, framework and service alike: raw bytes over a TCP
//! socket, so tests see exactly what a client would and can send requests no real client sends.
//!
//! Rules enforced here: a request goes out byte for byte as written (`Host` first, then the
//! headers in the order given, then `Content-Length` when there is a body); no reply is waited
//! for longer than [`REPLY_TIMEOUT`]; each exchange comes in two forms, `try_*` returning the
//! error (for tests where a refused or cut connection is an expected outcome, such as a process
//! being killed) and a panicking one (for tests where it is a failure).

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long any read of a reply may take before the exchange fails.
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(10);

/// A parsed HTTP response.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// Header names (lower case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl Reply {
    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as UTF-8 text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body without its chunked framing when it was sent `Transfer-Encoding: chunked` (the
    /// size of each chunk, its data, and the final empty chunk), else the body as it came.
    pub fn dechunked(&self) -> Vec<u8> {
        if self.header("transfer-encoding") != Some("chunked") {
            return self.body.clone();
        }
        let mut out = Vec::new();
        let mut rest = &self.body[..];
        while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
            let size_text = String::from_utf8_lossy(&rest[..end]).into_owned();
            let size_text = size_text.split(';').next().unwrap_or("").trim();
            let Ok(size) = usize::from_str_radix(size_text, 16) else {
                panic!(
                    "bad chunk size {size_text:?} in {:?}",
                    String::from_utf8_lossy(&self.body)
                );
            };
            rest = &rest[end + 2..];
            if size == 0 || rest.len() < size {
                break;
            }
            out.extend_from_slice(&rest[..size]);
            rest = rest.get(size + 2..).unwrap_or_default();
        }
        out
    }

    /// The body parsed as JSON (panics when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("body is not JSON ({e}): {}", self.text()))
    }

    /// The body as JSON where an empty body (a 204, say) is `Null`; `None` when it is not JSON.
    pub fn maybe_json(&self) -> Option<serde_json::Value> {
        if self.body.is_empty() {
            return Some(serde_json::Value::Null);
        }
        serde_json::from_slice(&self.body).ok()
    }
}

/// The bytes of a request: the request line, `Host`, `headers` as given, `Content-Length` when
/// there is a body, the blank line, the body.
pub fn request(
    host: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Vec<u8> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body.unwrap_or_default());
    bytes
}

fn invalid(what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// Parse a complete HTTP/1.1 response (head and body); an error when it has no complete head.
pub fn try_parse(bytes: &[u8]) -> io::Result<Reply> {
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| {
        invalid(format!(
            "no header end in reply: {:?}",
            String::from_utf8_lossy(bytes)
        ))
    })?;
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let body = bytes[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| invalid(format!("bad status line {status_line:?}")))?;
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Ok(Reply {
        status,
        headers,
        body,
    })
}

/// [`try_parse`], panicking on a reply without a complete head.
pub fn parse(bytes: &[u8]) -> Reply {
    try_parse(bytes).unwrap_or_else(|e| panic!("{e}"))
}

/// Read the reply on `stream` until the server closes the connection (the request said
/// `Connection: close`).
pub async fn read_to_close(stream: &mut TcpStream) -> io::Result<Reply> {
    let mut buffer = Vec::new();
    let read = tokio::time::timeout(REPLY_TIMEOUT, stream.read_to_end(&mut buffer))
        .await
        .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no reply within 10 s"))?;
    match read {
        Ok(_) => try_parse(&buffer),
        // Reset after its answer (a server closing on a request it did not read whole): the
        // answer, when it came whole.
        Err(reset) => try_parse(&buffer).map_err(|_| reset),
    }
}

/// Read one reply on a keep-alive `stream`, framed by its `Content-Length` (no length: no body),
/// leaving the connection open for the next request.
pub async fn read_one(stream: &mut TcpStream) -> io::Result<Reply> {
    let mut buffer = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            let length: usize = String::from_utf8_lossy(&buffer[..end])
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().to_owned())
                })
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            if buffer.len() >= end + 4 + length {
                return try_parse(&buffer[..end + 4 + length]);
            }
        }
        let n = tokio::time::timeout(REPLY_TIMEOUT, stream.read(&mut chunk))
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "no reply within 10 s"))??;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "closed before the reply",
            ));
        }
        buffer.extend_from_slice(&chunk[..n]);
    }
}

/// Send raw request bytes on a new connection and read the reply until the server closes (the
/// request should say `Connection: close`).
pub async fn try_raw(addr: SocketAddr, request: &[u8]) -> io::Result<Reply> {
    let mut stream = TcpStream::connect(addr).await?;
    if let Err(sent) = stream.write_all(request).await {
        // A server may answer before it has read the whole request (a 413 for a declared
        // length over the limit) and close: its answer can still be read, as clients do.
        return match read_to_close(&mut stream).await {
            Ok(reply) => Ok(reply),
            Err(_) => Err(sent),
        };
    }
    read_to_close(&mut stream).await
}

/// [`try_raw`], panicking when the exchange fails.
pub async fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    try_raw(addr, request)
        .await
        .unwrap_or_else(|e| panic!("exchange with the test server at {addr}: {e}"))
}

/// Send `method path` with `Connection: close`, the `extra` headers as given and an optional
/// body.
pub async fn try_send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: Option<&[u8]>,
) -> io::Result<Reply> {
    let mut headers = vec![("Connection", "close")];
    headers.extend_from_slice(extra);
    try_raw(addr, &request(&addr.to_string(), method, path, &headers, body)).await
}

/// [`try_send`], panicking when the exchange fails.
pub async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    extra: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Reply {
    try_send(addr, method, path, extra, body)
        .await
        .unwrap_or_else(|e| panic!("{method} {path} at {addr}: {e}"))
}

/// `GET path`.
pub async fn get(addr: SocketAddr, path: &str) -> Reply {
    send(addr, "GET", path, &[], None).await
}

/// `method path`, with a JSON body (`Content-Type: application/json`) when one is given.
pub async fn try_send_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> io::Result<Reply> {
    match body {
        Some(body) => {
            let json = [("Content-Type", "application/json")];
            try_send(addr, method, path, &json, Some(body.as_bytes())).await
        }
        None => try_send(addr, method, path, &[], None).await,
    }
}

/// `method path` with a JSON body (`Content-Type: application/json`), panicking when the
/// exchange fails.
pub async fn send_json(addr: SocketAddr, method: &str, path: &str, body: &str) -> Reply {
    try_send_json(addr, method, path, Some(body))
        .await
        .unwrap_or_else(|e| panic!("{method} {path} at {addr}: {e}"))
}
