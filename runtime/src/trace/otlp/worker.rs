//! The exporter's task: takes spans off the queue, batches them, posts each batch.
//!
//! Rules enforced here: a batch goes when it is full or `schedule_delay` after its first span;
//! one export at a time, each attempt bounded by the timeout (connect, send and the answer
//! read); a 2xx answer counts the batch exported; an answer OTLP/HTTP calls retryable (429, 502,
//! 503, 504) sends it again after a wait (`OtlpConfig::retries`: doubling from 1 s, or the
//! answer's `Retry-After`, at most 30 s; counted in `otlp_export_retries_total`), up to the
//! retries allowed and never once stopping; anything else (another status, a refused
//! connection, a timeout) and a batch out of retries count it dropped; on stop, the queue is
//! drained in batches and the task ends.

use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::header::{CONTENT_TYPE, RETRY_AFTER};
use hyper::{Method, Request, StatusCode};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::{encode, Counters, OtlpConfig};
use crate::trace::SpanRecord;

/// OTLP/HTTP's content type for protobuf.
const PROTOBUF: &str = "application/x-protobuf";

/// The HTTP client exports are posted with: TLS for `https://` with the `otlp-tls` feature.
#[cfg(feature = "otlp-tls")]
pub(crate) type ExportClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// The HTTP client exports are posted with: plain HTTP.
#[cfg(not(feature = "otlp-tls"))]
pub(crate) type ExportClient = Client<HttpConnector, Full<Bytes>>;

/// A client for posting exports as `config` says (one per exporter task: it keeps its
/// connection); an error when its TLS files cannot be used.
pub(crate) fn export_client(config: &OtlpConfig) -> Result<ExportClient, String> {
    let builder = Client::builder(TokioExecutor::new());
    #[cfg(feature = "otlp-tls")]
    return Ok(builder.build(super::tls::connector(&config.tls)?));
    #[cfg(not(feature = "otlp-tls"))]
    {
        let _ = config;
        Ok(builder.build_http())
    }
}

/// Wait at most `deadline` for an exporter's `task` (taken out of its slot) to end, aborting it
/// then; whether it ended in time (true when there was none left).
pub(crate) async fn stop_task(task: &Mutex<Option<JoinHandle<()>>>, deadline: Duration) -> bool {
    let task = task.lock().ok().and_then(|mut slot| slot.take());
    let Some(mut task) = task else {
        return true;
    };
    let ended = tokio::time::timeout(deadline, &mut task).await.is_ok();
    if !ended {
        task.abort();
    }
    ended
}

/// Run until `stop`: batch and send (see the module rules).
pub(super) async fn run(
    (config, client): (OtlpConfig, ExportClient),
    mut queue: mpsc::Receiver<SpanRecord>,
    counters: Counters,
    stop: CancellationToken,
) {
    let failed = counters.dropped("export_failed");
    let send = |batch: Vec<SpanRecord>| {
        let client = &client;
        let config = &config;
        let counters = &counters;
        let failed = failed.clone();
        let stop = &stop;
        async move {
            let count = batch.len() as u64;
            // Encoded once: a retry sends the same bytes.
            let body = Bytes::from(encode::encode(batch));
            let mut retries = 0;
            loop {
                match post(client, config, body.clone()).await {
                    Ok(()) => {
                        counters.exported.inc_by(count);
                        return;
                    }
                    Err(Refused {
                        why,
                        again: Some(asked),
                    }) if retries < config.retry.max && !stop.is_cancelled() => {
                        let wait = config.retry.backoff(retries, asked);
                        tracing::debug!("OTLP export of {count} spans: {why}; sent again in {wait:?}");
                        retries += 1;
                        counters.retries.inc();
                        tokio::select! {
                            () = tokio::time::sleep(wait) => {}
                            // Stopping: no more waiting for this batch.
                            () = stop.cancelled() => {
                                failed.inc_by(count);
                                return;
                            }
                        }
                    }
                    Err(Refused { why, .. }) => {
                        failed.inc_by(count);
                        tracing::debug!("OTLP export of {count} spans failed: {why}");
                        return;
                    }
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

/// Why a batch was not accepted, and whether the collector asked for it again (with the wait
/// its `Retry-After` named, if any).
pub(crate) struct Refused {
    /// What went wrong, for the log.
    pub(crate) why: String,
    again: Option<Option<Duration>>,
}

impl Refused {
    /// A failure not to retry.
    fn failed(why: String) -> Self {
        Refused { why, again: None }
    }
}

/// Whether OTLP/HTTP says to send again after `status` (its retryable answers).
fn retryable(status: StatusCode) -> bool {
    matches!(
        status,
        StatusCode::TOO_MANY_REQUESTS
            | StatusCode::BAD_GATEWAY
            | StatusCode::SERVICE_UNAVAILABLE
            | StatusCode::GATEWAY_TIMEOUT
    )
}

/// A `Retry-After` in seconds (its date form is not used by collectors, and is ignored).
fn retry_after(value: Option<&hyper::header::HeaderValue>) -> Option<Duration> {
    let seconds: u64 = value?.to_str().ok()?.trim().parse().ok()?;
    Some(Duration::from_secs(seconds))
}

/// Post `body` (an encoded batch) to the endpoint; why not, when it was not accepted in time.
pub(crate) async fn post(client: &ExportClient, config: &OtlpConfig, body: Bytes) -> Result<(), Refused> {
    let mut request = Request::builder()
        .method(Method::POST)
        .uri(config.endpoint.clone())
        .header(CONTENT_TYPE, PROTOBUF);
    for (name, value) in &config.headers {
        request = request.header(name, value);
    }
    let request = request
        .body(Full::new(body))
        .map_err(|e| Refused::failed(format!("request: {e}")))?;
    let exchange = async {
        let response = client
            .request(request)
            .await
            .map_err(|e| Refused::failed(format!("{e}")))?;
        let status = response.status();
        let asked = retry_after(response.headers().get(RETRY_AFTER));
        // Read to the end, so the connection is kept for the next batch.
        let _ = response.into_body().collect().await;
        if status.is_success() {
            Ok(())
        } else {
            Err(Refused {
                why: format!("the collector answered {status}"),
                again: retryable(status).then_some(asked),
            })
        }
    };
    match tokio::time::timeout(config.timeout, exchange).await {
        Ok(result) => result,
        Err(_) => Err(Refused::failed(format!("no answer within {:?}", config.timeout))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_retryable_answers_are_otlp_http_s_four() {
        let retried: Vec<u16> = (100..600)
            .filter_map(|code| StatusCode::from_u16(code).ok())
            .filter(|status| retryable(*status))
            .map(|status| status.as_u16())
            .collect();
        assert_eq!(retried, [429, 502, 503, 504]);
    }

    #[test]
    fn retry_after_is_read_in_seconds_only() {
        let value = |s: &'static str| hyper::header::HeaderValue::from_static(s);
        assert_eq!(retry_after(Some(&value("3"))), Some(Duration::from_secs(3)));
        assert_eq!(retry_after(Some(&value(" 0 "))), Some(Duration::ZERO));
        assert_eq!(retry_after(Some(&value("Wed, 21 Oct 2015 07:28:00 GMT"))), None);
        assert_eq!(retry_after(Some(&value("-1"))), None);
        assert_eq!(retry_after(None), None);
    }
}
