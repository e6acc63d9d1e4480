//! A real OTLP/HTTP receiver on 127.0.0.1 for the export tests (the framework's and the
//! service's): a hyper server that decodes each `POST /v1/traces` (or, [`metrics_receiver`],
//! `POST /v1/metrics`) with `opentelemetry-proto`'s types, as a collector does, and answers
//! after a chosen delay (a slow collector).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
pub use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::common::v1::KeyValue;
pub use opentelemetry_proto::tonic::metrics::v1::{metric::Data as MetricData, HistogramDataPoint};
pub use opentelemetry_proto::tonic::trace::v1::{span::SpanKind, Span};
use std::future::Future;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};

/// What a receiver got: per POST, its content type, `x-tenant` and decoded body (spans by
/// default, or metrics).
pub struct Received<T = ExportTraceServiceRequest>(Arc<Mutex<Vec<(String, String, T)>>>);

impl<T> Clone for Received<T> {
    fn clone(&self) -> Self {
        Received(self.0.clone())
    }
}

impl<T> Default for Received<T> {
    fn default() -> Self {
        Received(Arc::default())
    }
}

impl<T: Clone> Received<T> {
    /// Every POST so far.
    pub fn posts(&self) -> Vec<(String, String, T)> {
        self.0.lock().expect("not poisoned").clone()
    }
}

impl Received<ExportMetricsServiceRequest> {
    /// Wait up to 10 s for a POST whose body `accept`s; the last one, if any did.
    pub async fn wait_for_metrics(
        &self,
        accept: impl Fn(&ExportMetricsServiceRequest) -> bool,
    ) -> Option<ExportMetricsServiceRequest> {
        let start = Instant::now();
        loop {
            let found = self.posts().into_iter().map(|(_, _, body)| body).rfind(&accept);
            if found.is_some() || start.elapsed() > Duration::from_secs(10) {
                return found;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Received {
    /// The spans received, with their resource's `service.name`.
    pub fn spans(&self) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for (_, _, request) in self.posts() {
            for group in request.resource_spans {
                let service = group
                    .resource
                    .as_ref()
                    .and_then(|r| string(&r.attributes, "service.name"))
                    .unwrap_or_default();
                for scope in group.scope_spans {
                    out.extend(scope.spans.into_iter().map(|s| (service.clone(), s)));
                }
            }
        }
        out
    }

    /// Wait up to 10 s for `count` spans.
    pub async fn wait_for(&self, count: usize) -> Vec<(String, Span)> {
        let start = Instant::now();
        loop {
            let spans = self.spans();
            if spans.len() >= count || start.elapsed() > Duration::from_secs(10) {
                return spans;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A receiver on 127.0.0.1 answering each POST after `delay` (200, empty body).
pub async fn receiver(delay: Duration) -> (SocketAddr, Received) {
    receiver_answering(delay, Vec::new()).await
}

/// A receiver like [`receiver`] whose first POSTs get `answers` in turn (a status, and a
/// `Retry-After` value when given), then 200; every POST is recorded, answered or not.
pub async fn receiver_answering(
    delay: Duration,
    answers: Vec<(u16, Option<&'static str>)>,
) -> (SocketAddr, Received) {
    serve("/v1/traces", delay, answers).await
}

/// A receiver of metrics (`POST /v1/metrics`) on 127.0.0.1, answering 200 at once.
pub async fn metrics_receiver() -> (SocketAddr, Received<ExportMetricsServiceRequest>) {
    serve("/v1/metrics", Duration::ZERO, Vec::new()).await
}

/// A receiver of the POSTs to `path` (`/v1/traces`, `/v1/metrics`), each decoded as a `T`,
/// answered 200 at once, over the connections `accept` makes of each TCP stream (say, a TLS
/// handshake: an `https://` collector; `None` closes the connection).
pub async fn receiver_over<T, A, F, S>(path: &'static str, accept: A) -> (SocketAddr, Received<T>)
where
    T: prost::Message + Default + Send + 'static,
    A: Fn(TcpStream) -> F + Send + Sync + 'static,
    F: Future<Output = Option<S>> + Send + 'static,
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    serve_over(path, Duration::ZERO, Vec::new(), accept).await
}

/// A receiver of the POSTs to `path`, each decoded as a `T`.
async fn serve<T: prost::Message + Default + Send + 'static>(
    path: &'static str,
    delay: Duration,
    answers: Vec<(u16, Option<&'static str>)>,
) -> (SocketAddr, Received<T>) {
    serve_over(path, delay, answers, |stream| async move { Some(stream) }).await
}

/// [`serve`] over the connections `accept` makes.
async fn serve_over<T, A, F, S>(
    path: &'static str,
    delay: Duration,
    answers: Vec<(u16, Option<&'static str>)>,
    accept: A,
) -> (SocketAddr, Received<T>)
where
    T: prost::Message + Default + Send + 'static,
    A: Fn(TcpStream) -> F + Send + Sync + 'static,
    F: Future<Output = Option<S>> + Send + 'static,
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let answers = Arc::new(Mutex::new(std::collections::VecDeque::from(answers)));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a free port");
    let addr = listener.local_addr().expect("a bound address");
    let received = Received::<T>::default();
    let sink = received.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let sink = sink.clone();
            let answers = answers.clone();
            let connection = accept(stream);
            tokio::spawn(async move {
                let service = service_fn(move |request: Request<Incoming>| {
                    let sink = sink.clone();
                    let answer = answers.lock().expect("not poisoned").pop_front();
                    async move {
                        let header = |name: &str| {
                            request
                                .headers()
                                .get(name)
                                .and_then(|v| v.to_str().ok())
                                .unwrap_or_default()
                                .to_owned()
                        };
                        let (kind, tenant) = (header("content-type"), header("x-tenant"));
                        assert_eq!(request.uri().path(), path);
                        let body = request
                            .into_body()
                            .collect()
                            .await
                            .expect("the whole body")
                            .to_bytes();
                        let decoded = T::decode(body).expect("a valid OTLP request");
                        sink.0.lock().expect("not poisoned").push((kind, tenant, decoded));
                        tokio::time::sleep(delay).await;
                        let mut response = Response::new(Full::new(Bytes::new()));
                        if let Some((status, retry_after)) = answer {
                            *response.status_mut() =
                                hyper::StatusCode::from_u16(status).expect("a status code");
                            if let Some(seconds) = retry_after {
                                response
                                    .headers_mut()
                                    .insert("retry-after", hyper::header::HeaderValue::from_static(seconds));
                            }
                        }
                        Ok::<_, Infallible>(response)
                    }
                });
                if let Some(stream) = connection.await {
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                }
            });
        }
    });
    (addr, received)
}

/// The string attribute `key`.
pub fn string(attributes: &[KeyValue], key: &str) -> Option<String> {
    attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| match &kv.value.as_ref()?.value {
            Some(Any::StringValue(s)) => Some(s.clone()),
            _ => None,
        })
}

/// The integer attribute `key`.
pub fn int(attributes: &[KeyValue], key: &str) -> Option<i64> {
    attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| match &kv.value.as_ref()?.value {
            Some(Any::IntValue(i)) => Some(*i),
            _ => None,
        })
}

/// `bytes` as lowercase hex (an id).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
