//! hyper-raw: the scenarios hand-written on hyper 1 + tokio (usage: `peer-hyper-raw PORT OPENAPI_FILE`);
//! over TLS when `TLS_CERT` and `TLS_KEY` name a pair (tokio-rustls, ALPN `http/1.1`: the
//! hand-written TLS peer of issue 46's cost table).
//!
//! Rules: a `match` on the path segments, no router, no middleware; the same serde models as the
//! other peers; HTTP/1.1 keep-alive, as the framework serves it. Only the benchmark scenarios.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use peer_common::*;
use tokio::net::TcpListener;

const JSON: HeaderValue = HeaderValue::from_static("application/json");

fn json(status: StatusCode, body: impl Into<Bytes>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(body.into()));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, JSON);
    response
}

fn not_found() -> Response<Full<Bytes>> {
    json(StatusCode::NOT_FOUND, &b"{\"detail\":\"Not Found\"}"[..])
}

async fn handle(req: Request<Incoming>, openapi: Arc<Bytes>) -> Result<Response<Full<Bytes>>, Infallible> {
    let path = req.uri().path().to_owned();
    let query = req.uri().query().unwrap_or("").to_owned();
    let mut segments = path.trim_start_matches('/').split('/');
    let first = segments.next().unwrap_or("");
    let second = segments.next();
    let third = segments.next();
    let fourth = segments.next();
    let fifth = segments.next();
    let response = match (req.method(), first, second, third, fourth, fifth) {
        (&Method::GET, "", None, ..) => json(
            StatusCode::OK,
            to_json(&Message {
                message: "Hello World",
            }),
        ),
        (&Method::GET, "openapi.json", None, ..) => json(StatusCode::OK, (*openapi).clone()),
        (&Method::GET, "item", Some(id), None, ..) => match id.parse::<i64>() {
            Ok(id) => json(StatusCode::OK, to_json(&ItemId { id })),
            Err(_) => json(StatusCode::UNPROCESSABLE_ENTITY, int_parsing_422("id", id)),
        },
        (&Method::GET, "user", Some(user_id), Some("item"), Some(item_id), None) => {
            match user_id.parse::<i64>() {
                Ok(owner_id) => {
                    let mut q = None;
                    let mut short = false;
                    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
                        match &*key {
                            "q" => q = Some(value.into_owned()),
                            "short" => short = parse_bool(&value).unwrap_or(false),
                            _ => {}
                        }
                    }
                    let body = UserItem {
                        item_id,
                        owner_id,
                        q: q.as_deref().filter(|q| !q.is_empty()),
                        description: (!short).then_some(LONG_DESCRIPTION),
                    };
                    json(StatusCode::OK, to_json(&body))
                }
                Err(_) => json(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    int_parsing_422("user_id", user_id),
                ),
            }
        }
        (&Method::GET, "person", None, ..) => {
            let (mut skip, mut limit) = (0, 5);
            for (key, value) in form_urlencoded::parse(query.as_bytes()) {
                match &*key {
                    "skip" => skip = value.parse().unwrap_or(0),
                    "limit" => limit = value.parse().unwrap_or(5),
                    _ => {}
                }
            }
            json(StatusCode::OK, to_json(&persons(skip, limit)))
        }
        (&Method::POST, "item", None, ..) => {
            let bytes = match req.into_body().collect().await {
                Ok(collected) => collected.to_bytes(),
                Err(_) => return Ok(json(StatusCode::BAD_REQUEST, &b"{}"[..])),
            };
            match serde_json::from_slice::<Item>(&bytes) {
                Ok(item) => json(StatusCode::OK, to_json(&ItemWithTax::from(item))),
                Err(_) => json(StatusCode::UNPROCESSABLE_ENTITY, &b"{}"[..]),
            }
        }
        _ => not_found(),
    };
    Ok(response)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let openapi = Arc::new(Bytes::from(openapi_bytes()));
    let tls = peer_common::tls::server_config_from_env(&[b"http/1.1"]).map(tokio_rustls::TlsAcceptor::from);
    let listener = TcpListener::bind(("127.0.0.1", port())).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let openapi = openapi.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| handle(req, openapi.clone()));
            let http = http1::Builder::new();
            let _ = match tls {
                None => http.serve_connection(TokioIo::new(stream), service).await,
                Some(tls) => match tls.accept(stream).await {
                    Ok(stream) => http.serve_connection(TokioIo::new(stream), service).await,
                    Err(_) => return,
                },
            };
        });
    }
}
