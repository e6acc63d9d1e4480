//! Where and how spans are exported: [`OtlpConfig`], from the standard `OTEL_EXPORTER_OTLP_*` and
//! `OTEL_BSP_*` variables or set in code.
//!
//! Rules enforced here (OpenTelemetry's SDK environment and OTLP exporter specifications):
//! - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as it is; `OTEL_EXPORTER_OTLP_ENDPOINT` gets
//!   `/v1/traces` appended; without either, `http://localhost:4318/v1/traces`; metrics
//!   ([`OtlpConfig::metrics_from_env`]) likewise with `METRICS` and `/v1/metrics`;
//! - `OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)HEADERS` is `key=value` pairs, values
//!   percent-decoded, as `OTEL_RESOURCE_ATTRIBUTES`; `OTEL_EXPORTER_OTLP_(TRACES_|METRICS_)TIMEOUT`,
//!   `OTEL_BSP_SCHEDULE_DELAY` and `OTEL_METRIC_EXPORT_INTERVAL` are milliseconds;
//! - `https://` endpoints need the `otlp-tls` feature; `OTEL_EXPORTER_OTLP_CERTIFICATE` (the
//!   roots to trust, else Mozilla's), `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and
//!   `OTEL_EXPORTER_OTLP_CLIENT_KEY` (an identity, both or neither) are PEM files, each with a
//!   per-signal form (`OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE`, ...) that wins; the files are
//!   read when an exporter starts, which fails on one it cannot use;
//! - a value that cannot be used keeps its default, with a warning, never a failure.

use std::path::PathBuf;
use std::time::Duration;

use hyper::header::{HeaderName, HeaderValue};
use hyper::Uri;

use super::super::resource::parse_attributes;

/// The default endpoint: a collector on this host, OTLP/HTTP's port.
const DEFAULT_ENDPOINT: &str = "http://localhost:4318/v1/traces";

/// The default endpoint of metrics.
const DEFAULT_METRICS_ENDPOINT: &str = "http://localhost:4318/v1/metrics";

/// What is exported: the signal's variables' infix and its resource's path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    Traces,
    Metrics,
}

impl Signal {
    /// The infix of its own variables (`OTEL_EXPORTER_OTLP_{infix}_ENDPOINT`).
    fn infix(self) -> &'static str {
        match self {
            Signal::Traces => "TRACES",
            Signal::Metrics => "METRICS",
        }
    }

    /// Its resource's path, appended to `OTEL_EXPORTER_OTLP_ENDPOINT`.
    fn path(self) -> &'static str {
        match self {
            Signal::Traces => "/v1/traces",
            Signal::Metrics => "/v1/metrics",
        }
    }

    fn default_endpoint(self) -> &'static str {
        match self {
            Signal::Traces => DEFAULT_ENDPOINT,
            Signal::Metrics => DEFAULT_METRICS_ENDPOINT,
        }
    }
}

/// How the OTLP exporter sends spans (see the module rules for the variables).
#[derive(Debug, Clone)]
pub struct OtlpConfig {
    pub(super) endpoint: Uri,
    pub(super) headers: Vec<(HeaderName, HeaderValue)>,
    pub(super) timeout: Duration,
    pub(super) max_queue_size: usize,
    pub(super) max_export_batch_size: usize,
    pub(super) schedule_delay: Duration,
    pub(super) retry: Retry,
    /// The PEM files of an `https://` endpoint.
    pub(crate) tls: TlsFiles,
    /// How often metrics are read and sent (metrics only).
    pub(crate) export_interval: Duration,
}

/// The PEM files of an `https://` endpoint: the roots to trust (`None`: Mozilla's) and the
/// client's identity (certificate chain and key), if the collector asks for one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct TlsFiles {
    pub(crate) certificate: Option<PathBuf>,
    pub(crate) client_certificate: Option<PathBuf>,
    pub(crate) client_key: Option<PathBuf>,
}

/// How a batch the collector asked to send again (OTLP/HTTP's retryable answers: 429, 502, 503,
/// 504) is sent again: at most `max` more times, waiting `first`, then twice as long each time
/// (at most [`Retry::LONGEST`]), or what the answer's `Retry-After` says (also at most that).
#[derive(Debug, Clone, Copy)]
pub(super) struct Retry {
    pub(super) max: u32,
    pub(super) first: Duration,
}

impl Retry {
    /// The longest wait before sending again, whatever the collector asks.
    pub(super) const LONGEST: Duration = Duration::from_secs(30);

    /// The wait before retry `n` (0: the first), unless the collector named one.
    pub(super) fn backoff(&self, n: u32, asked: Option<Duration>) -> Duration {
        let doubled = self.first.saturating_mul(1u32 << n.min(16));
        asked.unwrap_or(doubled).min(Self::LONGEST)
    }
}

impl Default for OtlpConfig {
    /// `http://localhost:4318/v1/traces`, no headers, 10 s timeout, a queue of 2048 spans,
    /// batches of up to 512 sent at least every 5 s (the specification's defaults); a batch the
    /// collector asks to send again is sent again up to 4 times, after 1, 2, 4 and 8 s.
    fn default() -> Self {
        OtlpConfig {
            endpoint: Uri::from_static(DEFAULT_ENDPOINT),
            headers: Vec::new(),
            timeout: Duration::from_secs(10),
            max_queue_size: 2048,
            max_export_batch_size: 512,
            schedule_delay: Duration::from_secs(5),
            retry: Retry {
                max: 4,
                first: Duration::from_secs(1),
            },
            export_interval: Duration::from_secs(60),
            tls: TlsFiles::default(),
        }
    }
}

impl OtlpConfig {
    /// The settings the environment gives; a value it cannot use is logged as a warning and its
    /// default kept.
    pub fn from_env() -> Self {
        logged(Self::from_lookup(|name| std::env::var(name).ok()))
    }

    /// [`OtlpConfig::from_env`] with the variables from `lookup`; the warnings returned.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        Self::read(Signal::Traces, lookup)
    }

    /// The settings of a metrics exporter the environment gives (`metrics::otlp`): the
    /// `OTEL_EXPORTER_OTLP_METRICS_*` variables over the common ones, the endpoint
    /// `http://localhost:4318/v1/metrics` by default, and `OTEL_METRIC_EXPORT_INTERVAL`
    /// (milliseconds, default 60 s); a value it cannot use is logged as a warning.
    pub fn metrics_from_env() -> Self {
        logged(Self::metrics_from_lookup(|name| std::env::var(name).ok()))
    }

    /// [`OtlpConfig::metrics_from_env`] with the variables from `lookup`; the warnings returned.
    pub fn metrics_from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        Self::read(Signal::Metrics, lookup)
    }

    /// The settings of `signal` from `lookup`, and the warnings.
    fn read(signal: Signal, lookup: impl Fn(&str) -> Option<String>) -> (Self, Vec<String>) {
        let mut config = OtlpConfig {
            endpoint: Uri::from_static(signal.default_endpoint()),
            ..OtlpConfig::default()
        };
        let mut warnings = Vec::new();
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let own = |what: &str| format!("OTEL_EXPORTER_OTLP_{}_{what}", signal.infix());
        let endpoint = match get(&own("ENDPOINT")) {
            Some(full) => Some((own("ENDPOINT"), full.trim().to_owned())),
            None => get("OTEL_EXPORTER_OTLP_ENDPOINT").map(|base| {
                (
                    "OTEL_EXPORTER_OTLP_ENDPOINT".to_owned(),
                    signal_url(base.trim(), signal),
                )
            }),
        };
        if let Some((name, url)) = endpoint {
            match parse_endpoint(&url) {
                Ok(uri) => config.endpoint = uri,
                Err(why) => warnings.push(format!("{name}: {why}; using {}", signal.default_endpoint())),
            }
        }
        for name in ["OTEL_EXPORTER_OTLP_HEADERS".to_owned(), own("HEADERS")] {
            let name = name.as_str();
            if let Some(list) = get(name) {
                match parse_headers(&list) {
                    Ok(headers) => {
                        for (key, value) in headers {
                            config.headers.retain(|(k, _)| *k != key);
                            config.headers.push((key, value));
                        }
                    }
                    Err(why) => warnings.push(format!("{name} left out: {why}")),
                }
            }
        }
        let millis = |name: &str, warnings: &mut Vec<String>| {
            get(name).and_then(|v| match v.trim().parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    warnings.push(format!(
                        "{name}: {v:?} is not a number of milliseconds; default kept"
                    ));
                    None
                }
            })
        };
        if let Some(t) = millis(&own("TIMEOUT"), &mut warnings)
            .or_else(|| millis("OTEL_EXPORTER_OTLP_TIMEOUT", &mut warnings))
        {
            config.timeout = t;
        }
        let file = |what: &str| {
            get(&own(what))
                .or_else(|| get(&format!("OTEL_EXPORTER_OTLP_{what}")))
                .map(|path| PathBuf::from(path.trim()))
        };
        config.tls = TlsFiles {
            certificate: file("CERTIFICATE"),
            client_certificate: file("CLIENT_CERTIFICATE"),
            client_key: file("CLIENT_KEY"),
        };
        if signal == Signal::Metrics {
            match millis("OTEL_METRIC_EXPORT_INTERVAL", &mut warnings) {
                Some(interval) if !interval.is_zero() => config.export_interval = interval,
                Some(_) => {
                    warnings.push("OTEL_METRIC_EXPORT_INTERVAL: 0 is no interval; default kept".to_owned())
                }
                None => {}
            }
        }
        if let Some(d) = millis("OTEL_BSP_SCHEDULE_DELAY", &mut warnings) {
            config.schedule_delay = d;
        }
        for (name, slot) in [
            ("OTEL_BSP_MAX_QUEUE_SIZE", &mut config.max_queue_size),
            (
                "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
                &mut config.max_export_batch_size,
            ),
        ] {
            if let Some(v) = get(name) {
                match v.trim().parse::<usize>() {
                    Ok(n) if n > 0 => *slot = n,
                    _ => warnings.push(format!("{name}: {v:?} is not a positive count; default kept")),
                }
            }
        }
        // The specification: a batch is never larger than the queue.
        config.max_export_batch_size = config.max_export_batch_size.min(config.max_queue_size);
        (config, warnings)
    }

    /// Send to `endpoint`, the full URL of the traces resource (`http://collector:4318/v1/traces`).
    /// `https://` with the `otlp-tls` feature only.
    pub fn endpoint(mut self, endpoint: &str) -> Result<Self, String> {
        self.endpoint = parse_endpoint(endpoint)?;
        Ok(self)
    }

    /// Send `name: value` with every export (an API key, a tenant).
    pub fn header(mut self, name: HeaderName, value: HeaderValue) -> Self {
        self.headers.push((name, value));
        self
    }

    /// Give up an export after `timeout` (default 10 s): its spans are dropped and counted.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Hold at most `size` spans waiting (default 2048, at least 1): more are dropped and counted.
    pub fn max_queue_size(mut self, size: usize) -> Self {
        self.max_queue_size = size.max(1);
        self.max_export_batch_size = self.max_export_batch_size.min(self.max_queue_size);
        self
    }

    /// Send at most `size` spans in one export (default 512, at least 1, at most the queue's size).
    pub fn max_export_batch_size(mut self, size: usize) -> Self {
        self.max_export_batch_size = size.clamp(1, self.max_queue_size);
        self
    }

    /// Read and send the metrics every `interval` (default 60 s, at least 1 ms; metrics only).
    pub fn export_interval(mut self, interval: Duration) -> Self {
        self.export_interval = interval.max(Duration::from_millis(1));
        self
    }

    /// Send what waits at the latest `delay` after its first span arrived (default 5 s).
    pub fn schedule_delay(mut self, delay: Duration) -> Self {
        self.schedule_delay = delay;
        self
    }

    /// Send a batch again at most `max` times (default 4; 0: never) when the collector answers
    /// 429, 502, 503 or 504 (OTLP/HTTP's retryable answers), waiting `first` (default 1 s) before
    /// the first retry and twice as long before each next one, or what the answer's `Retry-After`
    /// (in seconds) asks, at most 30 s. Any other answer, a refused connection or a timeout is
    /// not retried. Retries happen on the exporter's task: requests never wait for them, and
    /// spans arriving meanwhile wait in the queue (dropped and counted when it is full). No retry
    /// is made once the exporter is shutting down.
    pub fn retries(mut self, max: u32, first: Duration) -> Self {
        self.retry = Retry { max, first };
        self
    }

    /// Trust the certificates of the PEM file `path` for an `https://` endpoint (default:
    /// Mozilla's roots; the `otlp-tls` feature).
    pub fn certificate(mut self, path: impl Into<PathBuf>) -> Self {
        self.tls.certificate = Some(path.into());
        self
    }

    /// Present the certificate chain and key of these PEM files when an `https://` collector
    /// asks for a client certificate (the `otlp-tls` feature).
    pub fn client_identity(mut self, certificate: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Self {
        self.tls.client_certificate = Some(certificate.into());
        self.tls.client_key = Some(key.into());
        self
    }

    /// The URL spans are sent to.
    pub fn endpoint_uri(&self) -> &Uri {
        &self.endpoint
    }
}

/// `base` with the signal's resource path appended (the specification's signal path).
fn signal_url(base: &str, signal: Signal) -> String {
    format!("{}{}", base.trim_end_matches('/'), signal.path())
}

/// `url` as an endpoint: `http://`, with a host.
fn parse_endpoint(url: &str) -> Result<Uri, String> {
    let uri: Uri = url.parse().map_err(|e| format!("{url:?} is not a URL ({e})"))?;
    let https = cfg!(feature = "otlp-tls");
    match uri.scheme_str() {
        Some("http") if uri.host().is_some() => Ok(uri),
        Some("https") if https && uri.host().is_some() => Ok(uri),
        Some("http" | "https") if uri.host().is_none() => Err(format!("{url:?} has no host")),
        Some("https") => Err(format!(
            "{url:?}: https:// endpoints need ferrapi's `otlp-tls` feature"
        )),
        _ => Err(format!(
            "{url:?}: only http:// and https:// endpoints are supported"
        )),
    }
}

/// The settings, their warnings logged.
fn logged((config, warnings): (OtlpConfig, Vec<String>)) -> OtlpConfig {
    for warning in warnings {
        tracing::warn!("{warning}");
    }
    config
}

/// The headers of an `OTEL_EXPORTER_OTLP_HEADERS` value, or why one is unusable.
fn parse_headers(list: &str) -> Result<Vec<(HeaderName, HeaderValue)>, String> {
    parse_attributes(list)?
        .into_iter()
        .map(|(key, value)| {
            let name = HeaderName::from_bytes(key.as_bytes())
                .map_err(|_| format!("{key:?} is not a header name"))?;
            let value = HeaderValue::from_str(&value)
                .map_err(|_| format!("the value of {key:?} is not a header value"))?;
            Ok((name, value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::trace::test_vars as vars;

    #[test]
    fn the_variables_are_read_with_the_specifications_precedence() {
        let (c, w) = OtlpConfig::from_lookup(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "api-key=a%20b,x-tenant=t1"),
            ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-tenant=t2"),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "2500"),
            ("OTEL_BSP_MAX_QUEUE_SIZE", "100"),
            ("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "512"),
            ("OTEL_BSP_SCHEDULE_DELAY", "200"),
        ]));
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.endpoint, "http://collector:4318/v1/traces");
        assert_eq!(c.headers.len(), 2);
        assert_eq!(c.headers[0].1, "a b");
        assert_eq!(c.headers[1].1, "t2", "the traces variable wins");
        assert_eq!(c.timeout, Duration::from_millis(2500));
        assert_eq!((c.max_queue_size, c.max_export_batch_size), (100, 100));
        assert_eq!(c.schedule_delay, Duration::from_millis(200));
        let (c, _) = OtlpConfig::from_lookup(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://ignored:4318"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:9/custom"),
        ]));
        assert_eq!(c.endpoint, "http://c:9/custom", "used as it is");
    }

    #[test]
    fn metrics_read_their_own_variables_over_the_common_ones() {
        let (c, w) = OtlpConfig::metrics_from_lookup(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://traces-only:1/x"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "x-tenant=t1"),
            ("OTEL_EXPORTER_OTLP_METRICS_HEADERS", "x-tenant=t3"),
            ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-tenant=t2"),
            ("OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "700"),
            ("OTEL_METRIC_EXPORT_INTERVAL", "1500"),
        ]));
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(c.endpoint, "http://collector:4318/v1/metrics");
        assert_eq!(c.headers.len(), 1);
        assert_eq!(c.headers[0].1, "t3", "the metrics variable wins");
        assert_eq!(c.timeout, Duration::from_millis(700));
        assert_eq!(c.export_interval, Duration::from_millis(1500));
        let (c, _) = OtlpConfig::metrics_from_lookup(vars(&[(
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
            "http://c:9/custom",
        )]));
        assert_eq!(c.endpoint, "http://c:9/custom", "used as it is");
        let (c, w) = OtlpConfig::metrics_from_lookup(vars(&[("OTEL_METRIC_EXPORT_INTERVAL", "0")]));
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!(c.endpoint, DEFAULT_METRICS_ENDPOINT);
        assert_eq!(c.export_interval, Duration::from_secs(60));
        let (c, _) = OtlpConfig::from_lookup(vars(&[("OTEL_METRIC_EXPORT_INTERVAL", "5")]));
        assert_eq!(c.export_interval, Duration::from_secs(60), "traces ignore it");
    }

    #[test]
    fn unusable_values_keep_their_defaults_with_a_warning() {
        let (c, w) = OtlpConfig::from_lookup(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "ftp://collector:4318"),
            ("OTEL_EXPORTER_OTLP_HEADERS", "broken"),
            ("OTEL_EXPORTER_OTLP_TIMEOUT", "10s"),
            ("OTEL_BSP_MAX_QUEUE_SIZE", "0"),
        ]));
        assert_eq!(w.len(), 4, "{w:?}");
        assert_eq!(c.endpoint, DEFAULT_ENDPOINT);
        assert!(c.headers.is_empty());
        assert_eq!(c.timeout, Duration::from_secs(10));
        assert_eq!(c.max_queue_size, 2048);
    }

    #[test]
    fn https_needs_the_tls_feature_and_its_files_have_per_signal_forms() {
        let (c, w) = OtlpConfig::metrics_from_lookup(vars(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "https://collector:4318"),
            ("OTEL_EXPORTER_OTLP_CERTIFICATE", "/etc/ca.pem"),
            ("OTEL_EXPORTER_OTLP_METRICS_CERTIFICATE", "/etc/metrics-ca.pem"),
            ("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", "/etc/client.pem"),
            ("OTEL_EXPORTER_OTLP_TRACES_CLIENT_KEY", "/etc/traces-key.pem"),
            ("OTEL_EXPORTER_OTLP_CLIENT_KEY", "/etc/key.pem"),
        ]));
        assert_eq!(
            c.tls.certificate,
            Some("/etc/metrics-ca.pem".into()),
            "the signal's wins"
        );
        assert_eq!(c.tls.client_certificate, Some("/etc/client.pem".into()));
        assert_eq!(
            c.tls.client_key,
            Some("/etc/key.pem".into()),
            "not the traces' one"
        );
        if cfg!(feature = "otlp-tls") {
            assert!(w.is_empty(), "{w:?}");
            assert_eq!(c.endpoint, "https://collector:4318/v1/metrics");
        } else {
            assert_eq!(w.len(), 1, "{w:?}");
            assert!(w[0].contains("otlp-tls"), "{w:?}");
            assert_eq!(c.endpoint, DEFAULT_METRICS_ENDPOINT);
        }
    }

    #[test]
    fn retries_wait_twice_as_long_each_time_or_as_asked_at_most_30_s() {
        let retry = OtlpConfig::default().retry;
        assert_eq!(retry.max, 4);
        let waits: Vec<_> = (0..4).map(|n| retry.backoff(n, None)).collect();
        assert_eq!(waits, [1, 2, 4, 8].map(Duration::from_secs));
        assert_eq!(retry.backoff(9, None), Retry::LONGEST);
        assert_eq!(retry.backoff(40, None), Retry::LONGEST, "no overflow");
        let asked = Some(Duration::from_secs(3));
        assert_eq!(retry.backoff(2, asked), Duration::from_secs(3));
        assert_eq!(retry.backoff(0, Some(Duration::from_secs(600))), Retry::LONGEST);
    }
}
