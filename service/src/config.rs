//! Command-line and environment configuration (flags first, environment as fallback).
//!
//! Rules enforced here: every setting has a sensible default so `resource-api` alone serves on
//! 127.0.0.1:8000 with the embedded store under `./data/`; a bad value stops the program with one
//! clear line (see `main.rs`; `DB_CONN_STRING` is parsed by [`Config::store_location`]).

use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use ferrapi::logging::LogFormat;
use ferrapi::trace::ResponseHeader;

use crate::store::{ConnError, StoreLocation};

/// Which route groups the binary serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Group {
    /// Group A only (typed routes, OpenAPI, docs).
    A,
    /// Group B only (JSON, text, HTML routes and birds).
    B,
    /// Group A declared first, then group B, on one listener.
    All,
}

impl Group {
    /// True when group B's routes (and so the bird store) are served.
    pub fn serves_b(self) -> bool {
        matches!(self, Group::B | Group::All)
    }
}

/// The Resource API service.
#[derive(Debug, Clone, Parser)]
#[command(name = "resource-api", version, about)]
pub struct Config {
    /// Address to listen on.
    #[arg(long, env = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0 picks a free port; the log says which).
    #[arg(long, env = "PORT", default_value_t = 8000)]
    pub port: u16,
    /// Route groups to serve.
    #[arg(long, env = "GROUP", value_enum, default_value_t = Group::All)]
    pub group: Group,
    /// Database: a file path or sqlite://PATH (embedded store), or mongodb:// / mongodb+srv://
    /// (unset: sqlite://./data/resource-api.db).
    #[arg(
        long = "db",
        env = "DB_CONN_STRING",
        value_name = "CONN",
        hide_env_values = true
    )]
    pub db: Option<String>,
    /// Serve `GET /api/env`, which discloses the connection string and any credential in it
    /// (on by default, as the specification requires; `--expose-env=false` removes the route).
    #[arg(
        long,
        env = "EXPOSE_ENV",
        default_value_t = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub expose_env: bool,
    /// Requests served at once; more get 503 with `Retry-After` at once (0: no limit).
    #[arg(long, env = "MAX_CONCURRENCY", default_value_t = 1024)]
    pub max_concurrency: usize,
    /// Memory clients can make the server hold at once, in bodies being read and parsed and
    /// answers not yet written (`64MiB`, `512KiB`, `1GiB` or bytes; 0: no budget). A request
    /// that would go over it is refused before the memory is taken: 503 with `Retry-After`, or
    /// 413 when it alone needs more.
    #[arg(long, env = "MEMORY_BUDGET", value_name = "SIZE", default_value = "64MiB", value_parser = parse_size)]
    pub memory_budget: usize,
    /// What the request bodies being received on one HTTP/2 connection may reserve of the memory
    /// budget (`8MiB`, `512KiB` or bytes; never less than a body; 0: no share per connection,
    /// behind a trusted proxy that multiplexes many clients on one connection).
    #[arg(long, env = "CONNECTION_BODY_SHARE", value_name = "SIZE", default_value = "8MiB", value_parser = parse_size)]
    pub connection_body_share: usize,
    /// Refuse HTTP/1.1 requests whose framing RFC 9112 does not allow (a missing or repeated
    /// `Host`, a bare LF, whitespace after a chunk size, a transfer coding other than chunked);
    /// on by default, `--strict-http1=false` behind a proxy that already refuses them.
    #[arg(
        long,
        env = "STRICT_HTTP1",
        default_value_t = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub strict_http1: bool,
    /// Log line format: `text` (for people) or `json` (one JSON object per line, for log
    /// shippers). The level comes from `RUST_LOG` (default `info`: one line per request).
    #[arg(long, env = "LOG_FORMAT", value_name = "FORMAT", default_value_t = LogFormat::Text, value_parser = parse_log_format)]
    pub log_format: LogFormat,
    /// Give every request an id (the incoming `X-Request-Id` when well-formed, else a new one),
    /// returned in `X-Request-Id` and on every log line of the request.
    #[arg(
        long,
        env = "REQUEST_IDS",
        default_value_t = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub request_ids: bool,
    /// How long, in milliseconds, a request with an `Idempotency-Key` holds its key past its last
    /// renewal (renewed every third of it while the request runs): when its process dies before
    /// answering, a retry runs again (and finds the visit it booked) this long after, and a retry
    /// meanwhile gets 409 with `Retry-After`. Longer than the store may take to answer a renewal.
    #[arg(
        long,
        env = "IDEMPOTENCY_LEASE_MS",
        value_name = "MS",
        default_value_t = 6_000
    )]
    pub idempotency_lease_ms: u64,
    /// Serve Prometheus metrics at `GET /metrics`: requests by method, route and status, their
    /// latency, requests in flight and refused, store operations and errors (off by default).
    #[arg(
        long,
        env = "METRICS",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub metrics: bool,
    /// A PEM file with the TLS certificate chain (the server's own first); with `--tls-key`,
    /// `--port` speaks HTTPS: HTTP/2 and HTTP/1.1 by ALPN, TLS 1.3 and 1.2.
    #[arg(long, env = "TLS_CERT", value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// A PEM file with the private key of `--tls-cert`'s first certificate.
    #[arg(long, env = "TLS_KEY", value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// With TLS on `--port`, also serve plain HTTP on this port (0 picks a free one; the log
    /// says which): say, for a health check or a proxy on the same host.
    #[arg(long, env = "PLAIN_PORT", value_name = "PORT", requires = "tls_cert")]
    pub plain_port: Option<u16>,
    /// The plain port (`--plain-port`) answers every request `308 Permanent Redirect` to the
    /// same host and target on the HTTPS port, instead of serving it.
    #[arg(
        long,
        env = "TLS_REDIRECT",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL",
        requires = "plain_port"
    )]
    pub tls_redirect: bool,
    /// With TLS, every HTTPS answer carries `Strict-Transport-Security: max-age=SECONDS`
    /// (never a plain one); none by default.
    #[arg(long, env = "HSTS_MAX_AGE", value_name = "SECONDS", requires = "tls_cert")]
    pub hsts_max_age: Option<u64>,
    /// With `--hsts-max-age`, the header adds `includeSubDomains`: browsers then use HTTPS for
    /// every subdomain of the host too. Off by default (a subdomain without HTTPS would become
    /// unreachable for a browser that saw the header).
    #[arg(
        long,
        env = "HSTS_INCLUDE_SUBDOMAINS",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL",
        requires = "hsts_max_age"
    )]
    pub hsts_include_subdomains: bool,
    /// With `--tls-redirect`, the port the redirects name (default: `--port`, the HTTPS
    /// listener's own): set it when clients reach the HTTPS port through a port mapping, say a
    /// container listening on 8443 published as 443.
    #[arg(
        long,
        env = "TLS_REDIRECT_PORT",
        value_name = "PORT",
        requires = "tls_redirect"
    )]
    pub tls_redirect_port: Option<u16>,
    /// A PEM file with the CA certificates a client certificate must chain to: with it, TLS
    /// clients are asked for one (see `--tls-client-auth`); reloaded with the pair.
    #[arg(long, env = "TLS_CLIENT_CA", value_name = "FILE", requires = "tls_cert")]
    pub tls_client_ca: Option<PathBuf>,
    /// Whether a client certificate is `required` (a client without one fails its handshake)
    /// or `optional` (routes that need one answer 401 without it).
    #[arg(
        long,
        env = "TLS_CLIENT_AUTH",
        value_enum,
        default_value_t = ClientAuthFlag::Required,
        requires = "tls_client_ca"
    )]
    pub tls_client_auth: ClientAuthFlag,
    /// Trace requests with W3C Trace Context (off by default): a caller's `traceparent` continued,
    /// a new trace otherwise; the trace id, span id and flags on the access line and on every
    /// line of the request. The sampler comes from `OTEL_TRACES_SAMPLER` and
    /// `OTEL_TRACES_SAMPLER_ARG` (default `parentbased_always_on`), what is read from
    /// `OTEL_PROPAGATORS` (default `tracecontext,baggage`).
    #[arg(
        long,
        env = "TRACING",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub tracing: bool,
    /// Follow callers' sampled flags (off by default: a client could otherwise have any request
    /// of its own sampled). Only behind a gateway that sets or removes `traceparent`.
    #[arg(
        long,
        env = "TRUST_TRACE_PARENT",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub trust_trace_parent: bool,
    /// Put the request's trace context on its answer: `none` (default), `traceparent` or
    /// `traceresponse`.
    #[arg(long, env = "TRACE_RESPONSE", value_name = "HEADER", default_value = "none", value_parser = parse_trace_response)]
    pub trace_response: ResponseHeader,
    /// With tracing, a request's id is its trace id (off by default).
    #[arg(
        long,
        env = "TRACE_REQUEST_IDS",
        default_value_t = false,
        default_missing_value = "true",
        num_args = 0..=1,
        require_equals = true,
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new(),
        value_name = "BOOL"
    )]
    pub trace_request_ids: bool,
    /// Export the spans of sampled requests over OTLP/HTTP (protobuf) to the collector at this
    /// base URL (`http://collector:4318`; `/v1/traces` is appended unless
    /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names the full URL); turns tracing on. Batched off
    /// the request path (`OTEL_BSP_*`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`);
    /// a collector that is down or slow drops spans, counted in `/metrics`, never requests.
    /// With `--metrics`, the request metrics (`http.server.request.duration`,
    /// `http.server.active_requests`) go there too, to `/v1/metrics`, every
    /// `OTEL_METRIC_EXPORT_INTERVAL` milliseconds (60,000 by default) and once more at shutdown.
    #[arg(long, env = "OTEL_EXPORTER_OTLP_ENDPOINT", value_name = "URL")]
    pub otlp_endpoint: Option<String>,
}

fn parse_trace_response(value: &str) -> Result<ResponseHeader, String> {
    value.parse()
}

/// `--tls-client-auth`'s values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientAuthFlag {
    /// A client may present a certificate or none.
    Optional,
    /// A client must present a certificate.
    Required,
}

fn parse_log_format(value: &str) -> Result<LogFormat, String> {
    value.parse()
}

/// A size in bytes: a whole number, optionally followed by `KiB`, `MiB` or `GiB` (any case, a
/// space allowed before it).
fn parse_size(value: &str) -> Result<usize, String> {
    let value = value.trim();
    let digits = value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len());
    let (number, unit) = value.split_at(digits);
    let unit_bytes: usize = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        other => return Err(format!("unknown unit {other:?} (use KiB, MiB or GiB)")),
    };
    number
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit_bytes))
        .ok_or_else(|| format!("{value:?} is not a size (a whole number of bytes, KiB, MiB or GiB)"))
}

impl Config {
    /// The TLS settings `--tls-cert` and `--tls-key` name, if both are given (with the client
    /// CA of `--tls-client-ca`, as `--tls-client-auth` says).
    pub fn tls(&self) -> Option<ferrapi::tls::TlsConfig> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => {
                let tls = ferrapi::tls::TlsConfig::from_pem_files(cert, key);
                let tls = match self.hsts_max_age {
                    Some(seconds) => tls.hsts(
                        std::time::Duration::from_secs(seconds),
                        self.hsts_include_subdomains,
                    ),
                    None => tls,
                };
                let tls = match self.tls_redirect_port {
                    Some(port) => tls.public_port(port),
                    None => tls,
                };
                Some(match &self.tls_client_ca {
                    Some(ca) => tls.client_auth(
                        ca,
                        match self.tls_client_auth {
                            ClientAuthFlag::Optional => ferrapi::tls::ClientAuth::Optional,
                            ClientAuthFlag::Required => ferrapi::tls::ClientAuth::Required,
                        },
                    ),
                    None => tls,
                })
            }
            _ => None,
        }
    }

    /// The store the connection string names (`--db`, else `DB_CONN_STRING`, else the default).
    pub fn store_location(&self) -> Result<StoreLocation, ConnError> {
        StoreLocation::parse(self.db.as_deref())
    }
}

/// The effective connection string as `GET /api/env` reports it (injected as `State`); the
/// store itself is opened from the parsed [`StoreLocation`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedConnString(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_needs_both_files_from_flags_or_the_environment() {
        let both = Config::try_parse_from(["resource-api", "--tls-cert", "c.pem", "--tls-key", "k.pem"]);
        let tls = both.ok().and_then(|config| config.tls());
        assert!(
            tls.is_some_and(|tls| tls.cert_path == std::path::Path::new("c.pem")
                && tls.key_path == std::path::Path::new("k.pem"))
        );
        assert!(
            Config::try_parse_from(["resource-api", "--tls-cert", "c.pem"]).is_err(),
            "a certificate without a key"
        );
        assert!(
            Config::try_parse_from(["resource-api", "--plain-port", "8080"]).is_err(),
            "a plain port without TLS"
        );
        let plain = Config::try_parse_from(["resource-api"]).ok();
        assert!(plain.is_some_and(|config| config.tls().is_none()));
    }

    #[test]
    fn redirect_and_hsts_need_tls() {
        let tls = ["resource-api", "--tls-cert", "c.pem", "--tls-key", "k.pem"];
        let with = |more: &[&'static str]| Config::try_parse_from(tls.iter().chain(more));
        let hsts = with(&["--hsts-max-age", "600"])
            .ok()
            .and_then(|config| config.tls());
        assert_eq!(
            hsts.and_then(|tls| tls.hsts),
            Some((std::time::Duration::from_secs(600), false))
        );
        let redirect = with(&["--plain-port", "0", "--tls-redirect"]).ok();
        assert!(redirect.is_some_and(|config| config.tls_redirect));
        assert!(
            with(&["--tls-redirect"]).is_err(),
            "a redirect without a plain port"
        );
        assert!(
            Config::try_parse_from(["resource-api", "--hsts-max-age", "600"]).is_err(),
            "HSTS without TLS"
        );
        let subdomains = with(&["--hsts-max-age", "600", "--hsts-include-subdomains"])
            .ok()
            .and_then(|config| config.tls());
        assert_eq!(
            subdomains.and_then(|tls| tls.hsts),
            Some((std::time::Duration::from_secs(600), true))
        );
        assert!(
            with(&["--hsts-include-subdomains"]).is_err(),
            "includeSubDomains without a max-age"
        );
        let mapped = with(&[
            "--plain-port",
            "0",
            "--tls-redirect",
            "--tls-redirect-port",
            "443",
        ])
        .ok()
        .and_then(|config| config.tls());
        assert_eq!(mapped.and_then(|tls| tls.public_port), Some(443));
        assert!(
            with(&["--plain-port", "0", "--tls-redirect-port", "443"]).is_err(),
            "a redirect port without a redirect"
        );
    }

    #[test]
    fn client_certificates_are_required_by_default_or_optional() {
        let tls = |extra: &[&str]| {
            let mut args = vec!["resource-api", "--tls-cert", "c.pem", "--tls-key", "k.pem"];
            args.extend_from_slice(extra);
            Config::try_parse_from(args).map(|config| config.tls().and_then(|tls| tls.client_auth))
        };
        let ca = std::path::PathBuf::from("ca.pem");
        assert_eq!(
            tls(&["--tls-client-ca", "ca.pem"]).ok().flatten(),
            Some((ca.clone(), ferrapi::tls::ClientAuth::Required))
        );
        assert_eq!(
            tls(&["--tls-client-ca", "ca.pem", "--tls-client-auth", "optional"])
                .ok()
                .flatten(),
            Some((ca, ferrapi::tls::ClientAuth::Optional))
        );
        assert_eq!(tls(&[]).ok().flatten(), None);
        assert!(
            tls(&["--tls-client-auth", "optional"]).is_err(),
            "client auth without a CA"
        );
        assert!(
            Config::try_parse_from(["resource-api", "--tls-client-ca", "ca.pem"]).is_err(),
            "a client CA without TLS"
        );
    }

    #[test]
    fn sizes_are_bytes_or_binary_units() {
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("512 kib"), Ok(512 << 10));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in ["", "MiB", "1.5MiB", "-1", "10MB", "99999999999999999999GiB"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }
}
