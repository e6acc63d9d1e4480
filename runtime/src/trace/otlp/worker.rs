//! The exporter's task: takes spans off the queue, batches them, posts each batch.
//!
//! Rules enforced here: a batch goes when it is full or `schedule_delay` after its first span;
//! one export at a time, bounded by the timeout (connect, send and the answer read); a 2xx
//! answer counts the batch exported, anything else (an error status, a refused connection, a
//! timeout) counts it dropped; on stop, the queue is drained in batches and the task ends.

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::CONTENT_TYPE;
use hyper::{Method, Request};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::{encode, Counters, OtlpConfig};
use crate::trace::SpanRecord;

/// OTLP/HTTP's content type for protobuf.
const PROTOBUF: &str = "application/x-protobuf";

/// Run until `stop`: batch and send (see the module rules).
pub(super) async fn run(
    config: OtlpConfig,
    mut queue: mpsc::Receiver<SpanRecord>,
    counters: Counters,
    stop: CancellationToken,
) {
    let client: Client<HttpConnector, Full<Bytes>> = Client::builder(TokioExecutor::new()).build_http();
    let failed = counters.dropped("export_failed");
    let send = |batch: Vec<SpanRecord>| {
        let client = &client;
        let config = &config;
        let counters = &counters;
        let failed = failed.clone();
        async move {
            let count = batch.len() as u64;
            match post(client, config, batch).await {
                Ok(()) => {
                    counters.exported.inc_by(count);
                }
                Err(why) => {
                    failed.inc_by(count);
                    tracing::debug!("OTLP export of {count} spans failed: {why}");
                }
            }
        }
    };
    let max = config.max_export_batch_size;
    loop {
        let first = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            span = queue.recv() => match span {
                Some(span) => span,
                None => return,
            },
        };
        let mut batch = Vec::with_capacity(max.min(64));
        batch.push(first);
        let due = Instant::now() + config.schedule_delay;
        while batch.len() < max {
            tokio::select! {
                biased;
                span = queue.recv() => match span {
                    Some(span) => batch.push(span),
                    None => break,
                },
                () = tokio::time::sleep_until(due) => break,
                () = stop.cancelled() => break,
            }
        }
        send(batch).await;
    }
    // Stopping: what is queued goes out in full batches, then the task ends.
    loop {
        let mut batch = Vec::new();
        while batch.len() < max {
            match queue.try_recv() {
                Ok(span) => batch.push(span),
                Err(_) => break,
            }
        }
        if batch.is_empty() {
            return;
        }
        send(batch).await;
    }
}

/// Post `batch` to the endpoint; why not, when it was not accepted in time.
async fn post(
    client: &Client<HttpConnector, Full<Bytes>>,
    config: &OtlpConfig,
    batch: Vec<SpanRecord>,
) -> Result<(), String> {
    let body = encode::encode(batch);
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(config.endpoint.clone())
        .header(CONTENT_TYPE, PROTOBUF);
    for (name, value) in &config.headers {
        request = request.header(name, value);
    }
    let request = request
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| format!("request: {e}"))?;
    let exchange = async {
        let response = client.request(request).await.map_err(|e| format!("{e}"))?;
        let status = response.status();
        // Read to the end, so the connection is kept for the next batch.
        let _ = response.into_body().collect().await;
        if status.is_success() {
            Ok(())
        } else {
            Err(format!("the collector answered {status}"))
        }
    };
    match tokio::time::timeout(config.timeout, exchange).await {
        Ok(result) => result,
        Err(_) => Err(format!("no answer within {:?}", config.timeout)),
    }
}
