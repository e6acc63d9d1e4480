//! Finished spans as OTLP's protobuf: one `ExportTraceServiceRequest` per batch, the spans grouped
//! under their [`Resource`] (one per process, so one `ResourceSpans`) and the framework's scope.
//!
//! Rules enforced here (OTLP's `trace.proto`): ids are their raw bytes (16 and 8), a span
//! without a parent has no `parent_span_id`; times are nanoseconds since the Unix epoch;
//! `flags` carries the W3C trace flags in its low byte; an error status keeps its description,
//! an ok one has none; a span's events (`Span.Event`) follow its attributes, with the count of
//! those dropped.
//!
//! The bytes are written straight from the [`SpanRecord`]s with prost's wire primitives, field
//! by field in the order of their tags (and with the omissions of defaults) prost's own encoding of
//! `opentelemetry-proto`'s types has, which the tests check byte for byte. Building those types
//! first cost ≈ 16,000 instructions a span (callgrind `GET /item/42`, every request sampled): a
//! `String` or `Vec` per id, key and value, each freed again, and every nested message's length
//! computed once per enclosing level; written directly, each length is computed once and nothing
//! is allocated but the body.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use opentelemetry_proto::tonic::common::v1::{any_value, AnyValue, InstrumentationScope, KeyValue};
use opentelemetry_proto::tonic::resource::v1::Resource as ProtoResource;
use prost::encoding::{encoded_len_varint, key_len, WireType};

use super::super::{Attribute, AttributeValue, Resource, SpanEvent, SpanKind, SpanRecord, SpanStatus};

/// The instrumentation scope the framework's spans are recorded under.
const SCOPE: &str = "ferrapi";

/// The scope's version.
const SCOPE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// `status.code` of an ok status (`STATUS_CODE_OK`).
const STATUS_OK: u64 = 1;

/// `status.code` of an error (`STATUS_CODE_ERROR`).
const STATUS_ERROR: u64 = 2;

/// `spans` as the body of a POST to `/v1/traces`: one `ResourceSpans` per resource (in the order
/// first seen), each with the framework's one `ScopeSpans`.
pub(super) fn encode(spans: Vec<SpanRecord>) -> Vec<u8> {
    let mut groups: Vec<(Arc<Resource>, Vec<SpanRecord>)> = Vec::new();
    for record in spans {
        match groups
            .iter_mut()
            .find(|(r, _)| Arc::ptr_eq(r, &record.resource) || **r == *record.resource)
        {
            Some((_, list)) => list.push(record),
            None => groups.push((record.resource.clone(), vec![record])),
        }
    }
    // Each span's length once; each enclosing message's from them.
    let sized: Vec<(Vec<usize>, usize, usize)> = groups
        .iter()
        .map(|(resource, spans)| {
            let lens: Vec<usize> = spans.iter().map(span_len).collect();
            let scope_spans =
                field_len(1, scope_len()) + lens.iter().map(|&len| field_len(2, len)).sum::<usize>();
            let resource_len = resource_len(resource);
            (lens, resource_len, scope_spans)
        })
        .collect();
    let total: usize = sized
        .iter()
        .map(|(_, resource, scope_spans)| field_len(1, resource_spans_len(*resource, *scope_spans)))
        .sum();
    let mut out = Vec::with_capacity(total);
    for ((resource, spans), (lens, resource_len, scope_spans)) in groups.iter().zip(&sized) {
        // ExportTraceServiceRequest.resource_spans (1)
        header(1, resource_spans_len(*resource_len, *scope_spans), &mut out);
        // ResourceSpans.resource (1): Resource.attributes (1)
        header(1, *resource_len, &mut out);
        for (key, value) in resource.attributes() {
            header(1, string_pair_len(key, value), &mut out);
            string_field(1, key, &mut out);
            header(2, any_string_len(value), &mut out);
            always_string_field(1, value, &mut out);
        }
        // ResourceSpans.scope_spans (2): ScopeSpans.scope (1), then its spans (2)
        header(2, *scope_spans, &mut out);
        header(1, scope_len(), &mut out);
        string_field(1, SCOPE, &mut out);
        string_field(2, SCOPE_VERSION, &mut out);
        for (span, &len) in spans.iter().zip(lens) {
            header(2, len, &mut out);
            write_span(span, &mut out);
        }
    }
    out
}

/// The length of a `ResourceSpans` of a resource of `resource` bytes and a `ScopeSpans` of
/// `scope_spans` bytes.
fn resource_spans_len(resource: usize, scope_spans: usize) -> usize {
    field_len(1, resource) + field_len(2, scope_spans)
}

/// The length of the `Resource` message of `resource`.
fn resource_len(resource: &Resource) -> usize {
    resource
        .attributes()
        .iter()
        .map(|(key, value)| field_len(1, string_pair_len(key, value)))
        .sum()
}

/// The length of the framework's `InstrumentationScope`.
fn scope_len() -> usize {
    string_len(1, SCOPE) + string_len(2, SCOPE_VERSION)
}

/// The length of `span` as a `Span` message.
fn span_len(span: &SpanRecord) -> usize {
    let mut len = field_len(1, 16) + field_len(2, 8);
    if span.parent_span_id.is_some() {
        len += field_len(4, 8);
    }
    if span.flags != 0 {
        len += key_len(16) + 4;
    }
    len += string_len(5, &span.name);
    len += key_len(6) + encoded_len_varint(kind_of(span.kind));
    len += fixed64_len(7, unix_nanos(span.start)) + fixed64_len(8, unix_nanos(span.end));
    len += span
        .attributes
        .iter()
        .map(|a| field_len(9, attribute_len(a)))
        .sum::<usize>();
    len += span
        .events
        .iter()
        .map(|e| field_len(11, event_len(e)))
        .sum::<usize>();
    len += uint32_len(12, span.dropped_events_count);
    if let Some((message, code)) = status_of(&span.status) {
        len += field_len(15, status_len(message, code));
    }
    len
}

/// Write `span` as a `Span` message's fields (its length, [`span_len`], written by the caller).
fn write_span(span: &SpanRecord, out: &mut Vec<u8>) {
    header(1, 16, out);
    out.extend_from_slice(&span.trace_id.to_bytes());
    header(2, 8, out);
    out.extend_from_slice(&span.span_id.to_bytes());
    if let Some(parent) = span.parent_span_id {
        header(4, 8, out);
        out.extend_from_slice(&parent.to_bytes());
    }
    string_field(5, &span.name, out);
    encode_key(6, WireType::Varint, out);
    encode_varint(kind_of(span.kind), out);
    fixed64_field(7, unix_nanos(span.start), out);
    fixed64_field(8, unix_nanos(span.end), out);
    for attribute in &span.attributes {
        header(9, attribute_len(attribute), out);
        write_attribute(attribute, out);
    }
    for event in &span.events {
        header(11, event_len(event), out);
        write_event(event, out);
    }
    uint32_field(12, span.dropped_events_count, out);
    if let Some((message, code)) = status_of(&span.status) {
        header(15, status_len(message, code), out);
        string_field(2, message, out);
        encode_key(3, WireType::Varint, out);
        encode_varint(code, out);
    }
    // Last: prost writes a message's fields in the order of their tags.
    if span.flags != 0 {
        encode_key(16, WireType::ThirtyTwoBit, out);
        out.extend_from_slice(&u32::from(span.flags).to_le_bytes());
    }
}

/// `Span.kind`'s number for `kind` (never 0, unspecified: always written).
fn kind_of(kind: SpanKind) -> u64 {
    match kind {
        SpanKind::Internal => 1,
        SpanKind::Server => 2,
        SpanKind::Client => 3,
        SpanKind::Producer => 4,
        SpanKind::Consumer => 5,
    }
}

/// The `Status` message of `status`: its description and code; `None` when unset (no message).
fn status_of(status: &SpanStatus) -> Option<(&str, u64)> {
    match status {
        SpanStatus::Unset => None,
        SpanStatus::Ok => Some(("", STATUS_OK)),
        SpanStatus::Error(message) => Some((message, STATUS_ERROR)),
    }
}

/// The length of a `Status` with `message` and `code`.
fn status_len(message: &str, code: u64) -> usize {
    string_len(2, message) + key_len(3) + encoded_len_varint(code)
}

/// The length of `event` as a `Span.Event`.
fn event_len(event: &SpanEvent) -> usize {
    fixed64_len(1, unix_nanos(event.time))
        + string_len(2, &event.name)
        + event
            .attributes
            .iter()
            .map(|a| field_len(3, attribute_len(a)))
            .sum::<usize>()
}

/// Write `event` as a `Span.Event`'s fields.
fn write_event(event: &SpanEvent, out: &mut Vec<u8>) {
    fixed64_field(1, unix_nanos(event.time), out);
    string_field(2, &event.name, out);
    for attribute in &event.attributes {
        header(3, attribute_len(attribute), out);
        write_attribute(attribute, out);
    }
}

/// The length of `attribute` as a `KeyValue`.
fn attribute_len(attribute: &Attribute) -> usize {
    string_len(1, attribute.key) + field_len(2, any_len(&attribute.value))
}

/// Write `attribute` as a `KeyValue`'s fields.
fn write_attribute(attribute: &Attribute, out: &mut Vec<u8>) {
    string_field(1, attribute.key, out);
    header(2, any_len(&attribute.value), out);
    match &attribute.value {
        AttributeValue::Str(s) => always_string_field(1, s, out),
        AttributeValue::Bool(b) => {
            encode_key(2, WireType::Varint, out);
            encode_varint(u64::from(*b), out);
        }
        AttributeValue::Int(i) => {
            encode_key(3, WireType::Varint, out);
            // int64: two's complement, as prost writes a negative one (ten bytes).
            encode_varint(*i as u64, out);
        }
        AttributeValue::Double(d) => {
            encode_key(4, WireType::SixtyFourBit, out);
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
}

/// The length of `value` as an `AnyValue` (its one field set, written even when a default).
fn any_len(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::Str(s) => any_string_len(s),
        AttributeValue::Bool(_) => key_len(2) + 1,
        AttributeValue::Int(i) => key_len(3) + encoded_len_varint(*i as u64),
        AttributeValue::Double(_) => key_len(4) + 8,
    }
}

/// The length of an `AnyValue` holding the string `value`.
fn any_string_len(value: &str) -> usize {
    field_len(1, value.len())
}

/// The length of a `KeyValue` of two strings.
fn string_pair_len(key: &str, value: &str) -> usize {
    string_len(1, key) + field_len(2, any_string_len(value))
}

/// The length of a length-delimited field `tag` of `len` bytes.
fn field_len(tag: u32, len: usize) -> usize {
    key_len(tag) + encoded_len_varint(len as u64) + len
}

/// The length of a string field `tag` (left out when empty, as proto3 does).
fn string_len(tag: u32, value: &str) -> usize {
    if value.is_empty() {
        0
    } else {
        field_len(tag, value.len())
    }
}

/// The length of a uint32 field `tag` (left out when 0).
fn uint32_len(tag: u32, value: u32) -> usize {
    if value == 0 {
        0
    } else {
        key_len(tag) + encoded_len_varint(u64::from(value))
    }
}

/// The length of a fixed64 field `tag` (left out when 0).
fn fixed64_len(tag: u32, value: u64) -> usize {
    if value == 0 {
        0
    } else {
        key_len(tag) + 8
    }
}

/// `value` as a varint: one byte inline for the keys and lengths below 128 (most of them; prost's
/// `encode_varint` is a call with a loop, ≈ 1,000 instructions a span).
#[inline(always)]
fn encode_varint(value: u64, out: &mut Vec<u8>) {
    if value < 0x80 {
        out.push(value as u8);
    } else {
        prost::encoding::encode_varint(value, out);
    }
}

/// The key of field `tag` of `wire_type`.
#[inline(always)]
fn encode_key(tag: u32, wire_type: WireType, out: &mut Vec<u8>) {
    encode_varint(u64::from(tag << 3 | wire_type as u32), out);
}

/// A length-delimited field's key and length.
fn header(tag: u32, len: usize, out: &mut Vec<u8>) {
    encode_key(tag, WireType::LengthDelimited, out);
    encode_varint(len as u64, out);
}

/// A string field (left out when empty).
fn string_field(tag: u32, value: &str, out: &mut Vec<u8>) {
    if !value.is_empty() {
        always_string_field(tag, value, out);
    }
}

/// A string field written even when empty (a oneof's member).
fn always_string_field(tag: u32, value: &str, out: &mut Vec<u8>) {
    header(tag, value.len(), out);
    out.extend_from_slice(value.as_bytes());
}

/// A uint32 field (left out when 0).
fn uint32_field(tag: u32, value: u32, out: &mut Vec<u8>) {
    if value != 0 {
        encode_key(tag, WireType::Varint, out);
        encode_varint(u64::from(value), out);
    }
}

/// A fixed64 field (left out when 0).
fn fixed64_field(tag: u32, value: u64, out: &mut Vec<u8>) {
    if value != 0 {
        encode_key(tag, WireType::SixtyFourBit, out);
        out.extend_from_slice(&value.to_le_bytes());
    }
}

/// `resource` in OTLP's form: its attributes, as strings (for the metrics' export, which builds
/// `opentelemetry-proto`'s types: one message a minute, not one a request).
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
        version: SCOPE_VERSION.to_owned(),
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
    use crate::trace::{SpanId, TraceId, SAMPLED};
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::trace::v1::{span, status, ResourceSpans, ScopeSpans, Span, Status};
    use prost::Message;
    use std::time::Duration;

    /// The reference: `spans` as `opentelemetry-proto`'s export request (grouped by resource, in
    /// the order first seen), for prost to encode, as this module did before it wrote the bytes
    /// itself.
    fn reference_request(spans: Vec<SpanRecord>) -> ExportTraceServiceRequest {
        let mut groups: Vec<(Arc<Resource>, Vec<Span>)> = Vec::new();
        for record in spans {
            let resource = record.resource.clone();
            let span = reference_span(record);
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
    fn reference_span(record: SpanRecord) -> Span {
        let kind = match record.kind {
            SpanKind::Server => span::SpanKind::Server,
            SpanKind::Client => span::SpanKind::Client,
            SpanKind::Producer => span::SpanKind::Producer,
            SpanKind::Consumer => span::SpanKind::Consumer,
            SpanKind::Internal => span::SpanKind::Internal,
        };
        let status = match record.status {
            SpanStatus::Unset => None,
            SpanStatus::Ok => Some(Status {
                message: String::new(),
                code: status::StatusCode::Ok as i32,
            }),
            SpanStatus::Error(message) => Some(Status {
                message,
                code: status::StatusCode::Error as i32,
            }),
        };
        let key_values = |attributes: Vec<Attribute>| -> Vec<KeyValue> {
            attributes
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
                .collect()
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
            attributes: key_values(record.attributes),
            events: record
                .events
                .into_iter()
                .map(|e| span::Event {
                    time_unix_nano: unix_nanos(e.time),
                    name: e.name,
                    attributes: key_values(e.attributes),
                    dropped_attributes_count: 0,
                })
                .collect(),
            dropped_events_count: record.dropped_events_count,
            status,
            ..Default::default()
        }
    }

    /// Records of every shape the encoder handles: with and without a parent, flags, every kind,
    /// an error (with and without a message), ok; string, empty-string, negative, zero, float and
    /// boolean attributes; none to several events (one unnamed, one at time 0, one without
    /// attributes), with and without drops (past one varint byte); two resources.
    fn varied_records() -> Vec<SpanRecord> {
        let orders = Arc::new(Resource::new("orders"));
        let stock = Arc::new(Resource::new("stock"));
        let start = UNIX_EPOCH + Duration::from_nanos(1_700_000_000_123_456_789);
        let record = |n: u64| SpanRecord {
            trace_id: TraceId::from_u128(0x4bf92f3577b34da6a3ce929d0e0e4736 + u128::from(n)).unwrap(),
            span_id: SpanId::from_u64(0x00f067aa0ba902b7 + n).unwrap(),
            parent_span_id: n.is_multiple_of(2).then(|| SpanId::from_u64(7 + n).unwrap()),
            flags: if n.is_multiple_of(3) { 0 } else { SAMPLED },
            name: format!("GET /item/{{id}} {n}"),
            kind: [
                SpanKind::Server,
                SpanKind::Client,
                SpanKind::Internal,
                SpanKind::Producer,
                SpanKind::Consumer,
            ][n as usize % 5],
            start,
            end: start + Duration::from_micros(30 + n),
            attributes: vec![
                Attribute::new("http.route", "/item/{id}"),
                Attribute::new("url.query", ""),
                Attribute::new("http.response.status_code", 500 + n as i64),
                Attribute::new("offset", -3 - n as i64),
                Attribute::new("zero", 0i64),
                Attribute {
                    key: "ratio",
                    value: AttributeValue::Double(0.25 * n as f64),
                },
                Attribute {
                    key: "cached",
                    value: AttributeValue::Bool(n % 2 == 1),
                },
                Attribute::new("url.path", "x".repeat(200 * n as usize)),
            ],
            events: (0..n)
                .map(|e| SpanEvent {
                    name: if e == 1 {
                        String::new()
                    } else {
                        format!("step {e}")
                    },
                    time: if e == 2 {
                        UNIX_EPOCH
                    } else {
                        start + Duration::from_micros(e)
                    },
                    attributes: (0..e % 3)
                        .map(|a| Attribute::new("n", a as i64 - 1))
                        .chain([Attribute::new("level", "INFO")])
                        .take(if e == 3 { 0 } else { 9 })
                        .collect(),
                })
                .collect(),
            dropped_events_count: [0, 1, 0, 300, 0, 7][n as usize],
            status: match n % 4 {
                0 => SpanStatus::Unset,
                1 => SpanStatus::Error("500".to_owned()),
                2 => SpanStatus::Error(String::new()),
                _ => SpanStatus::Ok,
            },
            resource: if n == 4 { stock.clone() } else { orders.clone() },
        };
        (0..6).map(record).collect()
    }

    #[test]
    fn the_bytes_are_prosts_encoding_of_the_proto_types() {
        let records = varied_records();
        let reference = reference_request(records.clone());
        let ours = encode(records);
        let decoded = ExportTraceServiceRequest::decode(ours.as_slice()).unwrap();
        assert_eq!(decoded, reference, "the same message");
        let theirs = reference.encode_to_vec();
        let at = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        assert_eq!(ours, theirs, "the same bytes (first difference at {at:?})");
        assert_eq!(encode(Vec::new()), reference_request(Vec::new()).encode_to_vec());
    }

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
            events: Vec::new(),
            dropped_events_count: 0,
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
