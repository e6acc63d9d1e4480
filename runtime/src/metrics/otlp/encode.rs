//! The request metrics as OTLP's protobuf: one `ExportMetricsServiceRequest` per export, under
//! the traces' resource and the framework's scope.
//!
//! Rules enforced here (OpenTelemetry's HTTP semantic conventions and `metrics.proto`):
//! - `http.server.request.duration` is an explicit-bucket histogram in seconds, cumulative since
//!   the metrics were made, with the conventions' bounds; its attributes are
//!   `http.request.method`, `http.route` (left out for a request no route answered),
//!   `http.response.status_code`, `url.scheme` and, for a 5xx, `error.type` (the status code);
//!   a bucket's exemplar carries its trace and span ids;
//! - `http.server.active_requests` is a non-monotonic cumulative sum (an up-down counter) by
//!   `http.request.method` and `url.scheme`, for each method seen;
//! - an export holds what the metrics held when read: a series with no data is not sent.

use std::time::SystemTime;

use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::metrics::v1::{
    exemplar, metric, number_data_point, AggregationTemporality, Exemplar, Histogram, HistogramDataPoint,
    Metric, NumberDataPoint, ResourceMetrics, ScopeMetrics, Sum,
};
use opentelemetry_proto::tonic::resource::v1::Resource as ProtoResource;

use super::super::{MethodLabel, ServerLabels, Shared, SCHEME, SERVER_DURATION_BUCKETS};
use crate::trace::otlp::{key_value, scope, unix_nanos};

/// The metrics in `shared` at `now`, as one export request under `resource`.
pub(super) fn request(
    shared: &Shared,
    resource: &ProtoResource,
    now: SystemTime,
) -> ExportMetricsServiceRequest {
    let (start, now) = (unix_nanos(shared.start), unix_nanos(now));
    let mut metrics = Vec::with_capacity(2);
    let durations: Vec<HistogramDataPoint> = shared
        .duration
        .series()
        .iter()
        .map(|(labels, histogram)| {
            let snapshot = histogram.snapshot();
            HistogramDataPoint {
                attributes: server_attributes(labels),
                start_time_unix_nano: start,
                time_unix_nano: now,
                count: snapshot.count,
                sum: Some(snapshot.sum),
                bucket_counts: snapshot.buckets.iter().map(|(_, count)| *count).collect(),
                explicit_bounds: SERVER_DURATION_BUCKETS.to_vec(),
                exemplars: histogram
                    .exemplars()
                    .into_iter()
                    .flatten()
                    .map(|kept| Exemplar {
                        time_unix_nano: unix_nanos(kept.at),
                        span_id: kept.ids.span_id.to_bytes().to_vec(),
                        trace_id: kept.ids.trace_id.to_bytes().to_vec(),
                        value: Some(exemplar::Value::AsDouble(kept.value)),
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            }
        })
        .filter(|point| point.count > 0)
        .collect();
    if !durations.is_empty() {
        metrics.push(named(
            (
                "http.server.request.duration",
                "Duration of HTTP server requests.",
                "s",
            ),
            metric::Data::Histogram(Histogram {
                data_points: durations,
                aggregation_temporality: AggregationTemporality::Cumulative as i32,
            }),
        ));
    }
    let active: Vec<NumberDataPoint> = MethodLabel::ALL
        .iter()
        .zip(shared.active.iter())
        .filter_map(|(method, gauge)| {
            Some(NumberDataPoint {
                attributes: vec![
                    string("http.request.method", method.semconv()),
                    string("url.scheme", SCHEME),
                ],
                start_time_unix_nano: start,
                time_unix_nano: now,
                value: Some(number_data_point::Value::AsInt(gauge.get()?.get())),
                ..Default::default()
            })
        })
        .collect();
    if !active.is_empty() {
        metrics.push(named(
            (
                "http.server.active_requests",
                "Number of active HTTP server requests.",
                "{request}",
            ),
            metric::Data::Sum(Sum {
                data_points: active,
                aggregation_temporality: AggregationTemporality::Cumulative as i32,
                is_monotonic: false,
            }),
        ));
    }
    ExportMetricsServiceRequest {
        resource_metrics: vec![ResourceMetrics {
            resource: Some(resource.clone()),
            scope_metrics: vec![ScopeMetrics {
                scope: Some(scope()),
                metrics,
                schema_url: String::new(),
            }],
            schema_url: String::new(),
        }],
    }
}

/// The metric `name` (its description and unit) holding `data`.
fn named((name, description, unit): (&str, &str, &str), data: metric::Data) -> Metric {
    Metric {
        name: name.to_owned(),
        description: description.to_owned(),
        unit: unit.to_owned(),
        data: Some(data),
        ..Default::default()
    }
}

/// The attributes of a duration series.
fn server_attributes(labels: &ServerLabels) -> Vec<KeyValue> {
    let mut attributes = Vec::with_capacity(5);
    attributes.push(string("http.request.method", labels.method.semconv()));
    if let Some(route) = &labels.route {
        attributes.push(string("http.route", route));
    }
    attributes.push(key_value(
        "http.response.status_code".to_owned(),
        Any::IntValue(i64::from(labels.status)),
    ));
    attributes.push(string("url.scheme", SCHEME));
    if labels.status >= 500 {
        attributes.push(string("error.type", &labels.status.to_string()));
    }
    attributes
}

/// `key` = the string `value`.
fn string(key: &str, value: &str) -> KeyValue {
    key_value(key.to_owned(), Any::StringValue(value.to_owned()))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, UNIX_EPOCH};

    use opentelemetry_proto::tonic::metrics::v1::metric::Data;
    use prometheus_client::metrics::gauge::Gauge;
    use prost::Message;

    use super::*;
    use crate::metrics::duration::DurationFamily;
    use crate::trace::{SpanId, TraceId, TraceIds, SAMPLED};

    #[test]
    fn the_series_become_otlp_data_points() {
        let start = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        let shared = Shared {
            duration: DurationFamily::default(),
            active: Arc::default(),
            start,
        };
        let ok = ServerLabels {
            method: MethodLabel::Get,
            route: Some("/items/{id}".into()),
            status: 200,
        };
        let failed = ServerLabels {
            method: MethodLabel::Other,
            route: None,
            status: 503,
        };
        shared.duration.get_or_create(&ok).observe(0.003);
        let ids = TraceIds {
            trace_id: TraceId::from_u128(0x4bf92f3577b34da6a3ce929d0e0e4736).unwrap(),
            span_id: SpanId::from_u64(0x00f067aa0ba902b7).unwrap(),
            parent_span_id: None,
            flags: SAMPLED,
        };
        shared
            .duration
            .get_or_create(&ok)
            .observe_with_exemplar(0.2, &ids);
        shared.duration.get_or_create(&failed).observe(12.0);
        // A series made but never observed (a race's loser) is not sent.
        shared.duration.get_or_create(&ServerLabels {
            status: 201,
            ..ok.clone()
        });
        let gauge = Gauge::default();
        gauge.inc();
        let _ = shared.active[MethodLabel::Post as usize].set(gauge);
        let now = start + Duration::from_secs(60);
        let body = request(&shared, &ProtoResource::default(), now).encode_to_vec();
        let decoded = ExportMetricsServiceRequest::decode(body.as_slice()).unwrap();
        let metrics = &decoded.resource_metrics[0].scope_metrics[0].metrics;
        assert_eq!(metrics.len(), 2);
        assert_eq!(
            (metrics[0].name.as_str(), metrics[0].unit.as_str()),
            ("http.server.request.duration", "s")
        );
        let Some(Data::Histogram(histogram)) = &metrics[0].data else {
            panic!("a histogram")
        };
        assert_eq!(
            histogram.aggregation_temporality,
            AggregationTemporality::Cumulative as i32
        );
        assert_eq!(histogram.data_points.len(), 2);
        let point = &histogram.data_points[0];
        assert_eq!((point.count, point.sum), (2, Some(0.203)));
        assert_eq!(point.explicit_bounds, SERVER_DURATION_BUCKETS.to_vec());
        assert_eq!(point.bucket_counts.len(), 15);
        assert_eq!((point.bucket_counts[0], point.bucket_counts[6]), (1, 1));
        assert_eq!(point.start_time_unix_nano, 1_700_000_000_000_000_000);
        assert_eq!(point.time_unix_nano, 1_700_000_060_000_000_000);
        let keys: Vec<&str> = point.attributes.iter().map(|kv| kv.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "http.request.method",
                "http.route",
                "http.response.status_code",
                "url.scheme"
            ]
        );
        assert_eq!(point.exemplars.len(), 1);
        assert_eq!(
            point.exemplars[0].trace_id,
            0x4bf92f3577b34da6a3ce929d0e0e4736u128.to_be_bytes()
        );
        assert_eq!(point.exemplars[0].value, Some(exemplar::Value::AsDouble(0.2)));
        let failed = &histogram.data_points[1];
        let keys: Vec<&str> = failed.attributes.iter().map(|kv| kv.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "http.request.method",
                "http.response.status_code",
                "url.scheme",
                "error.type"
            ]
        );
        assert_eq!(failed.bucket_counts[14], 1, "+Inf");
        let Some(Data::Sum(sum)) = &metrics[1].data else {
            panic!("a sum")
        };
        assert!(!sum.is_monotonic);
        assert_eq!(sum.data_points.len(), 1, "only the methods seen");
        assert_eq!(sum.data_points[0].value, Some(number_data_point::Value::AsInt(1)));
        assert_eq!(
            sum.data_points[0].attributes[0].value.as_ref().unwrap().value,
            Some(Any::StringValue("POST".into()))
        );
    }
}
