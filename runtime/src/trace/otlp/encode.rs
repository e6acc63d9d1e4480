//! Finished spans as OTLP's protobuf: one `ExportTraceServiceRequest` per batch, the spans grouped
//! under their [`Resource`] (one per process, so one `ResourceSpans`) and the framework's scope.
//!
//! Rules enforced here (OTLP's `trace.proto`): ids are their raw bytes (16 and 8), a span
//! without a parent has an empty `parent_span_id`; times are nanoseconds since the Unix epoch;
//! `flags` carries the W3C trace flags in its low byte; an error status keeps its description.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::resource::v1::Resource as ProtoResource;
use opentelemetry_proto::tonic::trace::v1::{span, status, ResourceSpans, ScopeSpans, Span, Status};
use prost::Message;

use super::super::{AttributeValue, Resource, SpanKind, SpanRecord, SpanStatus};

/// The instrumentation scope the framework's spans are recorded under.
const SCOPE: &str = "ferrapi";

/// `spans` as the body of a POST to `/v1/traces`.
pub(super) fn encode(spans: Vec<SpanRecord>) -> Vec<u8> {
    request(spans).encode_to_vec()
}

/// `spans` as one export request, grouped by resource (in the order first seen).
pub(super) fn request(spans: Vec<SpanRecord>) -> ExportTraceServiceRequest {
    let mut groups: Vec<(Arc<Resource>, Vec<Span>)> = Vec::new();
    for record in spans {
        let resource = record.resource.clone();
        let span = span_of(record);
        match groups
            .iter_mut()
            .find(|(r, _)| Arc::ptr_eq(r, &resource) || **r == *resource)
        {
            Some((_, list)) => list.push(span),
            None => groups.push((resource, vec![span])),
        }
    }
    ExportTraceServiceRequest {
        resource_spans: groups
            .into_iter()
            .map(|(resource, spans)| ResourceSpans {
                resource: Some(resource_of(&resource)),
                scope_spans: vec![ScopeSpans {
                    scope: Some(scope()),
                    spans,
                    schema_url: String::new(),
                }],
                schema_url: String::new(),
            })
            .collect(),
    }
}

/// One span in OTLP's form.
fn span_of(record: SpanRecord) -> Span {
    let kind = match record.kind {
        SpanKind::Server => span::SpanKind::Server,
        SpanKind::Client => span::SpanKind::Client,
        SpanKind::Internal => span::SpanKind::Internal,
    };
    let status = match record.status {
        SpanStatus::Unset => None,
        SpanStatus::Error(message) => Some(Status {
            message,
            code: status::StatusCode::Error as i32,
        }),
    };
    Span {
        trace_id: record.trace_id.to_bytes().to_vec(),
        span_id: record.span_id.to_bytes().to_vec(),
        parent_span_id: record
            .parent_span_id
            .map(|p| p.to_bytes().to_vec())
            .unwrap_or_default(),
        flags: u32::from(record.flags),
        name: record.name,
        kind: kind as i32,
        start_time_unix_nano: unix_nanos(record.start),
        end_time_unix_nano: unix_nanos(record.end),
        attributes: record
            .attributes
            .into_iter()
            .map(|a| {
                let value = match a.value {
                    AttributeValue::Str(s) => any_value::Value::StringValue(s.into_owned()),
                    AttributeValue::Int(i) => any_value::Value::IntValue(i),
                    AttributeValue::Double(d) => any_value::Value::DoubleValue(d),
                    AttributeValue::Bool(b) => any_value::Value::BoolValue(b),
                };
                key_value(a.key.to_owned(), value)
            })
            .collect(),
        status,
        ..Default::default()
    }
}

/// `resource` in OTLP's form: its attributes, as strings.
pub(crate) fn resource_of(resource: &Resource) -> ProtoResource {
    ProtoResource {
        attributes: resource
            .attributes()
            .iter()
            .map(|(k, v)| key_value(k.clone(), any_value::Value::StringValue(v.clone())))
            .collect(),
        ..Default::default()
    }
}

/// The framework's instrumentation scope: its name and version.
pub(crate) fn scope() -> InstrumentationScope {
    InstrumentationScope {
        name: SCOPE.to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
        ..Default::default()
    }
}

/// `key` = `value`.
pub(crate) fn key_value(key: String, value: any_value::Value) -> KeyValue {
    KeyValue {
        key,
        value: Some(AnyValue { value: Some(value) }),
    }
}

/// `time` in nanoseconds since the Unix epoch (0 before it, saturated past `u64`).
pub(crate) fn unix_nanos(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Attribute, SpanId, TraceId, SAMPLED};
    use std::time::Duration;

    #[test]
    fn a_span_round_trips_through_the_protobuf() {
        let resource = Arc::new(Resource::new("orders"));
        let start = UNIX_EPOCH + Duration::from_nanos(1_700_000_000_123_456_789);
        let record = |parent: Option<SpanId>, status| SpanRecord {
            trace_id: TraceId::from_u128(0x4bf92f3577b34da6a3ce929d0e0e4736).unwrap(),
            span_id: SpanId::from_u64(0x00f067aa0ba902b7).unwrap(),
            parent_span_id: parent,
            flags: SAMPLED,
            name: "GET /item/{id}".to_owned(),
            kind: SpanKind::Server,
            start,
            end: start + Duration::from_micros(30),
            attributes: vec![
                Attribute::new("http.route", "/item/{id}"),
                Attribute::new("http.response.status_code", 500),
            ],
            status,
            resource: resource.clone(),
        };
        let body = encode(vec![
            record(SpanId::from_u64(7), SpanStatus::Error("500".to_owned())),
            record(None, SpanStatus::Unset),
        ]);
        let decoded = ExportTraceServiceRequest::decode(body.as_slice()).unwrap();
        assert_eq!(decoded.resource_spans.len(), 1, "one resource, one group");
        let group = &decoded.resource_spans[0];
        let attrs = &group.resource.as_ref().unwrap().attributes;
        assert!(attrs.iter().any(|kv| kv.key == "service.name"
            && kv.value.as_ref().unwrap().value == Some(any_value::Value::StringValue("orders".into()))));
        let spans = &group.scope_spans[0].spans;
        assert_eq!(group.scope_spans[0].scope.as_ref().unwrap().name, "ferrapi");
        assert_eq!(spans[0].trace_id, hex("4bf92f3577b34da6a3ce929d0e0e4736"));
        assert_eq!(spans[0].span_id, hex("00f067aa0ba902b7"));
        assert_eq!(spans[0].parent_span_id, 7u64.to_be_bytes().to_vec());
        assert!(spans[1].parent_span_id.is_empty());
        assert_eq!(spans[0].kind, span::SpanKind::Server as i32);
        assert_eq!(spans[0].flags, 1);
        assert_eq!(spans[0].start_time_unix_nano, 1_700_000_000_123_456_789);
        assert_eq!(
            spans[0].end_time_unix_nano - spans[0].start_time_unix_nano,
            30_000
        );
        assert_eq!(
            spans[0].status.as_ref().unwrap().code,
            status::StatusCode::Error as i32
        );
        assert_eq!(spans[1].status, None);
        assert_eq!(
            spans[0].attributes[1].value.as_ref().unwrap().value,
            Some(any_value::Value::IntValue(500))
        );
    }

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }
}
